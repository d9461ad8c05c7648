"""One click away: a refusal of something Navod holds offers the facts it does hold as related
questions that, asked as they are, answer.

The candidates are the facts the question came near: the concepts the refusal names or could
not tell apart, their families, and the concepts whose names share the most of the question's
words. Each is phrased in the question's language with the question's year and its asker's
age or birth year, then asked through the whole pipeline on the same date and facts; only the
ones that are answered are offered, ordered by how much of the question each explains.
Deterministic: a question is asked, not guessed at.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from engine.pipeline import templates as tpl
from engine.pipeline.match import HOME
from engine.pipeline.render import clip, concept_label
from engine.pipeline.state import State
from engine.types import Language, Question

MAX_TRIED = 8  # candidates asked; each is a whole pipeline run (about a millisecond)
MAX_OFFERED = 4  # the contract's relatedQuestions
LIMIT = 80  # characters of a related question
_REASONS = frozenset({"NO_CITABLE_RULES", "NEEDS_CLARIFICATION"})
_FACT_WORDS: dict[str, dict[Language, str]] = {
    "birth_year": {"hr": "rođen {value}.", "nl": "geboren in {value}", "en": "born in {value}"},
    "age": {"hr": "{value} godina", "nl": "{value} jaar", "en": "age {value}"},
}
Answer = Callable[[Question], State]


def one_click(state: State, answer: Answer) -> list[str]:
    """The related questions a refusal offers: facts Navod holds that, asked as written here,
    are answered. Empty for other refusals, or when none is answered."""
    refusal, analysis = state.refusal, state.analysis
    if refusal is None or refusal.reason not in _REASONS or analysis is None:
        return []
    if state.classification is not None and state.classification.topic != "REGULATORY":
        return []
    language = analysis.language
    offered: list[str] = []
    for slug in _candidates(state)[:MAX_TRIED]:
        text = _phrased(state, slug, language)
        if text in offered:
            continue
        asked = answer(replace(state.question, text=text, language=language, pinned_concepts=()))
        response = asked.response or {}
        if response.get("kind") == "ANSWER" and _names(asked, slug):
            offered.append(text)
        if len(offered) == MAX_OFFERED:
            break
    return offered


def _names(asked: State, slug: str) -> bool:
    matching = asked.matching
    return matching is not None and slug in {m.concept for m in matching.chosen}


def _candidates(state: State) -> list[str]:
    """The concepts the question came near, by how many of its words their names hold."""
    snapshot = state.snapshot
    detail = state.refusal.detail if state.refusal is not None else {}
    if state.refusal is not None and state.refusal.reason == "NEEDS_CLARIFICATION":
        # the choices the clarification offers, in its order ("2" picks the second)
        return [str(s) for s in detail.get("candidates", []) if s in snapshot.concepts]
    named: list[str] = [
        *(str(s) for s in detail.get("known", [])),
        *(str(s) for s in detail.get("candidates", [])),
    ]
    if state.matching is not None:
        named += [m.concept for m in (*state.matching.chosen, *state.matching.candidates)]
    # in the question's order: ties between concepts sharing its words follow that order,
    # never the hash order of a set (the same question must offer the same related questions)
    words = state.analysis.keywords if state.analysis is not None else ()
    ordered = list(dict.fromkeys(state.corrections.get(k, k) for k in words))
    keys = set(ordered)
    reading = state.analysis.reading if state.analysis is not None else None
    thresholds: frozenset[str] = frozenset()
    if reading is not None and any(fact.unit for fact in reading.facts):
        # "Moram li plaćati PDV ako zarađujem 15.000 EUR?": the thresholds an amount is
        # compared with, whatever the amount was called, that the question's words name
        # (the VAT one for "PDV"), before any other fact
        thresholds = frozenset(
            slug
            for slug in frozenset().union(*snapshot.measures.values())
            if snapshot.concept_keys.get(slug, frozenset()) & keys
        )
        named += sorted(thresholds)
    for slug in list(named):
        family = snapshot.concepts[slug].family if slug in snapshot.concepts else ""
        named += list(snapshot.families.get(family, ())) if family else []
    sharing: Counter[str] = Counter()
    for key in ordered:
        owners = snapshot.concepts_by_key.get(key, frozenset())
        if len(owners) <= 64:  # a word in hundreds of names points nowhere
            sharing.update(sorted(owners))
    named += [slug for slug, _ in sharing.most_common(MAX_TRIED)]
    home = _jurisdictions(state)
    found = [
        s
        for s in dict.fromkeys(named)
        if s in snapshot.concepts and (not home or snapshot.concepts[s].jurisdiction in home)
    ]

    def explained(slug: str) -> tuple[bool, int, int]:
        held = snapshot.concept_keys.get(slug, frozenset())
        return (slug not in thresholds, -len(held & keys), found.index(slug))

    return sorted(found, key=explained)


def _jurisdictions(state: State) -> frozenset[str]:
    """The countries the question is about: named, or the home of its language."""
    named = state.classification.named if state.classification is not None else frozenset()
    if named:
        return frozenset(named)
    language = state.analysis.language if state.analysis is not None else "en"
    home = HOME.get(language)
    return frozenset({home}) if home else frozenset()


def _phrased(state: State, slug: str, language: Language) -> str:
    """The concept asked in the question's language, with its year and the asker's age or
    birth year, within the contract's length."""
    label = concept_label(state, slug, language)
    extra: list[str] = []
    reading = state.analysis.reading if state.analysis is not None else None
    if reading is not None and reading.time is not None and reading.time.kind == "year":
        extra.append(str(reading.time.start.year) + ("." if language == "hr" else ""))
    if reading is not None:
        for fact in reading.facts:
            if fact.name in _FACT_WORDS:
                extra.append(_FACT_WORDS[fact.name][language].format(value=fact.value))
    tail = (", " + ", ".join(extra)) if extra else ""
    room = LIMIT - len(tail) - 1
    return tpl.RELATED[language].format(label=clip(label, room) + tail)

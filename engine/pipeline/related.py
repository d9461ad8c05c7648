"""One click away: the related questions a response offers are facts Navod holds that, asked
as they are, answer.

After a refusal the candidates are the facts the question came near: the fact asked for a
year Navod holds it (when it holds it for other dates), the concepts the refusal names or could
not tell apart, their families, and the concepts whose names share the most of the question's
words. After an answer they are the answered facts' families, then the rest of their domains.
Each is phrased in the question's language with the question's year and its asker's age or
birth year, then asked as a fresh question through the whole pipeline on the same date and
facts; only the ones that are answered, about the fact they name, are offered. Deterministic:
a question is asked, not guessed at; never one that leads back to a refusal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from engine.pipeline import templates as tpl
from engine.pipeline.held import held_periods, year_held
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
# The language a question is answered in and the concepts its answer names (none: refused).
Answered = Callable[[Question], tuple[Language, frozenset[str]]]
Offer = tuple[str, int | None]  # a concept, and the year to ask it for (None: the question's)


def one_click(state: State, answered: Answered) -> list[str]:
    """The related questions a response offers: facts Navod holds that, asked as written
    here, are answered. Empty for refusals that offer none, or when none is answered."""
    analysis = state.analysis
    if analysis is None or state.response is None:
        return []
    if state.classification is not None and state.classification.topic != "REGULATORY":
        return []
    if state.refusal is not None:
        if state.refusal.reason not in _REASONS:
            return []
        offers = [*_held_elsewhere(state), *((slug, None) for slug in _candidates(state))]
    elif state.response.get("kind") == "ANSWER":
        offers = [(slug, None) for slug in _beside(state)]
    else:
        return []
    language = analysis.language
    offered: list[str] = []
    for slug, year in list(dict.fromkeys(offers))[:MAX_TRIED]:
        text = _answering(state, slug, year, language, answered)
        if text is not None and text not in offered:
            offered.append(text)
        if len(offered) == MAX_OFFERED:
            break
    return offered


def _answering(
    state: State, slug: str, year: int | None, language: Language, answered: Answered
) -> str | None:
    """The concept phrased as a question that is answered in this response's language, about
    the fact it names: a click on it by the same client (sending the language it sent, or
    none) gets that answer. A bare label read as another language is asked again, framed."""
    for framed in (False, True):
        text = _phrased(state, slug, language, year, framed)
        replied_in, named = answered(fresh(state.question, text))
        if slug not in named:
            return None
        if replied_in == language:
            return text
    return None


def fresh(asked: Question, text: str) -> Question:
    """`text` asked as a new question by the same asker: same date, facts, sources and
    requested language, with no concept pinned and no FAQ's rules (clicking it asks it)."""
    return Question(
        text=text,
        surface=asked.surface,
        today=asked.today,
        as_of=asked.as_of,
        client_context=asked.client_context,
        language=asked.language,
        excluded_evidence=asked.excluded_evidence,
        remembered=asked.remembered,
    )


def _held_elsewhere(state: State) -> list[Offer]:
    """A fact Navod holds only for other dates than the one asked, asked for the nearest year
    it holds ("try another date", as a question that answers)."""
    detail = state.refusal.detail if state.refusal is not None else {}
    asked = state.as_of or state.question.as_of or state.question.today
    offers: list[Offer] = []
    for slug in sorted(detail.get("nearest") or {}):
        year = year_held(held_periods(state.snapshot, slug), asked, state.question.today)
        if year is not None:
            offers.append((slug, year))
    return offers


def _beside(state: State) -> list[str]:
    """After an answer: the answered facts' families, then the rest of their domains."""
    snapshot = state.snapshot
    matched = state.matching.chosen if state.matching is not None else ()
    answered = {r.concept for r in state.resolutions} | {m.concept for m in matched}
    anchors = [slug for slug in sorted(answered) if slug in snapshot.concepts]
    family = [
        member
        for slug in anchors
        for member in snapshot.families.get(snapshot.concepts[slug].family, ())
    ]
    domains = sorted({snapshot.concepts[slug].domain for slug in anchors})
    neighbours = [s for d in domains for s in snapshot.concepts_by_domain.get(d, ())]
    home = _jurisdictions(state)
    return [
        slug
        for slug in dict.fromkeys([*family, *neighbours])
        if slug not in answered
        and slug in snapshot.concepts
        and (not home or snapshot.concepts[slug].jurisdiction in home)
    ]


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


def _phrased(
    state: State, slug: str, language: Language, year: int | None = None, framed: bool = False
) -> str:
    """The concept asked in the question's language, with its year (or `year`, one Navod
    holds it for) and the asker's age or birth year, within the contract's length; `framed`
    as a question ("Wat is …?"), for a label too short or too foreign to tell its language."""
    label = concept_label(state, slug, language)
    extra: list[str] = []
    reading = state.analysis.reading if state.analysis is not None else None
    if year is None and reading is not None and reading.time is not None:
        year = reading.time.start.year if reading.time.kind == "year" else None
    if year is not None:
        extra.append(str(year) + ("." if language == "hr" else ""))
    if reading is not None:
        for fact in reading.facts:
            if fact.name in _FACT_WORDS:
                extra.append(_FACT_WORDS[fact.name][language].format(value=fact.value))
    tail = (", " + ", ".join(extra)) if extra else ""
    template = (tpl.RELATED_FRAMED if framed else tpl.RELATED)[language]
    room = LIMIT - len(tail) - len(template.format(label=""))
    return template.format(label=clip(label, room) + tail)

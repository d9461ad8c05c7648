"""Stage 2: classify the topic and find the jurisdictions the question names.

Cue words decide the topic; words the knowledge base itself knows (alias keys) count as
regulatory cues, so the classifier grows with the packs. A question naming a country no pack
covers is refused with UNSUPPORTED_JURISDICTION rather than answered with another country's law.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping

from engine.pipeline import lexicon
from engine.pipeline.state import Analysis, Classification, Decision, StageResult, State
from engine.types import JURISDICTIONS, Jurisdiction, Topic

SURE_TYPO_LENGTH = 7


# an identifier or a date (666-12-3456, 1.1.2026); anchored at a run's start so a long digit
# run costs one pass, not one per digit
_GROUPED = re.compile(r"(?<!\d)\d++(?:[-./]\d++){2,}")
_DIGITS = re.compile(r"\d+")


def classify_topic(state: State) -> StageResult:
    analysis = state.analysis
    assert analysis is not None
    tokens = analysis.tokens
    # A corrected typo counts as a known word only when long enough to be unmistakable:
    # "kleineondernemersregelling" is a tax word, "danas" is not "dana".
    keys = tuple(
        state.corrections.get(k, k) if len(k) >= SURE_TYPO_LENGTH else k for k in analysis.keywords
    )
    # Concepts pinned by triage (an FAQ, a follow-up) make the question regulatory by definition:
    # "i za 2019?" names no tax word, the conversation does.
    pinned = state.question.pinned_concepts
    grouped = frozenset(_DIGITS.findall(" ".join(_GROUPED.findall(analysis.folded))))
    topic = "REGULATORY" if pinned else _topic(tokens, keys, state.snapshot.aliases_by_key, grouped)
    named, unsupported = _jurisdictions(analysis.folded, state.snapshot.jurisdictions, analysis)
    if analysis.foreign is not None:  # a language Navod does not read: refused as such
        topic = "REGULATORY"
    classification = Classification(topic=topic, named=named, unsupported=unsupported)
    changes: dict[str, object] = {"classification": classification}
    if analysis.foreign is not None:
        changes["refusal"] = Decision("UNSUPPORTED_JURISDICTION", {"language": analysis.foreign})
    elif topic != "REGULATORY":
        changes["refusal"] = Decision("OUT_OF_SCOPE", {"topic": topic})
    elif unsupported is not None:
        changes["refusal"] = Decision("UNSUPPORTED_JURISDICTION", {"country": unsupported})
    return StageResult(
        changes,
        f"{topic}" + (f"; unsupported jurisdiction {unsupported}" if unsupported else ""),
        {"topic": topic, "named": sorted(named), "unsupported": unsupported},
    )


def _topic(
    tokens: tuple[str, ...],
    keys: tuple[str, ...],
    known: Mapping[str, object],
    grouped: frozenset[str] = frozenset(),
) -> Topic:
    cues = sum(
        1
        for t in tokens
        if t in lexicon.REGULATORY_CUES or any(f in t for f in lexicon.REGULATORY_FRAGMENTS)
    )
    # the parts of an identifier or a date ("666-12-3456") are no tax words, even where a
    # name holds one of them ("child under 12"); a number on its own ("turned 65") may be
    shared = sum(1 for k in keys if k in known and k not in grouped)
    regulatory = cues + shared
    # A support or product word outweighs one word the knowledge base happens to share
    # ("mijn account is geblokkeerd" is not about Roth accounts).
    support = 1.5 * sum(1 for t in tokens if t in lexicon.SUPPORT_CUES)
    product = 1.5 * sum(1 for t in tokens if t in lexicon.PRODUCT_CUES)
    offtopic = sum(1 for t in tokens if t in lexicon.OFFTOPIC_CUES)
    if offtopic and not cues and shared <= offtopic:
        return "OFFTOPIC"  # "recipe for banana bread": "bread" is in a VAT category's name
    if regulatory and regulatory >= max(support, product, offtopic):
        return "REGULATORY"
    if support or product:
        return "SUPPORT" if support > product else "PRODUCT"
    return "OFFTOPIC"


def _jurisdictions(
    folded: str, covered: frozenset[Jurisdiction], analysis: Analysis
) -> tuple[frozenset[Jurisdiction], str | None]:
    """The covered jurisdictions the question names (or its places imply), and the country
    it asks about that no pack covers. A foreign country told as the asker's situation ("I'm
    moving from Spain to the Netherlands", "klanten in België. Wat is de EU-KOR-grens?") is
    context; one the question asks about ("btw-tarief in België", "u Austriji. Koliki je
    tamo porez?") is not. The EU names no jurisdiction of its own: EU-wide thresholds are
    national law."""
    named: set[Jurisdiction] = set()
    foreign: list[tuple[str, int]] = []
    for found in _COUNTRY_PATTERN.finditer(folded):
        country = _COUNTRY_OF[found.group(1)]
        code = _CODES.get(country)
        if code is not None and code in covered:
            named.add(code)
        elif code != "EU":
            foreign.append((lexicon.SUPPORTED_NAME_OF[code] if code else country, found.start()))
    if not named:
        named |= _implied(analysis)
    asked = [name for name, at in foreign if _asks_about(analysis, at, bool(named))]
    return frozenset(named), asked[0] if asked else None


def _implied(analysis: Analysis) -> set[Jurisdiction]:
    """A town the asker names implies its country ("I live in Zagreb", "in Leiden")."""
    reading = analysis.reading
    if reading is None:
        return set()
    return {
        place
        for word in analysis.folded.split()
        if (place := lexicon.TOWNS.get(word.strip(".,;:?!()"))) is not None
    }


def _asks_about(analysis: Analysis, at: int, covered_named: bool) -> bool:
    """Whether a country named at `at` is what the question asks about: named in a sentence
    that asks while no covered country is, or referred to there ("tamo", "daar")."""
    reading = analysis.reading
    if reading is None:
        return True
    asking = reading.question_sentences
    in_question = not asking or bisect_right(reading.sentences, at) in asking
    if in_question and not covered_named:
        return True
    there = any(word.strip(".,;:?!") in lexicon.THERE for word in analysis.folded.split())
    return there and not covered_named


def _country_index() -> tuple[re.Pattern[str], dict[str, str]]:
    """One regex for every country name: stems match a word's start, whole words the word.

    Built once at import; a question is scanned in a single pass.
    """
    owner: dict[str, str] = {}
    stems: list[str] = []
    words: list[str] = []
    entries: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
        (code, *lexicon.COUNTRY_NAMES[code]) for code in JURISDICTIONS
    ]
    entries += lexicon.UNSUPPORTED_COUNTRIES
    for name, country_stems, country_words in entries:
        for stem in country_stems:
            owner.setdefault(stem, name)
            stems.append(stem)
        for word in country_words:
            owner.setdefault(word, name)
            words.append(word)
    by_length = sorted({*stems, *words}, key=len, reverse=True)
    alternatives = [re.escape(w) + (r"\w*" if w in stems else r"\b") for w in by_length]
    pattern = re.compile(
        r"\b(?=("
        + "|".join(re.escape(w) for w in by_length)
        + r"))(?:"
        + "|".join(alternatives)
        + r")"
    )
    return pattern, owner


_COUNTRY_PATTERN, _COUNTRY_OF = _country_index()
_CODES: Mapping[str, Jurisdiction] = {code: code for code in JURISDICTIONS}

"""Stage 2: classify the topic and find the jurisdictions the question names.

Cue words decide the topic; words the knowledge base itself knows (alias keys) count as
regulatory cues, so the classifier grows with the packs. A question naming a country no pack
covers is refused with UNSUPPORTED_JURISDICTION rather than answered with another country's law.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.pipeline import lexicon
from engine.pipeline.state import Classification, Decision, StageResult, State
from engine.text.tokens import tokenize
from engine.types import JURISDICTIONS, Jurisdiction, Topic


def classify_topic(state: State) -> StageResult:
    analysis = state.analysis
    assert analysis is not None
    tokens = tokenize(analysis.folded)
    keys = tuple(state.corrections.get(k, k) for k in analysis.keywords)
    topic = _topic(tokens, keys, state.snapshot.aliases_by_key)
    named, unsupported = _jurisdictions(tokens, analysis.folded, state.snapshot.jurisdictions)
    classification = Classification(topic=topic, named=named, unsupported=unsupported)
    changes: dict[str, object] = {"classification": classification}
    if topic != "REGULATORY":
        changes["refusal"] = Decision("OUT_OF_SCOPE", {"topic": topic})
    elif unsupported is not None:
        changes["refusal"] = Decision("UNSUPPORTED_JURISDICTION", {"country": unsupported})
    return StageResult(
        changes,
        f"{topic}" + (f"; unsupported jurisdiction {unsupported}" if unsupported else ""),
        {"topic": topic, "named": sorted(named), "unsupported": unsupported},
    )


def _topic(tokens: tuple[str, ...], keys: tuple[str, ...], known: Mapping[str, object]) -> Topic:
    regulatory = sum(1 for t in tokens if t in lexicon.REGULATORY_CUES)
    regulatory += sum(1 for k in keys if k in known)
    support = sum(1 for t in tokens if t in lexicon.SUPPORT_CUES)
    product = sum(1 for t in tokens if t in lexicon.PRODUCT_CUES)
    offtopic = sum(1 for t in tokens if t in lexicon.OFFTOPIC_CUES)
    if regulatory and regulatory >= max(support, product, offtopic):
        return "REGULATORY"
    if support or product:
        return "SUPPORT" if support >= product else "PRODUCT"
    return "OFFTOPIC"


def _jurisdictions(
    tokens: tuple[str, ...], folded: str, covered: frozenset[Jurisdiction]
) -> tuple[frozenset[Jurisdiction], str | None]:
    named: set[Jurisdiction] = set()
    unsupported: str | None = None
    for code in JURISDICTIONS:
        stems, words = lexicon.COUNTRY_NAMES[code]
        if _names(tokens, folded, stems, words):
            if code in covered:
                named.add(code)
            elif unsupported is None:
                unsupported = lexicon.SUPPORTED_NAME_OF[code]
    for display, stems, words in lexicon.UNSUPPORTED_COUNTRIES:
        if unsupported is None and _names(tokens, folded, stems, words):
            unsupported = display
    return frozenset(named), unsupported


def _names(
    tokens: tuple[str, ...], folded: str, stems: tuple[str, ...], words: tuple[str, ...]
) -> bool:
    for stem in stems:
        if " " in stem:
            if f" {stem}" in f" {folded}":
                return True
        elif any(token.startswith(stem) for token in tokens):
            return True
    return any(token in words for token in tokens)

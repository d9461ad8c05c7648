"""FAQ triage: a question that paraphrases a stored FAQ entry is answered from that entry's rules.

The comparison is on content-word keys (lemmas, folded, sorted: see `engine.snapshot.faq_key`),
so word order, filler and diacritics do not matter and a typo costs a few points, while a
content word the entry lacks ("snižena", "2019" is not one: dates set the as-of date) pulls the
score under the bar. A question stating an amount or a percentage is never an FAQ: its number
may change the answer, so the pipeline reads it. Neither is a question whose numbers differ
from the entry's: keys carry no digits, and "box 2" is not "box 1".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from rapidfuzz import fuzz, process

from engine.guardrails.config import GuardrailConfig
from engine.pipeline.state import State
from engine.snapshot import faq_key
from engine.types import FaqEntry
from engine.understanding.frame import Reading

_CANDIDATES = 4  # enough to find the best rival about another concept
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)
class FaqMatch:
    entry: FaqEntry
    score: float


def _states_numbers(reading: Reading) -> bool:
    """An amount or a percentage in the question: an FAQ answers no one's own figures."""
    return bool(reading.amounts or reading.percentages) or any(
        isinstance(fact.value, Decimal) for fact in reading.facts
    )


def match_faq(state: State, config: GuardrailConfig) -> FaqMatch | None:
    """The FAQ entry `state`'s question paraphrases (after analysis and typo correction)."""
    analysis = state.analysis
    reading = analysis.reading if analysis is not None else None
    if analysis is None or reading is None or _states_numbers(reading):
        return None
    entries = state.snapshot.faqs.get(analysis.language, ())
    if not entries:
        return None
    corrections = state.corrections
    key = faq_key(corrections.get(k, k) for k in analysis.keywords)
    if not key:
        return None
    found = process.extract(
        key,
        [entry_key for entry_key, _ in entries],
        scorer=fuzz.ratio,
        limit=_CANDIDATES,
        score_cutoff=config.faq_min_score - config.faq_margin,
    )
    if not found or found[0][1] < config.faq_min_score:
        return None
    _, best_score, best_index = found[0]
    best = entries[best_index][1]
    for _, score, index in found[1:]:
        rival = entries[index][1]
        if rival.concept != best.concept and best_score - score < config.faq_margin:
            return None  # two FAQs about different things fit about as well: not a match
    if _numbers(best.question) != _numbers(state.question.text):
        return None
    concept = state.snapshot.concepts.get(best.concept)
    if reading.plural and concept is not None and concept.family:
        return None  # "the corporate tax rates": the family, which the pipeline answers whole
    return FaqMatch(best, best_score)


def _numbers(text: str) -> frozenset[str]:
    return frozenset(number.lstrip("0") for number in _NUMBER.findall(text))

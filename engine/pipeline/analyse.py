"""Stage 1: normalise the question, detect its language, extract keywords and quantities."""

from __future__ import annotations

import re

from engine.pipeline.state import Analysis, StageResult, State
from engine.pipeline.typos import MIN_TYPO_LENGTH, nearest_key
from engine.snapshot import Snapshot
from engine.text.language import detect_language
from engine.text.normalize import fold
from engine.text.quantities import extract_quantities
from engine.text.tokens import keywords
from engine.types import LANGUAGES, Language


def analyse_question(state: State) -> StageResult:
    question = state.question
    if question.language is not None:
        language, confidence = question.language, 1.0
    else:
        language, confidence = detect_language(question.text)
        if confidence < WEAK_LANGUAGE_SIGNAL:
            language, confidence = _by_vocabulary(
                question.text, state.snapshot, language, confidence
            )
    quantities = extract_quantities(question.text, language)
    analysis = Analysis(
        folded=fold(question.text),
        keywords=keywords(question.text, language),
        language=language,
        language_confidence=confidence,
        quantities=quantities,
        facts=_facts(fold(question.text)),
    )
    return StageResult(
        {"analysis": analysis},
        f"language {language} ({confidence:.2f}); keywords {list(analysis.keywords)}",
        {
            "language": language,
            "keywords": list(analysis.keywords),
            "years": list(quantities.years),
            "dates": [d.isoformat() for d in quantities.dates],
            "facts": dict(analysis.facts),
        },
    )


WEAK_LANGUAGE_SIGNAL = 0.5


def _by_vocabulary(
    text: str, snapshot: Snapshot, language: Language, confidence: float
) -> tuple[Language, float]:
    """For short questions with little grammar ("osobni odbitak 2024"): the language whose
    concept aliases the words belong to, when exactly one language claims the most of them."""
    hits = {
        candidate: sum(
            key in snapshot.keys_by_language[candidate] for key in keywords(text, candidate)
        )
        for candidate in LANGUAGES
    }
    if not any(hits.values()):  # perhaps a typo: count near misses too
        hits = {
            candidate: sum(
                nearest_key(key, snapshot, candidate) is not None
                for key in keywords(text, candidate)
                if len(key) >= MIN_TYPO_LENGTH
            )
            for candidate in LANGUAGES
        }
    best = max(hits.values())
    leaders = [candidate for candidate in LANGUAGES if hits[candidate] == best]
    if best == 0 or len(leaders) > 1:
        return language, confidence
    return leaders[0], max(confidence, round(best / (best + 1.0), 3))


# "born in 1960", "rođen 1962.", "geboren in 1958", "godište 1961": a birth year is a fact
# about the asker, not the date the question is about.
_BIRTH_YEAR = re.compile(
    r"\b(?:born|birth|rodjen[a-z]*|roden[a-z]*|godiste|geboren|geboortejaar)\D{0,20}?"
    r"\b((?:19|20)\d\d)\b"
)


def _facts(folded: str) -> dict[str, int]:
    found = _BIRTH_YEAR.search(folded)
    return {"birth_year": int(found.group(1))} if found else {}

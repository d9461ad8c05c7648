"""Stage 1: normalise the question, detect its language, read what it asks (engine/understanding)
and the keywords the matcher scores."""

from __future__ import annotations

from decimal import Decimal

from engine.pipeline.state import Analysis, StageResult, State
from engine.pipeline.typos import MIN_TYPO_LENGTH, nearest_key
from engine.snapshot import Snapshot
from engine.text.language import detect_language, foreign_language
from engine.text.normalize import fold
from engine.text.tokens import keys_in, keyword_words, tokenize
from engine.types import LANGUAGES, Language
from engine.understanding.context import condition_context
from engine.understanding.read import read_question
from engine.understanding.words import keys_of


def analyse_question(state: State) -> StageResult:
    question = state.question
    folded = fold(question.text)  # folded once: the later readings of the text share it
    foreign = foreign_language(question.text, folded)
    language: Language
    if foreign is not None and question.language is None:
        # refused in English unless the client says which language it speaks: never in
        # the Dutch or Croatian its words might look like
        language, confidence = "en", 0.0
    elif question.language is not None:
        language, confidence = question.language, 1.0
    else:
        language, confidence = detect_language(question.text, folded=folded)
        if confidence < WEAK_LANGUAGE_SIGNAL:
            language, confidence = _by_vocabulary(
                question.text, state.snapshot, language, confidence
            )
    known = state.snapshot.aliases_by_key.__contains__
    reading, words = read_question(question.text, language, question.today, known, folded)
    analysis = Analysis(
        folded=folded,
        keywords=keys_of(words),
        tokens=tokenize(folded),
        language=language,
        language_confidence=confidence,
        facts=condition_context(reading.facts, reading.amounts),
        reading=reading,
        words=words,
        foreign=foreign,
    )
    return StageResult(
        {"analysis": analysis},
        f"language {language} ({confidence:.2f}); keywords {list(analysis.keywords)}",
        {
            "language": language,
            "keywords": list(analysis.keywords),
            "time": reading.time.words if reading.time is not None else None,
            # an amount is a Decimal, which JSON has no type for: its exact digits instead
            "facts": {
                name: str(value) if isinstance(value, Decimal) else value
                for name, value in analysis.facts.items()
            },
        },
    )


WEAK_LANGUAGE_SIGNAL = 0.5


def _by_vocabulary(
    text: str, snapshot: Snapshot, language: Language, confidence: float
) -> tuple[Language, float]:
    """For short questions with little grammar ("osobni odbitak 2024"): the language whose
    concept aliases the words belong to, when exactly one language claims the most of them."""
    words = keyword_words(text)  # split once, keyed in each language
    keys = {candidate: keys_in(words, candidate) for candidate in LANGUAGES}
    hits = {
        candidate: sum(key in snapshot.keys_by_language[candidate] for key in keys[candidate])
        for candidate in LANGUAGES
    }
    if not any(hits.values()):  # perhaps a typo: count near misses too
        hits = {
            candidate: sum(
                nearest_key(key, snapshot, candidate) is not None
                for key in keys[candidate]
                if len(key) >= MIN_TYPO_LENGTH
            )
            for candidate in LANGUAGES
        }
    best = max(hits.values())
    leaders = [candidate for candidate in LANGUAGES if hits[candidate] == best]
    if best == 0 or len(leaders) > 1:
        return language, confidence
    return leaders[0], max(confidence, round(best / (best + 1.0), 3))

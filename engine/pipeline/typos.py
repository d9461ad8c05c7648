"""Stage: correct typos in the question's keywords against the knowledge base's vocabulary.

Runs before classification, so a misspelt "kleineondernemersregelling" is still recognised as a
regulatory word. Words of four letters or more take the closest vocabulary key above
TYPO_CUTOFF (rapidfuzz ratio) among keys with the same first letter and a length within two;
shorter words only a swap of two adjacent letters ("pvd").
"""

from __future__ import annotations

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from engine.pipeline.state import StageResult, State
from engine.snapshot import Snapshot
from engine.text.tokens import is_dictionary_word
from engine.types import LANGUAGES, Language

TYPO_CUTOFF = 84.0  # rapidfuzz ratio for a typo correction
MIN_TYPO_LENGTH = 4  # shorter words are too ambiguous for edit-distance correction


def correct_typos(state: State) -> StageResult:
    assert state.analysis is not None
    analysis = state.analysis
    reading = analysis.reading
    # A word the reading explains (a cue, a fact, filler) or understands (a qualifier) is
    # not a misspelt concept word: "kapper" never becomes "kamer".
    settled = (
        frozenset() if reading is None else reading.explained | {q.key for q in reading.qualifiers}
    )
    words = tuple(k for k in analysis.keywords if k not in settled)
    corrections = find_corrections(words, state.snapshot, analysis.language)
    return StageResult(
        {"corrections": corrections},
        ", ".join(f"{typo} → {key}" for typo, key in corrections.items()) or "none",
    )


def find_corrections(
    words: tuple[str, ...], snapshot: Snapshot, language: Language
) -> dict[str, str]:
    """Map each unknown word to the closest vocabulary key, when one is close enough."""
    found: dict[str, str] = {}
    for word in words:
        if word in snapshot.aliases_by_key or word.isdigit():
            continue
        # the question's own language first; another language's alias may still be meant
        # ("pausal brackets" asked in English about a Croatian term)
        for candidate in (language, *(other for other in LANGUAGES if other != language)):
            key = nearest_key(word, snapshot, candidate)
            if key is not None and is_dictionary_word(word, language):
                key = key if _spelling_variant(word, key, language) else None
            if key is not None:
                found[word] = key
                break
        else:
            related = related_key(word, snapshot)
            if related is not None:
                found[word] = related
    return found


def _spelling_variant(word: str, key: str, language: Language) -> bool:
    """Whether a word the dictionary knows is only another spelling of `key` ("labor",
    "labour"): one edit away, no shorter, and itself a word. Any other correction would turn
    a real word into a different one: "sinds kort" is not the KOR, "medical" not Medicare."""
    return (
        len(key) >= len(word) and OSA.distance(word, key) == 1 and is_dictionary_word(key, language)
    )


def _shared_start(left: str, right: str) -> int:
    """How many letters two words share at their start."""
    return next(
        (i for i, (a, b) in enumerate(zip(left, right, strict=False)) if a != b),
        min(len(left), len(right)),
    )


STEM = 5  # letters two forms of one word share at least ("zaprimati", "zaprimanje")
STEM_SHARE = 0.7  # and at least this share of the shorter one ("fiscalized", "fiscalization")


def related_key(word: str, snapshot: Snapshot) -> str | None:
    """The vocabulary key that is another form of `word` (a verb and its noun, a participle):
    the single key sharing the longest common beginning with it, long enough to be one stem."""
    if len(word) < STEM + 1:
        return None
    best: list[str] = []
    best_length = 0
    for key in snapshot.stems.get(word[:STEM], ()):
        shared = _shared_start(word, key)
        if shared < max(STEM, STEM_SHARE * min(len(word), len(key))) or shared < best_length:
            continue
        best = [key] if shared > best_length else [*best, key]
        best_length = shared
    return best[0] if len(best) == 1 else None


MEMO_LIMIT = 100_000  # distinct words remembered per snapshot


def nearest_key(word: str, snapshot: Snapshot, language: Language) -> str | None:
    """The key of `language`'s aliases that `word` is most likely a typo of, or None
    (memoised per snapshot)."""
    memo = snapshot.typo_memo
    if (word, language) in memo:
        return memo[(word, language)]
    key = _nearest_key(word, snapshot, language)
    if len(memo) < MEMO_LIMIT:
        memo[(word, language)] = key
    return key


def _nearest_key(word: str, snapshot: Snapshot, language: Language) -> str | None:
    # Two letters swapped ("pvd", "retrun") is the commonest slip, and the ratio scores it as
    # two edits: look for the one key it is a swap of first, at any length.
    swapped = [
        key
        for key in snapshot.anagrams.get("".join(sorted(word)), ())
        if OSA.distance(word, key) == 1
    ]
    if len(swapped) == 1 or len(word) < MIN_TYPO_LENGTH:
        return swapped[0] if len(swapped) == 1 else None
    best: tuple[str, float] | None = None
    for length in range(len(word) - 2, len(word) + 3):
        bucket = snapshot.vocabulary.get((language, word[0], length))
        if not bucket:
            continue
        found = process.extractOne(word, bucket, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF)
        if found is not None and (best is None or found[1] > best[1]):
            best = (found[0], found[1])
    if best is None:
        return None
    return snapshot.surface_keys.get((language, best[0]), best[0])

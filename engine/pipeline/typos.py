"""Stage: correct typos in the question's keywords against the knowledge base's vocabulary.

Runs before classification, so a misspelt "kleineondernemersregelling" is still recognised as a
regulatory word. Words of four letters or more take the closest vocabulary key above
TYPO_CUTOFF (rapidfuzz ratio); shorter words only a swap of two adjacent letters ("pvd").
"""

from __future__ import annotations

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from engine.pipeline.state import StageResult, State
from engine.snapshot import Snapshot

TYPO_CUTOFF = 84.0  # rapidfuzz ratio for a typo correction
MIN_TYPO_LENGTH = 4  # shorter words are too ambiguous for edit-distance correction


def correct_typos(state: State) -> StageResult:
    assert state.analysis is not None
    corrections = find_corrections(state.analysis.keywords, state.snapshot)
    return StageResult(
        {"corrections": corrections},
        ", ".join(f"{typo} → {key}" for typo, key in corrections.items()) or "none",
    )


def find_corrections(words: tuple[str, ...], snapshot: Snapshot) -> dict[str, str]:
    """Map each unknown word to the closest vocabulary key, when one is close enough."""
    found: dict[str, str] = {}
    for word in words:
        if word in snapshot.aliases_by_key or word.isdigit():
            continue
        if len(word) < MIN_TYPO_LENGTH:
            swapped = [
                key
                for key in snapshot.anagrams.get("".join(sorted(word)), ())
                if OSA.distance(word, key) == 1
            ]
            if len(swapped) == 1:
                found[word] = swapped[0]
            continue
        best = process.extractOne(
            word, snapshot.vocabulary, scorer=fuzz.ratio, score_cutoff=TYPO_CUTOFF
        )
        if best is not None:
            found[word] = best[0]
    return found

"""Stage 3: match the question to concepts by their labels and aliases.

An alias scores by the share of ITS keys found in the question, so filler words in the question
never dilute it ("Koja je stopa PDV-a u Hrvatskoj?" scores 1.0 on "stopa PDV-a"). A corrected
typo (stage typos) counts 0.9 of a word. The top concept is taken
only if it clears THRESHOLD and no rival explaining the same words comes within MARGIN; a
concept that explains other words of the question as well ("stope PDV-a i prag") is answered
too. A concept whose matched words are a strict subset of a better one's is less specific and
drops out.
"""

from __future__ import annotations

from engine.pipeline.state import (
    ConceptMatch,
    Decision,
    Matching,
    RefusalReason,
    StageResult,
    State,
)
from engine.snapshot import Snapshot

THRESHOLD = 0.8  # share of an alias's keys the question must contain
MARGIN = 0.1  # how far a rival on the same words must trail the top concept
CANDIDATE_FLOOR = 0.5  # below this a concept is not even offered for clarification
MAX_CONCEPTS = 3


def match_concepts(state: State) -> StageResult:
    analysis, classification = state.analysis, state.classification
    assert analysis is not None and classification is not None
    snapshot = state.snapshot
    corrections = state.corrections
    keys = {corrections.get(k, k): (0.9 if k in corrections else 1.0) for k in analysis.keywords}
    scored = _score(keys, snapshot, classification.named)
    chosen, rivals = _choose(scored)
    matching = Matching(chosen=chosen, candidates=rivals)
    changes: dict[str, object] = {"matching": matching}
    if not chosen:
        offered = tuple(m for m in scored if m.score >= CANDIDATE_FLOOR)[:4]
        reason: RefusalReason = "NEEDS_CLARIFICATION" if offered else "NO_CITABLE_RULES"
        changes["refusal"] = Decision(reason, {"candidates": [m.concept for m in offered]})
    elif rivals:
        tied = [chosen[0].concept, *(m.concept for m in rivals)]
        changes["refusal"] = Decision("NEEDS_CLARIFICATION", {"candidates": tied[:4]})
    return StageResult(
        changes,
        "chose "
        + (", ".join(m.concept for m in chosen) or "nothing")
        + (f"; tied with {', '.join(m.concept for m in rivals)}" if rivals else ""),
        {
            "scores": [
                {"concept": m.concept, "score": round(m.score, 3), "alias": m.alias}
                for m in scored[:5]
            ],
        },
    )


def _score(keys: dict[str, float], snapshot: Snapshot, named: frozenset[str]) -> list[ConceptMatch]:
    best: dict[str, ConceptMatch] = {}
    positions = dict.fromkeys(p for key in keys for p in snapshot.aliases_by_key.get(key, ()))
    for position in positions:
        alias = snapshot.aliases[position]
        concept = snapshot.concepts[alias.concept]
        if named and concept.jurisdiction not in named:
            continue
        matched = frozenset(k for k in alias.keys if k in keys)
        score = sum(keys[k] for k in matched) / len(set(alias.keys))
        candidate = ConceptMatch(alias.concept, score, alias.text, matched)
        current = best.get(alias.concept)
        if current is None or _rank(candidate) < _rank(current):
            best[alias.concept] = candidate
    return sorted(best.values(), key=_rank)


def _rank(match: ConceptMatch) -> tuple[float, int, str]:
    return (-match.score, -len(match.matched), match.concept)


def _choose(
    scored: list[ConceptMatch],
) -> tuple[tuple[ConceptMatch, ...], tuple[ConceptMatch, ...]]:
    eligible = [m for m in scored if m.score >= THRESHOLD]
    if not eligible:
        return (), ()
    chosen = [eligible[0]]
    rivals: list[ConceptMatch] = []
    for match in eligible[1:]:
        explained = frozenset().union(*(c.matched for c in chosen))
        if not match.matched <= explained:
            if len(chosen) < MAX_CONCEPTS:
                chosen.append(match)
            continue
        top = eligible[0]
        if match.matched == top.matched and match.score >= top.score - MARGIN:
            rivals.append(match)
    return tuple(chosen), tuple(rivals)

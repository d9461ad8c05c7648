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

import heapq

from engine.contract import RefusalReason
from engine.pipeline import lexicon
from engine.pipeline.state import (
    ConceptMatch,
    Decision,
    Matching,
    StageResult,
    State,
)
from engine.snapshot import Snapshot
from engine.text.tokens import tokenize

THRESHOLD = 0.8  # share of an alias's keys the question must contain
MARGIN = 0.1  # how far a rival on the same words must trail the top concept
CANDIDATE_FLOOR = 0.5  # below this a concept is not even offered for clarification
MAX_CONCEPTS = 3
MAX_OFFERED = 4  # candidates offered when the question is too vague


def match_concepts(state: State) -> StageResult:
    analysis, classification = state.analysis, state.classification
    assert analysis is not None and classification is not None
    snapshot = state.snapshot
    pinned = tuple(c for c in state.question.pinned_concepts if c in snapshot.concepts)
    if pinned:
        chosen = tuple(ConceptMatch(c, 1.0, "pinned", frozenset()) for c in pinned)
        return StageResult(
            {"matching": Matching(chosen=chosen, candidates=())},
            "pinned " + ", ".join(pinned),
            {"scores": [{"concept": c, "score": 1.0, "alias": "pinned"} for c in pinned]},
        )
    corrections = state.corrections
    keys = {corrections.get(k, k): (0.9 if k in corrections else 1.0) for k in analysis.keywords}
    scored = _score(keys, snapshot, classification.named)
    chosen, rivals = _choose(scored)
    matching = Matching(chosen=chosen, candidates=rivals)
    changes: dict[str, object] = {"matching": matching}
    if not chosen and _asks_for_advice(analysis.folded):
        # "što mi se više isplati, obrt ili d.o.o.?" names no rule: advice is not Navod's job
        changes["refusal"] = Decision("OUT_OF_SCOPE", {"advice": True})
    elif not chosen:
        offered = tuple(m for m in scored if m.score >= CANDIDATE_FLOOR)[:MAX_OFFERED]
        reason: RefusalReason = "NEEDS_CLARIFICATION" if offered else "NO_CITABLE_RULES"
        changes["refusal"] = Decision(reason, {"candidates": [m.concept for m in offered]})
    elif rivals:
        tied = [chosen[0].concept, *(m.concept for m in rivals)]
        changes["refusal"] = Decision("NEEDS_CLARIFICATION", {"candidates": tied[:MAX_OFFERED]})
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
    """Best alias per concept, best first: every alias above THRESHOLD, and when none is, the
    few best above CANDIDATE_FLOOR to offer for clarification."""
    candidates = _strong_candidates(keys, snapshot)
    strong = _ranked(candidates, keys, snapshot, THRESHOLD)
    if strong:
        pool = strong
    else:  # a vague question: the multi-word hits and the shortest aliases of each word
        for key in keys:
            candidates.update(snapshot.shortest_aliases_by_key.get(key, ()))
        pool = heapq.nsmallest(
            MAX_OFFERED * 8, _ranked(candidates, keys, snapshot, CANDIDATE_FLOOR)
        )
    best: dict[str, ConceptMatch] = {}
    for negative_score, position in pool:
        alias = snapshot.aliases[position]
        if named and snapshot.concepts[alias.concept].jurisdiction not in named:
            continue
        matched = frozenset(k for k in alias.keys if k in keys)
        candidate = ConceptMatch(alias.concept, -negative_score, alias.text, matched)
        current = best.get(alias.concept)
        if current is None:
            best[alias.concept] = candidate
        elif candidate.score >= THRESHOLD and current.score >= THRESHOLD:
            # Several strong aliases of one concept together explain more of the question
            # ("viša snižena stopa" + "snižena stopa PDV-a"): the concept owns all those words.
            lead = min(candidate, current, key=_alias_rank)
            best[alias.concept] = ConceptMatch(
                lead.concept, lead.score, lead.alias, candidate.matched | current.matched
            )
        elif _alias_rank(candidate) < _alias_rank(current):
            best[alias.concept] = candidate
    return sorted(best.values(), key=_rank)


def _alias_rank(match: ConceptMatch) -> tuple[float, int, str]:
    return (-match.score, -len(match.matched), match.alias)


def _strong_candidates(keys: dict[str, float], snapshot: Snapshot) -> set[int]:
    """Aliases that can reach THRESHOLD: one-key aliases of a question key, and aliases holding
    at least two question keys. Common words ("stopa", "rate") sit on thousands of aliases in a
    large knowledge base; intersecting their posting sets in C is what keeps this fast."""
    present = sorted(
        (k for k in keys if k in snapshot.aliases_by_key),
        key=lambda k: len(snapshot.aliases_by_key[k]),
    )
    found: set[int] = set()
    for key in present:
        found.update(snapshot.single_key_aliases.get(key, ()))
    for i, first in enumerate(present):
        postings = snapshot.aliases_by_key[first]
        for second in present[i + 1 :]:
            found |= postings & snapshot.aliases_by_key[second]
    return found


def _ranked(
    positions: set[int], keys: dict[str, float], snapshot: Snapshot, floor: float
) -> list[tuple[float, int]]:
    """(-score, alias index) for each alias scoring at least `floor`."""
    ranked: list[tuple[float, int]] = []
    key_sets, sizes = snapshot.alias_key_sets, snapshot.alias_sizes
    if all(weight == 1.0 for weight in keys.values()):  # no typo: count by set intersection
        question = frozenset(keys)
        for position in positions:
            score = len(key_sets[position] & question) / sizes[position]
            if score >= floor:
                ranked.append((-score, position))
        return ranked
    for position in positions:
        score = sum(keys.get(k, 0.0) for k in key_sets[position]) / sizes[position]
        if score >= floor:
            ranked.append((-score, position))
    return ranked


def _asks_for_advice(folded: str) -> bool:
    return any(token in lexicon.ADVICE_CUES for token in tokenize(folded))


def _rank(match: ConceptMatch) -> tuple[float, int, str]:
    return (-match.score, -len(match.matched), match.concept)


def _choose(
    scored: list[ConceptMatch],
) -> tuple[tuple[ConceptMatch, ...], tuple[ConceptMatch, ...]]:
    strong = [m for m in scored if m.score >= THRESHOLD]
    # A concept whose matched words are a strict subset of another's is the less specific
    # reading ("btw tarief" inside "verlaagd btw-tarief"), whatever their scores.
    eligible = [m for m in strong if not any(m.matched < other.matched for other in strong)]
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

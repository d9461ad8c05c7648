"""Alias scoring for the match stage: an alias scores by the share of ITS keys found in the
question, so filler in the question never dilutes it; a corrected typo counts 0.9 of a word."""

from __future__ import annotations

import heapq

from engine.pipeline.state import ConceptMatch
from engine.snapshot import Snapshot

THRESHOLD = 0.8  # share of an alias's keys the question must contain
CANDIDATE_FLOOR = 0.5  # below this a concept is not even offered for clarification
MAX_OFFERED = 4  # candidates offered when the question is too vague


def score_aliases(
    keys: dict[str, float], snapshot: Snapshot, named: frozenset[str]
) -> list[ConceptMatch]:
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
    return sorted(best.values(), key=rank)


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


def rank(match: ConceptMatch) -> tuple[float, int, str]:
    return (-match.score, -len(match.matched), match.concept)

"""How sure an answer is, from the texts that state its value (issue 25).

A confidence a person cannot act on is worse than none, so the score is built only from what
the card shows and a reader can check:

1. **Authority**: the highest authority among the texts that state the value, in force on the
   as-of date (the answering rule and the rules that agree with it):
   LAW 0.95, REGULATION 0.92, GUIDANCE 0.88, PRACTICE and PROCEDURE 0.55.
2. **Agreement**: each further *independent* publisher stating the same value adds 0.10, at
   most 0.20 (publishers are compared by name up to their first bracket or comma, so two
   Porezna uprava pages are one publisher). Without an official text (LAW, REGULATION,
   GUIDANCE) the score stays below HIGH (at most 0.79), however many publishers agree: two
   independent publishers make a current value at least MEDIUM.
3. **Recency**: when the as-of date lies past the last date every agreeing text speaks for,
   the score loses up to a fifth, in proportion to how much of the rule's horizon has passed
   since the newest text (engine/horizons.py): a year past a rate's three-year horizon costs
   about 7 %, its end 20 % (the card also says until when the value is confirmed).
4. **Conflict**: when sources disagreed and precedence or a maintainer's resolution decided,
   the score is multiplied by 0.9; the texts a resolution rests on count as stating the value.
   When the value set aside rests on a text of the same or higher authority, the score stays
   below HIGH (at most 0.79).
5. **An ended value is never more confident than the current one**: a value whose period
   ended before today is capped at the score the concept's value in force today would get.

Levels: HIGH from 0.80, MEDIUM from 0.60, LOW below. The rationale names each factor in the
asker's language; `breakdown` gives the same factors as data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from engine.horizons import HORIZON, Freshness, freshness, stability_of
from engine.pipeline import templates as tpl
from engine.pipeline.publishers import publisher_key
from engine.pipeline.state import Resolution, State
from engine.snapshot import Snapshot
from engine.types import AUTHORITY_RANK, Authority, Language, Pointer, Rule

AUTHORITY_BASE: Mapping[Authority, float] = {
    "LAW": 0.95,
    "REGULATION": 0.92,
    "GUIDANCE": 0.88,
    "PRACTICE": 0.55,
    "PROCEDURE": 0.55,
}
OFFICIAL: frozenset[Authority] = frozenset({"LAW", "REGULATION", "GUIDANCE"})
AGREEMENT_STEP, AGREEMENT_MAX = 0.10, 0.20
SECONDARY_CAP = 0.79
PAST_EVIDENCE = 0.2  # the most the age of the evidence takes off
DECIDED_CONFLICT = 0.9
HIGH, MEDIUM = 0.80, 0.60


def answer_confidence(state: State, language: Language) -> dict[str, Any]:
    """The confidence block of an answer: the lowest of its answered concepts'."""
    as_of = state.as_of or state.question.today
    scored = [
        _score(resolution, state.snapshot, as_of, state.question.today)
        for resolution in state.resolutions
        if resolution.winner is not None
    ]
    worst = min(scored, key=lambda s: s["score"])
    score = worst["score"]
    level = "HIGH" if score >= HIGH else "MEDIUM" if score >= MEDIUM else "LOW"
    return {
        "level": level,
        "score": score,
        "rationale": _rationale(worst, language),
        "breakdown": {k: v for k, v in worst.items() if k != "score"},
    }


def _score(resolution: Resolution, snapshot: Snapshot, as_of: date, today: date) -> dict[str, Any]:
    winner = resolution.winner
    assert winner is not None
    stating = (winner, *resolution.agreeing)
    # a maintainer's resolution rests on texts that state the winner's value: they count too
    decision = resolution.record.evidence if resolution.record is not None else ()
    factors = _factors(stating, snapshot, as_of, decision)
    decided = bool(resolution.losers)
    if decided:
        factors["score"] = round(factors["score"] * DECIDED_CONFLICT, 2)
        best = AUTHORITY_RANK[factors["authority"]]
        if any(AUTHORITY_RANK[loser.authority] >= best for loser in resolution.losers):
            # a text of the same standing says otherwise: settled, but never HIGH
            factors["score"] = min(factors["score"], SECONDARY_CAP)
    factors["conflict"] = "decided" if decided else "none"
    if winner.effective_until is not None and winner.effective_until <= today:
        current = _current(winner, snapshot, today)
        if current:
            cap = _factors(current, snapshot, today)["score"]
            factors["score"] = min(factors["score"], cap)
            factors["cappedByCurrent"] = factors["score"] == cap
    return factors


def _factors(
    stating: Iterable[Rule], snapshot: Snapshot, as_of: date, decision: Iterable[Pointer] = ()
) -> dict[str, Any]:
    rules = tuple(stating)
    sources = [
        source
        for pointer in (*(p for rule in rules for p in rule.pointers), *decision)
        if (source := snapshot.source_of(pointer.evidence_id)) is not None
    ]
    authorities = {source.authority for source in sources} or {rules[0].authority}
    best = max(authorities, key=lambda a: AUTHORITY_RANK[a])
    publishers = len({publisher_key(s.publisher or s.id) for s in sources}) or 1
    score = AUTHORITY_BASE[best] + min(AGREEMENT_MAX, AGREEMENT_STEP * (publishers - 1))
    official = bool(authorities & OFFICIAL)
    score = min(score, 0.95 if official else SECONDARY_CAP)
    past = all(freshness(rule, as_of) is Freshness.BEYOND_VERIFIED for rule in rules)
    newest = max((r.verified_as_of for r in rules if r.verified_as_of), default=None)
    if past and newest is not None:
        # graded: a day past the evidence costs little, the end of the horizon costs 0.2
        latest = max(rules, key=lambda r: r.verified_as_of or date.min)
        share = min(1.0, (as_of - newest).days / HORIZON[stability_of(latest)].days)
        score *= 1 - PAST_EVIDENCE * share
    return {
        "score": round(score, 2),
        "authority": best,
        "official": official,
        "publishers": publishers,
        "newestText": newest.isoformat() if newest else None,
        "pastEvidence": past,
    }


def _current(ended: Rule, snapshot: Snapshot, today: date) -> tuple[Rule, ...]:
    """The concept's published rules in force today for the same askers, sharing one value."""
    same = [
        rule
        for rule in snapshot.rules_by_concept.get(ended.concept, ())
        if rule.status == "PUBLISHED"
        and rule.in_force_on(today)
        and rule.applies_when == ended.applies_when
        and freshness(rule, today) is not Freshness.BEYOND_HORIZON
    ]
    if not same:
        return ()
    value = same[0].value
    return tuple(rule for rule in same if rule.value == value)


def _rationale(factors: Mapping[str, Any], language: Language) -> str:
    authority: Authority = factors["authority"]
    parts = [
        tpl.CONFIDENCE_STATED_BY[language].format(
            authority=tpl.AUTHORITY_WORDS[authority][language]
        )
    ]
    if factors["publishers"] > 1:
        parts.append(tpl.CONFIDENCE_PUBLISHERS[language].format(count=factors["publishers"]))
    if not factors["official"]:
        parts.append(tpl.CONFIDENCE_NO_OFFICIAL[language])
    if factors["pastEvidence"]:
        parts.append(tpl.CONFIDENCE_PAST[language])
    if factors["conflict"] == "decided":
        parts.append(tpl.CONFIDENCE_DECIDED[language])
    if factors.get("cappedByCurrent"):
        parts.append(tpl.CONFIDENCE_CAPPED[language])
    return "; ".join(parts) + "."

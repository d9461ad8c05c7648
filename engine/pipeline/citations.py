"""Stage 6: build the source cards that back the answer (or both sides of a conflict).

Primary first, then up to three supporting cards, ordered by authority, newer effective_from,
confidence and id. Every card carries the verbatim quote, the evidence url and id, and the
time the evidence text was fetched (from the evidence, never "now").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Any

from engine.pipeline.state import StageResult, State
from engine.snapshot import Snapshot
from engine.types import AUTHORITY_RANK, Rule

MAX_CARDS = 4
QUOTE_LIMIT = 240
QUOTES_TOTAL = 1200
# Days since the evidence text was fetched → how fresh the card is.
FRESHNESS = ((90, "fresh"), (180, "aging"), (365, "stale"))


def build_citations(state: State) -> StageResult:
    rules = _rules_to_cite(state)
    cards = _cards(rules, state.snapshot, state.question.today)
    return StageResult(
        {"cards": cards},
        f"{len(cards)} card(s): " + ", ".join(str(c["id"]) for c in cards),
    )


def _rules_to_cite(state: State) -> list[Rule]:
    if state.refusal is not None and state.refusal.reason == "UNRESOLVED_CONFLICT":
        return [rule for r in state.resolutions for rule in r.unresolved]
    if state.refusal is not None:
        return []
    ordered: list[Rule] = []
    for resolution in state.resolutions:  # the first concept's winner leads
        if resolution.winner is not None:
            ordered.append(resolution.winner)
    for resolution in state.resolutions:
        ordered.extend(resolution.agreeing)
    return ordered


def _cards(rules: Iterable[Rule], snapshot: Snapshot, today: date) -> tuple[Mapping[str, Any], ...]:
    cards: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    total = 0
    for rule in rules:
        for pointer in _pointers_by_authority(rule, snapshot):
            quote = _excerpt(pointer.quote)
            key = (pointer.evidence_id, quote)
            if key in seen or len(cards) >= MAX_CARDS or total + len(quote) > QUOTES_TOTAL:
                continue
            card = source_card(rule, pointer.evidence_id, quote, snapshot, today)
            if card is not None:
                seen.add(key)
                total += len(quote)
                cards.append(card)
    return tuple(cards)


def _pointers_by_authority(rule: Rule, snapshot: Snapshot) -> list[Any]:
    def rank(pointer: Any) -> int:
        source = snapshot.source_of(pointer.evidence_id)
        return -AUTHORITY_RANK[source.authority] if source else 0

    return sorted(rule.pointers, key=rank)


def source_card(
    rule: Rule, evidence_id: str, quote: str, snapshot: Snapshot, today: date
) -> dict[str, Any] | None:
    """One SourceCard on the wire, or None when the evidence is gone (then it is not cited)."""
    evidence = snapshot.evidence.get(evidence_id)
    source = snapshot.sources.get(evidence.source_id) if evidence else None
    if evidence is None or source is None:
        return None
    days = (today - evidence.fetched_at.date()).days
    freshness = next((label for limit, label in FRESHNESS if days < limit), "critical")
    card: dict[str, Any] = {
        "id": f"{rule.id}@{evidence.id}",
        "title": source.title,
        "authority": "PRACTICE" if source.authority == "PROCEDURE" else source.authority,
        "reference": f"{source.act_id}, {evidence.locator}" if source.act_id else evidence.locator,
        "quote": quote,
        "url": evidence.url,
        "effectiveFrom": rule.effective_from.isoformat(),
        "confidence": rule.confidence,
        "status": "ACTIVE",
        "evidenceId": evidence.id,
        "fetchedAt": evidence.fetched_at.isoformat().replace("+00:00", "Z"),
        "freshnessStatus": freshness,
        "daysSinceFetch": max(days, 0),
    }
    if freshness in ("stale", "critical"):
        card["freshnessWarning"] = f"evidence text fetched {days} days ago"
    return card


def _excerpt(quote: str) -> str:
    """Quotes longer than the card limit are cut at a word boundary: still a verbatim span."""
    if len(quote) <= QUOTE_LIMIT:
        return quote
    cut = quote[:QUOTE_LIMIT]
    return cut[: cut.rfind(" ")] if " " in cut else cut

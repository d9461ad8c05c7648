"""Stage 6: build the source cards that back the answer (or both sides of a conflict).

Primary first, then up to three supporting cards, ordered by authority, newer effective_from,
confidence and id; no two share an id. Every card carries the verbatim quote, the evidence url
and id, and the time the evidence text was fetched (from the evidence, never "now").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from itertools import chain
from typing import Any

from engine.contract import LIMITS
from engine.horizons import Freshness, freshness
from engine.pipeline import templates as tpl
from engine.pipeline.render import response_language
from engine.pipeline.state import StageResult, State
from engine.snapshot import Snapshot
from engine.text.formatting import format_date
from engine.text.quantities import value_stated
from engine.types import AUTHORITY_RANK, Language, Pointer, Rule, Source, ValueType

MAX_CARDS = 4  # the contract's citations: a primary and three supporting cards
# A question may ask more values than four (a whole table, several years): each value still
# gets its card, beyond the contract's four in `additionalCitations` (engine/pipeline/joint.py)
MAX_VALUE_CARDS = MAX_CARDS + LIMITS.additional_cards
QUOTE_LIMIT = 240
QUOTES_TOTAL = 1200  # the contract's four cards
MORE_QUOTES_TOTAL = LIMITS.additional_quotes_total  # the cards beyond them
_WORD_GAP = re.compile(r"\s+")
# A clause ends at a comma, semicolon or colon before a space, or at a sentence's full stop
# (after a word, before a capital: "1. siječnja" and "čl. 90" are not ends).
_CLAUSE_END = re.compile(r"[,;:](?=\s)|(?<=\w)[.!?](?=\s+[A-ZČĆĐŠŽ])")
# Days since the evidence text was fetched → how fresh the card is.
FRESHNESS = ((90, "fresh"), (180, "aging"), (365, "stale"))


def build_citations(state: State) -> StageResult:
    rules = _rules_to_cite(state)
    # a winner settled on the record is also cited from the texts the decision rests on, which
    # state its value (kb verify checks): the official text is the strongest proof there is
    recorded = {
        r.winner.id: r.record.evidence
        for r in state.resolutions
        if r.winner is not None and r.record is not None
    }
    cards = _cards(
        rules, state.snapshot, card_dates(state), state.question.excluded_evidence, recorded
    )
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
    for computation in state.computations:  # the values a computed result rests on
        ordered.extend(r for r in (computation.rule, computation.support) if r is not None)
    for resolution in state.resolutions:
        ordered.extend(resolution.conditional)
    for resolution in state.resolutions:
        ordered.extend(resolution.agreeing)
    return ordered


@dataclass(frozen=True, slots=True)
class CardDates:
    """What a card's freshness depends on besides the evidence: today, as-of date, language."""

    today: date
    as_of: date
    language: Language


def card_dates(state: State) -> CardDates:
    return CardDates(
        state.question.today, state.as_of or state.question.today, response_language(state)
    )


def _cards(
    rules: Iterable[Rule],
    snapshot: Snapshot,
    dates: CardDates,
    removed: frozenset[str] = frozenset(),
    recorded: Mapping[str, tuple[Pointer, ...]] | None = None,
) -> tuple[Mapping[str, Any], ...]:
    """Every rule's best quote first, then the further quotes, within the card limits: a
    family answer cites each member it states before any member gets a second card. Each
    rule gets its card even beyond the contract's four (up to MAX_VALUE_CARDS); a second
    card of a rule only while the four have room."""
    cards: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    unique = {rule.id: rule for rule in rules}.values()  # first mention keeps its place
    more = recorded or {}
    usable = [
        (
            rule,
            [
                p
                for p in _pointers_by_authority(rule, snapshot, more.get(rule.id, ()))
                if p.evidence_id not in removed
            ],
        )
        for rule in unique
    ]
    ordered = [(rule, p, True) for rule, pointers in usable for p in pointers[:1]]
    ordered += [(rule, p, False) for rule, pointers in usable for p in pointers[1:]]
    budget = QuoteBudget()
    for rule, pointer, first in ordered:
        quote = excerpt(pointer.quote, rule)
        # Two rules may rest on one sentence (15 % and 20 % by pillar): each is cited.
        key = (rule.id, pointer.evidence_id, quote)
        room = MAX_VALUE_CARDS if first else MAX_CARDS
        if key in seen or len(cards) >= room or not budget.fits(len(cards), quote):
            continue
        card = source_card(rule, pointer.evidence_id, quote, snapshot, dates)
        if card is not None:
            seen.add(key)
            budget.take(len(cards), quote)
            cards.append(_numbered(card, cards))
    return tuple(cards)


class QuoteBudget:
    """The quote characters left: the contract's four cards share QUOTES_TOTAL, the cards
    beyond them MORE_QUOTES_TOTAL."""

    def __init__(self) -> None:
        self.used = [0, 0]

    def fits(self, position: int, quote: str) -> bool:
        part = 0 if position < MAX_CARDS else 1
        return self.used[part] + len(quote) <= (QUOTES_TOTAL, MORE_QUOTES_TOTAL)[part]

    def take(self, position: int, quote: str) -> None:
        self.used[0 if position < MAX_CARDS else 1] += len(quote)


def _numbered(card: dict[str, Any], before: list[dict[str, Any]]) -> dict[str, Any]:
    """The card with an id no earlier card has: a second sentence of the same evidence for the
    same rule is `<rule>@<evidence>#2`. Clients key their lists by card id (React keys), so two
    cards of one id would be one card to them."""
    taken = {str(other["id"]) for other in before}
    number, unique = 1, str(card["id"])
    while unique in taken:
        number += 1
        unique = f"{card['id']}#{number}"
    return {**card, "id": unique}


def _pointers_by_authority(
    rule: Rule, snapshot: Snapshot, more: tuple[Pointer, ...] = ()
) -> list[Pointer]:
    """The rule's pointers and `more` (a resolution's evidence), highest authority first."""

    def rank(pointer: Pointer) -> int:
        source = snapshot.source_of(pointer.evidence_id)
        return -AUTHORITY_RANK[source.authority] if source else 0

    return sorted((*rule.pointers, *more), key=rank)


def source_card(
    rule: Rule, evidence_id: str, quote: str, snapshot: Snapshot, dates: CardDates
) -> dict[str, Any] | None:
    """One SourceCard on the wire, or None when the evidence is gone (then it is not cited)."""
    evidence = snapshot.evidence.get(evidence_id)
    source = snapshot.sources.get(evidence.source_id) if evidence else None
    if evidence is None or source is None:
        return None
    days = max((dates.today - evidence.fetched_at.date()).days, 0)
    status = next((label for limit, label in FRESHNESS if days < limit), "critical")
    warning = (
        tpl.FETCHED_AGO[dates.language].format(days=days) if status in ("stale", "critical") else ""
    )
    if freshness(rule, dates.as_of) is Freshness.BEYOND_VERIFIED and rule.verified_as_of:
        status = "critical" if status == "critical" else "stale"
        verified = format_date(rule.verified_as_of, dates.language)
        warning = tpl.VERIFIED_UNTIL[dates.language].format(date=verified)
    card: dict[str, Any] = {
        "id": f"{rule.id}@{evidence.id}",
        "title": source.title,
        "authority": "PRACTICE" if source.authority == "PROCEDURE" else source.authority,
        "reference": reference(source, evidence.locator),
        "quote": quote,
        "url": evidence.url,
        "effectiveFrom": rule.effective_from.isoformat(),
        "confidence": rule.confidence,
        "status": "ACTIVE",
        "evidenceId": evidence.id,
        "fetchedAt": evidence.fetched_at.isoformat().replace("+00:00", "Z"),
        "freshnessStatus": status,
        "daysSinceFetch": days,
    }
    if warning:
        card["freshnessWarning"] = warning
    return card


def reference(source: Source, locator: str) -> str:
    """Where the quote stands, truthfully: an act's or regulation's own text is cited as that
    act ("NN 152/2024, čl. 2"); any other text (a tax office's page, a draft bill in public
    consultation, a publisher's article) by who published it, never as the act it discusses."""
    document = source.act_id if source.authority in ("LAW", "REGULATION") else source.publisher
    return f"{document}, {locator}" if document else locator


def excerpt(quote: str, rule: Rule) -> str:
    """A quote longer than the card limit is shown as the verbatim span of whole words, at most
    QUOTE_LIMIT long, that states the rule's value: the earliest such span, so a sentence is
    cut only where it must be and never loses the figure it is cited for. Its end is a clause's
    end where one is near ("…40.000,00 eura", not "…40.000,00 eura, s"). Clients mark the cut;
    the quote itself stays a verbatim part of the evidence, which is how it is checked."""
    return _value_window(quote, rule.value, rule.value_type)


@lru_cache(maxsize=4096)
def _value_window(quote: str, value: str, value_type: ValueType) -> str:
    if len(quote) <= QUOTE_LIMIT:
        return quote
    starts = chain((0,), (gap.end() for gap in _WORD_GAP.finditer(quote)))
    windows = ((start, _words_within(quote[start:])) for start in starts)
    stating = ((s, w) for s, w in windows if value_stated(value, value_type, w))
    start, window = next(stating, (0, _words_within(quote)))
    if start + len(window) >= len(quote.rstrip()):
        return window  # it runs to the quote's end: nothing is cut there
    clause = _to_clause_end(window)
    return clause if clause and value_stated(value, value_type, clause) else window


def _to_clause_end(window: str) -> str | None:
    """`window` up to the last clause or sentence end in its last third, without a trailing
    comma, semicolon or colon; None when there is none that late."""
    ends = [m.end() for m in _CLAUSE_END.finditer(window) if m.end() >= len(window) * 2 // 3]
    return window[: ends[-1]].rstrip(",;:") if ends else None


def _words_within(text: str) -> str:
    if len(text) <= QUOTE_LIMIT:
        return text
    cut = text[: QUOTE_LIMIT + 1]
    return cut[: cut.rfind(" ")].rstrip() if " " in cut else cut[:QUOTE_LIMIT]

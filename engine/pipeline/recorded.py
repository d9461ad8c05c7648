"""A conflict the maintainers settled on the record (issue 25), as an answer shows it.

The `conflict` block keeps the contract's fields (status RESOLVED, description, both sides'
cards, the winning card) and adds, all optional: the resolution's id, strategy, rationale in the
asker's language, who decided and when, the value applied and the value set aside (each with
its card), and the cards of the texts the decision rests on. The `why` bullets say the same in
a few lines: the decision, the value set aside, the rationale. Without a resolution nothing
here is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.pipeline.citations import card_dates, excerpt, source_card
from engine.pipeline.render import clip, sentence
from engine.pipeline.state import Resolution, State
from engine.text.formatting import format_date, rule_value
from engine.text.sentences import sentences
from engine.types import ConflictResolution, Language, ResolutionStrategy, Rule

# What each strategy means, as a sentence of the description reads it.
# Why the winner applies, as the decision sentence ends ("… applies, as …").
STRATEGY: Mapping[ResolutionStrategy, Mapping[Language, str]] = {
    "NEWER_OFFICIAL_TEXT": {
        "en": "a newer official text states it",
        "hr": "ga navodi noviji službeni tekst",
        "nl": "een nieuwere officiële tekst het vermeldt",
    },
    "INSTRUMENT_TEXT": {
        "en": "the issuer of the instrument states it",
        "hr": "ga navodi izdavatelj akta",
        "nl": "de uitgever van het besluit het vermeldt",
    },
    "HIGHER_AUTHORITY": {
        "en": "the higher-ranked source states it",
        "hr": "ga navodi izvor višeg ranga",
        "nl": "de bron van hogere rang het vermeldt",
    },
    "LEX_SPECIALIS": {
        "en": "the more specific rule states it",
        "hr": "ga navodi posebno pravilo",
        "nl": "de specifiekere regel het vermeldt",
    },
    "MAINTAINER_JUDGEMENT": {
        "en": "the maintainers judged the texts so",
        "hr": "su tako ocijenili urednici znanja",
        "nl": "de beheerders de teksten zo beoordeelden",
    },
}
DISAGREE: Mapping[Language, str] = {
    "en": "The sources disagree: {winner} against {loser}.",
    "hr": "Izvori se ne slažu: {winner} naspram {loser}.",
    "nl": "De bronnen spreken elkaar tegen: {winner} tegenover {loser}.",
}
DECISION: Mapping[Language, str] = {
    "en": "Decided ({decided_by}, {date}): {winner} applies, as {strategy}.",
    "hr": "Odluka ({decided_by}, {date}): vrijedi {winner} jer {strategy}.",
    "nl": "Besluit ({decided_by}, {date}): {winner} geldt, omdat {strategy}.",
}
SET_ASIDE: Mapping[Language, str] = {
    "en": "Set aside: {loser} ({source}).",
    "hr": "Nije primijenjeno: {loser} ({source}).",
    "nl": "Niet toegepast: {loser} ({source}).",
}
MAX_WINNER_CARDS = 3  # the winning side's cards in `conflict.sources`: the proof, not all of it


def recorded_conflict(
    decided: Resolution, state: State, language: Language
) -> dict[str, Any] | None:
    """The `conflict` block of an answer whose conflict a resolution settled, or None when
    neither side can be shown with a card (then no block rather than a half one)."""
    record, winner = decided.record, decided.winner
    if record is None or winner is None:
        return None
    loser = next((r for r in decided.losers if r.id == record.loser), None)
    loser = loser or (decided.losers[0] if decided.losers else None)
    ours = [card for card in state.cards if str(card["id"]).split("@")[0] == winner.id]
    theirs = _first_card(loser, state) if loser is not None else None
    if not ours or theirs is None or loser is None:
        return None
    winning = ours[:MAX_WINNER_CARDS]
    resting = {pointer.evidence_id for pointer in record.evidence}
    return {
        "status": "RESOLVED",
        "resolvedAt": record.decided_at.isoformat(),
        "description": clip(_description(record, winner, loser, language), 240),
        "sources": [*winning, theirs],
        "winningSourceId": winning[0]["id"],
        "resolutionId": record.id,
        "strategy": record.strategy,
        "rationale": record.rationale.get(language) or record.rationale.get("en", ""),
        "decidedBy": record.decided_by,
        "decidedAt": record.decided_at.isoformat(),
        "winner": _side(winner, winning[0], language),
        "loser": _side(loser, theirs, language),
        "evidence": [str(c["id"]) for c in winning if c.get("evidenceId") in resting],
    }


def recorded_why(
    bullets: list[str], conflict: Mapping[str, Any], state: State, language: Language
) -> list[str]:
    """`bullets` and, when the `conflict` block shows a conflict settled on the record, the
    decision and what it set aside (the contract's limits kept: 5 bullets, 140 characters
    each, 700 in total)."""
    shown = conflict.get("resolutionId")
    decided = next(
        (r for r in state.resolutions if r.record is not None and r.record.id == shown), None
    )
    if decided is None or decided.record is None or decided.winner is None:
        return bullets
    record, winner = decided.record, decided.winner
    loser = next((r for r in decided.losers if r.id == record.loser), None)
    lines = [_decision(record, winner, language)]
    if loser is not None:
        card = _first_card(loser, state) or {}
        source = str(card.get("reference") or card.get("title") or loser.id)
        lines.append(SET_ASIDE[language].format(loser=rule_value(loser, language), source=source))
    # then the rationale, sentence by sentence while there is room (the block holds it whole)
    lines += sentences(record.rationale.get(language) or record.rationale.get("en", ""))
    found = list(bullets)
    for line in (clip(text, 140) for text in lines):
        if len(found) < 5 and sum(map(len, found)) + len(line) <= 700:
            found.append(line)
    return found


def _description(record: ConflictResolution, winner: Rule, loser: Rule, language: Language) -> str:
    disagree = DISAGREE[language].format(
        winner=rule_value(winner, language), loser=rule_value(loser, language)
    )
    return f"{disagree} {_decision(record, winner, language)}"


def _decision(record: ConflictResolution, winner: Rule, language: Language) -> str:
    return sentence(
        DECISION[language].format(
            decided_by=record.decided_by,
            date=format_date(record.decided_at, language).rstrip("."),
            winner=rule_value(winner, language),
            strategy=STRATEGY[record.strategy][language],
        )
    )


def _side(rule: Rule, card: Mapping[str, Any], language: Language) -> dict[str, str]:
    return {
        "ruleId": rule.id,
        "value": rule.value,
        "valueText": rule_value(rule, language),
        "sourceId": str(card["id"]),
        "evidenceId": str(card.get("evidenceId", "")),
    }


def _first_card(rule: Rule, state: State) -> dict[str, Any] | None:
    """The card of the rule's first quote, as the contract's conflict sides show it."""
    if not rule.pointers:
        return None
    pointer = rule.pointers[0]
    return source_card(
        rule, pointer.evidence_id, excerpt(pointer.quote, rule), state.snapshot, card_dates(state)
    )

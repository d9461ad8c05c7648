"""validateResponse and the `conflict` block of a conflict settled on the record (issue 25):
the new fields are optional and pass, the contract's own conflict block is unchanged, and a
broken record block fails closed with our error strings."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.contract import AssistantResponse
from engine.validation import validate_response
from tests.test_quality_gates import answer, card, quote_in_evidence

EVIDENCE_QUOTE = "Stopa doprinosa za mirovinsko osiguranje iznosi 20 %"


def recorded() -> dict[str, Any]:
    """A valid ANSWER whose conflict the maintainers settled on the record."""
    response = answer()
    winner = card("rate-law@ev_law", "ev_law", EVIDENCE_QUOTE)
    loser = card("rate-blog@ev_reg", "ev_reg", "uplaćuje istodobno s isplatom plaće", "PRACTICE")
    response["conflict"] = {
        "status": "RESOLVED",
        "resolvedAt": "2026-11-29",
        "description": "Izvori se ne slažu: 20 % naspram 15 %.",
        "sources": [winner, loser],
        "winningSourceId": winner["id"],
        "resolutionId": "rate-decision",
        "strategy": "HIGHER_AUTHORITY",
        "rationale": "Zakon navodi 20 %.",
        "decidedBy": "Navod knowledge maintainers",
        "decidedAt": "2026-11-29",
        "winner": {"ruleId": "rate-law", "value": "20", "sourceId": winner["id"]},
        "loser": {
            "ruleId": "rate-blog",
            "value": "15",
            "valueText": "15 %",
            "sourceId": loser["id"],
            "evidenceId": "ev_reg",
        },
        "evidence": [winner["id"]],
    }
    return response


def errors_of(response: dict[str, Any]) -> tuple[str, ...]:
    return validate_response(response, quote_in_evidence).errors


def test_a_conflict_settled_on_the_record_is_valid_and_typed() -> None:
    assert errors_of(recorded()) == ()
    model = AssistantResponse.model_validate(recorded())
    assert model.conflict is not None and model.conflict.strategy == "HIGHER_AUTHORITY"
    assert model.conflict.loser is not None and model.conflict.loser.value == "15"


def test_the_contracts_own_conflict_block_still_passes_without_the_new_fields() -> None:
    response = recorded()
    for name in (
        "resolutionId", "strategy", "rationale", "decidedBy", "decidedAt", "winner", "loser",
        "evidence",
    ):  # fmt: skip
        del response["conflict"][name]
    assert errors_of(response) == ()


def _set(path: str, value: object) -> dict[str, Any]:
    response = copy.deepcopy(recorded())
    *parents, last = path.split(".")
    node = response
    for part in parents:
        node = node[part]
    if value is None:
        del node[last]
    else:
        node[last] = value
    return response


@pytest.mark.parametrize(
    ("path", "value", "error"),
    [
        ("conflict.strategy", "NEWEST", "Invalid conflict.strategy: 'NEWEST'"),
        ("conflict.decidedAt", "29.11.2026", "conflict.decidedAt must be a YYYY-MM-DD date"),
        ("conflict.rationale", None, "conflict.rationale is required on a conflict settled"),
        ("conflict.loser", None, "conflict.loser is required on a conflict settled"),
        (
            "conflict.status",
            "UNRESOLVED",
            "conflict settled on the record must have status RESOLVED",
        ),
        ("conflict.rationale", "x" * 401, "conflict.rationale exceeds 400 chars"),
        ("conflict.winner.sourceId", "nope@ev", "conflict.winner.sourceId names no card"),
        ("conflict.loser.ruleId", None, "conflict.loser.ruleId is required"),
        ("conflict.evidence", ["nope@ev"], "conflict.evidence[0] names no card"),
        ("conflict.winner", "rate-law", "conflict.winner must be an object"),
    ],
)
def test_a_broken_record_block_fails_closed(path: str, value: object, error: str) -> None:
    found = errors_of(_set(path, value))
    assert any(e.startswith(error) for e in found), found


def test_the_rationale_counts_towards_the_whole_response_text() -> None:
    response = recorded()
    response["why"] = {"bullets": ["x" * 140] * 5}
    response["relatedQuestions"] = ["y" * 80] * 4
    response["disclaimer"] = {"short": "z" * 600, "expanded": "z" * 1200}
    response["conflict"]["rationale"] = "w"
    assert "Response text exceeds 3500 chars" not in errors_of(response)
    response["conflict"]["rationale"] = "w" * 400
    assert "Response text exceeds 3500 chars" in errors_of(response)

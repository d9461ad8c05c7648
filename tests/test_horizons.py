"""Verified-as-of and horizons: answer with a warning past the evidence, refuse past the horizon."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from engine.horizons import Freshness, freshness, horizon_end
from engine.pipeline.runner import run_pipeline
from engine.types import Rule, Stability
from tests.factories import RULES, question, snapshot

VERIFIED = date(2024, 12, 31)


def _with_verified(stability: Stability | None = None) -> tuple[Rule, ...]:
    return tuple(
        replace(r, verified_as_of=VERIFIED, stability=stability) if r.id == "rate-2013" else r
        for r in RULES
    )


@pytest.mark.parametrize(
    ("value_type", "stability", "horizon"),
    [
        ("percentage", None, date(2027, 12, 31)),  # stable: 3 years
        ("currency_eur", None, date(2025, 6, 29)),  # yearly: 180 days
        ("date", None, date(2025, 3, 31)),  # frequent: 90 days
        ("text", "stable", date(2027, 12, 31)),  # the pack's stability wins
    ],
)
def test_horizon_by_kind_of_rule(value_type: str, stability: str | None, horizon: date) -> None:
    rule = replace(RULES[0], value_type=value_type, verified_as_of=VERIFIED, stability=stability)
    assert horizon_end(rule) == horizon
    assert freshness(rule, VERIFIED) is Freshness.VERIFIED
    assert freshness(rule, horizon) is Freshness.BEYOND_VERIFIED
    assert freshness(rule, date.fromordinal(horizon.toordinal() + 1)) is Freshness.BEYOND_HORIZON


def test_within_the_evidence_no_warning() -> None:
    response = run_pipeline(
        question("stopa pdv-a", as_of=date(2024, 6, 1)), snapshot(_with_verified())
    ).response
    assert response is not None and response["kind"] == "ANSWER"
    assert "freshnessWarning" not in response["citations"]["primary"]


def test_past_the_evidence_answers_with_a_warning_and_lower_confidence() -> None:
    fresh = run_pipeline(
        question("stopa pdv-a", as_of=date(2024, 6, 1)), snapshot(_with_verified())
    ).response
    later = run_pipeline(
        question("stopa pdv-a", as_of=date(2026, 6, 1)), snapshot(_with_verified())
    ).response
    assert fresh is not None and later is not None and later["kind"] == "ANSWER"
    card = later["citations"]["primary"]
    assert card["freshnessStatus"] == "stale" and "31. prosinca 2024." in card["freshnessWarning"]
    assert later["confidence"]["score"] < fresh["confidence"]["score"]
    assert any("31. prosinca 2024." in detail for detail in later["keyDetails"])


def test_past_the_horizon_refuses_saying_until_when_it_is_known() -> None:
    state = run_pipeline(
        question("stopa pdv-a", as_of=date(2028, 6, 1)), snapshot(_with_verified())
    )
    response = state.response
    assert response is not None and response["refusalReason"] == "NO_CITABLE_RULES"
    assert "31. prosinca 2024." in response["refusal"]["message"]
    assert "beyond its horizon" in str(state.trace)


def test_a_closed_rule_refuses_after_its_end_naming_the_known_period() -> None:
    response = run_pipeline(question("stopa pdv-a", as_of=date(2009, 6, 1)), snapshot()).response
    assert response is not None and response["refusalReason"] == "NO_CITABLE_RULES"
    assert "1. siječnja 2010." in response["refusal"]["message"]

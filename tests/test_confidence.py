"""A confidence that means something (issue 25): authority, agreement, recency, conflict; an
ended value never surer than today's; refusals that name the last value held; caveats."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from engine.pipeline.runner import run_pipeline
from engine.snapshot import Snapshot, compile_snapshot
from engine.types import KnowledgeBase, Rule, Source
from tests.factories import GUIDE, LAW, concept, evidence, question, rule

INFORMATOR = Source(
    "informator", "Novosti", "", "PRACTICE", "HR", "hr", "https://i.test", "Informator"
)
EKONOS = Source("ekonos", "Blog", "", "PRACTICE", "HR", "hr", "https://e.test", "Ekonos d.o.o.")
RIF = Source("rif", "RiF", "", "PRACTICE", "HR", "hr", "https://r.test", "RiF (udruga)")
# two pages of one publisher, told apart only by the note after the name
PU_A = Source(
    "pu-a", "Upute A", "", "GUIDANCE", "HR", "hr", "https://pa.test", "Porezna uprava (A)"
)
PU_B = Source(
    "pu-b", "Upute B", "", "GUIDANCE", "HR", "hr", "https://pb.test", "Porezna uprava (B)"
)

EV_OLD = evidence(GUIDE, "Prag iznosi 40.000,00 eura.", "old")
EV_INF = evidence(INFORMATOR, "Prag je 60.000,00 eura.", "inf")
EV_EKO = evidence(EKONOS, "Novi prag je 60.000,00 eura.", "eko")
EV_RIF = evidence(RIF, "Prag od 2025. iznosi 60.000,00 eura.", "rif")
EV_PU_A = evidence(PU_A, "Stopa iznosi 13 %.", "pu-a")
EV_PU_B = evidence(PU_B, "Stopa je 13 %.", "pu-b")
EV_LAW = evidence(LAW, "Stopa iznosi 25 %.", "law")

CURRENT = date(2025, 1, 1)
MONEY: dict[str, Any] = {"value_type": "currency_eur", "unit": "EUR"}


def _prag(slug: str, value: str, ev: Any, quote: str, **extra: Any) -> Rule:
    return rule(slug, "prag", value, ev, quote, CURRENT, **MONEY, **extra)


OLD = rule(
    "prag-2024",
    "prag",
    "40000",
    EV_OLD,
    "40.000,00 eura",
    date(2024, 1, 1),
    CURRENT,
    authority="GUIDANCE",
    verified_as_of=date(2024, 12, 31),
    **MONEY,
)
NEW = tuple(
    _prag(slug, "60000", ev, "60.000,00 eura", authority="PRACTICE", stability="stable",
          verified_as_of=date(2025, 11, 30))
    for slug, ev in (("prag-inf", EV_INF), ("prag-eko", EV_EKO), ("prag-rif", EV_RIF))
)  # fmt: skip


def _snapshot(*rules: Rule, caveat: dict[str, str] | None = None) -> Snapshot:
    prag = concept("prag", "prag za PDV", "VAT threshold", ("prag za pdv",))
    rate = concept("stopa", "stopa PDV-a", "VAT rate", ("stopa pdv-a",))
    if caveat:
        prag = replace(prag, caveat=caveat)
    return compile_snapshot(
        KnowledgeBase(
            version=1,
            sources=(LAW, GUIDE, INFORMATOR, EKONOS, RIF, PU_A, PU_B),
            evidence=(EV_OLD, EV_INF, EV_EKO, EV_RIF, EV_PU_A, EV_PU_B, EV_LAW),
            concepts=(prag, rate),
            rules=rules,
        )
    )


def _ask(snapshot: Snapshot, text: str, as_of: date) -> dict[str, Any]:
    response = run_pipeline(question(text, as_of=as_of), snapshot).response
    assert response is not None
    return response


def test_one_secondary_publisher_is_low_and_says_why() -> None:
    response = _ask(_snapshot(OLD, NEW[0]), "prag za pdv", date(2025, 6, 1))
    confidence = response["confidence"]
    assert (confidence["level"], confidence["score"]) == ("LOW", 0.55)
    assert confidence["breakdown"]["publishers"] == 1
    assert "bez službenog teksta" in confidence["rationale"]


def test_two_independent_publishers_make_a_current_value_medium() -> None:
    response = _ask(_snapshot(OLD, *NEW[:2]), "prag za pdv", date(2025, 6, 1))
    assert (response["confidence"]["level"], response["confidence"]["score"]) == ("MEDIUM", 0.65)
    assert "neovisnih izdavača: 2" in response["confidence"]["rationale"]


def test_secondary_texts_never_reach_high_however_many_agree() -> None:
    response = _ask(_snapshot(OLD, *NEW), "prag za pdv", date(2025, 6, 1))
    assert response["confidence"]["breakdown"]["publishers"] == 3
    assert (response["confidence"]["level"], response["confidence"]["score"]) == ("MEDIUM", 0.75)


def test_pages_of_one_publisher_are_not_independent() -> None:
    rules = (
        rule("stopa-a", "stopa", "13", EV_PU_A, "13 %", CURRENT, authority="GUIDANCE"),
        rule("stopa-b", "stopa", "13", EV_PU_B, "13 %", CURRENT, authority="GUIDANCE"),
    )
    response = _ask(_snapshot(*rules), "stopa pdv-a", date(2025, 6, 1))
    assert response["confidence"]["breakdown"]["publishers"] == 1
    assert response["confidence"]["score"] == 0.88


def test_a_statute_is_high() -> None:
    law = rule("stopa-law", "stopa", "25", EV_LAW, "25 %", CURRENT)
    response = _ask(_snapshot(law), "stopa pdv-a", date(2025, 6, 1))
    assert (response["confidence"]["level"], response["confidence"]["score"]) == ("HIGH", 0.95)


def test_past_the_evidence_the_score_drops_with_the_share_of_the_horizon_passed() -> None:
    snapshot = _snapshot(OLD, *NEW[:2])
    within = _ask(snapshot, "prag za pdv", date(2025, 6, 1))["confidence"]
    a_year = _ask(snapshot, "prag za pdv", date(2026, 11, 30))["confidence"]
    two_years = _ask(snapshot, "prag za pdv", date(2027, 11, 30))["confidence"]
    # verified 30.11.2025, stable (a three-year horizon): a year past costs a fifth of a third
    assert a_year["score"] == round(within["score"] * (1 - 0.2 * 365 / 1095), 2)
    assert within["score"] > a_year["score"] > two_years["score"]
    assert a_year["breakdown"]["pastEvidence"] and "ne potvrđuje" in a_year["rationale"]


def test_an_ended_value_is_never_surer_than_the_current_one() -> None:
    snapshot = _snapshot(OLD, *NEW[:2])
    ended = _ask(snapshot, "prag za pdv", date(2024, 6, 1))
    current = _ask(snapshot, "prag za pdv", date(2025, 6, 1))
    assert ended["directAnswer"].startswith("Prag za PDV iznosi 40.000,00")
    assert ended["confidence"]["breakdown"]["authority"] == "GUIDANCE"
    assert ended["confidence"]["score"] <= current["confidence"]["score"]
    assert ended["confidence"]["breakdown"]["cappedByCurrent"]
    # with no value in force today, an ended official value keeps its own score
    alone = _ask(_snapshot(OLD), "prag za pdv", date(2024, 6, 1))
    assert alone["confidence"]["score"] == 0.88


def test_a_refusal_names_the_dates_held_the_last_value_and_its_publisher() -> None:
    ended = replace(NEW[0], effective_until=date(2026, 1, 1))
    response = _ask(_snapshot(OLD, ended), "prag za pdv", date(2026, 6, 1))
    message = response["refusal"]["message"]
    assert response["refusalReason"] == "NO_CITABLE_RULES"
    assert "Navod ima vrijednost samo za 2024. i 2025., a ne za traženi datum" in message
    assert "najbliža je 60.000,00 EUR, za 2025. (Informator)" in message
    assert message.endswith("Pitajte za datum iz tog razdoblja.")


def test_a_refusal_before_any_value_names_the_first_one() -> None:
    response = _ask(_snapshot(OLD, *NEW), "prag za pdv", date(2020, 6, 1))
    message = response["refusal"]["message"]
    assert "samo od 1. siječnja 2024. do " in message  # to the newest evidence's horizon
    assert "najbliža je 40.000,00 EUR, za 2024." in message


def test_a_caveat_leads_the_why_with_who_confirmed_the_value() -> None:
    caveat = {
        "hr": "Izmjene nakon NN 152/2024 nisu provjerene.",
        "en": "Amendments after NN 152/2024 not checked.",
        "nl": "Wijzigingen na NN 152/2024 niet gecontroleerd.",
    }
    response = _ask(_snapshot(OLD, *NEW, caveat=caveat), "prag za pdv", date(2025, 6, 1))
    first, second = response["why"]["bullets"][:2]
    assert first == "Potvrđuje: Ekonos d.o.o., Informator, RiF; najnoviji tekst 30. studenoga 2025."
    assert second == "Izmjene nakon NN 152/2024 nisu provjerene."
    plain = _ask(_snapshot(OLD, *NEW), "prag za pdv", date(2025, 6, 1))
    assert not any("NN 152/2024" in bullet for bullet in plain["why"]["bullets"])

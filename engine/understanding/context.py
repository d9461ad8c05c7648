"""Stated facts as the client-context fields that rules' `applies_when` conditions read."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from engine.understanding.frame import Fact

# A yearly amount of each role is the condition field of that name, per currency.
_AMOUNT_FIELDS = {"receipts": "annual_receipts", "turnover": "annual_turnover",
                  "revenue": "annual_revenue", "income": "annual_income",
                  "profit": "annual_profit"}  # fmt: skip


_PLAIN = frozenset(
    {
        "birth_year",
        "age",
        "spouse_age",
        "retirement_date",
        "assets_ira_usd",
        "assets_401k_usd",
        "savings_usd",
        "health_coverage",
        "medicare_enrolled",
        "housing_plan",
        "state_of_residence",
        "entity_type",
        "municipality_type",
        "city",
        "pension_second_pillar",
        "vat_registered",
    }
)
# Facts whose condition field the packs name in the language of their law.
_RENAMED = {"home_value": "eigenwoningwaarde", "partner": "heeft_partner",
            "partner_hours": "partner_uren",
            "prior_uses": "startersaftrek_ao_eerdere_jaren"}  # fmt: skip


def condition_context(facts: Iterable[Fact], loose: Iterable[Fact] = ()) -> dict[str, Any]:
    """birth_year, age, entity_type, municipality_type, city, pension_second_pillar, the home's
    value, a partner and their hours, and yearly amounts as e.g. annual_receipts_eur; the first
    statement of each field wins. `loose` are amounts stated without a role ("s 25.000 eura")."""
    context: dict[str, Any] = {}
    facts = list(facts)
    for fact in facts:
        if fact.name in _PLAIN:
            context.setdefault(fact.name, fact.value)
        elif fact.name in _RENAMED:
            context.setdefault(_RENAMED[fact.name], fact.value)
        elif _yearly_amount(fact) and isinstance(fact.value, Decimal):
            field = f"{_AMOUNT_FIELDS[fact.name]}_{fact.unit.lower()}"
            context.setdefault(field, fact.value)
    # A flat-rate craft is taxed on its receipts, which its owner calls turnover ("promet"): a
    # stated yearly turnover stands for receipts when no receipts are stated.
    for currency in ("eur", "hrk", "usd"):
        turnover = context.get(f"annual_turnover_{currency}")
        if turnover is not None:
            context.setdefault(f"annual_receipts_{currency}", turnover)
    if context.get("entity_type") == "pausalni_obrt":
        # Receipts are all a flat-rate craft counts: what its owner says they earned or took
        # in, with a role or without one, is its receipts ("zaradio sam 25.000 eura").
        stated = [f for f in facts if f.name in ("revenue", "income")] + list(loose)
        for fact in stated:
            if fact.unit and fact.period != "month" and isinstance(fact.value, Decimal):
                context.setdefault(f"annual_receipts_{fact.unit.lower()}", fact.value)
    return context


def named_fields(facts: Iterable[Fact]) -> set[str]:
    """The condition fields the facts name themselves; any other field of their context is
    Navod's reading (a flat-rate craft's turnover taken as its receipts)."""
    fields: set[str] = set()
    for fact in facts:
        if fact.name in _PLAIN:
            fields.add(fact.name)
        elif fact.name in _RENAMED:
            fields.add(_RENAMED[fact.name])
        elif _yearly_amount(fact):
            fields.add(f"{_AMOUNT_FIELDS[fact.name]}_{fact.unit.lower()}")
    return fields


def _yearly_amount(fact: Fact) -> bool:
    return fact.name in _AMOUNT_FIELDS and bool(fact.unit) and fact.period != "month"


def amount_field(role: str, unit: str) -> str | None:
    """The condition field of a yearly amount of `role` in `unit` ("turnover", "EUR" →
    annual_turnover_eur), or None for a role that has none."""
    base = _AMOUNT_FIELDS.get(role)
    return f"{base}_{unit.lower()}" if base and unit else None


# Facts whose condition field only one country's rules read: said in another country's
# conversation they are no fact of the asker's ("my wife" of an American is no Dutch fiscal
# partner, "in Split" no Croatian municipality of a Dutch freelancer).
FIELD_SCOPE: dict[str, str] = {
    "heeft_partner": "NL",
    "partner_uren": "NL",
    "eigenwoningwaarde": "NL",
    "startersaftrek_ao_eerdere_jaren": "NL",
    "pension_second_pillar": "HR",
    "municipality_type": "HR",
    "city": "HR",
    "state_of_residence": "US",
}
_FACT_FIELDS = {**{name: name for name in _PLAIN}, **_RENAMED}


_HOME = {"hr": "HR", "nl": "NL", "en": "US"}


def home_of(language: str) -> str:
    """The country a conversation in `language` is about when it names none."""
    return _HOME.get(language, "US")


def in_scope(name: str, jurisdictions: Iterable[str]) -> bool:
    """Whether a fact (by its name or its condition field) belongs to one of `jurisdictions`."""
    scope = FIELD_SCOPE.get(_FACT_FIELDS.get(name, name))
    return scope is None or scope in set(jurisdictions)


def own_context(
    facts: Iterable[Fact], loose: Iterable[Fact], jurisdictions: Iterable[str]
) -> dict[str, Any]:
    """The condition context of the facts that are the asker's own (not supposed, not someone
    else's) and belong to the countries in play: what a conversation may keep."""
    where = tuple(jurisdictions)
    context = condition_context([f for f in facts if f.own], [f for f in loose if f.own])
    return {name: value for name, value in context.items() if in_scope(name, where)}

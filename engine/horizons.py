"""How far past its evidence a rule may still answer: verified-as-of and horizons.

A rule's `verified_as_of` is the last date its evidence speaks for. Between that date and the
rule's horizon Navod still answers, with a freshness warning naming the date and a lower
confidence; past the horizon the rule is not used and the refusal says until when the value is
known. The horizon depends on how often such a value changes: the rule's `stability` when the
pack states it (a statutory deadline that has not moved in decades is `stable`), else a default
read from its value type:

    stability  value types                         horizon after verified_as_of
    statutory  (only when the pack says so)         6 years   (a provision of an act)
    stable     percentage, years, integer, boolean  3 years   (rates and statutory ages)
    yearly     currency_eur, currency_usd          180 days  (thresholds, allowances, limits)
    frequent   date, text                          90 days   (deadlines, dates, procedures)

`statutory` is for what a provision of an act says in its own words, or an official text
quoting it: the goods a reduced VAT rate covers, an exemption, what an invoice must show. Such
a provision changes only when the act is amended, which is seldom (the Croatian 5 % list in
2013, 2017 and 2022), so its evidence speaks for two ordinary horizons; the answer still warns
how old the text is, and the concept's caveat names the amendments nobody checked.

A rule without `verified_as_of` has no horizon: the loader requires the date on every
PUBLISHED rule, so only hand-built test knowledge lacks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta
from enum import Enum

from engine.types import Rule, Stability, ValueType

HORIZON: Mapping[Stability, timedelta] = {
    "statutory": timedelta(days=6 * 365),
    "stable": timedelta(days=3 * 365),
    "yearly": timedelta(days=180),
    "frequent": timedelta(days=90),
}
STABILITY_OF: Mapping[ValueType, Stability] = {
    "percentage": "stable",
    "years": "stable",
    "integer": "stable",
    "boolean": "stable",
    "currency_eur": "yearly",
    "currency_usd": "yearly",
    "date": "frequent",
    "text": "frequent",
}


class Freshness(Enum):
    VERIFIED = "verified"  # the evidence speaks for the as-of date
    BEYOND_VERIFIED = "beyond_verified"  # later than the evidence, within the horizon: warn
    BEYOND_HORIZON = "beyond_horizon"  # too far past the evidence: do not answer


def horizon_end(rule: Rule) -> date | None:
    """The last date the rule may answer for, or None when it has no verified_as_of."""
    if rule.verified_as_of is None:
        return None
    return rule.verified_as_of + HORIZON[stability_of(rule)]


def stability_of(rule: Rule) -> Stability:
    """The pack's `stability` when given, else the default for the rule's value type."""
    return rule.stability or STABILITY_OF[rule.value_type]


def freshness(rule: Rule, as_of: date) -> Freshness:
    if rule.verified_as_of is None or as_of <= rule.verified_as_of:
        return Freshness.VERIFIED
    end = horizon_end(rule)
    return Freshness.BEYOND_VERIFIED if end is None or as_of <= end else Freshness.BEYOND_HORIZON

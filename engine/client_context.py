"""The request's `clientContext`: every fact about the asker the engine reads, typed and bounded.

The fields are the condition fields of the packs' `applies_when` rules, the facts their planning
topics' checklists name and the ones the question reader states (engine/understanding/context.py);
an unknown field is refused with its name (`clientContext.foo`), so a misspelt fact is a 400, not
a silently unconditional answer. Numbers are finite, never negative and integers where the engine
counts in whole units (a birth year of 1962.5 or NaN is no birth year); closed sets are enums.
The ranges are engine/bounds.py's, which the question reader and the facts API share; the facts
API validates each fact with this model (`fact_problem`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Final, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
    ValidationError,
)

from engine.bounds import FIRST_YEAR, HOURS_IN_A_YEAR, LARGEST_AMOUNT, OLDEST_AGE
from engine.dossier.model import FACT_TEXT_LIMIT
from engine.text.normalize import fold
from engine.understanding.facts import US_STATES

FIRST_BIRTH_YEAR: Final = FIRST_YEAR


def _whole_if_integral(value: float) -> int | float:
    # Strict floats accept JSON integers as floats: 45000 stays 45000 in what is stored and shown.
    return int(value) if value.is_integer() else value


def _whole_number(value: Any) -> Any:
    # A JSON number with no fraction (1962 or 1962.0) is a whole number; 1962.5, "1962", true,
    # NaN and infinities are not, and are left for the integer check to refuse with its name.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _this_year_at_most(schema: dict[str, Any]) -> None:
    schema["maximum"] = datetime.now(UTC).year  # documented as checked: this year, read now


def _not_in_the_future(year: int) -> int:
    # The pipeline reads no clock; the request's edge does, once, to bound a birth year.
    this_year = datetime.now(UTC).year
    if year > this_year:
        raise ValueError(f"a birth year is at most this year ({this_year})")
    return year


def _us_state(name: str) -> str:
    folded = fold(name)
    if folded not in US_STATES:
        raise ValueError("not a US state; write its name, e.g. 'florida' or 'new york'")
    return folded


Amount = Annotated[
    StrictFloat,
    Field(ge=0, le=LARGEST_AMOUNT, allow_inf_nan=False),
    AfterValidator(_whole_if_integral),
]
Hours = Annotated[
    StrictFloat,
    Field(ge=0, le=HOURS_IN_A_YEAR, allow_inf_nan=False),
    AfterValidator(_whole_if_integral),
]
BirthYear = Annotated[
    StrictInt,
    Field(ge=FIRST_BIRTH_YEAR, json_schema_extra=_this_year_at_most),
    BeforeValidator(_whole_number),
    AfterValidator(_not_in_the_future),
]
Age = Annotated[StrictInt, Field(ge=0, le=OLDEST_AGE), BeforeValidator(_whole_number)]
Text = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=FACT_TEXT_LIMIT)
]
Place = Annotated[Text, AfterValidator(fold)]  # conditions list places folded ("porec")
EntityType = Literal["pausalni_obrt", "obrt", "doo", "freelancer"]
MunicipalityType = Literal["grad", "grad_zagreb", "opcina"]
HealthCoverage = Literal["medicare", "employer", "marketplace", "none"]
HousingPlan = Literal["move", "downsize", "stay"]


class ClientContextIn(BaseModel):
    """What an APP client knows about the asker; every field optional (APP surface only)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # who the asker is
    birth_year: BirthYear | None = Field(default=None, description="1900..this year")
    age: Age | None = Field(default=None, description="0..130")
    spouse_birth_year: BirthYear | None = None
    spouse_age: Age | None = None
    state_of_residence: (
        Annotated[Text, AfterValidator(_us_state), Field(json_schema_extra={"enum": US_STATES})]
        | None
    ) = Field(default=None, description="a US state's name (any case and accents)")
    city: Place | None = Field(default=None, description="a Croatian city, e.g. 'split'")
    municipality_type: MunicipalityType | None = None
    heeft_partner: StrictBool | None = Field(default=None, description="has a fiscal partner")
    # the business
    entity_type: EntityType | None = None
    vat_registered: StrictBool | None = None
    pension_second_pillar: StrictBool | None = None
    hours_worked: Hours | None = Field(default=None, description="hours a year in the business")
    partner_uren: Hours | None = Field(default=None, description="the partner's hours a year")
    startersaftrek_ao_eerdere_jaren: Age | None = Field(
        default=None, description="earlier years the deduction was used"
    )
    payment_methods: Text | None = None
    # yearly amounts, by role and currency (the condition fields of thresholds and brackets)
    annual_receipts_eur: Amount | None = None
    annual_receipts_hrk: Amount | None = None
    annual_receipts_usd: Amount | None = None
    annual_turnover_eur: Amount | None = None
    annual_turnover_hrk: Amount | None = None
    annual_turnover_usd: Amount | None = None
    annual_revenue_eur: Amount | None = None
    annual_revenue_hrk: Amount | None = None
    annual_revenue_usd: Amount | None = None
    annual_income_eur: Amount | None = None
    annual_income_hrk: Amount | None = None
    annual_income_usd: Amount | None = None
    annual_profit_eur: Amount | None = None
    annual_profit_hrk: Amount | None = None
    annual_profit_usd: Amount | None = None
    pension_income_usd: Amount | None = None
    # holdings
    eigenwoningwaarde: Amount | None = Field(default=None, description="the home's WOZ value")
    home_value_usd: Amount | None = None
    estate_value_usd: Amount | None = None
    assets_ira_usd: Amount | None = None
    assets_401k_usd: Amount | None = None
    savings_usd: Amount | None = None
    # retirement plans
    retirement_date: (
        Annotated[str, StringConstraints(pattern=r"^\d{4}(-(0[1-9]|1[0-2]))?$")] | None
    ) = Field(default=None, description="YYYY or YYYY-MM")
    social_security_claim_age: Age | None = None
    medicare_enrolled: StrictBool | None = None
    health_coverage: HealthCoverage | None = None
    long_term_care_insurance: StrictBool | None = None
    housing_plan: HousingPlan | None = None
    has_will: StrictBool | None = None
    gifts_planned: StrictBool | None = None
    retirement_goal: Text | None = None
    travel_plans: Text | None = None

    def facts(self) -> dict[str, Any]:
        """The facts given, by condition field: what the engine reads as the client context."""
        return self.model_dump(exclude_none=True)


def checked_fact(name: str, value: Any) -> Any:
    """`value` as the fact `name`, typed and bounded as the clientContext field of that name
    ("Florida" becomes "florida", 45000.0 becomes 45000); ValueError naming the problem when
    it is none, so the facts API can never store a fact a request's clientContext would refuse
    (a boolean turnover, a birth year of -5 or 1962.5, an unknown fact)."""
    if name not in ClientContextIn.model_fields:
        known = ", ".join(sorted(ClientContextIn.model_fields))
        raise ValueError(f"unknown fact {name!r}; known: {known}")
    try:
        return ClientContextIn.model_validate({name: value}).facts()[name]
    except ValidationError as invalid:
        raise ValueError(f"not a valid {name}: {invalid.errors()[0]['msg']}") from None

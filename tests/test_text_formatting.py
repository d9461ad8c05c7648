"""format_number, format_value and format_date in each language's notation."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.text.formatting import format_date, format_number, format_value
from engine.text.quantities import extract_quantities
from engine.types import LANGUAGES, Language, ValueType

D = Decimal


@pytest.mark.parametrize(
    ("value", "language", "decimals", "expected"),
    [
        (D("60000.00"), "hr", None, "60.000,00"),
        (D("20000"), "nl", None, "20.000"),
        (D("2.5"), "nl", None, "2,5"),
        (D("7000"), "en", None, "7,000"),
        (D("7000"), "en", 2, "7,000.00"),
        (D("1134.5"), "hr", 2, "1.134,50"),
        (D("1134.567"), "en", 2, "1,134.57"),
        (D("999"), "hr", None, "999"),
        (D("1000000"), "nl", None, "1.000.000"),
        (D("0.5"), "hr", None, "0,5"),
        (D("25"), "en", 0, "25"),
        (D("-1500"), "hr", None, "-1.500"),
    ],
)
def test_format_number(
    value: Decimal, language: Language, decimals: int | None, expected: str
) -> None:
    assert format_number(value, language, decimals) == expected


@pytest.mark.parametrize(
    ("value", "value_type", "unit", "language", "expected"),
    [
        ("25", "percentage", "%", "hr", "25 %"),
        ("21", "percentage", "%", "nl", "21%"),
        ("21", "percentage", "%", "en", "21%"),
        ("8.10", "percentage", "%", "hr", "8,10 %"),
        ("60000", "currency_eur", "EUR", "hr", "60.000,00 EUR"),
        ("60000.00", "currency_eur", "", "hr", "60.000,00 EUR"),
        ("20000", "currency_eur", "", "nl", "€ 20.000"),
        ("20000.00", "currency_eur", "", "nl", "€ 20.000"),
        ("1134.5", "currency_eur", "", "nl", "€ 1.134,50"),
        ("40000", "currency_eur", "", "en", "€40,000"),
        ("1134.5", "currency_eur", "", "en", "€1,134.50"),
        ("7000", "currency_usd", "", "en", "$7,000"),
        ("7000", "currency_usd", "", "hr", "7.000,00 USD"),
        ("7000", "currency_usd", "", "nl", "$ 7.000"),
        ("1000", "integer", "", "hr", "1.000"),
        ("30", "integer", "dana", "hr", "30 dana"),
        ("21", "integer", "dana", "hr", "21 dan"),
        ("30", "integer", "dana", "nl", "30 dagen"),
        ("20", "integer", "dan u mjesecu", "hr", "20. dan u mjesecu"),
        ("20", "integer", "dan u mjesecu", "nl", "dag 20 van de maand"),
        (
            "15",
            "integer",
            "dana po isteku kalendarske godine",
            "en",
            "15 days after the end of the calendar year",
        ),
        ("24", "integer", "months", "hr", "24 mjeseca"),
        ("7", "integer", "months", "hr", "7 mjeseci"),
        ("1225", "integer", "uren", "en", "1,225 hours"),
        ("3", "integer", "godine", "nl", "3 jaar"),
        ("1500", "integer", "days", "en", "1,500 days"),
        ("73", "years", "", "hr", "73 godine"),
        ("67", "years", "", "hr", "67 godina"),
        ("73", "years", "", "nl", "73 jaar"),
        ("73", "years", "", "en", "73 years"),
        ("1", "years", "", "en", "1 year"),
        ("2025-01-01", "date", "", "hr", "1. siječnja 2025."),
        ("2025-01-01", "date", "", "nl", "1 januari 2025"),
        ("2025-01-01", "date", "", "en", "January 1, 2025"),
        ("true", "boolean", "", "hr", "da"),
        ("false", "boolean", "", "hr", "ne"),
        ("true", "boolean", "", "nl", "ja"),
        ("false", "boolean", "", "nl", "nee"),
        ("true", "boolean", "", "en", "yes"),
        ("false", "boolean", "", "en", "no"),
        ("mjesečno", "text", "", "hr", "mjesečno"),
        ("not a number", "integer", "", "en", "not a number"),
        ("not a date", "date", "", "en", "not a date"),
    ],
)
def test_format_value(
    value: str, value_type: ValueType, unit: str, language: Language, expected: str
) -> None:
    assert format_value(value, value_type, unit, language) == expected


@pytest.mark.parametrize(
    ("years", "expected"),
    [
        (1, "1 godina"),
        (2, "2 godine"),
        (4, "4 godine"),
        (5, "5 godina"),
        (11, "11 godina"),
        (12, "12 godina"),
        (14, "14 godina"),
        (20, "20 godina"),
        (21, "21 godina"),
        (22, "22 godine"),
        (65, "65 godina"),
        (67, "67 godina"),
        (72, "72 godine"),
        (73, "73 godine"),
        (75, "75 godina"),
        (101, "101 godina"),
        (112, "112 godina"),
    ],
)
def test_croatian_years_agree_with_the_number(years: int, expected: str) -> None:
    assert format_value(str(years), "years", "", "hr") == expected


@pytest.mark.parametrize(
    ("day", "language", "expected"),
    [
        (date(2025, 1, 1), "hr", "1. siječnja 2025."),
        (date(2025, 2, 28), "hr", "28. veljače 2025."),
        (date(2013, 7, 1), "hr", "1. srpnja 2013."),
        (date(2025, 11, 30), "hr", "30. studenoga 2025."),
        (date(2025, 3, 15), "hr", "15. ožujka 2025."),
        (date(2025, 1, 1), "nl", "1 januari 2025"),
        (date(2024, 3, 31), "nl", "31 maart 2024"),
        (date(2025, 1, 1), "en", "January 1, 2025"),
        (date(2024, 12, 31), "en", "December 31, 2024"),
    ],
)
def test_format_date(day: date, language: Language, expected: str) -> None:
    assert format_date(day, language) == expected


@given(st.decimals(min_value=0, max_value=10**7, places=2), st.sampled_from(LANGUAGES))
def test_currency_reads_back_as_money(value: Decimal, language: Language) -> None:
    text = format_value(str(value), "currency_eur", "", language)
    amounts = extract_quantities(text, language).amounts
    assert [(money.value, money.currency) for money in amounts] == [(value, "EUR")]


@given(st.decimals(min_value=0, max_value=100, places=2), st.sampled_from(LANGUAGES))
def test_percentage_reads_back(value: Decimal, language: Language) -> None:
    text = format_value(str(value), "percentage", "%", language)
    assert extract_quantities(text, language).percentages == (value,)

"""extract_quantities, numbers_stated and value_stated across hr/nl/en notations."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.text.formatting import format_date, format_number
from engine.text.quantities import (
    Money,
    extract_quantities,
    numbers_stated,
    value_stated,
)
from engine.types import LANGUAGES, Language, ValueType

D = Decimal


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("60.000,00", "hr", D("60000")),
        ("60 000", "hr", D("60000")),
        ("60\u00a0000", "nl", D("60000")),
        ("60,000.00", "en", D("60000")),
        ("20.000", "hr", D("20000")),
        ("20.000", "nl", D("20000")),
        ("20.000", "en", D("20")),
        ("2,5", "hr", D("2.5")),
        ("2,5", "nl", D("2.5")),
        ("2.5", "en", D("2.5")),
        ("7,000", "en", D("7000")),
        ("7,000", "hr", D("7")),
        ("1.000.000", "hr", D("1000000")),
        ("1,000,000", "en", D("1000000")),
        ("39.816,84", "hr", D("39816.84")),
        ("0,500", "nl", D("0.5")),
        ("1234,567", "hr", D("1234.567")),
        ("čl. 38", "hr", D("38")),
    ],
)
def test_number_notation(text: str, language: Language, expected: Decimal) -> None:
    assert extract_quantities(text, language).numbers == (expected,)


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("25 %", "hr", D("25")),
        ("25%", "en", D("25")),
        ("25\u00a0%", "hr", D("25")),
        ("21 percent", "en", D("21")),
        ("21 posto", "hr", D("21")),
        ("9 procent", "nl", D("9")),
        ("8,10 %", "hr", D("8.1")),
        ("13,5%", "nl", D("13.5")),
    ],
)
def test_percentages(text: str, language: Language, expected: Decimal) -> None:
    quantities = extract_quantities(text, language)
    assert quantities.percentages == (expected,)
    assert quantities.numbers == ()


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("60.000,00 eura", "hr", Money(D("60000"), "EUR")),
        ("€ 20.000", "nl", Money(D("20000"), "EUR")),
        ("20.000 euro", "nl", Money(D("20000"), "EUR")),
        ("EUR 40.000", "hr", Money(D("40000"), "EUR")),
        ("€40,000", "en", Money(D("40000"), "EUR")),
        ("$7,000", "en", Money(D("7000"), "USD")),
        ("7,000 dollars", "en", Money(D("7000"), "USD")),
        ("USD 7,000", "en", Money(D("7000"), "USD")),
        ("300.000,00 kuna", "hr", Money(D("300000"), "HRK")),
        ("300.000 kn", "hr", Money(D("300000"), "HRK")),
        ("HRK 300.000", "hr", Money(D("300000"), "HRK")),
        ("€ 1 134", "nl", Money(D("1134"), "EUR")),
        ("€ 1.134,50", "nl", Money(D("1134.5"), "EUR")),
    ],
)
def test_money(text: str, language: Language, expected: Money) -> None:
    quantities = extract_quantities(text, language)
    assert quantities.amounts == (expected,)
    assert quantities.numbers == ()


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("2024.", "hr", (2024,)),
        ("in 2019", "en", (2019,)),
        ("za 2024", "hr", (2024,)),
        ("u 2023. godini", "hr", (2023,)),
        ("od 2013. do 2024.", "hr", (2013, 2024)),
        ("1899 2101", "en", ()),
        ("2.024", "hr", ()),
    ],
)
def test_years(text: str, language: Language, expected: tuple[int, ...]) -> None:
    assert extract_quantities(text, language).years == expected


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("1. siječnja 2025.", "hr", date(2025, 1, 1)),
        ("1. sijecnja 2025.", "hr", date(2025, 1, 1)),
        ("1.1.2025.", "hr", date(2025, 1, 1)),
        ("01.01.2025", "hr", date(2025, 1, 1)),
        ("1. 7. 2013.", "hr", date(2013, 7, 1)),
        ("per 1 januari 2024", "nl", date(2024, 1, 1)),
        ("January 1, 2025", "en", date(2025, 1, 1)),
        ("January 1st, 2025", "en", date(2025, 1, 1)),
        ("2025-01-01", "en", date(2025, 1, 1)),
        ("1 January 2025", "en", date(2025, 1, 1)),
        ("31/12/2024", "nl", date(2024, 12, 31)),
        ("12/31/2024", "en", date(2024, 12, 31)),
        ("1. veljače 2025.", "hr", date(2025, 2, 1)),
        ("3. ožujka 2025.", "hr", date(2025, 3, 3)),
        ("30. travnja 2025.", "hr", date(2025, 4, 30)),
        ("15. svibnja 2025.", "hr", date(2025, 5, 15)),
        ("1. lipnja 2025.", "hr", date(2025, 6, 1)),
        ("1. srpnja 2013.", "hr", date(2013, 7, 1)),
        ("31. kolovoza 2025.", "hr", date(2025, 8, 31)),
        ("30. rujna 2025.", "hr", date(2025, 9, 30)),
        ("31. listopada 2025.", "hr", date(2025, 10, 31)),
        ("1. studenoga 2025.", "hr", date(2025, 11, 1)),
        ("1. studenog 2025.", "hr", date(2025, 11, 1)),
        ("31. prosinca 2025.", "hr", date(2025, 12, 31)),
        ("1. Siječanj 2025.", "hr", date(2025, 1, 1)),
        ("1. svibanj 2025", "hr", date(2025, 5, 1)),
        ("1 maart 2025", "nl", date(2025, 3, 1)),
        ("1 oktober 2025", "nl", date(2025, 10, 1)),
        ("April 1, 2025", "en", date(2025, 4, 1)),
    ],
)
def test_dates(text: str, language: Language, expected: date) -> None:
    quantities = extract_quantities(text, language)
    assert quantities.dates == (expected,)
    assert expected.year in quantities.years
    assert quantities.numbers == ()


@pytest.mark.parametrize("text", ["31.02.2025.", "30. veljače 2025.", "2025-13-01"])
def test_impossible_dates_are_not_dates(text: str) -> None:
    assert extract_quantities(text, "hr").dates == ()


def test_mixed_sentence() -> None:
    text = "Od 1. siječnja 2025. prag iznosi 60.000,00 eura, a stopa 25 % za 2024. i 3 mjeseca."
    quantities = extract_quantities(text, "hr")
    assert quantities.dates == (date(2025, 1, 1),)
    assert quantities.amounts == (Money(D("60000"), "EUR"),)
    assert quantities.percentages == (D("25"),)
    assert quantities.years == (2025, 2024)
    assert quantities.numbers == (D("3"),)


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("60.000,00 eura", D("60000")),
        ("€ 20.000", D("20000")),
        ("$7,000", D("7000")),
        ("21 percent", D("21")),
        ("25 %", D("25")),
        ("39.816,84", D("39816.84")),
        ("€ 1 134", D("1134")),
        ("8,10 %", D("8.1")),
        ("8,10 %", D("8.10")),
        ("stopa 25,0 %", D("25")),
        ("20.000", D("20")),  # both conventions are tried
        ("1. siječnja 2025.", D("2025")),
        ("1.1.2025.", D("1")),
        ("u 2019 300 osoba", D("300")),
    ],
)
def test_numbers_stated(text: str, stated: Decimal) -> None:
    assert stated in numbers_stated(text)


@pytest.mark.parametrize(
    ("text", "not_stated"),
    [
        ("60.000,00 eura", D("60001")),
        ("€ 1 134", D("0")),
        ("1.1.2025.", D("1.1")),
        ("25 %", D("2.5")),
        ("", D("0")),
    ],
)
def test_numbers_not_stated(text: str, not_stated: Decimal) -> None:
    assert not_stated not in numbers_stated(text)


@pytest.mark.parametrize(
    ("value", "value_type", "text", "expected"),
    [
        ("25", "percentage", "opće stope PDV-a 25 %", True),
        ("25.00", "percentage", "opće stope PDV-a 25 %", True),
        ("13", "percentage", "opće stope PDV-a 25 %", False),
        ("40000.00", "currency_eur", "iznosi 40.000,00 eura", True),
        ("60000", "currency_eur", "iznosi 60.000,00 eura", True),
        ("20000", "currency_eur", "omzet van € 20.000", True),
        ("7000", "currency_usd", "up to $7,000", True),
        ("7500", "currency_usd", "up to $7,000", False),
        ("73", "years", "attains age 73", True),
        ("75", "years", "attains age 73", False),
        ("3", "integer", "within 3 days", True),
        ("abc", "integer", "within 3 days", False),
        ("NaN", "integer", "within 3 days", False),
        ("2025-04-01", "date", "od 1. travnja 2025.", True),
        ("2025-04-01", "date", "April 1, 2025", True),
        ("2025-04-01", "date", "per 1 april 2025", True),
        ("2025-04-01", "date", "01.04.2025.", True),
        ("2025-04-01", "date", "dana 1, mjeseca 4, godine 2025", True),
        ("2025-04-01", "date", "od 1. svibnja 2025.", False),
        ("not-a-date", "date", "od 1. svibnja 2025.", False),
        ("true", "boolean", "anything at all", True),
        ("false", "boolean", "", True),
        ("porezni obveznik", "text", "Porezni\u00a0obveznik je osoba", True),
        ("„pravna osoba“", "text", 'svaka "pravna osoba" koja', True),
        ("fizička osoba", "text", "pravna osoba", False),
    ],
)
def test_value_stated(value: str, value_type: ValueType, text: str, expected: bool) -> None:
    assert value_stated(value, value_type, text) is expected


amounts = st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False)


@given(amounts, st.sampled_from(LANGUAGES))
def test_formatted_number_reads_back(value: Decimal, language: Language) -> None:
    text = format_number(value, language)
    assert extract_quantities(text, language).numbers == (value,)
    assert value in numbers_stated(text)


@given(
    st.dates(min_value=date(1900, 1, 1), max_value=date(2100, 12, 31)), st.sampled_from(LANGUAGES)
)
def test_formatted_date_reads_back(day: date, language: Language) -> None:
    text = format_date(day, language)
    assert extract_quantities(text, language).dates == (day,)
    assert value_stated(day.isoformat(), "date", text)

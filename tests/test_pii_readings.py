"""When a number is an identifier and when another reading of its digits wins: the rules of
engine/guardrails/pii/readings.py and numbers.py as a table, then properties: amounts, dates,
years and percentages keep their numbers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.guardrails.pii import detect_pii, redact


def _redacted(text: str) -> str:
    return redact(text, detect_pii(text))


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        # The spellings issue 12 found stored raw.
        ("OIB 123 456 789 03 molim", "OIB [OIB] molim"),
        ("OIB 123-456-789-03", "OIB [OIB]"),
        ("OIB 12345\u200b678903", "OIB [OIB]"),
        ("OIB \u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669\u0660\u0663", "OIB [OIB]"),
        ("Plaća 12345678903 kn mjesečno", "Plaća [OIB] kn mjesečno"),
        ("Plaća 12345678903kn", "Plaća [OIB]kn"),
        ("Mijn BSN is 111 222 333", "Mijn BSN is [BSN]"),
        ("Mijn nummer is 111.222.333", "Mijn nummer is [BSN]"),
        ("SSN 536 90 4399 please", "SSN [SSN] please"),
        ("My number is 536904399, what now?", "My number is [SSN], what now?"),
        ("IBAN HR12-1001-0051-8630-0016-0", "IBAN [IBAN]"),
        # Full-width forms, no-break and narrow spaces, Unicode dashes.
        (
            "\uff28\uff32\uff11\uff12\uff11\uff10\uff10\uff11\uff10\uff10\uff15\uff11\uff18\uff16"
            "\uff13\uff10\uff10\uff10\uff11\uff16\uff10 je moj",
            "[IBAN] je moj",
        ),
        ("SSN 536\u00a090\u202f4399", "SSN [SSN]"),
        ("OIB 123\u2013456\u2013789\u201303", "OIB [OIB]"),
        ("nl91-abna-0417-1643-00 graag", "[IBAN] graag"),
        # A keyword says what the number is, whatever the currency after it.
        ("OIB: 12345678903 eura", "OIB: [OIB] eura"),
        # Digit by digit is one number only as a whole.
        ("1 2 3 4 5 6 7 8 9 0 3", "[OIB]"),
        # A date before an identifier leaves the identifier alone.
        ("Od 1.1.2025. OIB 12345678903", "Od 1.1.2025. OIB [OIB]"),
        # The same digits are personal data wherever they appear again, in any spelling.
        ("BSN 102030406 en 102 030 406 £", "BSN [BSN] en [BSN] £"),
    ],
)
def test_identifiers_in_their_spellings(text: str, redacted: str) -> None:
    assert _redacted(text) == redacted


@pytest.mark.parametrize(
    "text",
    [
        # Amounts: a currency sign or word next to the number, thousands grouping with money.
        "Ukupno 12345678903 eura prometa?",
        "Total 123,456,789 dollars",
        "Total 123.456.789 dollars",
        "Imovina $ 536 904 399",
        "Promet 536.904.399,00 EUR",
        "Revenue 536904399 USD",
        "123 456 789 PDV",
        "Omzet 536.904.399, hoeveel btw?",
        "A rate of 536904399% is impossible",
        "Prihod 536904399,50 eura",
        # Dates and year ranges, and numbers that run on from them.
        "Razdoblje 01.01.2024.-31.12.2024.",
        "Periode 2020-2024 en 2025-2030",
        "Od 01.02.2024 536 do kraja",
        # A ZIP+4 code, lists of numbers and two numbers side by side.
        "ZIP 10001-1234, New York",
        "Stope 5 13 25 2024",
        "Stope 5 13 25 i 536 90",
        # A number its own keyword's check rejects is not that identifier.
        "Mijn BSN is 123456783",
        # Checksums that fail.
        "Dossiernummer 987654321",
        "OIB 12345678904",
        "IBAN HR12-1001-0051-8630-0016-1",
    ],
)
def test_other_readings_keep_their_numbers(text: str) -> None:
    assert detect_pii(text) == ()


def test_a_nine_digit_number_valid_both_ways_is_a_bsn_in_dutch_and_an_ssn_elsewhere() -> None:
    dutch, english = "Graag de aanslag voor 102030406", "Please file for 102030406"
    assert [f.type for f in detect_pii(dutch)] == ["BSN"]
    assert [f.type for f in detect_pii(english)] == ["SSN"]


def test_a_phone_reading_wins_over_a_bare_nine_digit_number() -> None:
    assert [f.type for f in detect_pii("Ured: 01 4567 890, radno vrijeme?")] == ["PHONE"]
    assert [f.type for f in detect_pii("SSN 014 56 7890")] == ["SSN"]


# Numbers a question about tax or retirement carries: none of them is personal data.
AMOUNTS = st.builds(
    lambda n, sep, cur, dec: f"{n:,}".replace(",", sep) + dec + cur,
    st.integers(0, 10**12),
    st.sampled_from([",", ".", " ", "\u00a0"]),
    st.sampled_from([" eura", " EUR", " €", " kn", " dollars", "$", " USD", " %", " posto"]),
    st.sampled_from(["", ",00", ".50"]),
)
DATES = st.builds(
    lambda d, m, y, sep, iso: f"{y}{sep}{m:02d}{sep}{d:02d}" if iso else f"{d}{sep}{m}{sep}{y}.",
    st.integers(1, 28),
    st.integers(1, 12),
    st.integers(1900, 2099),
    st.sampled_from([".", "-", "/"]),
    st.booleans(),
)
YEARS = st.builds(
    lambda a, b, sep: f"{min(a, b)}{sep}{max(a, b) + 1}",
    st.integers(1950, 2090),
    st.integers(1950, 2090),
    st.sampled_from(["-", "/", "\u2013"]),
)
NUMBERS = st.one_of(AMOUNTS, DATES, YEARS, st.integers(0, 10**8).map(str))


@settings(max_examples=300, deadline=None)
@given(st.lists(NUMBERS, min_size=1, max_size=4), st.sampled_from(["hr", "nl", "en"]))
def test_amounts_dates_years_and_percentages_keep_their_numbers(
    numbers: list[str], language: str
) -> None:
    words = {"hr": "iznos je", "nl": "het bedrag is", "en": "the amount is"}[language]
    text = f"{words} " + f" {words} ".join(numbers) + "?"
    assert detect_pii(text) == (), text

"""The dates Navod holds a fact for (engine/pipeline/held.py): merged periods, said in each
language, and the year a refusal offers to ask instead."""

from __future__ import annotations

from datetime import date

import pytest

from engine.pipeline.held import Period, say_period, say_periods, year_held
from engine.types import Language

YEARS_2025_2026: Period = (date(2025, 1, 1), date(2026, 12, 31))


@pytest.mark.parametrize(
    ("period", "language", "said"),
    [
        ((date(2024, 1, 1), date(2024, 12, 31)), "en", "for 2024"),
        ((date(2024, 1, 1), date(2024, 12, 31)), "hr", "za 2024."),
        (YEARS_2025_2026, "en", "for 2025 and 2026"),
        (YEARS_2025_2026, "nl", "voor 2025 en 2026"),
        (YEARS_2025_2026, "hr", "za 2025. i 2026."),
        ((date(2018, 1, 1), date(2022, 12, 31)), "hr", "od 2018. do 2022."),
        ((date(2018, 1, 1), date(2022, 12, 31)), "nl", "van 2018 tot en met 2022"),
        (
            (date(2017, 1, 1), date(2022, 3, 31)),
            "en",
            "from January 1, 2017 to March 31, 2022",
        ),
        (
            (date(2017, 1, 1), date(2022, 3, 31)),
            "hr",
            "od 1. siječnja 2017. do 31. ožujka 2022.",
        ),
        ((date(2021, 7, 1), None), "nl", "vanaf 1 juli 2021"),
    ],
)
def test_a_period_is_said_in_whole_years_when_it_is_whole_years(
    period: Period, language: Language, said: str
) -> None:
    assert say_period(period, language) == said


def test_several_periods_are_joined_nearest_to_the_date_asked() -> None:
    periods = [
        (date(2010, 1, 1), date(2010, 12, 31)),
        (date(2014, 1, 1), date(2017, 12, 30)),
        (date(2020, 1, 1), date(2023, 12, 31)),
        (date(2025, 1, 1), date(2025, 12, 31)),
    ]
    said = say_periods(periods, date(2019, 1, 1), "en")
    assert said == "from January 1, 2014 to December 30, 2017, from 2020 to 2023 and for 2025"


@pytest.mark.parametrize(
    ("periods", "asked", "year"),
    [
        ([(date(2025, 1, 1), date(2025, 12, 31))], date(2026, 11, 22), 2025),
        ([(date(2022, 1, 1), date(2026, 12, 31))], date(2015, 1, 1), 2022),
        # a period starting mid-year holds 1 January only of the years after its start
        ([(date(2020, 4, 1), None)], date(2019, 1, 1), 2021),
        # the current year is read as today: offered only when today is held
        ([(date(2026, 1, 1), date(2026, 12, 31))], date(2025, 1, 1), 2026),
        ([(date(2026, 1, 1), date(2026, 3, 31))], date(2025, 1, 1), None),
        # the year asked is never offered back
        ([(date(2017, 1, 1), date(2022, 3, 31))], date(2022, 6, 1), 2021),
    ],
)
def test_the_year_offered_is_the_nearest_a_question_naming_it_is_answered_for(
    periods: list[Period], asked: date, year: int | None
) -> None:
    assert year_held(periods, asked, today=date(2026, 11, 22)) == year

"""Stage: decide the date the rules are evaluated for.

The request's asOfDate wins, then a date in the question, then a year in the question, then
today (an input, never the clock). A past or future year means 1 January of that year; the
current year means today, so "in 2026" asked in November sees November's rules.
"""

from __future__ import annotations

from datetime import date

from engine.pipeline.state import StageResult, State


def choose_as_of_date(state: State) -> StageResult:
    question, analysis = state.question, state.analysis
    assert analysis is not None
    birth_year = analysis.facts.get("birth_year")
    years = tuple(y for y in analysis.quantities.years if y != birth_year)
    as_of, origin = _choose(question.as_of, analysis.quantities.dates, years, question.today)
    return StageResult({"as_of": as_of, "as_of_origin": origin}, f"{as_of.isoformat()} ({origin})")


def _choose(
    requested: date | None, dates: tuple[date, ...], years: tuple[int, ...], today: date
) -> tuple[date, str]:
    if requested is not None:
        return requested, "request"
    if dates:
        return dates[0], "question_date"
    if years:
        year = years[0]
        return (
            (today, "question_year") if year == today.year else (date(year, 1, 1), "question_year")
        )
    return today, "today"

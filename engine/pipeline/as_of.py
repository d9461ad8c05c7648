"""Stage: decide the date the rules are evaluated for.

A request dated in the past wins: it is a deliberate "as of" (the page's date field, a client
replaying a day), and the question is read on that day. A request dated today or later says
only "now", so the time the question names wins over it (engine/understanding/times.py: a date,
a month and year, a year, the end of a range): "the 2022 credit" asked by a client that sends
today's date with every question is 2022's, never today's value under the 2022 question. Then
the request's date, then today (an input, never the clock). A past or future year means
1 January of that year; the current year and the current month mean today, so "in 2026" asked
in November sees November's rules. A birth date or a year that belongs to an amount is a stated
fact, never the as-of date.
"""

from __future__ import annotations

from engine.pipeline.state import StageResult, State

_ORIGIN = {
    "date": "question_date",
    "month": "question_date",
    "year": "question_year",
    "relative_year": "question_year",
    "range": "question_year",
    "now": "today",
}


def choose_as_of_date(state: State) -> StageResult:
    question, analysis = state.question, state.analysis
    assert analysis is not None and analysis.reading is not None
    time = analysis.reading.time
    named = time is not None and time.kind in ("date", "month", "year", "range")
    deliberate = question.as_of is not None and question.as_of < question.today
    if question.as_of is not None and (deliberate or not named):
        as_of, origin = question.as_of, "request"
    elif time is not None:
        as_of = time.end if time.kind == "range" and time.end is not None else time.start
        origin = _ORIGIN[time.kind]
    else:
        as_of, origin = question.today, "today"
    return StageResult({"as_of": as_of, "as_of_origin": origin}, f"{as_of.isoformat()} ({origin})")

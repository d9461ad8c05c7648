"""The dates Navod holds a fact for, and how to say them.

A refusal for a date Navod has no value on says which dates it does hold ("for 2025 and
2026", "from 1 January 2017 to 31 March 2022") rather than a bare "try another date", and
offers the fact asked for a year it holds (engine/pipeline/related.py). A rule answers from
its start to its end or, when its evidence is older, to its horizon (engine/horizons.py);
the periods are those of the concept's published rules, merged where one follows another.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, timedelta

from engine.horizons import horizon_end
from engine.snapshot import Snapshot
from engine.text.formatting import format_date
from engine.types import Language, Rule

Period = tuple[date, date | None]  # first and last day in force; None: still in force
T = Mapping[Language, str]

_YEARS: Mapping[int, T] = {  # a period of whole calendar years, by how many it spans
    1: {"hr": "za {first}.", "nl": "voor {first}", "en": "for {first}"},
    2: {"hr": "za {first}. i {last}.", "nl": "voor {first} en {last}",
        "en": "for {first} and {last}"},
    3: {"hr": "od {first}. do {last}.", "nl": "van {first} tot en met {last}",
        "en": "from {first} to {last}"},
}  # fmt: skip
_DAYS: T = {
    "hr": "od {start} do {end}",
    "nl": "van {start} tot en met {end}",
    "en": "from {start} to {end}",
}
_OPEN: T = {"hr": "od {start}", "nl": "vanaf {start}", "en": "from {start}"}
_AND: T = {"hr": " i ", "nl": " en ", "en": " and "}
MAX_SAID = 3  # periods named in a refusal, the nearest to the date asked


def held_periods(snapshot: Snapshot, slug: str) -> tuple[Period, ...]:
    """The periods the concept's published rules answer for, oldest first, merged."""
    rules = sorted(
        (r for r in snapshot.rules_by_concept.get(slug, ()) if r.status == "PUBLISHED"),
        key=lambda r: r.effective_from,
    )
    merged: list[Period] = []
    for rule in rules:
        start, end = answers_for(rule)
        if merged and _reaches(merged[-1], start):
            first, last = merged[-1]
            merged[-1] = (first, None if last is None or end is None else max(last, end))
        else:
            merged.append((start, end))
    return tuple(merged)


def answers_for(rule: Rule) -> Period:
    """The days a rule answers for: from its start to its last day in force or its horizon,
    whichever comes first."""
    ends = [rule.effective_until - timedelta(days=1)] if rule.effective_until else []
    horizon = horizon_end(rule)
    ends += [horizon] if horizon is not None else []
    return rule.effective_from, min(ends, default=None)


def _reaches(period: Period, day: date) -> bool:
    """Whether `day` lies in the period or is the day after it ends (the next rule follows on)."""
    end = period[1]
    return end is None or day <= end + timedelta(days=1)


def say_period(period: Period, language: Language) -> str:
    """One period in words: whole calendar years by their numbers, else from day to day."""
    start, end = period
    if end is None:
        return _OPEN[language].format(start=format_date(start, language))
    if (start.month, start.day, end.month, end.day) == (1, 1, 12, 31):
        count = min(end.year - start.year + 1, 3)
        return _YEARS[count][language].format(first=start.year, last=end.year)
    return _DAYS[language].format(
        start=format_date(start, language), end=format_date(end, language)
    )


def say_periods(periods: Sequence[Period], asked: date, language: Language) -> str:
    """The periods in words, at most MAX_SAID of them (those nearest the date asked)."""
    nearest = sorted(periods, key=lambda p: _distance(p, asked))[:MAX_SAID]
    said = [say_period(period, language) for period in sorted(nearest)]
    return ", ".join(said[:-1]) + _AND[language] + said[-1] if len(said) > 1 else "".join(said)


def _distance(period: Period, day: date) -> int:
    start, end = period
    if day < start:
        return (start - day).days
    return 0 if end is None else max(0, (day - end).days)


def year_held(periods: Sequence[Period], asked: date, today: date) -> int | None:
    """The year nearest the date asked, other than its own, that a question naming it is
    answered for: a past or future year is read as its 1 January, the current one as today
    (engine/pipeline/as_of.py)."""
    years = {
        year
        for start, end in periods
        for year in range(start.year, (end or max(asked, today, start)).year + 1)
        if year != asked.year
        and any(_holds(p, today if year == today.year else date(year, 1, 1)) for p in periods)
    }
    return min(years, key=lambda year: (abs(year - asked.year), -year), default=None)


def _holds(period: Period, day: date) -> bool:
    start, end = period
    return start <= day and (end is None or day <= end)

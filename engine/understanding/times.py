"""The time a question is about: a date, a month and year, a year, a relative year, a range.

Spans that belong to stated facts (a birth date, the "last year" of a turnover) are skipped, so
they never become the as-of date; a year that is part of an amount ("2018 kuna"), a gazette
reference ("NN 114/2023") or an article number is not a date.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from itertools import islice

from engine.text.dates import MONTH_NUMBERS, find_dates
from engine.text.quantities import MAX_NUMBERS as MAX_MATCHES
from engine.types import Language
from engine.understanding.frame import TimeRef

Span = tuple[int, int]

_MONTH = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
_MONTH_YEAR = re.compile(
    rf"\b(?P<month>{_MONTH})\b\.?,?\s*(?:(?:of|van|godine)\s+)?(?P<year>(?:19|20)\d\d)(?!\d)\.?"
    r"|(?<![\d./-])(?P<m>0?[1-9]|1[0-2])[./](?P<y>(?:19|20)\d\d)(?![\d./])"
    r"|(?<![\d./-])(?P<y2>(?:19|20)\d\d)-(?P<m2>0[1-9]|1[0-2])(?![\d-])"
)
# A day and a month without a year ("op 1 januari", "by April 1st"): a day the asker names in
# their plans; it is read (not left unexplained) but moves no as-of date.
_DAY_MONTH = re.compile(
    rf"\b(?:[1-9]|[12]\d|3[01])\.?\s+(?:{_MONTH})\b"
    rf"|\b(?:{_MONTH})\s+(?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?\b(?!\s*,?\s*(?:19|20)\d\d)"
)
_RANGE = re.compile(
    r"(?:\b(?:od|from|van|between|tussen|izmedu)\s+)?(?<![\d/.])(?P<a>(?:19|20)\d\d)\.?\s*"
    r"(?:-|–|—|do|to|until|till|through|tot|and|en|t/m)\s*(?:\w+\s+)?(?P<b>(?:19|20)\d\d)(?!\d)\.?"
)
# "tax year 2025", "belastingjaar 2024", "porezna godina 2023": the year's own name is time too
_YEAR = re.compile(
    r"(?:\b(?:(?:tax|fiscal|calendar|plan) years?|belastingjaar|kalenderjaar|"
    r"porezn\w* godin\w*|kalendarsk\w* godin\w*)\s+)?"
    r"(?<![\d/.,€$])(?P<y>(?:19|20)\d\d)(?!\d|[.,]\d)\.?"
)
# What may not stand right before a year that is a date: a gazette issue, an article, a number.
_NOT_A_YEAR_BEFORE = re.compile(
    r"(?:/|nn\s*\d*|cl\.?|clanak|clanka|clanku|article|art\.?|artikel|br\.?|broj|no\.?|nr\.?|"
    r"number|§|notice|rev\.? proc\.?|pub\.?|publication|form|obrazac)\s*$"
)
# A currency after a year does not make it an amount ("prag 2018 kuna" asks for 2018, in kuna);
# a multiplier, a percent sign or a decimal part does.
_NOT_A_YEAR_AFTER = re.compile(r"\s?(?:k\b|tisuc\w*|duizend|thousand|%|posto|percent|procent)")
_DIGIT = re.compile(r"\d")
# "before" a year (Dutch "voor" is also "for", so it is not read this way)
_BEFORE = re.compile(r"\b(?:prije|before|prior to)\s+$")
_SINCE = re.compile(r"\b(?:od|sinds|since|vanaf|from)\s+$")
_RELATIVE = (
    (0, re.compile(r"\b(?:ove|ovu|ovoj|tekuce|tekucoj) godin\w*|\bthis year\b|\bcurrent year\b|"
                   r"\bdit jaar\b|\bhuidige jaar\b|\blopende jaar\b|\bovogodisnj\w*")),
    (-1, re.compile(r"\b(?:prosle|proslu|prosloj|prethodne|prethodnoj) godin\w*|\blani\b|"
                    r"\blast year\b|\bprevious year\b|\bvorig(?:e)? jaar\b|\bafgelopen jaar\b")),
    (1, re.compile(r"\b(?:sljedece|iduce|naredne|sljedecu|iducu|slijedece) godin\w*|\bdogodine\b|"
                   r"\bnext year\b|\bvolgend(?:e)? jaar\b|\bkomend(?:e)? jaar\b|"
                   r"\bcoming year\b")),
)  # fmt: skip
_NOW = re.compile(
    r"\b(?:danas|trenutno|trenutacno|sada|sad(?!-)|today|now|currently|right now|at the moment|"
    r"vandaag|momenteel|op dit moment|tegenwoordig|nu)\b"
)


def read_time(
    folded: str,
    language: Language,
    taken: tuple[Span, ...],
    today: date,
    asking: Callable[[int], bool] | None = None,
) -> tuple[TimeRef | None, tuple[Span, ...], tuple[tuple[int, Span], ...]]:
    """The question's time reference, every span read as time (dates, years, phrases), and
    each year written as a time, with where (a range's two ends included), in text order.

    `asking(offset)` says whether an offset is in a sentence that asks (when some sentence
    ends in "?"): a time written there wins. Otherwise the time nearest the question does,
    except one that only says since when the asker's situation holds ("obrt od 2021.",
    "sinds vorig jaar")."""
    found: list[tuple[int, TimeRef, Span]] = []  # (rank, ref, span): lower rank wins
    numbers = MAX_MATCHES if _DIGIT.search(folded) else 0  # dates and years need a digit

    def free(span: Span) -> bool:
        return not any(a < span[1] and span[0] < b for a, b in (*taken, *spans))

    spans: list[Span] = []
    named: list[tuple[int, Span]] = []  # every year written as a time
    for match in islice(_RANGE.finditer(folded), numbers):
        first, last = int(match.group("a")), int(match.group("b"))
        if first < last and free(match.span()):
            named += [(first, match.span("a")), (last, match.span("b"))]
            end = min(date(last, 12, 31), today) if last >= today.year else date(last, 12, 31)
            ref = TimeRef("range", date(first, 1, 1), match.group(), end)
            found.append((0, ref, match.span()))
            spans.append(match.span())
    for day in find_dates(folded, language)[:numbers] if numbers else ():
        where = (day.start, day.end)
        if free(where):
            found.append((1, TimeRef("date", day.value, folded[where[0] : where[1]]), where))
            spans.append(where)
    for match in islice(_MONTH_YEAR.finditer(folded), numbers):
        if not free(match.span()):
            continue
        month = match.group("month") or match.group("m") or match.group("m2")
        year = int(match.group("year") or match.group("y") or match.group("y2"))
        number = MONTH_NUMBERS[month] if month in MONTH_NUMBERS else int(month)
        start = date(year, number, 1)
        if (year, number) == (today.year, today.month):
            start = today
        found.append((2, TimeRef("month", start, match.group()), match.span()))
        spans.append(match.span())
    years: list[tuple[int, Span]] = []
    for match in islice(_YEAR.finditer(folded), numbers):
        if free(match.span()) and _is_a_year(folded, match):
            years.append((int(match.group("y")), match.span()))
            spans.append(match.span())
    named = sorted([*named, *years], key=lambda item: item[1])
    if len({y for y, _ in years}) > 1:  # two years named: the history between them
        first, last = min(y for y, _ in years), max(y for y, _ in years)
        end = min(date(last, 12, 31), today)
        words = " ".join(folded[a:b] for _, (a, b) in years)
        found.append((0, TimeRef("range", date(first, 1, 1), words, end), years[0][1]))
    elif years:
        year, (first_at, last_at) = years[0]
        before = _BEFORE.search(folded[max(0, first_at - 12) : first_at])
        if before:  # "prije 2026", "before 2024": the last day of the year before
            words = folded[first_at - len(before.group()) : last_at]
            ref = TimeRef("date", date(year - 1, 12, 31), words)
            found.append((1, ref, (first_at - len(before.group()), last_at)))
        else:
            start = today if year == today.year else date(year, 1, 1)
            ref = TimeRef("year", start, folded[first_at:last_at])
            found.append((3, ref, (first_at, last_at)))
    for match in islice(_DAY_MONTH.finditer(folded), numbers):
        if free(match.span()):
            spans.append(match.span())
    for offset, pattern in _RELATIVE:
        for match in islice(pattern.finditer(folded), MAX_MATCHES):
            if free(match.span()):
                start = today if offset == 0 else date(today.year + offset, 1, 1)
                found.append((4, TimeRef("relative_year", start, match.group()), match.span()))
                spans.append(match.span())
    for match in islice(_NOW.finditer(folded), MAX_MATCHES):
        if free(match.span()):
            found.append((5, TimeRef("now", today, match.group()), match.span()))
            spans.append(match.span())
    if not found:
        return None, tuple(spans), tuple(named)
    in_question = [item for item in found if asking is not None and asking(item[2][0])]
    if in_question or asking is None:
        ref = min(in_question or found, key=lambda item: (item[0], item[2][0]))[1]
        return ref, tuple(spans), tuple(named)
    told = [
        item for item in found if not _SINCE.search(folded[max(0, item[2][0] - 8) : item[2][0]])
    ]
    if not told:
        # only the start of the asker's situation: asked for today
        return None, tuple(spans), tuple(named)
    return max(told, key=lambda item: item[2][0])[1], tuple(spans), tuple(named)


def _is_a_year(folded: str, match: re.Match[str]) -> bool:
    before = folded[max(0, match.start() - 16) : match.start()]
    return not _NOT_A_YEAR_BEFORE.search(before) and not _NOT_A_YEAR_AFTER.match(
        folded, match.end("y")
    )

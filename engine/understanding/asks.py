"""What in a question's words asks for more than one value, before the knowledge base is
consulted: several years of one fact, a change between two dates, and the conjuncts of a
coordination ("opća i snižena stopa", "the 401k limit and the catch-up").

Only the shape is read here: which years, whether a change is asked, where the conjuncts
begin and end. Whether each conjunct names a fact, and which, is the match's to say
(engine/pipeline/plan.py): a coordination inside one fact's name ("kruh i mlijeko") stays one
ask there. Linear in the text.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from engine.types import Language
from engine.understanding.words import Word

MAX_YEARS = 8  # more years than this are a history, not a table one answer holds
Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class YearsAsked:
    """One fact asked for several years ("2024., 2025. i 2026.", "from 2022 to 2026", "each
    year since 2023"), or how it changed between two ("from 2025 to 2026")."""

    years: tuple[int, ...]  # oldest first
    change: bool  # the difference between the first and the last is asked too
    words: str  # as written (folded)


# What may stand between two years of one list ("2024, 2025 i 2026", "2024 and in 2025").
_LISTED = re.compile(
    r"\s*\.?\s*(?:,|;|/|&|\+|\bi\b|\bte\b|\bili\b|\band\b|\bor\b|\ben\b|\bof\b|\bas well as\b|"
    r"\bkao i\b|\bzatim\b|\bthen\b|\bdan\b)?\s*"
    r"(?:(?:\bu\b|\bin\b|\bza\b|\bfor\b|\bvoor\b|\bvan\b|\bna\b|\bop\b)\s+)?(?:(?:the )?year\s+)?"
)
# What joins the two ends of a range of years ("2022-2026", "od 2022. do 2026.").
_THROUGH = re.compile(
    r"\s*\.?\s*(?:-|–|—|\bdo\b|\bto\b|\buntil\b|\btill\b|\bthrough\b|\bthru\b|\bup to\b|"
    r"\btot en met\b|\bt/m\b|\btot\b|\bzakljucno s\b|\bzaključno s\b)\s*"
    r"(?:(?:\bu\b|\bin\b|\bza\b|\bfor\b|\bvoor\b)\s+)?"
)
# "each year since 2023", "svake godine od 2023.", "elk jaar sinds 2023", "since 2023 by year"
_EACH_YEAR = re.compile(
    r"\b(?:each|every|by|per|svake|svaku|po|elk|ieder|elke|jaar per)\s+(?:godin\w*|year|jaar)\b"
    r"|\bpo godinama\b|\byear by year\b|\bjaar voor jaar\b|\bgodinu po godinu\b"
    r"|\bdo danas\b|\buntil now\b|\bto date\b|\btill now\b|\btot nu\b|\btot (?:en met )?vandaag\b"
    r"|\bsince then\b"
)
_SINCE = re.compile(r"\b(?:od|since|sinds|vanaf|from)\s+(?:the year\s+)?$")
# A change asked: "how did … change", "za koliko je porastao", "hoeveel is … gestegen".
_CHANGE = re.compile(
    r"\b(?:chang\w*|increas\w*|decreas\w*|went up|go(?:ne)? up|goes up|went down|go down|rose|"
    r"rise[ns]?|risen|difference|differ|compare[ds]?|comparison|versus|grew|grown|"
    r"promijen\w*|mijenja\w*|porast\w*|porasl\w*|narasl\w*|naraste|povec\w*|smanj\w*|razlik\w*|"
    r"usporedb\w*|usporedi\w*|skok\w*|poskupi\w*|gestegen|stijg\w*|verhoog\w*|veranderd|"
    r"verander\w*|verschil\w*|gedaald|daling|vergelijk\w*|omhoog)\b"
)
# Without two years named, only a change told as done asks for one ("how much did it go up
# in 2026?", "za koliko je porasla?"): not "grow for each year I wait", not "in de VS".
_CHANGED = re.compile(
    r"\b(?:changed|went up|gone up|went down|rose|risen|gestegen|gedaald|veranderd|"
    r"porast(?:ao|la|lo|li)|porasl\w*|narasl\w*|narast(?:ao|la|lo)|povecal\w*|"
    r"promijenio|promijenila|promijenilo|promijenili|smanjio|smanjila|smanjilo|"
    r"skocio|skocila|skocilo)\b"
    r"|\bdid\b[^?.!]{0,40}\b(?:increase|change|go up|rise|decrease|go down)\b"
)
_YEAR_OF_TEXT = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def asked_years(
    folded: str,
    named: Iterable[tuple[int, Span]],
    asking: Iterable[Span],
    today: date,
) -> YearsAsked | None:
    """The years a question asks one fact for, read from the years written as times
    (`named`, in text order) within the sentences that ask (`asking`); None when it asks
    for one time only."""
    spans = tuple(asking)
    years = [(y, s) for y, s in named if not spans or any(a <= s[0] < b for a, b in spans)]
    # a change told in the story ("my sister said the limit went up") is not asked
    asked = " ".join(folded[a:b] for a, b in spans) if spans else folded
    change = _CHANGE.search(asked) is not None
    chain = _longest_chain(folded, years)
    found: list[int] = []
    through = False
    if len(chain) >= 2:
        through = any(kind == "through" for _, _, kind in chain[1:])
        found = sorted({year for year, _, _ in chain})
        words = folded[chain[0][1][0] : chain[-1][1][1]]
    elif len(chain) == 1 and (each := _EACH_YEAR.search(folded)) is not None:
        year, span, _ = chain[0]
        since = _SINCE.search(folded[max(0, span[0] - 12) : span[0]])
        if since is not None and year < today.year:
            found, through = [year, today.year], True
            start = min(each.start(), max(0, span[0] - 12) + since.start())
            words = folded[start : max(span[1], each.end())]
    if not found and len(years) <= 1 and _CHANGED.search(asked) is not None:
        # "how much did the minimum wage go up in 2026?": from the year before to that one;
        # "how much did it go up?": from last year to this one
        year = years[0][0] if years else today.year
        if year <= today.year + 1:
            found, words = (
                [year - 1, year],
                folded[years[0][1][0] : years[0][1][1]] if years else "",
            )
    if len(found) < 2:
        return None
    if change or (len(found) == 2 and _CHANGED.search(asked) is not None):
        return YearsAsked((found[0], found[-1]), True, words)
    if through:
        found = list(range(found[0], found[-1] + 1))
    if len(found) > MAX_YEARS:
        return None  # a history that long is no one answer: the question's own time stands
    return YearsAsked(tuple(found), False, words)


def _longest_chain(folded: str, years: list[tuple[int, Span]]) -> list[tuple[int, Span, str]]:
    """The longest run of years joined by list words or range words, with how each joins the
    one before ("listed" or "through")."""
    best: list[tuple[int, Span, str]] = []
    run: list[tuple[int, Span, str]] = []
    for year, span in years:
        if run:
            gap = folded[run[-1][1][1] : span[0]]
            kind = _join(gap)
            if kind is None or year <= run[-1][0]:
                run = []
            else:
                run.append((year, span, kind))
                best = run if len(run) > len(best) else best
                continue
        run = [(year, span, "first")]
        best = best or run
    return best


def _join(gap: str) -> str | None:
    if _THROUGH.fullmatch(gap):
        return "through"
    if _LISTED.fullmatch(gap):
        return "listed"
    return None


# ---- Conjuncts


# Words that join two things asked, per language ("X i Y", "X and Y", "X en Y", "X as well as
# Y": "well" is read with its "as"), and punctuation that lists them ("X, Y and Z", "X / Y").
_AND: dict[Language, frozenset[str]] = {
    "hr": frozenset({"i", "te", "plus", "kao"}),
    "nl": frozenset({"en", "plus", "alsmede", "evenals"}),
    "en": frozenset({"and", "plus"}),
}
# A unit sign may end the part before the mark ("snižena stopa od 13 %, snižena stopa od 5 %").
_LIST_MARKS = re.compile(r"(\s*[%€$]?)\s*(?:,|;|/|&|\+)\s*")
# What opens a correction or a contrast, not a second thing asked.
_NOT_A_PART = frozenset("ne nego vec već ali nije not but only niet maar geen alleen no".split())
# "a" joins in Croatian ("… a koliki je prag?"), and opens a follow-up at the start.
_A = "a"


@dataclass(frozen=True, slots=True)
class Conjunct:
    """One part of a coordination, as a span of the folded text."""

    start: int
    end: int


def conjuncts(
    folded: str,
    words: tuple[Word, ...],
    sentences: tuple[int, ...],
    asking: frozenset[int],
    language: Language,
) -> tuple[Conjunct, ...]:
    """The parts of the asking sentence that a coordination joins, each with content words
    on both sides of its joint; empty when none does. Only the first asking sentence with a
    coordination is split (a second question in another sentence is read there)."""
    bounds = (0, *sentences, len(folded))
    for index in range(len(bounds) - 1):
        if asking and index not in asking:
            continue
        start, end = bounds[index], bounds[index + 1]
        inside = [w for w in words if start <= w.start < end]
        joints = _joints(folded, inside, language)
        if joints:
            parts: list[Conjunct] = []
            left = start
            for joint_start, joint_end in joints:
                parts.append(Conjunct(left, joint_start))
                left = joint_end
            parts.append(Conjunct(left, end))
            return tuple(p for p in parts if folded[p.start : p.end].strip(" ?.!,;:"))
    return ()


def _joints(folded: str, words: list[Word], language: Language) -> list[Span]:
    """Where a coordination joins two content words: the joining word, or the punctuation
    between two words. Not between two numbers (a list of years or amounts), not first, not
    inside parentheses ("box 3 (savings and investments)" names one thing)."""
    joints: list[Span] = []
    joining = _AND[language]
    for position in range(1, len(words) - 1):
        word, before, after = words[position], words[position - 1], words[position + 1]
        if _numeric(before) and _numeric(after):
            continue
        if folded.count("(", 0, word.start) > folded.count(")", 0, word.start):
            continue
        if after.text in _NOT_A_PART or word.text in _NOT_A_PART:
            continue  # "…, ne ona najniža nego ova druga": a correction, not a second ask
        spaced = folded[word.start - 1 : word.start].isspace() and (
            folded[word.end : word.end + 1].isspace()
        )
        a_joins = language == "hr" and word.text == _A and position > 1
        as_well = language == "en" and word.text == "as" and after.text == "well"
        # "speur- en ontwikkelingswerk", "porez na dohodak- i dobit": an elided compound
        elided = folded[word.start - 2 : word.start - 1] == "-"
        if spaced and not elided and (word.text in joining or a_joins or as_well):
            if word.text == "kao" and after.text != "i":
                continue
            end = after.end if word.text in ("kao", "as") else word.end
            if as_well and position + 2 < len(words) and words[position + 2].text == "as":
                end = words[position + 2].end
            joints.append((word.start, end))
        listed = _LIST_MARKS.fullmatch(folded[before.end : word.start])
        if listed and not (_numeric(before) and _numeric(word)):
            joints.append((before.end + len(listed.group(1)), word.start))
    joints.sort()
    merged: list[Span] = []
    for span in joints:  # "X, and Y": one joint
        if merged and span[0] <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], span[1]))
        else:
            merged.append(span)
    return merged


def _numeric(word: Word) -> bool:
    return word.number or word.text.isdigit()


def sentence_of(starts: tuple[int, ...], offset: int) -> int:
    return bisect_right(starts, offset)


def spans_of(starts: tuple[int, ...], asking: frozenset[int], length: int) -> tuple[Span, ...]:
    """The spans of the asking sentences (every sentence when none is marked as asking)."""
    bounds = (0, *starts, length)
    return tuple(
        (bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1) if not asking or i in asking
    )


def mentions_year(text: str) -> bool:
    return _YEAR_OF_TEXT.search(text) is not None

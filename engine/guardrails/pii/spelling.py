"""How a number is spelled, read past the spelling, in linear time.

An identifier reaches Navod in many spellings of the same digits: "123 456 789 03",
"123-456-789-03", "12345\u200b678903", Arabic-Indic or full-width digits, no-break or narrow
spaces, Unicode dashes. Every Unicode decimal digit reads as its ASCII digit, full-width letters
fold to ASCII (NFKC), invisible characters (zero-width, soft hyphen, word joiner, bidi marks)
are skipped and short runs of spaces, dots, dashes and slashes separate groups of digits. Each
group keeps where it sits in the original text, so the whole original span (with its
separators) can be redacted.

The text is cut into runs and groups by patterns made of single character classes (one
quantifier each, nothing nested, so no backtracking beyond one character); Python looks only
at the groups.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

# More separators than this between two digits and they belong to two numbers.
MAX_SEPARATORS = 3
_SPACES = " \t\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
_SPACES += "\u202f\u205f\u3000"
_DOTS = ".\u2024\uff0e"
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_SLASHES = "/\u2044\u2215\uff0f"
# Format characters (Unicode category Cf) that draw nothing: zero-width space and joiners,
# bidi marks and isolates, word joiner, soft hyphen, byte order mark.
INVISIBLE = "\u00ad\u034f\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d"
INVISIBLE += "\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
SEPARATORS = _SPACES + _DOTS + _DASHES + _SLASHES
# Character-class bodies for the patterns of this package.
SEPARATOR_CLASS = re.escape(SEPARATORS)
INVISIBLE_CLASS = re.escape(INVISIBLE)

# A run of digits and separators long enough to spell nine digits (the shortest identifier):
# amounts, years and dates are passed over by the pattern, never reach Python.
_RUN = re.compile(rf"\d[\d{SEPARATOR_CLASS}{INVISIBLE_CLASS}]{{8,}}")
_GROUP = re.compile(rf"\d[\d{INVISIBLE_CLASS}]*")
_GAP = str.maketrans(
    {
        **dict.fromkeys(_SPACES, " "),
        **dict.fromkeys(_DOTS, "."),
        **dict.fromkeys(_DASHES, "-"),
        **dict.fromkeys(_SLASHES, "/"),
        **dict.fromkeys(INVISIBLE),
    }
)


class _Folding(dict[int, int | None]):
    """A str.translate table: separators and invisible characters dropped, every decimal
    digit to its ASCII digit, letters to ASCII upper case (NFKC: full-width forms). Other
    characters stay as they are. Filled on demand and bounded, whatever text arrives."""

    _LIMIT = 20_000

    def __missing__(self, code: int) -> int | None:
        char = chr(code)
        value = unicodedata.decimal(char, None)
        if value is not None:
            folded: int | None = ord(str(value))
        else:
            nfkc = unicodedata.normalize("NFKC", char)
            alnum = len(nfkc) == 1 and nfkc.isascii() and nfkc.isalnum()
            folded = ord(nfkc.upper()) if alnum else code
        if len(self) < self._LIMIT:
            self[code] = folded
        return folded


FOLD = _Folding(dict.fromkeys(map(ord, SEPARATORS + INVISIBLE)))


class Group(NamedTuple):
    """Digits written together (invisible characters inside are skipped, not splitting)."""

    digits: str  # ASCII digits
    start: int  # the span in the original text
    end: int
    gap: str  # the separators before it in its run, normalised to " ", ".", "-", "/"


def digit_runs(text: str) -> list[list[Group]]:
    """The text's numbers of nine characters or more: each a run of digit groups joined by
    short separator runs."""
    runs: list[list[Group]] = []
    for match in _RUN.finditer(text):
        run: list[Group] = []
        previous_end = match.start()
        for group in _GROUP.finditer(text, match.start(), match.end()):
            raw = group.group()
            end = group.start() + len(raw.rstrip(INVISIBLE))
            gap = text[previous_end : group.start()].translate(_GAP)
            if len(gap) > MAX_SEPARATORS:
                runs.append(run)
                run, gap = [], ""
            digits = raw if raw.isascii() else raw.translate(FOLD)
            run.append(Group(digits, group.start(), end, gap))
            previous_end = end
        runs.append(run)
    return runs

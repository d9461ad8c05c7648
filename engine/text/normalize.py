"""Text normalisation: `fold` for matching words, `normalise_quote` for verbatim quote checks."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from unidecode import unidecode

_WHITESPACE = re.compile(r"\s+")
# Letters unidecode would not fold the way a Croatian reader expects.
_LETTER_OVERRIDES = {"đ": "d", "ð": "d", "ß": "ss", "æ": "ae", "ø": "o", "ł": "l", "ı": "i"}
_QUOTE_TRANSLATION = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u00ad": None,  # soft hyphen: invisible, only a line-break hint
        "\u200b": None,  # zero-width space
        "\u2060": None,  # word joiner
        "\ufeff": None,  # byte order mark
    }
)


@lru_cache(maxsize=4096)
def _fold_letter(char: str) -> str:
    """One lowercase letter without its diacritics; non-letters come back unchanged."""
    if char.isascii() or not char.isalpha():
        return char
    if char in _LETTER_OVERRIDES:
        return _LETTER_OVERRIDES[char]
    folded: str = unidecode(char)
    # unidecode may spell a letter as several ASCII letters; never let it invent punctuation.
    return folded.lower() if folded.isalpha() else char


def fold(text: str) -> str:
    """Lowercase, diacritic-free form of `text` for word matching (č → c, đ → d, ë → e).

    Only letters are transliterated: digits, punctuation and symbols such as € are kept, so
    quantities survive folding. Whitespace runs collapse to one space.
    """
    lowered = unicodedata.normalize("NFKC", text).lower()
    folded = lowered if lowered.isascii() else lowered.translate(_FOLD_TABLE)
    return _WHITESPACE.sub(" ", folded).strip()


def refold(folded: str) -> str:
    """`fold` of text that `fold` made: the text itself when ASCII (lowercase, one space apart
    already). Other text is folded again: a combining mark left beside a transliterated letter
    can compose with the next one."""
    return folded if folded.isascii() else fold(folded)


class _FoldTable(dict[int, str]):
    """A str.translate table that learns each non-ASCII character on first sight."""

    def __missing__(self, code: int) -> str:
        folded = _fold_letter(chr(code))
        self[code] = folded
        return folded


_FOLD_TABLE = _FoldTable()


@lru_cache(maxsize=4096)  # evidence texts are compared again and again; str hashes are cached
def normalise_quote(text: str) -> str:
    """Case-preserving form of `text` for verbatim comparison of a quote with its evidence.

    Typographic spaces become plain spaces, soft hyphens disappear, curly quotes and guillemets
    become straight quotes and whitespace runs (newlines included) collapse to one space.
    """
    composed = unicodedata.normalize("NFKC", text).translate(_QUOTE_TRANSLATION)
    return _WHITESPACE.sub(" ", composed).strip()


_TOKEN = re.compile(r"\S+")
_NOT_WORD = re.compile(r"[\W_]+")


def as_written(text: str, folded: Sequence[str]) -> list[str]:
    """The words of `text` each of `folded` was folded from, as the asker wrote them
    ("većinu", not "vecinu"; "15.000 EUR", not "15.000 eur"): a reader is shown their own
    words, never a matching form. A folded phrase no run of words of `text` folds to is kept."""
    if not folded:
        return []
    spans = [(m.start(), m.end()) for m in _TOKEN.finditer(text)]
    plain = [_NOT_WORD.sub("", fold(text[start:end])) for start, end in spans]
    return [_found(text, spans, plain, phrase) for phrase in folded]


def _found(text: str, spans: list[tuple[int, int]], plain: list[str], phrase: str) -> str:
    wanted = [_NOT_WORD.sub("", word) for word in phrase.split()]
    if not wanted or not all(wanted):
        return phrase
    for first in range(len(spans) - len(wanted) + 1):
        if plain[first : first + len(wanted)] == wanted:
            written = text[spans[first][0] : spans[first + len(wanted) - 1][1]]
            return _unwrapped(written.strip("?!.,;:\"'«»„“”"))
    return phrase


def _unwrapped(words: str) -> str:
    """Words without the parenthesis around them ("(većinu)"), keeping a name's own ("401(k)")."""
    if words.startswith("(") and words.endswith(")") and words.count("(") == 1:
        return words[1:-1]
    if words.startswith("(") and ")" not in words:
        words = words[1:]
    if words.endswith(")") and "(" not in words:
        words = words[:-1]
    return words

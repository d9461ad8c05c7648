"""The question's words with their places in the folded text, and the key each matches by.

One tokenisation serves both the matcher (keys) and the frame (which words a fact, a date or
a cue explains), so every content word can be accounted for. Linear in the text's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice

from engine.text.tokens import ABBREVIATION, GROUPED_NUMBER, key_of
from engine.types import Language

# A grouped amount ("60.000,00") is one number; "401(k)" names a plan and is one word.
# "j.d.o.o." is the word "jdoo", "S&O" the word "so".
_TOKEN = re.compile(
    GROUPED_NUMBER.pattern
    + r"|(?<!\d)(?P<plan>\d++\([^\W\d_]\))|(?P<abbreviation>"
    + ABBREVIATION
    + r")|[^\W_]+"
)


@dataclass(frozen=True, slots=True)
class Word:
    start: int
    end: int
    text: str  # folded, as written ("401(k)" → "401k")
    key: str | None  # the matching key, or None for filler and amounts
    number: bool = False  # a grouped or decimal amount, not a word


# A frozen dataclass's `__init__` sets each field through `object.__setattr__` (~400 ns a
# word); its slots' own setters, which the frozen `__setattr__` does not guard, build the same
# Word in about half the time. Only `read_words` uses them, on a Word no one has seen yet.
_START, _END, _TEXT, _KEY, _NUMBER = (
    Word.__dict__[name].__set__ for name in ("start", "end", "text", "key", "number")
)


def _word(start: int, end: int, text: str, key: str | None, number: bool = False) -> Word:
    """`Word(start, end, text, key, number)`, built without the frozen `__init__`."""
    word: Word = object.__new__(Word)
    _START(word, start)
    _END(word, end)
    _TEXT(word, text)
    _KEY(word, key)
    _NUMBER(word, number)
    return word


def read_words(folded: str, language: Language, limit: int | None = None) -> tuple[Word, ...]:
    """The words and numbers of `folded` text in reading order (the first `limit` of them)."""
    words: list[Word] = []
    for found in islice(_TOKEN.finditer(folded), limit):
        text = found.group()
        if found.group("plan"):
            text = text.replace("(", "").replace(")", "")
        elif found.group("abbreviation"):
            text = text.replace(".", "").replace("&", "")
        elif not text.isalnum():  # a grouped number: an amount, never a matching key
            words.append(_word(found.start(), found.end(), text, None, number=True))
            continue
        words.append(_word(found.start(), found.end(), text, key_of(text, language)))
    return tuple(words)


def keys_of(words: tuple[Word, ...]) -> tuple[str, ...]:
    """The distinct matching keys in reading order (the question's keywords)."""
    return tuple(dict.fromkeys(w.key for w in words if w.key is not None))

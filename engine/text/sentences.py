"""Sentences of an evidence text: what a quote must be made of, and what `kb coverage` counts.

A sentence ends at . ! ? after a word (two letters), a percent sign, a bracket or a quote,
before a space — not after a number ("1. siječnja 2021.", "u članku 5. stavku 7.", "1.000,00")
— and at every line break (table rows and list items stand alone). A list marker on its own
("b.") belongs to the sentence it opens.
"""

from __future__ import annotations

import re
from itertools import accumulate

from engine.text.normalize import normalise_quote

_SENTENCE_END = re.compile(r"(?:(?<=[^\W\d_]{2}[.!?])|(?<=[%)»”\"][.!?]))\s+(?=[^\d\s])|\n+")
# what may open a sentence and be left out of a quote: a bullet, a lid number, a list letter,
# a markdown heading's marks (the irs.gov pages rendered to text: "## 401(k) limit increases …")
_BULLET = re.compile(r"(?:[•·\-*–]|#{1,6}|\d{1,2}|[a-z][.)])\s+")
_LIST_MARKER = re.compile(r"(?:[a-z]|\d{1,2}|[ivx]{1,4})[.)]")


def sentences(text: str) -> list[str]:
    """The sentences of `text`, in order, stripped; empty pieces dropped."""
    found: list[str] = []
    pending = ""
    for part in (piece.strip() for piece in _SENTENCE_END.split(text)):
        if _LIST_MARKER.fullmatch(part):  # "b." before "nihil voor leveringen …"
            pending = f"{pending} {part}".strip()
            continue
        sentence = f"{pending} {part}".strip()
        pending = ""
        if sentence:
            found.append(sentence)
    return found


def whole_sentences(quote: str, text: str) -> bool:
    """Whether `quote` is one sentence of `text`, or several that follow each other, whole:
    it starts where a sentence starts (a leading bullet or heading mark may be left out) and
    ends where one ends, compared normalised."""
    plain = [normalise_quote(sentence) for sentence in sentences(text)]
    offsets = list(accumulate((len(s) + 1 for s in plain[:-1]), initial=0))
    starts = {at for at, s in zip(offsets, plain, strict=True)}
    starts |= {
        at + len(b.group()) for at, s in zip(offsets, plain, strict=True) if (b := _BULLET.match(s))
    }
    ends = {at + len(s) for at, s in zip(offsets, plain, strict=True)}
    joined, wanted = " ".join(plain), normalise_quote(quote)
    at = joined.find(wanted)
    while at >= 0:
        if at in starts and at + len(wanted) in ends:
            return True
        at = joined.find(wanted, at + 1)
    return False


def widen_to_sentences(quote: str, text: str) -> str | None:
    """The shortest run of whole sentences of `text` that holds `quote`, cut verbatim from
    `text` (a leading bullet left out); None when the quote is not in the text."""
    wanted = normalise_quote(quote)
    spans = _sentence_spans(text)
    for size in range(1, len(spans) + 1):
        for first in range(len(spans) - size + 1):
            start, end = spans[first][0], spans[first + size - 1][1]
            run = text[start:end]
            if wanted in normalise_quote(run):
                bullet = _BULLET.match(run)
                return run[bullet.end() :] if bullet else run
    return None


def _sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of `text` lies in it (start, end), in order."""
    spans: list[tuple[int, int]] = []
    cursor = 0
    for sentence in sentences(text):
        first_word = sentence.split(None, 1)[0]
        start = text.find(first_word, cursor)
        last_word = sentence.rsplit(None, 1)[-1]
        end = text.find(last_word, start + len(sentence) - len(last_word) - 1) + len(last_word)
        spans.append((start, end))
        cursor = end
    return spans

"""Read a question into a `Reading`: attribute, qualifiers, stated facts, time, and the keys
that these (and known filler) explain. Pure and linear in the text; no knowledge base."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal, InvalidOperation
from itertools import accumulate

from engine.text.normalize import fold
from engine.text.numbers import dot_groups_thousands, parse_number
from engine.text.tokens import key_of
from engine.types import LANGUAGES, Language
from engine.understanding.asks import asked_years, conjuncts, spans_of
from engine.understanding.cues import read_attribute
from engine.understanding.facts import read_facts
from engine.understanding.filler import is_filler, is_generic
from engine.understanding.frame import Quantity, Reading
from engine.understanding.negation import negated_spans
from engine.understanding.places import is_place
from engine.understanding.qualifiers import read_qualifiers
from engine.understanding.references import reference_spans
from engine.understanding.times import read_time
from engine.understanding.whose import mark_whose
from engine.understanding.words import Word, read_words

MAX_WORDS = 400  # a question's first 400 words are read; the rest cannot change what it asks


def read_question(
    text: str,
    language: Language,
    today: date,
    known: Callable[[str], bool] = lambda key: False,
    folded: str | None = None,
) -> tuple[Reading, tuple[Word, ...]]:
    """The reading of `text`, and its words (whose keys the matcher scores). `known(key)` says
    whether a key names a fact of the knowledge base: such a word is never mere filler.
    `folded`, when given, is `fold(text)`, which the caller has made already."""
    names = _proper_names(text)
    folded = _ordinals(fold(text) if folded is None else folded)
    folded = _blanked(folded, negated_spans(folded, language))  # what is not asked is set aside
    words = _known_in_any_language(read_words(folded, language, MAX_WORDS), language, known)
    # an identifier the asker stated ("OIB: [OIB]") names nothing to match on
    words = tuple(replace(w, key=None) if _names_identifier(folded, w) else w for w in words)
    references = reference_spans(folded)
    stated = read_facts(folded, words, language, today)
    if stated.status_spans:  # a stated status names nothing to match on
        in_status = _inside_any(stated.status_spans)
        words = tuple(replace(w, key=None) if in_status(w) else w for w in words)
    starts = sentence_starts(folded)
    marked = _marked_sentences(folded, starts)
    asking = (lambda at: bisect_right(starts, at) in marked) if marked and starts else None
    time, time_spans, named_years = read_time(
        folded, language, (*stated.spans, *references), today, asking
    )
    spans = (*stated.spans, *time_spans, *references)
    inside = _inside_any(spans)
    taken = frozenset(i for i, w in enumerate(words) if inside(w))
    # "flat-rate tax" names the paušal regime; its "rate" asks for no rate
    free = tuple(
        w
        for i, w in enumerate(words)
        if i not in taken and folded[max(w.start - 5, 0) : w.start] != "flat-"
    )
    asked = read_attribute(free, language)
    if marked and len(starts) > 0:
        # "I didn't sign up when I turned 65 (…). How big is the penalty?": the sentence
        # with the question mark says what is asked, the others tell the story
        in_question = tuple(w for w in free if bisect_right(starts, w.start) in marked)
        asked_there = read_attribute(in_question, language)
        if asked_there.words:
            asked = asked_there
    cue_ids = {id(w) for w in asked.words}
    skip = taken | {i for i, w in enumerate(words) if id(w) in cue_ids}
    qualifiers = read_qualifiers(words, frozenset(skip))
    qualified = {q.words for q in qualifiers}
    explained: set[str] = set()
    left: set[str] = set()  # keys of words nothing here explains
    numbers: list[Quantity] = []
    for index, word in enumerate(words):
        if index in skip:
            if word.key is not None:
                explained.add(word.key)
            continue
        if _VERSION.fullmatch(word.text) and index and words[index - 1].key is not None:
            continue  # "SECURE 2.0", "Fiskalizacija 2.0": part of a name, not a quantity
        if word.number or (word.text.isdigit() and word.key is None):
            numbers.append(Quantity(word.text, _value(word.text, language)))
        elif word.key is None or word.text in qualified:
            continue
        elif (
            is_place(word.text)
            or is_generic(word.text)
            or (not known(word.key) and _context(word.text, language, names))
        ):
            explained.add(word.key)
        else:
            left.add(word.key)
    # "income tax rate … for income above 60,000": a key a fact took once is still said
    # where it stands on its own
    explained -= left
    asking_sentences = _question_sentences(folded, starts, asked.words)
    # the sentences with a question mark ask, when some have one; a story around them tells
    asking_spans = spans_of(starts, marked or asking_sentences, len(folded))
    return (
        Reading(
            attribute=asked.attribute,
            plural=asked.plural,
            qualifiers=qualifiers,
            facts=mark_whose(folded, stated.facts, starts),
            time=time,
            cue_words=tuple(w.text for w in asked.words),
            explained=frozenset(explained),
            numbers=tuple(numbers),
            amounts=mark_whose(folded, stated.amounts, starts),
            sentences=starts,
            question_sentences=asking_sentences,
            attributes=asked.attributes,
            asked=asked.asked,
            cue_keys=frozenset(w.key for w in asked.words if w.key is not None),
            percentages=stated.percentages,
            possessives=tuple(i for i, w in enumerate(words) if w.text in _MY[language]),
            years=asked_years(folded, named_years, asking_spans, today),
            conjuncts=conjuncts(folded, words, starts, asking_sentences, language),
            unusable=stated.unusable,
            claims=stated.claims,
        ),
        words,
    )


# First-person possessives: a value asked of "my" case depends on the asker's data.
_MY: dict[Language, frozenset[str]] = {
    "en": frozenset({"my"}),
    "nl": frozenset({"mijn"}),
    "hr": frozenset("moj moja moje mog mojeg moju mojoj mojem mojim moji".split()),
}


_VERSION = re.compile(r"\d{1,2}\.0")

# A sentence ends at "?" or "!", or at "." after a word (not after "2023." or "d.o.o.").
# A run of "?!" is read once from its start (retried at each mark it cost the square of its
# length).
_SENTENCE_END = re.compile(r"(?<![?!])[?!]++\s+|(?<=[^\W\d_]{3})\.\s+")


def sentence_starts(folded: str) -> tuple[int, ...]:
    return tuple(match.end() for match in _SENTENCE_END.finditer(folded))


# Roman ordinals of pension pillars read as words: "II. stup" is "drugi stup".
_ROMAN_PILLAR = re.compile(r"\b(iii|ii|i)\.?\s+(?=(?:mirovinsk\w+\s+)?stup|pillar|pijler)")
_ROMAN = {"i": "prvi", "ii": "drugi", "iii": "treci"}


def _ordinals(folded: str) -> str:
    return _ROMAN_PILLAR.sub(lambda m: _ROMAN[m.group(1)] + " ", folded)


def _value(text: str, language: Language) -> Decimal | None:
    try:
        return parse_number(text, dot_groups_thousands(language))
    except (InvalidOperation, ValueError):
        return None


def _context(text: str, language: Language, names: frozenset[str]) -> bool:
    """Filler, or a name the asker capitalised mid-sentence ("na Braču", "in Leiden")."""
    return is_filler(text, language) or text in names


# A capitalised word after a lowercase word or a comma is a name; the first word of a
# sentence is not one.
_NAME = re.compile(r"(?<=[^\W\d_,;:] |[,;:] )[^\W\d_a-zčćšžđ][^\W\d_]*")


def _proper_names(text: str) -> frozenset[str]:
    return frozenset(fold(m.group()) for m in _NAME.finditer(text) if not m.group().isupper())


def _question_sentences(
    folded: str, starts: tuple[int, ...], cues: tuple[Word, ...]
) -> frozenset[int]:
    """The sentences that ask (a question mark, or a question word): the others tell the
    situation. Empty when none does ("box 1 tarieven 2026")."""
    asking = set(_marked_sentences(folded, starts))
    asking |= {bisect_right(starts, cue.start) for cue in cues}
    return frozenset(asking)


def _marked_sentences(folded: str, starts: tuple[int, ...]) -> frozenset[int]:
    """The sentences that end in a question mark."""
    bounds = (0, *starts, len(folded))
    return frozenset(
        index
        for index in range(len(bounds) - 1)
        if "?" in folded[bounds[index] : bounds[index + 1]]
    )


def _inside_any(spans: Sequence[tuple[int, int]]) -> Callable[[Word], bool]:
    """Whether a word lies inside one of `spans`, in log time: a long question has hundreds of
    words and of spans, and testing every pair grew with the square of its length."""
    ordered = sorted(spans)
    starts = [start for start, _ in ordered]
    reach = list(accumulate((end for _, end in ordered), max))  # the furthest end so far

    def inside(word: Word) -> bool:
        last = bisect_right(starts, word.start) - 1
        return last >= 0 and reach[last] >= word.end

    return inside


def _blanked(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """`text` with each span replaced by as many spaces, in one pass (not one copy per span)."""
    pieces: list[str] = []
    position = 0
    for start, end in sorted(spans):
        start = max(start, position)
        if start < end:
            pieces += (text[position:start], " " * (end - start))
            position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _known_in_any_language(
    words: tuple[Word, ...], language: Language, known: Callable[[str], bool]
) -> tuple[Word, ...]:
    """A word the knowledge base does not know in the question's language but knows in another
    keeps that language's key: "grens" in "grens box 2 in 2026" (read as English because of
    "in") is the Dutch "grens", not an English "gren" to be corrected into "green"."""
    return tuple(
        replace(word, key=other)
        if word.key is not None
        and not known(word.key)
        and (other := _known_key(word, language, known))
        else word
        for word in words
    )


def _known_key(word: Word, language: Language, known: Callable[[str], bool]) -> str | None:
    keys = (key_of(word.text, other) for other in LANGUAGES if other != language)
    return next((key for key in keys if key is not None and known(key)), None)


# What redaction leaves for an identifier the asker stated ("OIB: [OIB]", "my SSN is [SSN]"),
# for the identifiers whose names the knowledge base also uses (the buyer's OIB on an invoice).
_IDENTIFIERS = ("oib", "iban", "bsn", "ssn")
_NAMED = re.compile(r"\s*(?:(?:je|is|:)\s*)?\[(?:" + "|".join(_IDENTIFIERS) + r")\]")


def _names_identifier(folded: str, word: Word) -> bool:
    """Whether the word is a stated identifier's placeholder, or the name it was stated with
    right before it: part of what the asker told, not of what they ask."""
    if word.text not in _IDENTIFIERS:
        return False
    placeholder = folded[word.start - 1 : word.end + 1] == f"[{word.text}]"
    return placeholder or _NAMED.match(folded, word.end) is not None

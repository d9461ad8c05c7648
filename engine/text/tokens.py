"""Word tokens and the content-word keys that match concept aliases against questions.

`keywords` folds, drops filler and lemmatises with simplemma (trimming a few endings of words
its dictionary lacks), so "porezu", "poreza" and "porezom" all become the key "porez".
Look-ups are cached: the pipeline calls this for every request.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import simplemma

from engine.text.normalize import fold
from engine.text.stopwords import STOPWORDS
from engine.types import LANGUAGES, Language

__all__ = [
    "STOPWORDS",
    "is_verb",
    "key_of",
    "keyed_words",
    "keys_in",
    "keyword_words",
    "keywords",
    "tokenize",
    "warm_up",
]

# "j.d.o.o.", "d.d.", "U.S.": letters with full stops are one word ("jdoo", "dd", "us"),
# and so are "S&O", "R&D" ("so", "rd"), not single letters that say nothing; the possessive
# group keeps it linear.
ABBREVIATION = (
    r"(?<![^\W_])(?:(?:[^\W\d_]\.){2,}+(?:[^\W\d_](?![^\W_]))?"
    r"|[^\W\d_]{1,2}&[^\W\d_]{1,2}(?![^\W_]))"
)
_ABBREVIATION = re.compile(ABBREVIATION)
_WORD = re.compile(r"[^\W_]+")
# "401(k)" names a plan; keep it one token rather than "401" and a stray "k".
_PARENTHESISED_LETTER = re.compile(r"(?<!\d)(\d++)\(([^\W\d_])\)")
# "60.000,00" or "1 134": an amount, not three little numbers.
# Each alternative starts only where a digit run starts and never backtracks into it, so a long
# run of digits costs linear time (a plain `\d+` retried at every digit is quadratic).
GROUPED_NUMBER = re.compile(
    r"(?<!\d)\d++(?:[.,\u00a0 ]\d{3}(?!\d))+(?:[.,]\d++)?|(?<!\d)\d++[.,]\d++"
)
_SIMPLEMMA_CODE: dict[Language, str] = {"hr": "hbs", "nl": "nl", "en": "en"}
# Endings trimmed from words the dictionary lacks, longest first, so their forms still meet.
_SUFFIXES: dict[Language, tuple[str, ...]] = {
    "hr": (
        "ima",
        "ama",
        "iti",
        "ati",
        "eti",
        "oga",
        "om",
        "em",
        "og",
        "oj",
        "ih",
        "en",
        "a",
        "e",
        "i",
        "o",
        "u",
    ),
    "nl": ("en", "s"),
    "en": ("s",),
}
_SHORTEST_STEM = 3
_KEEP_FINAL_S = ("ss", "us", "is")


def _joined(text: str) -> str:
    """ "401(k)" → "401k", "j.d.o.o." → "jdoo"."""
    text = _PARENTHESISED_LETTER.sub(r"\1\2", text)
    if "." not in text and "&" not in text:
        return text
    return _ABBREVIATION.sub(lambda m: m.group().replace(".", "").replace("&", ""), text)


def _words(text: str) -> list[str]:
    prepared = unicodedata.normalize("NFKC", text).lower()
    return _WORD.findall(_joined(prepared))


def tokenize(text: str) -> tuple[str, ...]:
    """Folded word tokens; hyphens split words ("PDV-a" → "pdv", "a")."""
    if text.isascii():  # an ASCII word folds to its lowercase: no fold per word
        return tuple(_WORD.findall(_joined(text.lower())))
    return tuple(fold(word) for word in _words(text))


@lru_cache(maxsize=1 << 19)
def _fold_for(word: str, language: Language) -> str:
    folded = fold(word)
    # Croatian keyboards without đ make people type "dj": rodjen means rođen.
    return folded.replace("dj", "d") if language == "hr" else folded


def _stem(word: str, language: Language) -> str:
    for suffix in _SUFFIXES[language]:
        if not word.endswith(suffix) or len(word) - len(suffix) < _SHORTEST_STEM:
            continue
        if suffix == "s" and word.endswith(_KEEP_FINAL_S):
            return word
        return word[: -len(suffix)]
    return word


def _dictionary_lemma(folded: str, language: Language) -> str | None:
    """simplemma's lemma when its dictionary knows the FOLDED word.

    Looking up only the folded spelling keeps "snižena" and "snizena" on one key: people type
    both, and a lemma found for one spelling but not the other would split them.
    """
    if len(folded) <= _SHORTEST_STEM:  # abbreviations (pdv, btw, kor, rmd) are not inflected
        return None
    code = _SIMPLEMMA_CODE[language]
    if simplemma.is_known(folded, lang=code):
        return str(simplemma.lemmatize(folded, lang=code))
    return None


# Infinitive endings of the dictionary's verb lemmas ("rekent" → "rekenen", "odaberem" →
# "odabrati"); English verbs and nouns share their forms, so English has none.
_INFINITIVE: dict[Language, tuple[str, ...]] = {"hr": ("ti", "ci"), "nl": ("en",), "en": ()}


@lru_cache(maxsize=1 << 14)
def is_verb(word: str, language: Language) -> bool:
    """Whether the dictionary reads `word` (folded) as a form of a verb: it says what someone
    does ("welk rendement rekent de Belastingdienst"), not which fact is meant."""
    endings = _INFINITIVE[language]
    code = _SIMPLEMMA_CODE[language]
    if not endings:
        return False
    for spelling in _spellings(word, language):
        if simplemma.is_known(spelling, lang=code):
            lemma = str(simplemma.lemmatize(spelling, lang=code))
            return lemma.endswith(endings) and (lemma != spelling or language == "hr")
    return False


# Letters a Croatian word loses when folded or typed without diacritics ("pocinje" is
# "počinje"): the dictionary only knows the written forms.
_RESTORED: dict[str, tuple[str, ...]] = {"c": ("c", "č", "ć"), "s": ("s", "š"), "z": ("z", "ž")}
_MOST_SPELLINGS = 27


def _spellings(word: str, language: Language) -> list[str]:
    """`word`, then the spellings with diacritics it may stand for (Croatian only), few."""
    if language != "hr" or not any(letter in _RESTORED for letter in word):
        return [word]
    found = [""]
    for letter in word:
        options = _RESTORED.get(letter, (letter,))
        found = [start + option for start in found for option in options][:_MOST_SPELLINGS]
    return [word, *(spelling for spelling in found if spelling != word)]


def is_dictionary_word(word: str, language: Language) -> bool:
    """Whether `word` (folded) is a word of `language` its dictionary knows ("kort", "sinds"):
    such a word is what the asker meant to write, not a misspelling of a vocabulary key."""
    return len(word) > _SHORTEST_STEM and simplemma.is_known(word, lang=_SIMPLEMMA_CODE[language])


# Ordinals name brackets, pillars and deadlines ("eerste schijf", "drugi stup"); their
# dictionary lemma is the number, or a stopword.
_ORDINALS = frozenset("eerste tweede derde vierde first second third fourth".split())


@lru_cache(maxsize=1 << 19)  # a 100,000-rule knowledge base has a few hundred thousand words
def _key(word: str, language: Language) -> str | None:
    """The matching key of one lowercase word, or None for filler and single letters.

    A word the dictionary knows becomes its folded lemma ("stopu" → "stopa"); an unknown word
    loses a common ending instead ("pausalnog" → "pausaln"), so its other forms still meet.
    """
    folded = _fold_for(word, language)
    stopwords = STOPWORDS[language]
    if folded.isdigit():
        # Small numbers name things ("stopa PDV-a 13 %" vs "5 %", "401"); years and amounts
        # are quantities, read by the as-of stage, not words to match.
        small = len(folded) <= 3 and (folded == "0" or not folded.startswith("0"))
        return folded if small else None
    if len(folded) < 2 or folded in stopwords:
        return None
    if folded in _ORDINALS:  # the dictionary reads "eerste" as "één", a stopword
        return folded
    lemma = _dictionary_lemma(folded, language)
    if lemma is None:
        return _stem(folded, language)
    folded_lemma = _fold_for(lemma, language)
    return None if folded_lemma in stopwords else folded_lemma


def key_of(word: str, language: Language) -> str | None:
    """The matching key of one word (see `_key`): its folded lemma, or None for filler."""
    return _key(word, language)


def keywords(text: str, language: Language) -> tuple[str, ...]:
    """Content-word keys of `text` in reading order, each once (see the module docstring)."""
    return keys_in(keyword_words(text), language)


def keyword_words(text: str) -> list[str]:
    """The words `keywords` keys, amounts left out: the same in every language, so a text
    keyed in several languages is split once."""
    return _words(GROUPED_NUMBER.sub(" ", text))


def keys_in(words: list[str], language: Language) -> tuple[str, ...]:
    """The distinct keys of `keyword_words` in `language`, in reading order."""
    keys = (_key(word, language) for word in words)
    return tuple(dict.fromkeys(key for key in keys if key is not None))


def keyed_words(text: str, language: Language) -> tuple[tuple[str, str], ...]:
    """(folded word, its key) for each content word of `text`, in reading order: what a
    misspelt word should be compared with ("verlaagd"), and what it then means ("verlagen")."""
    found: list[tuple[str, str]] = []
    for word in _words(GROUPED_NUMBER.sub(" ", text)):
        key = _key(word, language)
        if key is not None:
            found.append((_fold_for(word, language), key))
    return tuple(found)


def warm_up() -> None:
    """Load simplemma's dictionaries now (about a second) rather than on the first request."""
    for language in LANGUAGES:
        simplemma.lemmatize("a", lang=_SIMPLEMMA_CODE[language])

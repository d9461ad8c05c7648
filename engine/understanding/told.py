"""Whether a message only tells about the asker, or asks something.

A message is only *noted* when it names nothing the knowledge base knows and asks nothing:
"Imam paušalni obrt u Zagrebu.", "I'm 64 and my wife is 58.". Anything naming a fact, a
family or an attribute ("Pausalni prag", "full retirement age if I was born in 1950", "rmd
age born 1955") is a question, answered with the facts it states, whether or not it ends in a
question mark; so is a message opening with a question word ("kakvo ce biti vrijeme sutra").
The words of the stated facts themselves ("paušalni obrt", "45.000 eura prometa") name what
the asker is, not what is asked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

from engine.types import Language
from engine.understanding.facts import is_role_word
from engine.understanding.filler import is_filler
from engine.understanding.frame import Reading
from engine.understanding.places import is_place
from engine.understanding.qualifiers import qualifier_of
from engine.understanding.words import Word

_QUESTION_WORDS: dict[Language, frozenset[str]] = {
    "hr": frozenset(
        "koji koja koje kojeg kojem kolika koliki koliko kolike kada kad gdje tko sto sta "
        "zasto kako kakav kakva kakvo kakve je li da li mogu moram trebam smijem".split()
    ),
    "nl": frozenset(
        "wat wie wanneer hoeveel hoe hoelang welk welke waar waarom moet mag kan zijn".split()
    ),
    "en": frozenset(
        "what whats who when how which where why do does did is are can must should will "
        "could would".split()
    ),
}
_WORD = re.compile(r"[^\W\d_]+")
# Where a clause ends: punctuation, and the words that open another clause.
_CLAUSE = re.compile(
    r"[,;:.!?()]|\b(?:if|and|but|because|while|als|indien|en|maar|omdat|want|terwijl|"
    r"ako|ukoliko|i|a|ali|jer|dok|te)\b"
)
# A clause the asker tells about themselves in ("ik ben zzp'er", "mijn vrouw en ik hebben
# spaargeld", "imam paušalni obrt"): a concept's word there says what they have, not what
# they ask.
_FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|im|i've|ive|i'd|my|we|we're|we've|our|me|"
    r"ik|mijn|wij|we|ons|onze|me|mij|heb|hebben|"
    r"ja|mi|moj\w*|nas|nasa|nase|nas\w*|sam|smo|imam|imamo|radim|radimo|zaradio|zaradila|"
    r"zaradili|zaradujem|zaradjujem|placam|placamo|vodim|vodimo|dobivam|primam)\b"
)
# Asking in so many words: "I want to know", "zanima me", "ik vraag me af".
_REQUEST = re.compile(
    r"\b(?:want to know|wondering|wonder|would like to know|tell me|need to know|"
    r"zanima|zanimalo|htio bih znati|htjela bih znati|reci|recite|molim|"
    r"wil weten|vraag me af|vraag mij af|graag weten|vertel)\b"
)


def only_tells(
    folded: str,
    reading: Reading,
    words: tuple[Word, ...],
    language: Language,
    names: Callable[[str], bool],
) -> bool:
    """Whether the message states facts and asks nothing: no question word opens it, no cue
    asks an attribute, and no word outside its stated facts names something `names(key)`
    (a concept's word)."""
    if reading.asked or reading.cue_words:
        return False
    first = _WORD.search(folded)
    if first is not None and first.group() in _QUESTION_WORDS[language]:
        return False
    if _REQUEST.search(folded):
        return False
    told = [
        (start, start + len(fact.words))
        for fact in (*reading.facts, *reading.amounts, *reading.unusable)
        if (start := folded.find(fact.words)) >= 0
    ]
    told += _statements(folded)
    stated_amount = any(f.unit for f in (*reading.facts, *reading.amounts, *reading.unusable))
    for word in words:
        if word.key is None or any(a <= word.start < b for a, b in told):
            continue
        if is_filler(word.text, language) or is_place(word.text):
            continue
        if stated_amount and is_role_word(word.text):
            continue  # "promet" of "Promet mi je 45.000 eura": what the amount is
        party = qualifier_of(word.text)
        if party is not None and party[0] == "party":
            continue  # "obrt", "d.o.o.": who the asker is

        if names(word.key):
            return False
    return True


def _statements(folded: str) -> list[tuple[int, int]]:
    """The clauses in which the asker speaks of themselves."""
    bounds = [0, *(m.start() for m in _CLAUSE.finditer(folded)), len(folded)]
    return [
        (start, end) for start, end in pairwise(bounds) if _FIRST_PERSON.search(folded, start, end)
    ]

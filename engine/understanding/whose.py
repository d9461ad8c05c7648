"""Whose facts a question states: the asker's own, or a hypothetical or someone else's.

"If I was born in 1960", "suppose I'm 61", "for a client born in 1955", "stel dat ik 30.000
omzet heb", "za klijenta s paušalnim obrtom", "my father is 76", "a 52-year-old": these facts
answer this question, but they are not what the asker is, so a conversation never keeps them
as the asker's profile. A kind of business named in a question ("porez na dobit za mali
d.o.o.") is what the question is about, not the asker's, unless the asker says it is theirs
("imam d.o.o.", "my LLC", "ik heb een eenmanszaak"). Folded text; linear.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace

from engine.understanding.frame import Fact

# Words after which, in the same sentence, a situation is supposed, not told.
_SUPPOSED = re.compile(
    r"\b(?:if|suppose|supposing|assume|assuming|say|hypothetically|let's say|lets say|"
    r"als|indien|stel|stel dat|gesteld|gesteld dat|veronderstel|"
    r"ako|ukoliko|pretpostavimo|pretpostavka|recimo|zamislimo|hipotetski)\b"
)
# Someone other than the asker the fact is about.
_OTHER = re.compile(
    r"\b(?:client\w*|customer\w*|klant\w*|klijent\w*|stranka|stranci|strank\w*|"
    r"someone|somebody|a person|anyone|people|iemand|mensen|netko|nekoga|nekome|osob\w*|"
    r"father|mother|dad|mom|mum|parent\w*|grand\w*|uncle|aunt|brother|sister|friend|"
    r"vader|moeder|ouder\w*|opa|oma|oom|tante|broer|zus|vriend\w*|"
    r"otac|oca|ocu|majk\w*|mama|tata|djed\w*|bak\w*|ujak|stric\w*|teta|brat\w*|sestr\w*|"
    r"prijatelj\w*|kolega|kolegic\w*|"
    r"an? \d+[- ]?(?:year[- ]old|jarige|godisnja\w*|godisnj\w*))\b"
)
# The asker saying a business is theirs.
_MINE = re.compile(
    r"\b(?:i have|i own|i run|i've got|ive got|we have|we own|we run|my|our|i'm a|im a|i am a|"
    r"ik heb|ik run|wij hebben|we hebben|mijn|onze|ons|ik ben|"
    r"imam|imamo|vodim|vodimo|moj\w*|nas\w*|naš\w*|ja sam|vlasni\w*|otvorio|otvorila|"
    r"pokrenuo|pokrenula|registrirao|registrirala)\b"
)
_SPOUSE = frozenset({"spouse_age"})  # the asker's household: told by the asker of their own
_SENTENCE = re.compile(r"[.?!;\n]")


def mark_whose(folded: str, facts: tuple[Fact, ...], starts: tuple[int, ...]) -> tuple[Fact, ...]:
    """`facts` with `own` False for those supposed, or told of someone else, or a kind of
    business the asker does not say is theirs."""
    return tuple(_marked(folded, fact, starts) for fact in facts)


def _marked(folded: str, fact: Fact, starts: tuple[int, ...]) -> Fact:
    at = folded.find(fact.words) if fact.words else -1
    if at < 0:
        return fact
    sentence = bisect_right(starts, at)
    begin = starts[sentence - 1] if sentence else 0
    before = folded[begin:at]
    clause = _clause(folded, begin, at + len(fact.words))
    own = True
    if fact.name not in _SPOUSE and (_SUPPOSED.search(before) or _OTHER.search(clause)):
        own = False
    if fact.name == "entity_type" and not _MINE.search(before + " " + fact.words):
        own = False
    return fact if own else replace(fact, own=False)


def _clause(folded: str, begin: int, end: int) -> str:
    """The sentence around a fact, up to its end: "my father is 76", "a 52-year-old"."""
    stop = _SENTENCE.search(folded, end)
    return folded[begin : stop.start() if stop else len(folded)]

"""Claims about the rules: a sentence whose subject is a rule, not the asker.

"Prag je 99.999 eura.", "Prag za PDV je 30.000 eura, zar ne?", "The RMD age is 55.",
"(Assume the RMD age is 55.)", "De KOR-grens is 30.000 euro." state what the asker believes a
rule says. Such a number is never a fact about the asker (not a turnover, not an age), never
kept in a conversation and never compared with a rule as if it were the asker's; the answer
states the cited value and says whether the claim agrees with the source.

A claim is a rule's word (threshold, age, rate, limit, deadline and their Croatian and Dutch
words) followed within a few words by "is" ("je", "bedraagt", …) and a number, unless the
asker's own possessive stands before it ("my age is 62", "moja dob je 62" are facts).
A question about a value ("Je li prag 30.000 eura?", "Is the threshold 30,000?") has no such
order and is no claim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from itertools import islice

from engine.text.numbers import dot_groups_thousands, parse_number
from engine.types import Language

Span = tuple[int, int]
MOST_CLAIMS = 8

_RULE_WORDS = (
    "threshold|thresholds|limit|limits|ceiling|cap|rate|rates|age|deadline|percentage|"
    "prag|praga|granica|granice|limit|limita|stopa|stope|dob|rok|postotak|"
    "drempel|grens|tarief|tarieven|leeftijd|limiet|termijn|percentage|"
    r"[a-z]+grens|[a-z]+drempel|[a-z]+tarief|[a-z]+leeftijd"
)
_COPULA = (
    "is|are|was|were|will be|equals|=|je|su|iznosi|iznose|ce biti|bit ce|"
    "bedraagt|bedragen|ligt op|wordt|zijn"
)
_ADVERB = "now|only|just|actually|still|sada|samo|zapravo|jos|nu|maar|eigenlijk|nog"
_CLAIM = re.compile(
    rf"\b(?:{_RULE_WORDS})\b(?: [^\s.?!;]+){{0,4}}? (?:{_COPULA})(?: (?:{_ADVERB}))? "
    r"[$€]?(?P<number>\d{1,3}(?:[.,]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)?)(?![\d])"
    r"(?: ?(?:%|posto|procent|percent|eur\w*|usd|dollars?|kn|years?|godin\w*|jaar))?"
)
# The asker's own: "my age is 62", "moja dob je 62", "mijn AOW-leeftijd is 67", "dob mi je 62".
_OWN_BEFORE = re.compile(r"\b(?:my|our|moj\w*|nas\w*|mijn|onze|ons)\b[^.?!]{0,20}$")
_OWN_INSIDE = re.compile(r"\b(?:mi|nam|me|moj\w*|my|mijn|ik|i)\b")
_PERCENT = re.compile(r"(?:%|posto|procent|percent)$")


@dataclass(frozen=True, slots=True)
class Claim:
    """What the asker says a rule states: the words as folded and the number in them."""

    words: str
    value: Decimal
    span: Span


def find_claims(folded: str, language: Language) -> tuple[Claim, ...]:
    """The claims about rules in a folded question, in order."""
    found: list[Claim] = []
    for match in islice(_CLAIM.finditer(folded), MOST_CLAIMS):
        before = folded[max(match.start() - 40, 0) : match.start()]
        if _OWN_BEFORE.search(before) or _OWN_INSIDE.search(match.group()):
            continue
        if _PERCENT.search(match.group()):  # a rate named: the reader's percentages keep it
            continue
        number = match.group("number")
        value = parse_number(number, dot_groups_thousands(language))
        found.append(Claim(match.group(), value, match.span()))
    return tuple(found)


def overlaps_claim(claims: tuple[Claim, ...], start: int, end: int) -> bool:
    """Whether the text from `start` to `end` shares any character with a claim."""
    return any(start < c.span[1] and c.span[0] < end for c in claims)

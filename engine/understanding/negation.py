"""What the asker says they are NOT asking: "Ne pitam koliko je PDV, nego ...", "Lifetime
exemption, not the annual exclusion", "Niet de afbouw, maar ...", "9% in plaats van 6%".

Those words name a neighbouring fact on purpose; they are set aside before matching, so the
question is matched on what it does ask. Patterns are anchored on the negating words and stop
at the next clause mark, so each stays linear in the text's length.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.types import Language

# Up to the next clause mark or contrastive word ("..., nego ...", "... but ...", "... maar").
_CLAUSE = r"(?:(?!\b(?:nego|vec|ali|but|maar|doch)\b)[^,.;:?!()—–])"
_NEGATED: Mapping[Language, re.Pattern[str]] = {
    "hr": re.compile(
        rf"\b(?:ne pitam|ne zanima me|ne mislim na|nije mi pitanje){_CLAUSE}*"
        rf"|(?:[,(]|^)\s*(?:a )?ne (?:za|o|na|u|pitam za)\b{_CLAUSE}*"
        rf"|\bumjesto\b{_CLAUSE}*|\ba ne\b{_CLAUSE}*"
    ),
    "nl": re.compile(
        rf"\b(?:niet (?:de|het|naar|over|om)|ik bedoel niet|geen vraag over){_CLAUSE}*"
        rf"|\bin plaats van\b{_CLAUSE}*|(?:[,(]|^)\s*niet\b{_CLAUSE}*"
    ),
    "en": re.compile(
        rf"\b(?:not asking (?:about|for)|i don'?t mean|i do not mean|not the|rather than|"
        rf"instead of){_CLAUSE}*|(?:[,(]|^)\s*not\b{_CLAUSE}*"
    ),
}


# What the asker already knows, said before what they ask: "Opću stopu znam.", "Het maximum
# van de arbeidskorting ken ik, maar ...", "I know the filing deadline, but ...". A clause of
# its own, ended by a contrast or a full stop (never "ne znam": not knowing is the question).
_KNOWN: Mapping[Language, re.Pattern[str]] = {
    "hr": re.compile(rf"(?:^|(?<=[.,;:!?] ))(?!ne\b){_CLAUSE}*\b(?<!ne )(?:znam|poznajem)\b"
                     rf"{_CLAUSE}*(?=[,.]|\s(?:nego|vec|ali)\b)"),
    "nl": re.compile(rf"(?:^|(?<=[.,;:!?] )){_CLAUSE}*\b(?:ken ik|weet ik(?! niet))\b"
                     rf"{_CLAUSE}*(?=[,.]|\smaar\b)"),
    "en": re.compile(rf"(?:^|(?<=[.,;:!?] ))i (?:already )?know\b{_CLAUSE}*(?=[,.]|\sbut\b)"),
}  # fmt: skip


# "Het deel boven de eerste schijf", "above the first bracket": the ordinal names the bracket
# that is NOT meant; the question is about the next one, which the words do not name.
_BEYOND = re.compile(
    r"\b(?:boven|voorbij|above|beyond|past|iznad|nakon|poslije)\s+(?:de |het |the )?"
    r"(?:eerste|tweede|first|second|prve|prvog|prvi|druge|drugog|drugi)\b"
)


def negated_spans(folded: str, language: Language) -> tuple[tuple[int, int], ...]:
    """Where the question names what it is not asking about, or says it knows already."""
    spans = [match.span() for match in _NEGATED[language].finditer(folded)]
    spans += [match.span() for match in _BEYOND.finditer(folded)]
    if "?" in folded:  # a clause of knowledge is set aside only beside a question
        spans += [m.span() for m in _KNOWN[language].finditer(folded) if "?" not in m.group()]
    return tuple(spans)

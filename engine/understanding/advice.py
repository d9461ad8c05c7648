"""Questions that ask what the asker should do rather than what the rule is.

"Is it better to stay in the second pillar?", "Isplati li se paušal?", "Should I take Social
Security at 62 or wait until 70?", "KOR: wel of niet?" name rules, but answering them with a
rule's value would answer a question that was not asked: Navod states rules, it does not
advise. Evaluative words decide; a modal ("should", "trebam li", "moet ik") decides only with a
choice between options ("... or ...").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.types import Language

_EVALUATIVE: Mapping[Language, re.Pattern[str]] = {
    "hr": re.compile(
        # "isplati li se", "što mi se više isplati" weigh options; "isplatim dobit" pays out
        r"\b(?:isplati\s+(?:li\s+)?(?:mi\s+|nam\s+|vam\s+)?se|isplatilo\s+(?:bi\s+)?se|"
        r"se\s+(?:(?:mi|nam|vam|vise|bolje)\s+)*isplati\w*|isplativ\w*|pametn\w*|bolje|najbolje|savjetu\w*|preporuc\w*|"
        r"preporuk\w*|vrijedi li se|ima li smisla|sto mi je bolje|sto da)\b"
    ),
    "nl": re.compile(
        r"\b(?:beter|het beste|verstandig\w*|slim(?:mer|ste)?|aanraden|aanrader|adviseer\w*|"
        r"voordelig\w*|gunstig\w*|"
        r"advies|loont|lonend|de moeite waard|wel of niet|raad je|raadt u)\b"
    ),
    "en": re.compile(
        r"\b(?:better|best option|worth it|worthwhile|good idea|bad idea|"
        r"(?:would|do|can) you recommend|recommend(?:ed)? (?:i|me|that i)|advise me|your advice|"
        r"more advantageous|cheaper for me|pays off|smart(?:er|est)? (?:move|choice|to)|"
        r"wiser|pros and cons|does it make sense|should i bother)\b"
    ),
}
_CHOICE: Mapping[Language, re.Pattern[str]] = {
    "hr": re.compile(
        r"\b(?:trebam li|trebamo li|da li da|hocu li|je li pametnije)\b.*\bili\b|"
        r"\b(?:trebam li|trebamo li|da li da) (?:otvoriti|zatvoriti|prodati|kupiti|prijeci|"
        r"osnovati|pokrenuti)\b"
    ),
    "nl": re.compile(
        r"\b(?:moet ik|moeten we|zal ik|kan ik beter)\b.*\bof\b|\b(?:moet|zal) ik(?: \w+){0,2} "
        r"(?:starten|beginnen|oprichten|verkopen|kopen|stoppen|opzeggen|overstappen)\b"
    ),
    "en": re.compile(
        r"\b(?:should i|should we|would you)\b.*\bor\b|\bshould (?:i|we) (?:retire|start|open|"
        r"sell|buy|quit|convert|switch|move|incorporate|do|make|claim|delay|roll|withdraw)\b"
    ),
}


def asks_for_advice(folded: str, language: Language) -> bool:
    """Whether the question asks what to do (evaluative, or a modal choice between options)."""
    return bool(_EVALUATIVE[language].search(folded) or _CHOICE[language].search(folded))

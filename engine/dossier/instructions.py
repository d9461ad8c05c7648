"""Source instructions: "remove the guidance", "ignore the second source", "use only the law",
"restore the Porezna uprava page", "zonder het besluit", "makni drugi izvor".

A message is an instruction only when it OPENS with an instruction phrase (after a "please")
and the dossier has sources: "Can I ignore the VAT rules?" opens with a question and stays a
question. The rest of the message names sources by ordinal position (in the order they joined
the conversation), by authority ("the law", "zakon", "het besluit" → REGULATION), or by title,
publisher or act name (rapidfuzz). The result is a list of selection changes; the patch and the
reply are made from it by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz

from engine.dossier.model import Selection, SourceAction, SourceRef
from engine.text.normalize import fold

Verb = Literal["unselect", "only", "restore"]
TITLE_SCORE = 85  # partial_ratio of the named words to a title, publisher or act name
MAX_TARGET_WORDS = 5  # an instruction names its sources in a few words

_POLITE = (
    r"(?:please |pls |molim (?:te |vas )?|graag |alsjeblieft |ok,? |okay,? )?"
    r"(?:(?:can|could|would|will) you (?:please )?|kun je |kunt u |wil je |mozes li |mozete li )?"
)
_VERBS: Mapping[Verb, tuple[str, ...]] = {
    "only": (
        "use only", "only use", "just use", "use just", "only the", "only", "koristi samo",
        "samo", "gebruik alleen", "alleen", "enkel", "gebruik enkel",
    ),
    "restore": (
        "restore", "bring back", "put back", "add back", "use again", "re-add", "readd",
        "vrati", "vratite", "vrati natrag", "ponovno koristi", "opet koristi", "herstel",
        "zet terug", "weer gebruiken", "gebruik weer", "gebruik opnieuw",
    ),
    "unselect": (
        "remove", "ignore", "drop", "exclude", "skip", "leave out", "without", "don't use",
        "do not use", "ukloni", "uklonite", "makni", "maknite", "izbaci", "izbacite",
        "ignoriraj", "zanemari", "izostavi", "bez", "ne koristi", "verwijder", "negeer",
        "zonder", "laat weg", "schrap", "niet gebruiken", "gebruik niet",
    ),
}  # fmt: skip
_ORDINALS: Mapping[str, int] = {
    **dict.fromkeys(("first", "1st", "prvi", "prva", "prvo", "prvu", "eerste"), 0),
    **dict.fromkeys(("second", "2nd", "drugi", "druga", "drugo", "drugu", "tweede"), 1),
    **dict.fromkeys(("third", "3rd", "treci", "treca", "trece", "trecu", "derde"), 2),
    **dict.fromkeys(("fourth", "4th", "cetvrti", "cetvrta", "cetvrtu", "vierde"), 3),
    **dict.fromkeys(("last", "zadnji", "zadnja", "zadnju", "posljednji", "laatste"), -1),
}
_AUTHORITIES: Mapping[str, str] = {
    **dict.fromkeys(
        ("law", "laws", "act", "statute", "zakon", "zakona", "zakonu", "wet", "wetten",
         "wetgeving", "wettekst", "code", "usc"), "LAW"),
    **dict.fromkeys(
        ("regulation", "regulations", "rule", "decree", "pravilnik", "pravilnika", "uredba",
         "uredbu", "uredbe", "besluit", "regeling", "verordening", "cfr"), "REGULATION"),
    **dict.fromkeys(
        ("guidance", "guide", "guidelines", "page", "smjernice", "uputa", "upute", "vodic",
         "misljenje", "toelichting", "handreiking", "richtlijn", "uitleg"), "GUIDANCE"),
    **dict.fromkeys(
        ("practice", "commentary", "article", "secondary", "clanak", "strucni", "artikel",
         "blog"), "PRACTICE"),
}  # fmt: skip
_ALL = frozenset(("all", "everything", "sve", "svi", "sva", "alles", "allemaal", "alle"))
_FILLER = frozenset(
    "the a an source sources that this one izvor izvora izvore izvorima taj tu to onaj de het "
    "een bron bronnen die dat deze stranicu stranica pagina page please molim graag".split()
)
_VERB_PATTERN = re.compile(
    "^" + _POLITE + "(?P<verb>"
    + "|".join(re.escape(p) for p in sorted({p for ps in _VERBS.values() for p in ps}, key=len,
                                             reverse=True))
    + r")\b[\s,:]*(?P<rest>.*)$"
)  # fmt: skip
_LAAT_WEG = re.compile("^" + _POLITE + r"laat (?P<rest>.+) weg$")
_VERB_OF = {phrase: verb for verb, phrases in _VERBS.items() for phrase in phrases}


@dataclass(frozen=True, slots=True)
class Instruction:
    verb: Verb
    targets: tuple[SourceRef, ...]  # the sources the message names; empty: none recognised
    changes: tuple[tuple[SourceAction, tuple[str, ...]], ...]  # what to apply, in order


def parse_instruction(text: str, selection: Selection) -> Instruction | None:
    """The source instruction `text` gives, or None when it is not one (or nothing to select)."""
    if not selection.all:
        return None
    folded = " ".join(fold(text).replace("?", " ").replace("!", " ").split()).rstrip(". ")
    split = _LAAT_WEG.match(folded)  # Dutch splits the verb: "laat de tweede bron weg"
    verb: Verb
    if split is not None:
        verb, rest = "unselect", split.group("rest")
    else:
        match = _VERB_PATTERN.match(folded)
        if match is None:
            return None
        verb, rest = _VERB_OF[match.group("verb")], match.group("rest")
    words = [w for w in re.findall(r"[\w'-]+", rest) if w not in _FILLER]
    if len(words) > MAX_TARGET_WORDS:
        return None  # "Samo da pitam, koja je stopa PDV-a?" opens like one but is a question
    targets = _targets(words, selection, verb)
    return Instruction(verb, targets, _changes(verb, targets, selection))


def _targets(words: list[str], selection: Selection, verb: Verb) -> tuple[SourceRef, ...]:
    pool = selection.unselected if verb == "restore" else selection.all
    if not words:
        return ()
    if set(words) & _ALL:
        return pool
    # "the second source", or its number in the list Navod showed ("makni izvor 2")
    ordinal = next(
        (_ORDINALS[w] if w in _ORDINALS else int(w) - 1 for w in words if _position(w, selection)),
        None,
    )
    if ordinal is not None:
        every = selection.all
        return (every[ordinal],) if -len(every) <= ordinal < len(every) else ()
    authorities = {_AUTHORITIES[w] for w in words if w in _AUTHORITIES}
    named = " ".join(w for w in words if w not in _AUTHORITIES)
    by_name = _by_name(named, pool) if len(named) >= 4 else ()
    if by_name:
        return by_name
    return tuple(ref for ref in pool if ref.authority in authorities)


def _by_name(named: str, pool: tuple[SourceRef, ...]) -> tuple[SourceRef, ...]:
    """Sources whose title or publisher contains the named words (typos tolerated)."""
    scored = [
        (max(fuzz.partial_ratio(named, fold(text)) for text in (ref.title, ref.publisher)), ref)
        for ref in pool
    ]
    best = max((score for score, _ in scored), default=0)
    if best < TITLE_SCORE:
        return ()
    return tuple(ref for score, ref in scored if score == best)


def _changes(
    verb: Verb, targets: tuple[SourceRef, ...], selection: Selection
) -> tuple[tuple[SourceAction, tuple[str, ...]], ...]:
    ids = tuple(ref.evidence_id for ref in targets)
    if not ids:
        return ()
    if verb == "unselect":
        return (("unselected", ids),)
    if verb == "restore":
        return (("restored", ids),)
    others = tuple(ref.evidence_id for ref in selection.selected if ref.evidence_id not in ids)
    return (("restored", ids), ("unselected", others))


def _position(word: str, selection: Selection) -> bool:
    """Whether a word names a source by its place in the list: an ordinal, or its number."""
    return word in _ORDINALS or (word.isdigit() and 1 <= int(word) <= len(selection.all))

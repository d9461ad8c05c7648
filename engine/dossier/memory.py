"""Conversation memory, all derived from a dossier's events: recent turns, a rolling summary and
a Q&A index; and questions about the conversation itself ("što smo ranije rekli o pragu?",
"what did you answer about the RMD age?", "wat was je eerste vraag?").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz

from engine.dossier.model import Dossier, TurnRecord, selection
from engine.text.normalize import fold
from engine.text.tokens import keywords
from engine.types import Language

RECENT = 5
SUMMARY_WORDS = 200
TOPIC_SCORE = 70  # token_set_ratio of the asked topic to a past question, when no concept fits

Which = Literal["topic", "first", "last"]

_PATTERNS: tuple[tuple[str, Which], ...] = (
        # en
        (r"^what was my (?:very )?first question", "first"),
        (r"^what (?:was|did i ask) (?:my )?(?:last|previous) (?:question|time)", "last"),
        (r"^what did i ask (?:you )?first", "first"),
        (r"^what (?:did|have) (?:you|we) (?:say|said|tell me|told me|answer|answered|reply|"
         r"replied|discuss|discussed)(?: me)?(?: earlier| before)? (?:about|on|regarding) "
         r"(?P<t>.+)", "topic"),
        # hr
        (r"^(?:koje|koje je|sto) (?:je )?(?:bilo )?moje prvo pitanje", "first"),
        (r"^(?:koje|sto) (?:je )?(?:bilo )?moje (?:zadnje|prethodno|posljednje) pitanje", "last"),
        (r"^sto sam (?:prvo|najprije) pitao", "first"),
        (r"^sto smo (?:ranije |prije |maloprije |vec )?(?:rekli|govorili|pricali|utvrdili) "
         r"(?:o|za) (?P<t>.+)", "topic"),
        (r"^sto si (?:mi )?(?:ranije |prije )?(?:rekao|rekla|odgovorio|odgovorila) "
         r"(?:o|za|na) (?P<t>.+)", "topic"),
        # nl
        (r"^wat was (?:je|jouw|mijn) (?:allereerste|eerste) vraag", "first"),
        (r"^wat was (?:je|jouw|mijn) (?:laatste|vorige) vraag", "last"),
        (r"^wat (?:zei|zeide) je (?:eerder |net )?over (?P<t>.+)", "topic"),
        (r"^wat (?:heb|hebben) (?:je|jij|we|wij) (?:eerder |net )?(?:gezegd|geantwoord|besproken) "
         r"over (?P<t>.+)", "topic"),
        (r"^wat was (?:je|jouw) antwoord over (?P<t>.+)", "topic"),
)  # fmt: skip
# "... about the threshold earlier": when it was said is not what it was about.
# Tried only where a run of spaces starts, and never backtracking into it: a long run of
# spaces tried at each of its positions cost the square of its length.
_WHEN = re.compile(r"(?<!\s)\s++(?:earlier|before|again|ranije|prije|maloprije|eerder|net)\s*+$")
_MEMORY = tuple((re.compile(pattern), which) for pattern, which in _PATTERNS)


@dataclass(frozen=True, slots=True)
class MemoryQuery:
    which: Which
    topic: str  # the folded words naming what the asker means; "" for first/last


def parse_memory_query(text: str) -> MemoryQuery | None:
    folded = " ".join(fold(text).replace("?", " ").split()).rstrip(". ")
    for pattern, which in _MEMORY:
        match = pattern.match(folded)
        if match is not None:
            topic = _WHEN.sub("", match.groupdict().get("t") or "")
            return MemoryQuery(which, topic.strip(" ,."))
    return None


def answered_turns(dossier: Dossier) -> tuple[tuple[int, TurnRecord], ...]:
    """(1-based number, turn) for the turns that asked the rules (not instructions or recalls)."""
    return tuple(
        (number, turn)
        for number, turn in enumerate(dossier.turns, start=1)
        if turn.route not in ("dossier", "intent", "blocked")
    )


def recall(
    query: MemoryQuery, dossier: Dossier, topic_concepts: tuple[str, ...], language: Language
) -> tuple[int, TurnRecord] | None:
    """The past turn the asker means: by position, by concept, else by the wording."""
    turns = answered_turns(dossier)
    if not turns:
        return None
    if query.which == "first":
        return turns[0]
    if query.which == "last":
        return turns[-1]
    wanted = set(topic_concepts)
    for number, turn in reversed(turns):
        if wanted & set(turn.concepts):
            return number, turn
    # No concept fits the words alone ("pragu"): the past question sharing most of the asked
    # words (as lemmas, so "pragu" meets "prag"), the latest on a tie; else the closest wording.
    asked = set(keywords(query.topic, language))
    shared = [(len(asked & set(keywords(t.question, t.language))), n, t) for n, t in turns]
    most = max(shared, key=lambda item: (item[0], item[1]))
    if most[0]:
        return most[1], most[2]
    scored = [(fuzz.token_set_ratio(query.topic, fold(turn.question)), n, t) for n, t in turns]
    best = max(scored, key=lambda item: (item[0], item[1]))
    return (best[1], best[2]) if best[0] >= TOPIC_SCORE else None


# --- the three memory layers -----------------------------------------------------------------


def recent_turns(dossier: Dossier) -> list[dict[str, str]]:
    """The last RECENT question/answer pairs."""
    return [
        {"question": t.question, "answer": t.headline, "kind": t.kind, "asOfDate": t.as_of}
        for t in dossier.turns[-RECENT:]
    ]


_SUMMARY: Mapping[Language, Mapping[str, str]] = {
    "hr": {"asked": "Pitanja: {n}.", "topics": "Teme", "on": "na dan", "sources":
           "Izvori: {s} odabrano, {u} uklonjeno.", "none": "Još nema pitanja."},
    "nl": {"asked": "Vragen: {n}.", "topics": "Onderwerpen", "on": "per", "sources":
           "Bronnen: {s} geselecteerd, {u} verwijderd.", "none": "Nog geen vragen."},
    "en": {"asked": "Questions: {n}.", "topics": "Topics", "on": "as of", "sources":
           "Sources: {s} selected, {u} removed.", "none": "No questions yet."},
}  # fmt: skip


def rolling_summary(dossier: Dossier) -> str:
    """The concepts, values and dates discussed, in the dossier's language, ≤ SUMMARY_WORDS."""
    words = _SUMMARY[dossier.language]
    turns = [turn for _, turn in answered_turns(dossier)]
    if not turns:
        return words["none"]
    latest: dict[tuple[str, ...], TurnRecord] = {}
    for turn in turns:  # the latest answer per topic: a summary, not a transcript
        latest.pop(turn.concepts or (turn.question,), None)
        latest[turn.concepts or (turn.question,)] = turn
    topics = "; ".join(f"{t.headline} ({words['on']} {t.as_of})" for t in latest.values())
    current = selection(dossier)
    text = " ".join(
        (
            words["asked"].format(n=len(turns)),
            f"{words['topics']}: {topics}.",
            words["sources"].format(s=len(current.selected), u=len(current.unselected)),
        )
    )
    kept = text.split()
    return text if len(kept) <= SUMMARY_WORDS else " ".join(kept[:SUMMARY_WORDS]) + " …"


def qa_index(dossier: Dossier) -> list[dict[str, object]]:
    """One line per turn: its number, topic tags (concepts), the question and its sources."""
    return [
        {
            "turn": number,
            "topics": list(turn.concepts),
            "question": turn.question,
            "answer": turn.headline,
            "sources": list(turn.evidence),
        }
        for number, turn in enumerate(dossier.turns, start=1)
    ]

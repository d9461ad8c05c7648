"""Elliptic follow-ups: "a snižena?", "en in 2018?", "and for someone born in 1960?".

A question that names its concept on its own starts fresh. A short one that does not is read
against the previous turn, deterministically:
1. the previous question's words and the new ones together ("Koja je stopa PDV-a? a snižena?")
   name the concept(s): the new words refine the old topic;
2. else, when the new question adds no word the knowledge base knows (only a year, a birth
   year, "and for a company?"), the previous turn's concepts carry over — unless it is a
   complete question of its own about something else ("Hoe laat is het?", "Tko je predsjednik
   Hrvatske?"): that one is answered, or refused, as itself;
3. the previous as-of date carries over when the previous question chose it and the new one
   names none.
What was carried is returned, so the trace and the dossier can say it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from engine.dossier.model import TurnRecord
from engine.flow.reading import MessageReading, read_message
from engine.pipeline import lexicon
from engine.pipeline.state import State
from engine.snapshot import Snapshot
from engine.text.normalize import fold
from engine.text.tokens import tokenize
from engine.types import Language, Question
from engine.understanding.qualifiers import qualifier_of

MAX_FOLLOWUP_WORDS = 8  # a longer question that names no concept is its own question
MAX_TIED = 3  # "a snižena?" may mean both reduced rates: answer them all, up to this many
_CHOSEN_DATE = frozenset({"request", "question_date", "question_year", "carried"})


@dataclass(frozen=True, slots=True)
class Followup:
    question: Question  # the question with the carried concepts and as-of date pinned
    carried: tuple[str, ...]  # what was taken from the previous turn, for the trace


def resolve_followup(
    reading: MessageReading,
    previous: TurnRecord | None,
    anchor: TurnRecord | None = None,
) -> Followup | None:
    """The question completed from `previous`, or None when it stands on its own.

    `reading` is the message's one reading; `anchor` is the last turn that named its topic
    itself, when `previous` was a follow-up too ("Koja je stopa PDV-a?" → "i za 2019?" → "a
    snižena?"): its words join the merge.
    """
    question, snapshot = reading.question, reading.triaged.snapshot
    if previous is None or not previous.concepts or question.pinned_concepts:
        return None
    alone = reading.matched
    if alone.classification is not None and alone.classification.unsupported:
        return None  # another country: the jurisdiction refusal is the right answer
    if _names_concepts(alone) or len(tokenize(question.text)) > MAX_FOLLOWUP_WORDS:
        return None
    if _asks_something_else(question.text, alone, snapshot.aliases_by_key):
        return None
    language = question.language or previous.language
    # "a viša?" replaces the variant of "Koja je niža stopa…?", "a prag?" the asked "stopa"
    kinds = _qualifier_kinds(alone)
    cues = _cue_words(alone)

    def older(text: str) -> str:
        if cues:
            old = read_message(replace(question, text=text), snapshot).triaged
            text = _without(text, kinds, _cue_words(old))
        return _without(text, kinds, frozenset())

    earlier = older(anchor.question) + " " if anchor is not None and anchor is not previous else ""
    text = f"{earlier}{older(previous.question)} {question.text}"
    merged = _matched(replace(question, text=text, language=language), snapshot)
    # "a viša?" after the lower rate: the merge names both rates, the new words only the higher.
    named = _refined(merged)
    concepts = tuple(c for c in named if c not in previous.concepts) or named
    carried: list[str] = []
    known = snapshot.aliases_by_key
    if concepts and set(concepts) != set(previous.concepts):
        carried.append("topic words of the previous question: " + ", ".join(concepts))
    elif concepts or not any(k in known for k in _keys(alone)):
        concepts = tuple(c for c in previous.concepts if c in snapshot.concepts)
        carried.append("concepts of the previous question: " + ", ".join(concepts))
    if not concepts:
        return None
    as_of: date | None = question.as_of
    if as_of is None and alone.as_of_origin == "today" and previous.as_of_origin in _CHOSEN_DATE:
        as_of = date.fromisoformat(previous.as_of)
        carried.append(f"as-of date {previous.as_of} of the previous question")
    pinned = replace(question, pinned_concepts=concepts, as_of=as_of, language=language)
    return Followup(pinned, tuple(carried))


# Words that open an elliptic follow-up: "and for a company?", "a za 2019?", "en voor 2018?",
# "what about next year?", "for someone born in 1960?".
_OPENERS = frozenset(
    """
    and or but also what how for in with without from since until as if
    a i ili pa te ali sto sta kako za u na od do s sa bez ako
    en of maar ook wat hoe voor in met zonder van vanaf tot als bij
    """.split()
)


_GREETINGS = frozenset("hi hey hello hallo hoi bok pozdrav thanks thank hvala bedankt".split())


def _asks_something_else(text: str, alone: State, known: Mapping[str, object]) -> bool:
    """A complete question of its own about something the knowledge base does not know: it
    names an off-topic subject ("weather", "recept", "voetbal") or greets, or it asks about
    words the knowledge base does not know, stating no fact of the asker and naming no date —
    one such word after a follow-up's opener ("a za d.o.o.?", "and for a company?"), none
    without one ("Tko je predsjednik?"), two ever ("a tko je trener Hajduka?"); with a fact
    stated, two ("Koliko košta kava u Splitu?")."""
    tokens = tokenize(text)
    if any(token in lexicon.OFFTOPIC_CUES or token in _GREETINGS for token in tokens):
        return True
    analysis = alone.analysis
    if not tokens or analysis is None:
        return False
    unknown = [k for k in analysis.keywords if k not in known and not k.isdigit()]
    if analysis.facts:
        # a fact is what a follow-up changes ("a u Splitu?", "and for someone born in 1960?"),
        # but not beside two words the knowledge base does not know and the facts do not
        # explain: "Koliko košta kava u Splitu?" asks about coffee
        reading = analysis.reading
        told = reading.facts + reading.amounts if reading is not None else ()
        said = {word for fact in told for word in fact.words.split()}
        return len([k for k in unknown if k not in said]) >= 2
    if alone.as_of_origin not in ("today", ""):
        return False  # "2019?", "u 2020.": a date is what a follow-up changes
    return len(unknown) >= (2 if tokens[0] in _OPENERS else 1)


def _qualifier_kinds(state: State) -> frozenset[str]:
    reading = state.analysis.reading if state.analysis is not None else None
    return frozenset(q.kind for q in reading.qualifiers) if reading is not None else frozenset()


def _cue_words(state: State) -> frozenset[str]:
    """The words that ask a specific attribute ("prag", "rok"); not "koliko" or "moram li"."""
    reading = state.analysis.reading if state.analysis is not None else None
    if reading is None or reading.attribute in ("any", "magnitude", "obligation"):
        return frozenset()
    return frozenset(word for cue in reading.cue_words for word in cue.split())


def _without(text: str, kinds: frozenset[str], cues: frozenset[str]) -> str:
    """`text` without its words that name a qualifier of one of `kinds`, or are in `cues`."""
    if not kinds and not cues:
        return text
    kept = []
    for word in text.split():
        folded = fold(word).strip(".,;:?!()")
        hit = qualifier_of(folded)
        if folded not in cues and (hit is None or hit[0] not in kinds):
            kept.append(word)
    return " ".join(kept)


def _matched(question: Question, snapshot: Snapshot) -> State:
    return read_message(question, snapshot).matched


def _names_concepts(state: State) -> bool:
    return state.refusal is None and state.matching is not None and bool(state.matching.chosen)


def _refined(state: State) -> tuple[str, ...]:
    """The concepts the merged question names, or all of a small tie ("snižena": 13 % and 5 %)."""
    matching = state.matching
    if matching is None or not matching.chosen:
        return ()
    if state.refusal is None:
        return tuple(m.concept for m in matching.chosen)
    if state.refusal.reason == "NEEDS_CLARIFICATION":
        tied = (matching.chosen[0], *matching.candidates)
        if len(tied) <= MAX_TIED:
            return tuple(dict.fromkeys(m.concept for m in tied))
    return ()


def _keys(state: State) -> tuple[str, ...]:
    return state.analysis.keywords if state.analysis is not None else ()


# A reply that is only a number: what Navod asked for when it refused for missing data.
_BARE_NUMBER = re.compile(
    r"^\s*(?:(?:i was )?born (?:in )?|rođen[a]? |rodjen[a]? |geboren )?"
    r"(\d{2,4})\s*[.!]?\s*$",
    re.IGNORECASE,
)
_STATED: dict[str, dict[Language, str]] = {
    "birth_year": {"hr": "Rođen sam {n}.", "nl": "Ik ben geboren in {n}.",
                   "en": "I was born in {n}."},
    "age": {"hr": "Imam {n} godina.", "nl": "Ik ben {n} jaar.", "en": "I am {n} years old."},
}  # fmt: skip
OLDEST_AGE = 120


def reply_to_missing_data(reply: str, previous: TurnRecord, today: date) -> str | None:
    """When Navod's last answer asked for the asker's data and the reply is just that datum
    ("1959", "64"), the previous question with the datum stated, to be answered again: the
    reply answers Navod's question, it is not a new one."""
    if previous.refusal_reason != "MISSING_CLIENT_DATA":
        return None
    found = _BARE_NUMBER.match(reply)
    if found is None:
        return None
    number = int(found.group(1))
    if 1900 <= number <= today.year:
        fact = "birth_year"
    elif 14 <= number <= OLDEST_AGE:
        fact = "age"
    else:
        return None
    statement = _STATED[fact][previous.language].format(n=number)
    return f"{statement} {previous.question}"


CHOICE_SCORE = 85  # rapidfuzz token_set_ratio of a reply to an offered concept's name


def reply_to_choice(reply: str, previous: TurnRecord, snapshot: Snapshot) -> str | None:
    """When Navod's last answer asked "Do you mean A / B / C?", the concept the reply picks:
    its number ("2") or its name, close enough ("the reduced rate"); None otherwise."""
    if previous.refusal_reason != "NEEDS_CLARIFICATION" or not previous.offered:
        return None
    offered = [c for c in previous.offered if c in snapshot.concepts]
    text = fold(reply).strip(" .!?")
    if text.isdigit():
        number = int(text)
        return offered[number - 1] if 1 <= number <= len(offered) else None
    scores = [
        (
            max(
                fuzz.token_set_ratio(text, fold(label), processor=default_process)
                for label in snapshot.concepts[c].labels.values()
            ),
            c,
        )
        for c in offered
    ]
    best = max(scores, default=(0, ""))
    tied = [c for score, c in scores if score == best[0]]
    return best[1] if best[0] >= CHOICE_SCORE and len(tied) == 1 else None

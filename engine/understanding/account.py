"""Account for every word: after the match, what in the question is still unexplained.

Every content word ends up explained: by the answering concepts' names, by the reading (a
cue, a fact, a date, a place, known filler), as a qualifier the concepts' names carry in any
language ("standaard" for the standard rate), as a qualifier that does not matter for these
concepts (a category of goods for a registration threshold), or as context: a word in another
sentence than the subject's words, or far from them ("I'm writing a seminar paper. When did
fiscalisation start?"). What remains blocks the answer, because it may change what was asked:
- a number nobody explains, anywhere ("123 456 789 PDV"); a value the domain states ("the top
  rate of 49,5 %") or an amount asked about on an amount is explained;
- a category or party the concepts vary by and do not name, anywhere ("Ik ben kapper. Welk
  btw-tarief?");
- next to the subject's words: a variant ("zero rate", "first RMD"), an aspect ("when ... btw
  aangifte"), a number no value explains, or, for a value that differs by category, an
  unknown word naming what it applies to ("btw-tarief voor een fysiotherapeut").
An understood qualifier no rule covers is reported as such; any other word as not understood.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from engine.types import AnswerKind, QualifierDimension
from engine.understanding.frame import Attribute, Qualifier, Quantity, Reading
from engine.understanding.words import Word

# An aspect of a tax matters unless the question asks how much: "koliki PDV moram platiti"
# asks the rate, "kada moram platiti PDV" the payment deadline; "amending a 2014 return: LTC
# premium limit" asks a limit.
_HOW_MUCH: frozenset[Attribute] = frozenset({"rate", "amount", "magnitude", "age", "duration"})
_ALL: frozenset[Attribute] = frozenset(
    {"rate", "amount", "magnitude", "age", "duration", "date", "since", "until", "deadline",
     "obligation", "who", "any"}
)  # fmt: skip
_ASPECT_CONTEXT: Mapping[str, frozenset[Attribute]] = {
    "payment": _HOW_MUCH | {"obligation", "any", "who"},
    "calculation": _ALL,  # "se obračunava": how a value is applied, not another fact
    "filing": _HOW_MUCH,
    "registration": _HOW_MUCH - {"amount"},
    "invoicing": _HOW_MUCH,
    "records": _HOW_MUCH,
}
NEAR = 3  # content words between a word and the subject's words for the word to qualify it
NEAR_VARIANT = 2  # "the lower rate", "verlaagd btw-tarief": a variant sits next to its noun
NEAR_ORDINAL = 1  # "first RMD", "eerste schijf" — but not "my first employee"
_ORDINALS = frozenset({"first", "second", "third"})
# Words after which an unknown word names what a rate applies to ("VAT on prescription
# medicines", "btw-tarief voor een fysiotherapeut", "stopa PDV-a za frizere").
_FOR = frozenset("for on of at voor op van bij za na kod pri u od".split())


_IF = frozenset({"if", "als", "indien", "ako", "ukoliko"})
# What an amount threshold is measured in (revenue, receipts, turnover): asked with "up to what
# amount of …", it names the measure, not another fact. Not "income"/"dohodak": taxes' names.
_MEASURES = frozenset({"prihod", "primitak", "primic", "promet", "omzet", "revenue", "turnover",
                       "receipt"})  # fmt: skip
_AMOUNTS = frozenset({"amount", "magnitude"})


def aspect_is_context(qualifier: Qualifier, attribute: Attribute) -> bool:
    """Whether an aspect leaves what is asked as it is: "koliki PDV moram platiti" asks the
    rate, not the payment deadline."""
    return qualifier.kind == "aspect" and attribute in _ASPECT_CONTEXT.get(qualifier.value, ())


def conditional(words: Iterable[Word], sentences: tuple[int, ...]) -> list[Word]:
    """The words after "if" up to the end of their sentence: a situation the asker states
    ("… als je in de hoogste schijf zit"), not a fact asked."""
    found: list[Word] = []
    opened = -1
    for word in words:
        sentence = bisect_right(sentences, word.start)
        if word.text in _IF:
            opened = sentence
        elif sentence == opened:
            found.append(word)
    return found


@dataclass(frozen=True, slots=True)
class Subject:
    """What the concepts that would answer explain."""

    keys: frozenset[str]  # every key their names use (with typos corrected into them)
    qualifiers: frozenset[tuple[str, str]]  # (kind, value) their names carry
    varies_by: frozenset[QualifierDimension]
    kinds: frozenset[AnswerKind]
    values: frozenset[Decimal]  # the values their domain states
    amounts_used: bool  # a threshold takes the amount the asker gives
    numbers: frozenset[str] = frozenset()  # numbers their names write ("2.0")
    # Matched on its names' words alone (no alias of it is in the question): the evidence for
    # this reading is weaker, so an unexplained word right beside the subject blocks it.
    strict: bool = False


def joint_subject(parts: Sequence[Subject]) -> Subject:
    """What several concepts answered together explain: what any of them does (not strict;
    one part is itself, no set copied)."""
    if len(parts) == 1:
        return parts[0]
    return Subject(
        keys=frozenset().union(*(p.keys for p in parts)),
        qualifiers=frozenset().union(*(p.qualifiers for p in parts)),
        varies_by=frozenset().union(*(p.varies_by for p in parts)),
        kinds=frozenset().union(*(p.kinds for p in parts)),
        values=frozenset().union(*(p.values for p in parts)),
        amounts_used=any(p.amounts_used for p in parts),
        numbers=frozenset().union(*(p.numbers for p in parts)),
    )


@dataclass(frozen=True, slots=True)
class Account:
    unexplained: tuple[str, ...]  # words nothing explains, as written
    uncovered: tuple[Qualifier, ...]  # qualifiers understood, that these concepts do not cover
    context: tuple[str, ...]  # words taken as context: far from the subject, or irrelevant

    @property
    def blocking(self) -> int:
        return len(self.unexplained) + len(self.uncovered)


def account(
    words: tuple[Word, ...],
    reading: Reading,
    subject: Subject,
    known: Callable[[str], bool],
    sibling: Callable[[Qualifier], bool] = lambda _: False,
    verb: Callable[[str], bool] = lambda _: False,
) -> Account:
    """What of the question `subject` and the reading leave unexplained; `known(key)` says
    whether a key names some fact of the knowledge base, `sibling(qualifier)` whether a
    neighbouring concept names that party or category."""
    content = [w for w in words if w.key is not None]
    after_for = {id(w) for w, before in zip(words[1:], words, strict=False) if before.text in _FOR}
    after_for |= {id(w) for w, before in zip(words[2:], words, strict=False) if before.text in _FOR}
    sentence = [bisect_right(reading.sentences, w.start) for w in content]
    asking = reading.question_sentences or frozenset(sentence)
    qualifiers = {q.key: q for q in reading.qualifiers}
    named = subject.qualifiers | {
        (q.kind, q.value) for q in reading.qualifiers if q.key in subject.keys
    }
    # The subject's words in the sentences that ask; a qualifier the subject names counts.
    anchors = [
        i
        for i, w in enumerate(content)
        if sentence[i] in asking
        and (w.key in subject.keys or _named(qualifiers.get(w.key or ""), named))
    ]
    unexplained: list[str] = []
    uncovered: dict[str, Qualifier] = {}
    context: list[str] = []
    for index, word in enumerate(content):
        key = word.key
        assert key is not None
        if key in subject.keys or key in reading.explained:
            continue
        qualifier = qualifiers.get(key)
        if qualifier is not None and (qualifier.kind, qualifier.value) in named:
            continue  # "apartmani" when the concept names "smještaj": the same category
        if key in _MEASURES and reading.attribute in _AMOUNTS and "amount" in subject.kinds:
            context.append(word.text)  # "do kojeg iznosa prihoda": what the threshold measures
            continue

        def near(reach: int, index: int = index) -> bool:
            return any(sentence[a] == sentence[index] and abs(a - index) <= reach for a in anchors)

        attached = id(word) in after_for and near(NEAR_VARIANT + 1)
        if qualifier is not None and (
            _matters(qualifier, reading.attribute, subject, near, attached)
            or (qualifier.kind in ("party", "category") and sibling(qualifier))
        ):
            uncovered.setdefault(key, qualifier)
        elif qualifier is None and _unknown_matters(
            word, subject, near, after_for, known(key), verb
        ):
            unexplained.append(word.text)
        else:
            context.append(word.text)
    unexplained += _numbers(reading, subject)
    if reading.attribute == "obligation" and not subject.amounts_used:
        # "Moram li plaćati PDV ako zarađujem 15.000 EUR?": whether a duty applies to an amount
        # is a threshold's question; a deadline or a rate that ignores the amount is no answer
        unexplained += [fact.words for fact in reading.facts if fact.unit]
    return Account(
        tuple(dict.fromkeys(unexplained)),
        tuple(uncovered.values()),
        tuple(dict.fromkeys(context)),
    )


def _matters(
    qualifier: Qualifier,
    attribute: Attribute,
    subject: Subject,
    near: Callable[[int], bool],
    attached: bool,
) -> bool:
    """Whether an understood qualifier the subject does not name changes what is asked. A
    category matters for a value that differs by category, or when it is what the subject is
    asked of ("porez na dobit od prodaje kriptovaluta"), not when it only tells who asks
    ("Prodajem knjige: koji je prag za PDV?")."""
    if qualifier.kind == "category":
        return qualifier.kind in subject.varies_by or attached
    if qualifier.kind == "party":
        return qualifier.kind in subject.varies_by
    if qualifier.kind == "aspect":
        return not aspect_is_context(qualifier, attribute) and near(NEAR)
    return near(NEAR_ORDINAL if qualifier.value in _ORDINALS else NEAR_VARIANT)


def _named(
    qualifier: Qualifier | None, named: set[tuple[str, str]] | frozenset[tuple[str, str]]
) -> bool:
    return qualifier is not None and (qualifier.kind, qualifier.value) in named


def _unknown_matters(
    word: Word,
    subject: Subject,
    near: Callable[[int], bool],
    after_for: set[int],
    known: bool,
    verb: Callable[[str], bool],
) -> bool:
    """A word nothing explains matters next to the subject's words when it is a number no
    value explains, or a word that names another fact of the knowledge base ("mjesečna
    osnovica", "Part B premium"); for a value that differs by category, also any word naming
    what it applies to ("btw-tarief voor een fysiotherapeut"). Other words are context."""
    if word.text.isdigit():
        return near(NEAR) and Decimal(word.text) not in subject.values
    if known:
        return near(NEAR)
    # a verb says what someone does ("welk rendement rekent de Belastingdienst"), not which
    # fact is meant
    return (subject.strict and near(1) and not verb(word.text)) or (
        bool(subject.varies_by) and id(word) in after_for and near(NEAR * 2)
    )


def _numbers(reading: Reading, subject: Subject) -> list[str]:
    """Numbers no fact or date explains: a value the domain states, or a figure asked about
    on a concept of that kind ("is the threshold 40.000?", "je li PDV 25 %?"), is explained."""
    left: list[str] = []
    amounts: Iterable[Quantity] = (
        ()
        if subject.amounts_used
        else (Quantity(a.words, _decimal(a.value)) for a in reading.amounts)
    )
    for quantities, kind in (
        (reading.numbers, "amount"),
        (amounts, "amount"),
        (reading.percentages, "rate"),
    ):
        for quantity in quantities:
            if kind in subject.kinds or quantity.value in subject.values:
                continue
            if quantity.words in subject.numbers:  # "Fiskalizacija 2.0"
                continue
            left.append(quantity.words)
    return left


def _decimal(value: object) -> Decimal | None:
    return value if isinstance(value, Decimal) else None

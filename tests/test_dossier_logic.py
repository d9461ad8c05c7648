"""The conversation logic on its own: source instructions, memory questions, follow-ups and the
memory layers (engine/dossier). Conversations end to end are in tests/test_conversations.py."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from engine.dossier.followup import resolve_followup
from engine.dossier.instructions import parse_instruction
from engine.dossier.memory import parse_memory_query, qa_index, rolling_summary
from engine.dossier.model import (
    Dossier,
    Event,
    Selection,
    SourceRecord,
    SourceRef,
    TurnRecord,
    selection,
)
from engine.flow.reading import MessageReading, read_message
from engine.snapshot import Snapshot, compile_snapshot
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.types import Question

LAW = SourceRef("ev_law", "Zakon o porezu na dodanu vrijednost", "LAW", "Narodne novine")
GUIDE = SourceRef("ev_guide", "Porez na dobit (obrtnici)", "GUIDANCE", "Porezna uprava")
DECREE = SourceRef("ev_decree", "Uitvoeringsbesluit omzetbelasting 1968", "REGULATION", "Overheid")
AT = datetime(2026, 11, 22, tzinfo=UTC)


def _selection(unselected: tuple[SourceRef, ...] = ()) -> Selection:
    refs = (LAW, GUIDE, DECREE)
    return Selection(
        selected=tuple(r for r in refs if r not in unselected), unselected=unselected, all=refs
    )


@pytest.mark.parametrize(
    ("text", "verb", "targets"),
    [
        ("remove the guidance", "unselect", [GUIDE]),
        ("Please ignore the second source.", "unselect", [GUIDE]),
        ("use only the law", "only", [LAW]),
        ("zonder het besluit", "unselect", [DECREE]),
        ("makni zadnji izvor", "unselect", [DECREE]),
        ("ukloni smjernice", "unselect", [GUIDE]),
        ("samo zakon", "only", [LAW]),
        ("gebruik alleen de wet", "only", [LAW]),
        ("remove the Porezna uprava page", "unselect", [GUIDE]),
        ("makni izvor 3", "unselect", [DECREE]),  # its number in the list Navod showed
    ],
)
def test_instructions_name_their_sources(text: str, verb: str, targets: list[SourceRef]) -> None:
    instruction = parse_instruction(text, _selection())
    assert instruction is not None
    assert (instruction.verb, list(instruction.targets)) == (verb, targets)


def test_only_restores_the_named_and_unselects_the_rest() -> None:
    instruction = parse_instruction("use only the law", _selection(unselected=(LAW,)))
    assert instruction is not None
    assert instruction.changes == (
        ("restored", ("ev_law",)),
        ("unselected", ("ev_guide", "ev_decree")),
    )


def test_restore_looks_among_the_removed_ones() -> None:
    instruction = parse_instruction("restore the Porezna uprava page", _selection((GUIDE,)))
    assert instruction is not None and instruction.changes == (("restored", ("ev_guide",)),)
    everything = parse_instruction("vrati sve", _selection((GUIDE, LAW)))
    assert everything is not None and set(everything.changes[0][1]) == {"ev_guide", "ev_law"}


@pytest.mark.parametrize(
    "text",
    [
        "Can I ignore the VAT rules if I am under the threshold?",
        "Samo da pitam, koja je opća stopa PDV-a u Hrvatskoj za obrtnike?",
        "Koja je stopa PDV-a?",
        "What is the standard VAT rate without exemptions?",
    ],
)
def test_questions_are_not_instructions(text: str) -> None:
    assert parse_instruction(text, _selection()) is None


def test_no_sources_no_instruction() -> None:
    assert parse_instruction("remove the guidance", Selection((), (), ())) is None


def test_an_unrecognised_target_is_an_instruction_without_targets() -> None:
    instruction = parse_instruction("remove the fifth source", _selection())
    assert instruction is not None and instruction.targets == () and instruction.changes == ()


@pytest.mark.parametrize(
    ("text", "which", "topic"),
    [
        ("što smo ranije rekli o pragu?", "topic", "pragu"),
        ("What did you answer about the RMD age?", "topic", "the rmd age"),
        ("wat was je eerste vraag?", "first", ""),
        ("What was my last question?", "last", ""),
        ("Wat zei je eerder over de KOR?", "topic", "de kor"),
        ("Što si mi rekao o stopi PDV-a?", "topic", "stopi pdv-a"),
    ],
)
def test_memory_questions(text: str, which: str, topic: str) -> None:
    query = parse_memory_query(text)
    assert query is not None and (query.which, query.topic) == (which, topic)


@pytest.mark.parametrize("text", ["Koja je stopa PDV-a?", "What is the RMD age?", "a snižena?"])
def test_ordinary_questions_are_not_about_memory(text: str) -> None:
    assert parse_memory_query(text) is None


@pytest.fixture(scope="module")
def snapshot() -> Snapshot:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return compile_snapshot(repository.load_knowledge())


def _turn(question: str, concepts: tuple[str, ...], **extra: str) -> TurnRecord:
    fields = {"as_of": "2026-11-22", "as_of_origin": "today", "headline": "h", **extra}
    return TurnRecord(
        question=question,
        language="hr",
        kind="ANSWER",
        topic="REGULATORY",
        refusal_reason=None,
        route="pipeline",
        concepts=concepts,
        **fields,
    )


def _question(text: str) -> Question:
    return Question(text=text, surface="MARKETING", today=date(2026, 11, 22))


def _read(text: str, snapshot: Snapshot) -> MessageReading:
    """The message's one reading, as the turn's read step makes it."""
    return read_message(_question(text), snapshot)


OPCA = ("hr-pdv-opca-stopa",)


def test_a_refining_word_changes_the_concept(snapshot: Snapshot) -> None:
    followup = resolve_followup(_read("a snižena?", snapshot), _turn("Koja je stopa PDV-a?", OPCA))
    assert followup is not None
    assert set(followup.question.pinned_concepts) == {
        "hr-pdv-snizena-stopa-13",
        "hr-pdv-snizena-stopa-5",
    }


def test_a_year_alone_keeps_the_concept(snapshot: Snapshot) -> None:
    followup = resolve_followup(_read("i za 2019?", snapshot), _turn("Koja je stopa PDV-a?", OPCA))
    assert followup is not None and followup.question.pinned_concepts == OPCA
    assert followup.question.as_of is None  # the question's own year decides the date


def test_the_previous_date_carries_when_the_new_question_names_none(snapshot: Snapshot) -> None:
    previous = _turn(
        "Koja je stopa PDV-a 2019?", OPCA, as_of="2019-01-01", as_of_origin="question_year"
    )
    followup = resolve_followup(_read("a snižena?", snapshot), previous)
    assert followup is not None and followup.question.as_of == date(2019, 1, 1)
    assert any("as-of date" in note for note in followup.carried)


@pytest.mark.parametrize(
    "text",
    ["Koliki je prag za ulazak u sustav PDV-a?", "What is the RMD age?", "PDV u Njemačkoj?"],
)
def test_a_full_question_starts_fresh(text: str, snapshot: Snapshot) -> None:
    assert resolve_followup(_read(text, snapshot), _turn("Koja je stopa PDV-a?", OPCA)) is None


def test_no_previous_turn_no_followup(snapshot: Snapshot) -> None:
    assert resolve_followup(_read("a snižena?", snapshot), None) is None


def _dossier(*records: TurnRecord | SourceRecord) -> Dossier:
    events = tuple(Event(i, AT, r) for i, r in enumerate(records))
    return Dossier("dos_1", "ana", "MARKETING", "hr", AT, AT, len(records), events)


def test_summary_stays_under_its_word_limit_and_keeps_the_latest_per_topic() -> None:
    turns = [_turn(f"pitanje {i}", (f"concept-{i % 40}",), headline="x " * 10) for i in range(120)]
    summary = rolling_summary(_dossier(*turns))
    assert len(summary.split()) <= 201 and summary.startswith("Pitanja: 120.")


def test_index_has_a_line_per_turn_with_topics_and_sources() -> None:
    dossier = _dossier(
        SourceRecord("added", "ev_law", "Zakon", "LAW"), _turn("Koja je stopa PDV-a?", OPCA)
    )
    assert qa_index(dossier) == [
        {
            "turn": 1,
            "topics": list(OPCA),
            "question": "Koja je stopa PDV-a?",
            "answer": "h",
            "sources": [],
        }
    ]
    assert [r.evidence_id for r in selection(dossier).selected] == ["ev_law"]

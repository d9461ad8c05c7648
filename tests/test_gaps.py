"""What askers miss (engine/flow/gaps.py): refused turns grouped by reason and subject, pure;
and the store's read of the refused turns (engine/store/dossiers), on memory and SQL alike."""

from __future__ import annotations

import io
import random
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from rich.console import Console

from api import cli_gaps
from engine.dossier.model import Event, SourceRecord, TurnRecord, append_turn
from engine.flow.gaps import Gap, content_words, refusal_gaps, subject_of
from engine.store.dossiers.repository import DossierRepository
from engine.types import Language
from tests.test_dossier_model import LAW, turn

DAY1 = datetime(2026, 11, 20, 23, 30, tzinfo=UTC)
DAY = timedelta(days=1)
IBAN = "HR1210010051863000160"  # valid (mod 97)
OIB = "12345678903"  # valid (mod 11,10)


def refused(question: str, reason: str = "NO_CITABLE_RULES", **changes: Any) -> TurnRecord:
    """A refused turn that matched no concept unless `concepts` is given."""
    fields: dict[str, Any] = {
        "kind": "REFUSAL",
        "refusal_reason": reason,
        "headline": "",
        "concepts": (),
        "rules": (),
        "citations": (),
        "evidence": (),
        "values": (),
        **changes,
    }
    return turn(question, **fields)


def at(moment: datetime, record: TurnRecord | SourceRecord, seq: int = 0) -> Event:
    return Event(seq, moment, record)


@pytest.mark.parametrize(
    ("question", "language", "words"),
    [
        ("How much is the dog tax?", "en", ("dog", "tax")),
        ("How much is the tax for a dog?", "en", ("dog", "tax")),  # same words, any order
        ("Koliki je porez na pse u Zagrebu?", "hr", ("porez", "pse", "zagrebu")),
        (
            "Kolika je stopa poreza za kriptovalute u 2025.?",
            "hr",
            ("kriptovalute", "poreza", "stopa"),
        ),
        ("Wat is de hondenbelasting in 2026?", "nl", ("hondenbelasting",)),
        ("Što ćemo s porezom?", "hr", ("porezom",)),  # folded: "što ćemo s" are stopwords
        ("Moj OIB je [OIB], a IBAN [IBAN]", "hr", ("iban", "oib")),  # placeholders dropped
        ("bok", "hr", ()),
        ("", "en", ()),
    ],
)
def test_content_words_are_folded_sorted_and_without_filler(
    question: str, language: Language, words: tuple[str, ...]
) -> None:
    assert content_words(question, language) == words


def test_the_subject_is_the_concepts_matched_else_the_words() -> None:
    named = refused("Koja je stopa PDV-a za kripto?", concepts=("hr-pdv-prag", "hr-pdv-stopa"))
    assert subject_of(named) == ("hr-pdv-prag + hr-pdv-stopa", "concepts")
    swapped = refused("stopa PDV-a za kripto", concepts=("hr-pdv-stopa", "hr-pdv-prag"))
    assert subject_of(swapped) == subject_of(named)
    assert subject_of(refused("How much is the dog tax?", language="en")) == ("dog tax", "words")


def test_an_identifier_stored_unredacted_is_not_a_subject_word() -> None:
    """Defence in depth: a question stored before redaction existed is redacted here again."""
    record = refused(f"Moj IBAN je {IBAN}, porez na pse?")
    subject, _ = subject_of(record)
    assert IBAN.lower() not in subject and subject == "iban porez pse"


def test_refusals_are_grouped_counted_and_dated_and_answers_ignored() -> None:
    events = [
        at(DAY1, refused("How much is the dog tax?", language="en")),
        at(DAY1 + 2 * DAY, refused("How much is the tax for a dog?", language="en")),
        at(DAY1 + DAY, refused("dog tax?", "OUT_OF_SCOPE", language="en")),
        at(DAY1, refused("RMD 2040?", concepts=("us-rmd-age",), language="en")),
        at(DAY1 + 4 * DAY, refused("And in 2041?", concepts=("us-rmd-age",), language="en")),
        at(DAY1 + 3 * DAY, refused("RMD age in 2042?", concepts=("us-rmd-age",), language="en")),
        at(DAY1, turn("Koja je stopa PDV-a?")),  # an answer: not a gap
        at(DAY1, SourceRecord("added", "ev_law", "Zakon", "LAW")),
    ]
    report = refusal_gaps(events)
    assert report.refused == 6 and report.groups == 3
    rmd, dog, scope = report.gaps
    # 23:30 UTC on the 20th is the 20th: days are UTC days
    assert rmd == Gap(
        "NO_CITABLE_RULES",
        "us-rmd-age",
        "concepts",
        3,
        date(2026, 11, 20),
        date(2026, 11, 24),
        "RMD 2040?",
    )
    assert (dog.reason, dog.subject, dog.named_by, dog.count) == (
        "NO_CITABLE_RULES",
        "dog tax",
        "words",
        2,
    )
    assert (dog.first_seen, dog.last_seen) == (date(2026, 11, 20), date(2026, 11, 22))
    assert dog.example == "How much is the dog tax?"  # the earliest question of the group
    assert (scope.reason, scope.subject, scope.count) == ("OUT_OF_SCOPE", "dog tax", 1)


def test_equal_counts_order_by_reason_then_subject_and_limit_keeps_the_largest() -> None:
    events = [
        at(DAY1, refused("zebra tax", "OUT_OF_SCOPE", language="en")),
        at(DAY1, refused("apple tax", "OUT_OF_SCOPE", language="en")),
        at(DAY1, refused("zebra tax", "NEEDS_CLARIFICATION", language="en")),
        at(DAY1, refused("mango tax", "UNSUPPORTED_JURISDICTION", language="en")),
        at(DAY1 + DAY, refused("mango tax", "UNSUPPORTED_JURISDICTION", language="en")),
    ]
    everything = refusal_gaps(events)
    assert [(g.reason, g.subject) for g in everything.gaps] == [
        ("UNSUPPORTED_JURISDICTION", "mango tax"),
        ("NEEDS_CLARIFICATION", "tax zebra"),
        ("OUT_OF_SCOPE", "apple tax"),
        ("OUT_OF_SCOPE", "tax zebra"),
    ]
    two = refusal_gaps(events, limit=2)
    assert two.gaps == everything.gaps[:2]
    assert (two.refused, two.groups) == (5, 4)  # the totals count every group, shown or not


def test_the_example_is_redacted_again() -> None:
    events = [at(DAY1, refused(f"Moj OIB je {OIB}, a IBAN {IBAN}; porez na pse?"))]
    (gap,) = refusal_gaps(events).gaps
    assert gap.example == "Moj OIB je [OIB], a IBAN [IBAN]; porez na pse?"
    assert OIB not in gap.example and IBAN not in gap.example


def test_the_same_events_in_any_order_give_the_same_report() -> None:
    events = [
        at(DAY1 + (n % 3) * DAY, refused(q, language="en"), seq=n)
        for n, q in enumerate(["dog tax", "tax of a dog", "cat tax", "the cat tax", "owl"])
    ]
    events.append(at(DAY1, refused("a dog's tax", language="en"), seq=9))  # same moment as #0
    expected = refusal_gaps(events)
    shuffled = list(events)
    for seed in range(5):
        random.Random(seed).shuffle(shuffled)
        assert refusal_gaps(shuffled) == expected


def test_nothing_refused_is_an_empty_report() -> None:
    report = refusal_gaps([at(DAY1, turn("Koja je stopa PDV-a?"))])
    assert (report.refused, report.groups, report.gaps) == (0, 0, ())


# --- the store: refused turns only, oldest first, since a moment --------------------------------


def test_the_store_reads_refused_turns_only_oldest_first(dossier_store: DossierRepository) -> None:
    store = dossier_store
    first = store.create("dos_b", "key_1", "APP", "hr", DAY1)
    store.apply("dos_b", append_turn(first, refused("porez na pse"), (LAW,)), DAY1)
    later = store.create("dos_a", "anonymous", "MARKETING", "en", DAY1 + DAY)
    made = append_turn(later, turn("Koja je stopa PDV-a?"))  # answered: not read
    later = store.apply("dos_a", made, DAY1 + DAY)
    store.apply("dos_a", append_turn(later, refused("dog tax", language="en")), DAY1 + 2 * DAY)
    # at the same moment as dos_b's refusal: dos_a's comes first (ties by dossier, then seq)
    same = store.create("dos_a2", "key_1", "APP", "hr", DAY1)
    store.apply("dos_a2", append_turn(same, refused("vrijeme u Splitu", "OUT_OF_SCOPE")), DAY1)

    found = store.refused_turns()
    assert [e.record.question for e in found if isinstance(e.record, TurnRecord)] == [
        "vrijeme u Splitu",
        "porez na pse",
        "dog tax",
    ]
    assert [e.at for e in found] == [DAY1, DAY1, DAY1 + 2 * DAY]
    since = store.refused_turns(DAY1 + DAY)
    assert [e.record.question for e in since if isinstance(e.record, TurnRecord)] == ["dog tax"]
    assert store.refused_turns(DAY1 + 3 * DAY) == ()


# --- the human report: the asker's text printed as text, on one line --------------------------


def test_the_table_prints_the_askers_text_as_text_on_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    printed = io.StringIO()
    monkeypatch.setattr(cli_gaps, "console", Console(file=printed, width=160))
    question = "[bold]porez[/bold] na\x1b[31m pse\u202e?\n\tMoj IBAN je [IBAN]"
    report = refusal_gaps([at(DAY1, refused(question)), at(DAY1 + DAY, refused("IBAN porez pse"))])
    cli_gaps.print_gaps(report, None)
    output = printed.getvalue()
    # markup shown, not applied; ESC, the bidi override, newline and tab gone
    assert "[bold]porez[/bold] na [31m pse? Moj IBAN je [IBAN]" in output
    assert "\x1b" not in output and "\u202e" not in output
    assert '"31m bold iban porez pse"' in output and "2026-11-20" in output
    assert '"iban porez pse"' in output and "2026-11-21" in output
    assert "2 refused questions in 2 groups" in output

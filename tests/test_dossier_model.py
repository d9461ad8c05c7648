"""The pure dossier model: the selection folded from events, and the patch makers."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from engine.dossier.model import (
    HEADLINE_LIMIT,
    QUESTION_LIMIT,
    Dossier,
    Event,
    SourceAction,
    SourceRecord,
    SourceRef,
    TurnRecord,
    append_turn,
    change_selection,
    selection,
)

AT = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
LAW = SourceRef("ev_law", "Zakon o PDV-u", "LAW")
GUIDE = SourceRef("ev_guide", "Upute Porezne uprave", "GUIDANCE")
BLOG = SourceRef("ev_blog", "Savjetnik", "PRACTICE")


def turn(question: str = "Koja je stopa PDV-a?", **changes: Any) -> TurnRecord:
    """A plausible answered turn; keyword arguments replace its fields."""
    base = TurnRecord(
        question=question,
        language="hr",
        kind="ANSWER",
        topic="REGULATORY",
        refusal_reason=None,
        as_of="2026-11-23",
        as_of_origin="today",
        route="pipeline",
        headline="Opća stopa PDV-a je 25 %.",
        concepts=("hr-pdv-stopa",),
        rules=("hr-pdv-opca-stopa-2013",),
        citations=("hr-pdv-opca-stopa-2013@ev_law",),
        evidence=("ev_law",),
        values=(("hr-pdv-opca-stopa-2013", "25"),),
    )
    return replace(base, **changes)


def added(ref: SourceRef) -> SourceRecord:
    return SourceRecord("added", ref.evidence_id, ref.title, ref.authority)


def dossier(*records: TurnRecord | SourceRecord, version: int = 3) -> Dossier:
    events = tuple(Event(seq, AT, record) for seq, record in enumerate(records))
    return Dossier("d1", "anonymous", "MARKETING", "hr", AT, AT, version, events)


def ids(refs: tuple[SourceRef, ...]) -> list[str]:
    return [ref.evidence_id for ref in refs]


# --- selection --------------------------------------------------------------------------------


def test_an_empty_dossier_has_no_sources() -> None:
    chosen = selection(dossier())
    assert (chosen.selected, chosen.unselected, chosen.all) == ((), (), ())


def test_added_sources_are_selected_in_the_order_they_joined() -> None:
    chosen = selection(dossier(added(GUIDE), turn(), added(LAW)))
    assert ids(chosen.selected) == ["ev_guide", "ev_law"]
    assert chosen.unselected == ()
    assert chosen.selected[0] == SourceRef("ev_guide", "Upute Porezne uprave", "GUIDANCE")


@pytest.mark.parametrize(
    ("actions", "selected"),
    [
        (("unselected",), False),
        (("unselected", "restored"), True),
        (("unselected", "selected"), True),
        (("unselected", "restored", "unselected"), False),
        (("selected",), True),
    ],
)
def test_the_last_action_on_a_source_decides(
    actions: tuple[SourceAction, ...], selected: bool
) -> None:
    changes = [SourceRecord(action, "ev_guide") for action in actions]
    chosen = selection(dossier(added(LAW), added(GUIDE), *changes))
    assert chosen.is_selected("ev_guide") is selected
    assert chosen.knows("ev_guide")
    assert ids(chosen.all) == ["ev_law", "ev_guide"]  # position never changes with the state


def test_a_change_before_the_source_was_added_is_ignored() -> None:
    chosen = selection(dossier(SourceRecord("unselected", "ev_law"), added(LAW)))
    assert ids(chosen.selected) == ["ev_law"]
    assert not selection(dossier(SourceRecord("selected", "ev_law"))).knows("ev_law")


def test_a_second_added_event_keeps_the_first_title_and_position() -> None:
    renamed = SourceRecord("added", "ev_law", "Another title", "LAW")
    chosen = selection(dossier(added(LAW), added(GUIDE), renamed))
    assert [ref.title for ref in chosen.all] == ["Zakon o PDV-u", "Upute Porezne uprave"]


def test_turns_lists_only_the_turn_records() -> None:
    first, second = turn("prvo"), turn("drugo")
    assert dossier(added(LAW), first, added(GUIDE), second).turns == (first, second)


# --- append_turn ------------------------------------------------------------------------------


def test_append_turn_adds_the_unknown_sources_then_the_turn() -> None:
    current = dossier(added(LAW), SourceRecord("unselected", "ev_law"), version=7)
    patch = append_turn(current, turn(language="nl"), (LAW, GUIDE, BLOG, GUIDE))
    assert patch.base_version == 7
    assert patch.language == "nl"
    # LAW is known (even though unselected): not added again, and so not reselected.
    assert patch.records == (added(GUIDE), added(BLOG), turn(language="nl"))


def test_append_turn_without_sources_is_the_turn_alone() -> None:
    patch = append_turn(dossier(added(LAW)), turn())
    assert patch.records == (turn(),)
    assert not patch.empty


def test_append_turn_clips_long_questions_and_headlines() -> None:
    long = turn("pitanje " * 200, headline="naslov " * 50)
    record = append_turn(dossier(), long).records[-1]
    assert isinstance(record, TurnRecord)
    assert record.question == long.question[:QUESTION_LIMIT]
    assert record.headline == long.headline[:HEADLINE_LIMIT]
    assert (len(record.question), len(record.headline)) == (QUESTION_LIMIT, HEADLINE_LIMIT)
    assert replace(record, question=long.question, headline=long.headline) == long


def test_a_short_turn_is_kept_as_is() -> None:
    short = turn("a snižena?")
    assert append_turn(dossier(), short).records == (short,)


# --- change_selection -------------------------------------------------------------------------


def test_unselect_skips_unknown_and_already_unselected_ids() -> None:
    current = dossier(added(LAW), added(GUIDE), SourceRecord("unselected", "ev_guide"))
    patch = change_selection(current, "unselected", ("ev_guide", "ev_nope", "ev_law", "ev_law"))
    assert patch.records == (SourceRecord("unselected", "ev_law"),)
    assert (patch.base_version, patch.language) == (3, None)


def test_restore_only_touches_unselected_sources() -> None:
    current = dossier(added(LAW), added(GUIDE), SourceRecord("unselected", "ev_guide"))
    patch = change_selection(current, "restored", ("ev_law", "ev_guide"))
    assert patch.records == (SourceRecord("restored", "ev_guide"),)


def test_a_change_that_changes_nothing_is_an_empty_patch() -> None:
    current = dossier(added(LAW))
    assert change_selection(current, "selected", ("ev_law",)).empty
    assert change_selection(current, "unselected", ("ev_unknown",)).empty
    assert change_selection(current, "restored", ()).empty


def test_applying_the_patch_gives_the_wanted_selection() -> None:
    current = dossier(added(LAW), added(GUIDE), added(BLOG))
    patch = change_selection(current, "unselected", ("ev_blog", "ev_guide"))
    after = dossier(*(e.record for e in current.events), *patch.records)
    assert ids(selection(after).selected) == ["ev_law"]
    assert ids(selection(after).unselected) == ["ev_guide", "ev_blog"]

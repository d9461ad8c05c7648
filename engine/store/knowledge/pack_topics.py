"""Read a pack's planning topics (`topics:` in pack.yaml) into PlanningTopic values.

Each topic and each checklist item is checked on its own here (languages, weight, kind, a fact
listed once); checks across packs (unique ids, every condition field on a checklist) are in
pack_checks.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from engine.errors import PackProblem
from engine.store.knowledge.pack_fields import RecordFields
from engine.types import FACT_KINDS, LANGUAGES, ChecklistItem, FactKind, Language, PlanningTopic

TOPIC_FIELDS = ("id", "label", "checklist")
ITEM_FIELDS = ("fact", "weight", "question", "subtopic", "kind")
_EXAMPLE = "{fact: birth_year, weight: 4, question: {hr: ..., nl: ..., en: ...}}"


def read_topics(
    raw: object, file: str, pack: str, problems: list[PackProblem]
) -> tuple[list[tuple[str, PlanningTopic]], set[str]]:
    """The topics declared in pack.yaml, each with its record name, in declared order, and every
    fact any checklist item names (parsed or not, so one broken item does not make the pack's
    conditions look uncovered)."""
    facts: set[str] = set()
    if not isinstance(raw, list) or not raw:
        problems.append(
            PackProblem(
                file,
                "pack",
                "topics must be a non-empty list of {id, label, checklist}: the planning topics "
                "the pack's facts belong to",
            )
        )
        return [], facts
    topics: list[tuple[str, PlanningTopic]] = []
    for index, entry in enumerate(raw, start=1):
        name = entry.get("id") if isinstance(entry, Mapping) else None
        record = f"topic {name!r}" if isinstance(name, str) and name else f"topic #{index}"
        if not isinstance(entry, Mapping):
            problems.append(PackProblem(file, record, "must be a mapping of id, label, checklist"))
            continue
        facts |= _facts_named(entry.get("checklist"))
        fields = RecordFields(entry, file, record, problems, TOPIC_FIELDS)
        topic = PlanningTopic(
            id=fields.text("id"),
            pack=pack,
            label=_every_language(fields, "label"),
            checklist=_read_checklist(fields, file, record, problems),
        )
        if fields.ok:
            topics.append((record, topic))
    return topics, facts


def _facts_named(raw: object) -> set[str]:
    if not isinstance(raw, list):
        return set()
    return {
        item["fact"]
        for item in raw
        if isinstance(item, Mapping) and isinstance(item.get("fact"), str) and item["fact"]
    }


def _read_checklist(
    fields: RecordFields, file: str, record: str, problems: list[PackProblem]
) -> tuple[ChecklistItem, ...]:
    raw = fields.raw("checklist")
    if not isinstance(raw, list) or not raw:
        fields.fail(f"checklist must be a non-empty list of items like {_EXAMPLE}")
        return ()
    items: list[ChecklistItem] = []
    for index, entry in enumerate(raw, start=1):
        fact = entry.get("fact") if isinstance(entry, Mapping) else None
        where = (
            f"{record} item {fact!r}" if isinstance(fact, str) and fact else f"{record} #{index}"
        )
        if not isinstance(entry, Mapping):
            fields.fail(f"checklist item {index} must be a mapping like {_EXAMPLE}")
            continue
        item_fields = RecordFields(entry, file, where, problems, ITEM_FIELDS)
        item = ChecklistItem(
            fact=item_fields.text("fact"),
            weight=_weight(item_fields),
            question=_every_language(item_fields, "question"),
            subtopic=item_fields.text("subtopic", required=False),
            kind=cast(FactKind, item_fields.choice("kind", FACT_KINDS, default="fact")),
        )
        if item.fact and any(seen.fact == item.fact for seen in items):
            item_fields.fail(
                f"fact {item.fact!r} is listed twice in this topic's checklist; keep one item"
            )
        if item_fields.ok:  # a bad item's problems also leave the topic's fields not ok
            items.append(item)
    return tuple(items)


def _weight(fields: RecordFields) -> int:
    value = fields.raw("weight")
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        fields.fail(f"weight must be a positive whole number (1, 2, 3 ...), got {value!r}")
        return 0
    return value


def _every_language(fields: RecordFields, name: str) -> dict[Language, str]:
    """A text in each of hr, nl and en: a topic is shown to askers of every language."""
    texts = fields.localised(name)
    missing = [language for language in LANGUAGES if language not in texts]
    if texts and missing:
        fields.fail(f"{name} needs hr, nl and en; missing {', '.join(missing)}")
    return texts

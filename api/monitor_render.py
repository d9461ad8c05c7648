"""What the live monitors print (`navod monitor completeness|profile`), as pure functions of
the data the API returns: tested line by line, drawn again on every poll.

Completeness, one line per topic in the pack's order, the bars starting in one column:

    1. income_cash_flow     |================> 85
    2. healthcare_medicare  | 0

each `=` or `>` is five points. The profile groups the records by topic and subtopic, each
record as a goal, a fact or a preference, in the order they were learnt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

AWAITING = "awaiting data..."
POINTS_PER_CHAR = 5
GAP = 2  # spaces between the longest topic name and the bar
_KIND_LABEL = {"goal": "Goal", "fact": "Fact", "preference": "Preference"}


def completeness_lines(
    topics: Sequence[Mapping[str, Any]], scores: Sequence[Mapping[str, Any]]
) -> list[str]:
    """The completeness screen: `topics` in the pack's order (id), `scores` the latest
    ({topic, score}); topics without a score show 0. No score at all: awaiting data."""
    if not scores:
        return [AWAITING]
    by_topic = {s["topic"]: int(s["score"]) for s in scores}
    shown = _in_play(topics, by_topic)
    names = [f"{n}. {topic['id']}" for n, topic in enumerate(shown, start=1)]
    width = max(len(name) for name in names) + GAP
    return [
        f"{name.ljust(width)}|{bar(by_topic.get(topic['id'], 0))}"
        for name, topic in zip(names, shown, strict=True)
    ]


def bar(score: int) -> str:
    """`=` for every five points, the last one `>`, then the score: 85 → 16 `=`, `>` and 85."""
    length = max(0, min(score, 100)) // POINTS_PER_CHAR
    return ("=" * (length - 1) + ">" if length else "") + f" {score}"


def prompt(count: int) -> str:
    return f"Help me explore a specific topic (enter number 1-{count})> "


def topic_question(
    choice: str,
    topics: Sequence[Mapping[str, Any]],
    scores: Sequence[Mapping[str, Any]],
    facts: Sequence[Mapping[str, Any]],
    language: str = "en",
) -> str | None:
    """For a topic's number, a question ready to paste into the chat: the one that asks for
    its most useful missing fact (the heaviest), or None for a number not on the screen."""
    by_topic = {s["topic"]: int(s["score"]) for s in scores}
    shown = _in_play(topics, by_topic)
    if not choice.strip().isdigit() or not 1 <= int(choice) <= len(shown):
        return None
    topic = shown[int(choice) - 1]
    known = {f["fact_type"] for f in facts}
    missing = [item for item in topic["checklist"] if item["fact"] not in known]
    if not missing:
        return f"{topic['id']}: nothing is missing."
    heaviest = max(missing, key=lambda item: int(item["weight"]))
    question: Mapping[str, str] = heaviest["question"]
    return question.get(language) or question["en"]


def profile_lines(
    topics: Sequence[Mapping[str, Any]], facts: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Topic, subtopic indented 4, each record indented 8 as Goal:, Fact: or Preference:, in
    the order they were learnt; no record: awaiting data."""
    if not facts:
        return [AWAITING]
    kinds = {
        (topic["id"], item["fact"]): item.get("kind", "fact")
        for topic in topics
        for item in topic["checklist"]
    }
    order = [t["id"] for t in topics]
    grouped: dict[str, dict[str, list[Mapping[str, Any]]]] = {}
    for fact in facts:
        grouped.setdefault(fact["topic"], {}).setdefault(fact.get("subtopic") or "", []).append(
            fact
        )
    lines: list[str] = []
    for topic_id in sorted(grouped, key=lambda t: order.index(t) if t in order else len(order)):
        lines.append(topic_id)
        for subtopic, records in grouped[topic_id].items():
            lines.append(" " * 4 + (subtopic or "general"))
            for record in records:
                kind = _KIND_LABEL.get(kinds.get((topic_id, record["fact_type"]), "fact"), "Fact")
                lines.append(" " * 8 + f"{kind}: {record['fact_type']} = {_value(record['value'])}")
    return lines


def _in_play(
    topics: Sequence[Mapping[str, Any]], by_topic: Mapping[str, int]
) -> list[Mapping[str, Any]]:
    """The topics of the packs that have a score, in the packs' order."""
    packs = {t["pack"] for t in topics if t["id"] in by_topic}
    return [t for t in topics if t["pack"] in packs]


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)

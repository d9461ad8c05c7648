"""The packs' planning topics (issue 11), looked up: which topic a fact completes and the
question that asks for it. Shared by the pipeline (what to ask when data is missing) and the
conversation's profile (where a fact is recorded)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.types import ChecklistItem, PlanningTopic


def topic_of(
    fact_type: str, topics: Iterable[PlanningTopic], prefer: Iterable[str] = ()
) -> tuple[PlanningTopic, ChecklistItem] | None:
    """The topic whose checklist lists the fact: one of `prefer` (the topics the question was
    about) first, else the first in the packs' order; None when no checklist lists it."""
    listing = [
        (topic, item) for topic in topics for item in topic.checklist if item.fact == fact_type
    ]
    wanted = set(prefer)
    found = [pair for pair in listing if pair[0].id in wanted] or listing
    return found[0] if found else None


def topics_of_domains(domains: Iterable[str]) -> tuple[str, ...]:
    """Topic ids a concept's domain names ("retirement.tax_efficiency_rmds"): its last part."""
    return tuple(dict.fromkeys(domain.rsplit(".", 1)[-1] for domain in domains))

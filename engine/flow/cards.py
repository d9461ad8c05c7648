"""The source cards a response shows, wherever they sit in it: read by the output and tone
checks, the validation block and the dossier's record of a turn. Works on the wire dict and
never raises on malformed input."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


def cited_cards(response: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every source card the response shows: citations, conflict sources, conflicting sources
    and the cards of values beyond the contract's four."""
    citations = response.get("citations")
    if isinstance(citations, Mapping):
        yield from only_mappings([citations.get("primary")])
        yield from only_mappings(as_list(citations.get("supporting")))
    conflict = response.get("conflict")
    if isinstance(conflict, Mapping):
        yield from only_mappings(as_list(conflict.get("sources")))
    refusal = response.get("refusal")
    if isinstance(refusal, Mapping):
        yield from only_mappings(as_list(refusal.get("conflictingSources")))
    yield from only_mappings(as_list(response.get("additionalCitations")))


def only_mappings(values: list[Any]) -> Iterator[Mapping[str, Any]]:
    """The items of `values` that are objects; anything else in a malformed response is skipped."""
    return (value for value in values if isinstance(value, Mapping))


def as_list(value: Any) -> list[Any]:
    """`value` if it is a list, else an empty one."""
    return value if isinstance(value, list) else []

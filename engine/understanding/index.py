"""Indexes of the knowledge base that question understanding reads (built with the snapshot):
the words each concept's names use, the concepts each word names, the qualifiers a concept's
names carry, the values each domain states, families and the thresholds that decide them."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Protocol

from engine.text.normalize import fold
from engine.text.numbers import decimal_value
from engine.text.tokens import tokenize
from engine.types import OBLIGATION_TYPES, Concept, Language, Rule
from engine.understanding.places import is_place
from engine.understanding.qualifiers import qualifier_of


class Named(Protocol):
    """An alias as the snapshot compiles it: the concept it names and its matching keys."""

    @property
    def concept(self) -> str: ...

    @property
    def keys(self) -> tuple[str, ...]: ...

    @property
    def language(self) -> Language: ...


def concept_keys(aliases: Iterable[Named]) -> dict[str, frozenset[str]]:
    keys: dict[str, set[str]] = defaultdict(set)
    for alias in aliases:
        keys[alias.concept].update(alias.keys)
    return {slug: frozenset(found) for slug, found in keys.items()}


HEAD_SHARE = 0.9  # a head word is used by nearly as many of a concept's names as the commonest


def concept_heads(aliases: Iterable[Named]) -> dict[str, frozenset[str]]:
    """The words a concept's names keep returning to, per language ("penalty" for the Part B
    penalty): a question found only through a concept's vocabulary must say one of them."""
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for alias in aliases:
        for key in set(alias.keys):
            if not key.isdigit() and not is_place(key):
                counts[(alias.concept, alias.language)][key] += 1
    heads: dict[str, set[str]] = defaultdict(set)
    for (slug, _), found in counts.items():
        top = max(found.values())
        heads[slug] |= {key for key, n in found.items() if n >= HEAD_SHARE * top}
    return {slug: frozenset(keys) for slug, keys in heads.items()}


def concepts_by_key(aliases: Iterable[Named]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for alias in aliases:
        for key in alias.keys:
            found[key].add(alias.concept)
    return {key: frozenset(slugs) for key, slugs in found.items()}


_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def names_of(concept: Concept) -> list[str]:
    """Every name of a concept: its labels and aliases in every language."""
    return [*concept.labels.values(), *(a for group in concept.aliases.values() for a in group)]


def concept_numbers(concepts: Iterable[Concept]) -> dict[str, frozenset[str]]:
    """The numbers a concept's names write ("Fiskalizacija 2.0", "401(k)"): a question that
    writes one of them names the concept, it states no amount."""
    found: dict[str, frozenset[str]] = {}
    for concept in concepts:
        found[concept.slug] = frozenset(
            n for name in names_of(concept) for n in _NUMBER.findall(name)
        )
    return found


_BOX = re.compile(r"\bbox\s?([123])\b")


def concept_boxes(concepts: Iterable[Concept]) -> dict[str, frozenset[str]]:
    """The Dutch income-tax boxes a concept's names put it in ("box 2 schijfgrens" → {"2"}):
    "box 2" in a question is one name, not the word "box" and a second bracket."""
    found: dict[str, frozenset[str]] = {}
    for concept in concepts:
        boxes = frozenset(
            m.group(1) for name in names_of(concept) for m in _BOX.finditer(fold(name))
        )
        if boxes:
            found[concept.slug] = boxes
    return found


def concept_qualifiers(concepts: Iterable[Concept]) -> dict[str, frozenset[tuple[str, str]]]:
    found: dict[str, frozenset[tuple[str, str]]] = {}
    for concept in concepts:
        words = {word for name in names_of(concept) for word in tokenize(name)}
        found[concept.slug] = frozenset(
            hit for word in words if (hit := qualifier_of(word)) is not None
        )
    return found


def domain_values(
    concepts: Mapping[str, Concept], rules: Iterable[Rule]
) -> dict[str, frozenset[Decimal]]:
    found: dict[str, set[Decimal]] = defaultdict(set)
    for rule in rules:
        concept, value = concepts.get(rule.concept), decimal_value(rule.value)
        if concept is not None and value is not None:
            found[value_domain(concept)].add(value)
    return {domain: frozenset(values) for domain, values in found.items()}


def concept_values(
    concepts: Mapping[str, Concept], rules: Iterable[Rule]
) -> dict[str, frozenset[Decimal]]:
    """The numeric values each concept's rules state."""
    found: dict[str, set[Decimal]] = defaultdict(set)
    for rule in rules:
        value = decimal_value(rule.value)
        if rule.concept in concepts and value is not None:
            found[rule.concept].add(value.normalize())
    return {slug: frozenset(values) for slug, values in found.items()}


def value_domain(concept: Concept) -> str:
    """The values a number in a question may refer to: the concept's jurisdiction and area
    ("tax" in the Netherlands), so "the top rate of 49,5 %" is known beside the brackets."""
    return f"{concept.jurisdiction}:{concept.domain.split('.')[0]}"


def families(concepts: Iterable[Concept]) -> dict[str, tuple[str, ...]]:
    groups: dict[str, list[str]] = defaultdict(list)
    for concept in concepts:
        if concept.family:
            groups[concept.family].append(concept.slug)
    return {family: tuple(sorted(slugs)) for family, slugs in sorted(groups.items())}


def measures(concepts: Iterable[Concept]) -> dict[str, frozenset[str]]:
    """Stated amount ("turnover", ...; "amount" for one with no role) -> threshold concepts."""
    found: dict[str, set[str]] = defaultdict(set)
    for concept in concepts:
        if concept.threshold is not None:
            for fact in (*concept.threshold.facts, "amount"):
                found[fact].add(concept.slug)
    return {fact: frozenset(slugs) for fact, slugs in sorted(found.items())}


def decided_by(concepts: Iterable[Concept]) -> dict[str, tuple[str, ...]]:
    """Concept -> the threshold concepts one of whose sides names it."""
    found: dict[str, list[str]] = defaultdict(list)
    for concept in concepts:
        if concept.threshold is None:
            continue
        for side in (concept.threshold.above, concept.threshold.at_or_below):
            if side not in OBLIGATION_TYPES:
                found[side].append(concept.slug)
    return {slug: tuple(sorted(deciders)) for slug, deciders in sorted(found.items())}

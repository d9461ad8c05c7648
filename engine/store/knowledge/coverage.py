"""How much of the bundled evidence the rules use: every sentence of an evidence text that states
a number, a percentage, an amount or a date, and whether a published rule cites it
(`navod kb coverage`). A sentence no rule cites is a fact the packs do not hold yet, or one that
is not a fact to answer (a heading, a reference to another article)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from engine.store.knowledge.packs import PackContents
from engine.text.normalize import normalise_quote
from engine.text.sentences import sentences

_STATES_A_FIGURE = re.compile(r"\d")
# link targets and reference labels of the markdown acts state no fact
_NOT_PROSE = re.compile(r"(?:\[ref\d+\]:\s*)?https?://\S+$|\[ref\d+\]:$")


@dataclass(frozen=True, slots=True)
class Sentence:
    evidence: str  # the evidence key
    text: str
    cited_by: tuple[str, ...]  # ids of the published rules whose quotes lie in it
    not_a_fact: str = ""  # the pack's reason this sentence is no fact to answer


@dataclass(frozen=True, slots=True)
class Coverage:
    sentences: tuple[Sentence, ...]

    @property
    def covered(self) -> int:
        return sum(1 for sentence in self.sentences if sentence.cited_by)

    @property
    def explained(self) -> int:
        return sum(1 for s in self.sentences if s.not_a_fact and not s.cited_by)

    @property
    def share(self) -> float:
        """Covered or explained, of all figure-bearing sentences."""
        done = self.covered + self.explained
        return done / len(self.sentences) if self.sentences else 1.0


def coverage(contents: PackContents) -> Coverage:
    """Every figure-bearing sentence of every evidence text, with the rules that cite it."""
    quotes: dict[str, list[tuple[str, str]]] = {}
    for rule in contents.rules:
        if rule.status != "PUBLISHED":
            continue
        for pointer in rule.pointers:
            quotes.setdefault(pointer.evidence_id, []).append(
                (normalise_quote(pointer.quote), rule.id)
            )
    reasons: dict[str, list[tuple[str, str]]] = {}
    for item in contents.not_facts:
        reasons.setdefault(item.evidence, []).append((normalise_quote(item.sentence), item.reason))
    found: list[Sentence] = []
    for evidence in sorted(contents.evidence, key=lambda e: e.key):
        cited = quotes.get(evidence.id, [])
        for text in _figure_sentences(evidence.text):
            plain = normalise_quote(text)
            rules = tuple(
                dict.fromkeys(rule for quote, rule in cited if quote in plain or plain in quote)
            )
            why = next((r for words, r in reasons.get(evidence.key, ()) if words in plain), "")
            found.append(Sentence(evidence.key, text, rules, why))
    return Coverage(tuple(found))


def _figure_sentences(text: str) -> Iterator[str]:
    for sentence in sentences(text):
        if _STATES_A_FIGURE.search(sentence) and not _NOT_PROSE.match(sentence):
            yield sentence

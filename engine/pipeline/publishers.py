"""Who says so: a source's publisher by name, as refusals, caveats and confidence name it."""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.pipeline import templates as tpl
from engine.snapshot import Snapshot
from engine.types import Language, Rule

# "totalinfo.hr", "zakon.hr": a publisher named by its host would read as a link the answer
# does not cite (the output guardrail refuses those), so it is named by its kind instead.
_HOST = re.compile(r"(?i)\b[a-z0-9-]+\.[a-z]{2,}\b")


def publisher_names(snapshot: Snapshot, rules: Iterable[Rule], language: Language) -> str:
    """Who publishes the texts the rules quote, each once, in pointer order."""
    names = (
        _name(snapshot, pointer.evidence_id, language)
        for rule in rules
        for pointer in rule.pointers
    )
    return ", ".join(dict.fromkeys(name for name in names if name))


def publisher_name(snapshot: Snapshot, rule: Rule, language: Language) -> str:
    """Who publishes the text a rule's first pointer quotes."""
    named = _name(snapshot, rule.pointers[0].evidence_id, language) if rule.pointers else ""
    return named or tpl.AUTHORITY_WORDS[rule.authority][language]


def publisher_key(publisher: str) -> str:
    """A publisher compared for independence: "Ministarstvo financija – Porezna uprava
    (Pozivni centar)" and "… (Baza znanja)" are one publisher."""
    return " ".join(_bare(publisher).casefold().split())


def _name(snapshot: Snapshot, evidence_id: str, language: Language) -> str:
    """A publisher by name only: the notes packs keep after a name ("(Pozivni centar)",
    ", reporting …") are not in the asker's language."""
    source = snapshot.source_of(evidence_id)
    if source is None:
        return ""
    name = _bare(source.publisher or source.title)
    return (
        tpl.AUTHORITY_WORDS[source.authority][language] if not name or _HOST.search(name) else name
    )


def _bare(name: str) -> str:
    for mark in ("(", ","):
        name = name.split(mark, 1)[0]
    return name.strip()

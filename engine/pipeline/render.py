"""Small rendering helpers shared by the answer and refusal composers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.pipeline.state import State
from engine.types import Language


def base_fields(state: State) -> dict[str, Any]:
    """The fields every response carries, before ids and createdAt are stamped."""
    language = response_language(state)
    topic = state.classification.topic if state.classification else "REGULATORY"
    as_of = state.as_of or state.question.as_of or state.question.today
    return {
        "schemaVersion": "1.0.0",
        "topic": topic,
        "surface": state.question.surface,
        "asOfDate": as_of.isoformat(),
        "language": language,
    }


def citation_blocks(cards: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The contract's citations (a primary and up to three supporting cards) and, when an
    answer states more values than four cards hold, the cards of the others
    (`additionalCitations`, an optional block of ours)."""
    blocks: dict[str, Any] = {
        "citations": {"primary": cards[0], "supporting": list(cards[1:MAX_CITED])}
    }
    if len(cards) > MAX_CITED:
        blocks["additionalCitations"] = list(cards[MAX_CITED:])
    return blocks


MAX_CITED = 4  # the contract's citations block holds four cards


def response_language(state: State) -> Language:
    if state.analysis is not None:
        return state.analysis.language
    return state.question.language or "en"


def concept_label(state: State, slug: str, language: Language) -> str:
    concept = state.snapshot.concepts.get(slug)
    if concept is None:
        return slug
    return capitalise(concept.labels.get(language) or next(iter(concept.labels.values()), slug))


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters at a word's end, so no number is cut in two ("$36…"
    for $360,000 would state a value no source gives)."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if not text[limit - 1].isspace():
        space = cut.rfind(" ")
        if space > limit // 2:
            cut = cut[:space]
    return cut.rstrip(" ,;:·–-(") + "…"


def clip_parts(parts: list[str], separator: str, limit: int) -> str:
    """As many whole `parts` as fit in `limit`, joined; "…" says that more follow (in the key
    details and the supporting citations)."""
    shown: list[str] = []
    for part in parts:
        if len(separator.join([*shown, part])) + 2 > limit:
            break
        shown.append(part)
    if not shown:
        return clip(parts[0], limit) if parts else ""
    text = separator.join(shown)
    return text if len(shown) == len(parts) else clip(text + separator.rstrip() + " …", limit)


def sentence(text: str) -> str:
    """End `text` with exactly one full stop (Croatian dates bring their own)."""
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def short_labels(labels: Sequence[str]) -> tuple[str, list[str]]:
    """Labels of a family's rows without the words they all share at the start ("Uniform
    Lifetime Table distribution period at age 72", "… at age 73" → "… at age", ["72", "73"]):
    the shared part once, then each row's own. Unchanged when they share no whole words."""
    if len(labels) < 2:
        return "", list(labels)
    words = [label.split(" ") for label in labels]
    shared = 0
    while all(len(w) > shared + 1 for w in words) and len({w[shared] for w in words}) == 1:
        shared += 1
    if shared < 2:
        return "", list(labels)
    return " ".join(words[0][:shared]), [" ".join(w[shared:]) for w in words]

"""What a guarded turn reports beside its response: the triage block (route and step log), the
redactions said to the asker, and the validation block (what each check found)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.flow.cards import cited_cards
from engine.flow.turn import Turn
from engine.pipeline import templates as tpl
from engine.types import Language


def triage_block(turn: Turn) -> dict[str, Any]:
    return {
        "route": turn.route,
        "skipLlm": True,
        "earlyResponse": turn.early,
        "log": list(turn.log),
    }


def redaction_block(turn: Turn, language: Language) -> dict[str, Any] | None:
    """What the input guardrail removed, said to the asker: types and placeholders only."""
    if not turn.pii:
        return None
    types = list(dict.fromkeys(f.type for f in turn.pii))
    return {
        "message": tpl.REDACTED[language].format(types=", ".join(types)),
        "items": [{"type": t, "placeholder": f"[{t}]"} for t in types],
    }


def validation_block(turn: Turn, response: Mapping[str, Any]) -> dict[str, Any]:
    """What each check found, for the response as sent (`response`, after final validation)."""
    injection = turn.injection.detected if turn.injection else False
    confidence = response.get("confidence")
    citations = response.get("citations")
    primary = citations.get("primary") if isinstance(citations, Mapping) else None
    source_issues = [
        card["freshnessWarning"]
        for card in cited_cards(response)
        if isinstance(card.get("freshnessWarning"), str)
    ]
    if turn.response is not None and response.get("kind") != turn.response.get("kind"):
        source_issues.append("the answer failed contract validation and was withheld")
    return {
        "input": {
            "pii": [{"type": f.type, "span": [f.start, f.end]} for f in turn.pii],
            "injection": injection,
            "abusive": turn.abusive,
        },
        "sources": {
            "grounded": isinstance(primary, Mapping) and bool(primary.get("evidenceId")),
            "issues": list(dict.fromkeys(source_issues)),
            "confidence": confidence.get("score") if isinstance(confidence, Mapping) else None,
        },
        "tone": {"appropriate": turn.tone_ok, "adjustments": list(turn.tone_adjustments)},
        "output": {"safe": not turn.output_issues, "issues": list(turn.output_issues)},
    }

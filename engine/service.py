"""The one place that joins the store and the pipeline: snapshot per KB version, answer, stream.

Non-deterministic things live here and only here: request ids, createdAt and today's date are
stamped at this edge, so the pipeline itself stays a pure function of (question, snapshot).
"""

from __future__ import annotations

import gc
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any

from engine.contract import ChatRequest
from engine.guardrails.flow import (
    Guards,
    Turn,
    redaction_block,
    run_turn,
    triage_block,
    validation_block,
)
from engine.guardrails.output import response_language
from engine.pipeline import templates as tpl
from engine.pipeline.render import sentence
from engine.pipeline.runner import run_pipeline
from engine.pipeline.state import State
from engine.snapshot import Snapshot, compile_snapshot
from engine.store.repository import KnowledgeRepository
from engine.stream import encode_line, stream_lines
from engine.text.language import detect_language
from engine.text.normalize import normalise_quote
from engine.types import Question
from engine.validation import validate_response

log = logging.getLogger("navod.service")


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex}"


@dataclass
class AnswerService:
    """Answers questions from the repository's current knowledge-base version."""

    repository: KnowledgeRepository
    clock: Callable[[], datetime] = _utc_now
    new_id: Callable[[str], str] = _new_id
    # How long a worker trusts its snapshot before asking the store for the KB version again:
    # 0 asks on every request; the server uses a second, so a load reaches every worker within
    # a second without a database round trip per question.
    refresh_seconds: float = 0.0
    monotonic: Callable[[], float] = time.monotonic
    # Guardrail data (word lists, intents, tone), loaded at the edge; None runs the bare
    # pipeline (benchmarks of the engine alone, tests of the rules).
    guards: Guards | None = None

    def __post_init__(self) -> None:
        self._snapshot: Snapshot | None = None
        self._checked_at = float("-inf")
        self._lock = threading.Lock()

    def snapshot(self) -> Snapshot:
        """The compiled snapshot of the current KB version; rebuilt when a load bumped it."""
        current = self._snapshot
        now = self.monotonic()
        if current is not None and now - self._checked_at < self.refresh_seconds:
            return current
        version = self.repository.version()
        self._checked_at = now
        if current is not None and current.version == version:
            return current
        with self._lock:
            if self._snapshot is None or self._snapshot.version != version:
                kb = self.repository.load_knowledge()
                self._snapshot = compile_snapshot(kb)
                # The snapshot is immutable and lives until the next load: moving it out of the
                # collector's reach keeps every full collection from rescanning it.
                gc.freeze()
                log.info("compiled snapshot for KB version %s", kb.version)
            return self._snapshot

    def answer(self, request: ChatRequest) -> dict[str, Any]:
        """A validated AssistantResponse (wire dict). Never raises for a bad question."""
        now = self.clock()
        stamp = {
            "requestId": self.new_id("req"),
            "traceId": self.new_id("trace"),
            "createdAt": now.isoformat().replace("+00:00", "Z"),
        }
        try:
            snapshot = self.snapshot()
            if self.guards is not None:
                turn = run_turn(to_turn(request, now.date()), self.guards.settings(snapshot))
                return finish_turn(turn, stamp, request.explain, snapshot)
            state = run_pipeline(to_question(request, now.date()), snapshot)
        except Exception:  # the user gets a retriable refusal; the log keeps the details
            log.exception("pipeline failed for request %s", stamp["requestId"])
            return {**stamp, **internal_error(request, now.date())}
        return finish(state, stamp, request.explain, snapshot)

    def stream(self, request: ChatRequest) -> Iterator[bytes]:
        """NDJSON lines in the contract's order, ending in done even when something fails."""
        response = self.answer(request)
        request_id = response["requestId"]
        try:
            encoded = [encode_line(line) for line in stream_lines(response)]
        except Exception:  # never a cut stream: one full refusal line, then done
            log.exception("streaming failed for %s", request_id)
            failed = {**response, **internal_error(request, self.clock().date())}
            for key in ("citations", "conflict", "keyDetails", "why", "relatedQuestions"):
                failed.pop(key, None)
            encoded = [encode_line(failed), encode_line({"requestId": request_id, "_done": True})]
        yield from encoded


def to_question(request: ChatRequest, today: date) -> Question:
    return Question(
        text=request.query,
        surface=request.surface,
        today=today,
        as_of=request.asOfDate,
        client_context=dict(request.clientContext) if request.surface == "APP" else {},
        language=request.language,
    )


def to_turn(request: ChatRequest, today: date) -> Turn:
    return Turn(
        text=request.query,
        surface=request.surface,
        today=today,
        as_of=request.asOfDate,
        client_context=dict(request.clientContext) if request.surface == "APP" else {},
        language=request.language,
    )


def finish_turn(
    turn: Turn, stamp: Mapping[str, str], explain: bool, snapshot: Snapshot
) -> dict[str, Any]:
    """Like `finish`, for a guarded turn: the triage and validation blocks ride along."""
    assert turn.response is not None
    if turn.state is not None:  # the pipeline's trace, with the response the checks left
        response = finish(replace(turn.state, response=turn.response), stamp, explain, snapshot)
    else:
        response = {**stamp, **turn.response}
        result = validate_response(response, quote_checker(snapshot))
        if not result.valid:
            log.error("response %s failed validation: %s", stamp["requestId"], result.errors)
            response = no_citable_rules(response)
    redactions = redaction_block(turn, response_language(response))
    if redactions is not None:
        response["redactions"] = redactions
    return {
        **response,
        "triage": triage_block(turn),
        "validation": validation_block(turn, response),
    }


def finish(
    state: State, stamp: Mapping[str, str], explain: bool, snapshot: Snapshot
) -> dict[str, Any]:
    """Stamp ids, attach the trace on request, validate; an invalid response becomes a refusal."""
    assert state.response is not None
    response: dict[str, Any] = {**stamp, **state.response}
    if explain:
        response["trace"] = trace_of(state)
    result = validate_response(response, quote_checker(snapshot))
    if result.valid:
        return response
    log.error("response %s failed validation: %s", stamp["requestId"], result.errors)
    refusal = no_citable_rules(response)
    if explain:
        refusal["trace"] = [
            *trace_of(state),
            {
                "stage": "validate",
                "decision": "invalid",
                "details": {"errors": list(result.errors)},
            },
        ]
    return refusal


def trace_of(state: State) -> list[dict[str, Any]]:
    return [
        {"stage": e.stage, "decision": e.decision, "details": dict(e.details)} for e in state.trace
    ]


def quote_checker(snapshot: Snapshot) -> Callable[[str, str], bool]:
    def quote_in_evidence(evidence_id: str, quote: str) -> bool:
        evidence = snapshot.evidence.get(evidence_id)
        return evidence is not None and normalise_quote(quote) in normalise_quote(evidence.text)

    return quote_in_evidence


def no_citable_rules(response: Mapping[str, Any]) -> dict[str, Any]:
    """The fail-closed replacement for a response that did not validate."""
    language = response.get("language", "en")
    if language not in ("hr", "nl", "en"):
        language = "en"
    keep = ("schemaVersion", "requestId", "traceId", "createdAt", "surface", "asOfDate", "language")
    return {
        **{k: response[k] for k in keep if k in response},
        "kind": "REFUSAL",
        "topic": response.get("topic") if response.get("topic") in _TOPICS else "REGULATORY",
        "refusalReason": "NO_CITABLE_RULES",
        "headline": tpl.REFUSAL_HEADLINE["NO_CITABLE_RULES"][language],
        "directAnswer": "",
        "refusal": {
            "message": sentence(
                tpl.REFUSAL_MESSAGE["NO_CITABLE_RULES"][language].format(
                    date=response.get("asOfDate", "")
                )
            )
        },
    }


def internal_error(request: ChatRequest, today: date) -> dict[str, Any]:
    language = request.language or detect_language(request.query)[0]
    return {
        "schemaVersion": "1.0.0",
        "kind": "REFUSAL",
        "topic": "REGULATORY",
        "surface": request.surface,
        "asOfDate": (request.asOfDate or today).isoformat(),
        "language": language,
        "refusalReason": "NO_CITABLE_RULES",
        "headline": tpl.REFUSAL_HEADLINE["NO_CITABLE_RULES"][language],
        "directAnswer": "",
        "refusal": {"message": tpl.INTERNAL_ERROR[language]},
        "error": {"message": tpl.INTERNAL_ERROR[language], "retriable": True},
    }


_TOPICS = frozenset({"REGULATORY", "PRODUCT", "SUPPORT", "OFFTOPIC"})

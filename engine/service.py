"""The one place that joins the store and the pipeline: snapshot per KB version, answer, stream.

Non-deterministic things live here and only here: request ids, createdAt and today's date are
stamped at this edge, so the pipeline itself stays a pure function of (question, snapshot).
"""

from __future__ import annotations

import gc
import logging
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any, Literal

import orjson

from engine.contract import ChatRequest
from engine.dossier.model import (
    Dossier,
    Patch,
    Record,
    TurnRecord,
    change_selection,
    selection,
)
from engine.dossier.ownership import ANONYMOUS, reachable
from engine.dossier.profile import (
    Told,
    completeness_view,
    facts_patch,
    next_question,
    remembered,
    retraction_patch,
    unknown_topics,
    with_events,
)
from engine.dossier.record import (
    changes_of_turn,
    dossier_block,
    retrieved_sources,
    turn_patch,
    turn_record,
)
from engine.errors import DossierNotFound, InvalidRequest, StoreError, StoreUnavailable
from engine.flow.report import redaction_block, triage_block, validation_block
from engine.flow.runner import run_turn
from engine.flow.turn import Guards, Settings, Turn
from engine.guardrails.output import response_language
from engine.guardrails.pii import detect_pii, hides_identifier, redact
from engine.pipeline import templates as tpl
from engine.pipeline.render import sentence
from engine.pipeline.runner import run_pipeline
from engine.pipeline.state import State
from engine.snapshot import Snapshot, compile_snapshot
from engine.store.dossiers.convert import DossierSummary, event_kind, event_payload
from engine.store.dossiers.repository import DossierRepository
from engine.store.knowledge.repository import KnowledgeRepository
from engine.store.outage import OUTAGE_LOG
from engine.stream import encode_line, stream_lines, with_error_message
from engine.text.language import detect_language
from engine.text.normalize import normalise_quote
from engine.types import PlanningTopic, Question
from engine.validation import validate_response

log = logging.getLogger("navod.service")
DEFAULT_ASKER = ANONYMOUS


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _new_id(prefix: str) -> str:
    # 128 bits from `secrets`: an anonymous conversation's id is its only key (ownership.py).
    return f"{prefix}_{secrets.token_hex(16)}"


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
    # Where conversations are kept; None answers every request on its own (no sessionId).
    dossiers: DossierRepository | None = None

    def __post_init__(self) -> None:
        self._snapshot: Snapshot | None = None
        self._checked_at = float("-inf")
        self._lock = threading.Lock()

    def snapshot(self) -> Snapshot:
        """The compiled snapshot of the current KB version; rebuilt when a load bumped it.

        When the database cannot be reached the snapshot in memory keeps answering (it is
        immutable and complete) and the version is asked again after `refresh_seconds`;
        StoreUnavailable only when no snapshot was ever compiled."""
        current = self._snapshot
        now = self.monotonic()
        if current is not None and now - self._checked_at < self.refresh_seconds:
            return current
        try:
            return self._current_snapshot(current, now)
        except StoreUnavailable:
            if current is None:
                raise
            self._checked_at = now  # asked again after refresh_seconds, not on every request
            OUTAGE_LOG.warning(
                "snapshot",
                f"knowledge version check failed; answering from snapshot {current.version}",
            )
            return current

    def _current_snapshot(self, current: Snapshot | None, now: float) -> Snapshot:
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

    @property
    def snapshot_version(self) -> int | None:
        """The KB version of the snapshot in memory (None before the first), without asking
        the store: what stateless answering runs on while the database is down (/health)."""
        current = self._snapshot
        return current.version if current is not None else None

    def answer(self, request: ChatRequest, asker: str = DEFAULT_ASKER) -> dict[str, Any]:
        """A validated AssistantResponse (wire dict). Never raises for a bad question; an
        unknown sessionId raises DossierNotFound, a database that cannot be reached (for the
        conversation, or before any snapshot) StoreUnavailable: see `unavailable`."""
        now = self.clock()
        stamp = {
            "requestId": self.new_id("req"),
            "traceId": self.new_id("trace"),
            "createdAt": now.isoformat().replace("+00:00", "Z"),
        }
        try:
            snapshot = self.snapshot()
            if self.guards is None:
                state = run_pipeline(to_question(request, now.date()), snapshot)
                return finish(state, stamp, request.explain, snapshot)
            settings = self.guards.settings(snapshot)
            if self.dossiers is None or not request.use_memory:
                turn = run_turn(to_turn(request, now.date()), settings)
                return finish_turn(turn, stamp, request.explain, snapshot)
            return self._converse(request, asker, self.dossiers, snapshot, settings, stamp, now)
        except DossierNotFound:
            raise  # the caller's 404
        except StoreUnavailable:
            raise  # a technical outcome with its own status; logged (throttled) by the store
        except Exception:  # the user gets a retriable refusal; the log keeps the details
            log.exception("answering failed for request %s", stamp["requestId"])
            return {**stamp, **internal_error(request, now.date())}

    def unavailable(self, request: ChatRequest) -> dict[str, Any]:
        """The response to a request the database was needed for and could not be reached: a
        refusal that says so, retriable (the routes send it with HTTP 503)."""
        now = self.clock()
        stamp = {
            "requestId": self.new_id("req"),
            "traceId": self.new_id("trace"),
            "createdAt": now.isoformat().replace("+00:00", "Z"),
        }
        return {**stamp, **store_unavailable(request, now.date())}

    def _converse(
        self,
        request: ChatRequest,
        asker: str,
        dossiers: DossierRepository,
        snapshot: Snapshot,
        settings: Settings,
        stamp: Mapping[str, str],
        now: datetime,
    ) -> dict[str, Any]:
        """A turn of a conversation, answered and stored in ONE transaction: the dossier is
        locked, the question answered on it as stored and the turn appended, so concurrent
        turns of one conversation wait for each other and each sees the ones before it. A new
        conversation is created with its first turn in one write."""
        answered: list[dict[str, Any]] = []  # set by the one make

        def answer_on(dossier: Dossier) -> Patch:
            if not reachable(dossier, asker):  # another key's: as if none (rolled back)
                raise DossierNotFound(dossier.id)
            turn = run_turn(to_turn(request, now.date(), dossier), settings)
            response = finish_turn(turn, stamp, request.explain, snapshot)
            record = turn_record(turn, response)
            patch = turn_patch_of(turn, record, response, snapshot)(dossier)
            # the response as sent, made from the dossier as this patch leaves it, is kept
            # with the turn so the turn can be shown again exactly as it was answered
            after = with_events(dossier, patch.records, now)
            block = dossier_block(after, changes_of_turn(after, record))
            shown = {**response, "sessionId": dossier.id, "dossier": block}
            shown = with_profile(shown, after, len(dossier.events), snapshot)
            # a response no client could be sent is an error before anything is stored, so a
            # retry never finds the turn already kept (TypeError: rolled back, logged)
            encoded = orjson.dumps(shown)
            answered.append(shown)
            return replace(patch, shown=encoded)

        if request.sessionId is None:
            language = request.language or detect_language(request.query)[0]
            dossier_id = self.new_id("dos")
            dossiers.create(dossier_id, asker, request.surface, language, now, answer_on)
        else:
            dossiers.update(request.sessionId, answer_on, now)
        return answered[-1]

    def stream(self, request: ChatRequest, asker: str = DEFAULT_ASKER) -> Iterator[bytes]:
        """NDJSON lines in the contract's order, ending in done even when something fails."""
        response = self.answer(request, asker)
        request_id = response["requestId"]
        try:
            encoded = [encode_line(line) for line in stream_lines(response)]
        except Exception:  # never a cut stream: one full refusal line, then done
            log.exception("streaming failed for %s", request_id)
            failed = {**response, **internal_error(request, self.clock().date())}
            for key in ("citations", "conflict", "keyDetails", "why", "relatedQuestions"):
                failed.pop(key, None)
            done = {"requestId": request_id, "_done": True}
            encoded = [encode_line(with_error_message(failed)), encode_line(done)]
        yield from encoded

    # The conversation API's reads and writes (api/routes/dossiers.py); callers check
    # `keeps_dossiers` first.

    @property
    def keeps_dossiers(self) -> bool:
        """Whether this service stores conversations (a server may keep none)."""
        return self.dossiers is not None

    def recent_dossiers(self, asker: str, limit: int) -> tuple[DossierSummary, ...]:
        """The asker's `limit` most recently updated dossiers, newest first. Anonymous
        conversations are never listed: they share one asker, but not their owners."""
        if asker == ANONYMOUS:
            return ()
        return self._dossier_store().recent(asker, limit)

    def find_dossier(self, dossier_id: str, asker: str) -> Dossier | None:
        """The dossier if `asker` may reach it (engine/dossier/ownership.py), else None."""
        dossier = self._dossier_store().get(dossier_id)
        return dossier if dossier is not None and reachable(dossier, asker) else None

    def shown_turns(self, dossier: Dossier) -> list[dict[str, Any]]:
        """Every turn of the dossier, oldest first: its seq, when, the question as stored and
        the response it was answered with (None for a turn stored without one, or one that no
        longer reads as JSON: shown by its headline, never an error)."""
        kept = self._dossier_store().shown(dossier.id)
        turns = []
        for event in dossier.events:
            if not isinstance(event.record, TurnRecord):
                continue
            turns.append(
                {
                    "seq": event.seq,
                    "at": event.at.isoformat().replace("+00:00", "Z"),
                    "question": event.record.question,
                    "headline": event.record.headline,
                    "response": _decoded(kept.get(event.seq)),
                }
            )
        return turns

    def delete_dossier(self, dossier_id: str) -> bool:
        """Delete the dossier and its events; False if there was none."""
        return self._dossier_store().delete(dossier_id)

    def change_source(
        self, dossier_id: str, evidence_id: str, action: Literal["restored", "unselected"]
    ) -> Dossier:
        """Select (`restored`) or unselect a source of the dossier, as one patch."""
        return self._dossier_store().update(
            dossier_id,
            lambda d: change_selection(d, action, (evidence_id,)),
            self.clock(),
        )

    def add_facts(self, dossier_id: str, told: tuple[Told, ...]) -> tuple[Dossier, int]:
        """Record facts given through the API (issue 11) in one patch; (the dossier after, how
        many events it held before). An unknown topic is refused, naming it; text values are
        redacted like every stored text."""
        # Names are stored as given (and an unknown topic is named back): none may hide data.
        for field in ("topic", "fact_type", "subtopic"):
            if any(hides_identifier(getattr(t, field)) for t in told):
                raise InvalidRequest(field, f"a {field} is a name; this one holds personal data")
        topics = self.snapshot().topics
        unknown = unknown_topics(told, topics)
        if unknown:
            known = ", ".join(t.id for t in topics) or "none"
            raise InvalidRequest("topic", f"unknown topic {unknown[0]!r}; known: {known}")
        clean = tuple(replace(t, value=_redacted(t.value)) for t in told)
        before: list[int] = []
        make = facts_patch(clean, topics)

        def counted(dossier: Dossier) -> Patch:
            before.append(len(dossier.events))
            return make(dossier)

        after = self._dossier_store().update(dossier_id, counted, self.clock())
        return after, before[-1]

    def retract_fact(self, dossier_id: str, fact_type: str) -> tuple[Dossier, int]:
        """Take back a fact the asker holds, as a new record; (the dossier after, how many
        events it held before). KeyError when the dossier holds no such fact."""
        before: list[int] = []
        make = retraction_patch(fact_type, self.snapshot().topics)

        def counted(dossier: Dossier) -> Patch:
            before.append(len(dossier.events))
            return make(dossier)

        after = self._dossier_store().update(dossier_id, counted, self.clock())
        return after, before[-1]

    def topics(self) -> tuple[PlanningTopic, ...]:
        """The planning topics the loaded packs declare, in the packs' order."""
        return self.snapshot().topics

    def _dossier_store(self) -> DossierRepository:
        if self.dossiers is None:
            raise StoreError("this service keeps no dossiers; give AnswerService a dossier store")
        return self.dossiers


def _decoded(body: bytes | None) -> dict[str, Any] | None:
    if body is None:
        return None
    try:
        decoded = orjson.loads(body)
    except orjson.JSONDecodeError:
        log.error("a stored turn response does not read as JSON")
        return None
    return decoded if isinstance(decoded, dict) else None


def event_fields(record: Record) -> dict[str, Any]:
    """A dossier event's record as the conversation API shows it: its type (turn, a source
    action, info, completeness) and the fields the store keeps."""
    kind = event_kind(record)
    payload = event_payload(record)
    try:  # an event no JSON can hold (stored before numbers were bounded) is shown as such
        orjson.dumps(payload)
    except TypeError:
        return {"type": kind, "unreadable": True}
    return {"type": kind, **payload}


def _client_context(request: ChatRequest) -> dict[str, Any]:
    """An APP request's clientContext with its text values redacted before any step reads
    them, so no identifier typed there reaches the response, the trace or the dossier."""
    return redacted_facts(request.clientContext.facts()) if request.surface == "APP" else {}


def to_question(request: ChatRequest, today: date) -> Question:
    return Question(
        text=request.query,
        surface=request.surface,
        today=today,
        as_of=request.asOfDate,
        client_context=_client_context(request),
        language=request.language,
    )


def to_turn(request: ChatRequest, today: date, dossier: Dossier | None = None) -> Turn:
    removed = selection(dossier).unselected if dossier is not None else ()
    return Turn(
        text=request.query,
        surface=request.surface,
        today=today,
        as_of=request.asOfDate,
        client_context=_client_context(request),
        language=request.language,
        dossier=dossier,
        excluded_evidence=frozenset(ref.evidence_id for ref in removed),
        remembered=remembered(dossier),
    )


def turn_patch_of(
    turn: Turn, record: TurnRecord, response: Mapping[str, Any], snapshot: Snapshot
) -> Callable[[Dossier], Patch]:
    """What a turn appends to its dossier: the sources it retrieved or changed, the turn, and
    what the asker told (clientContext redacted), as one patch."""
    sources = retrieved_sources(response, snapshot)
    told = redacted_facts(turn.client_context)
    return turn_patch(turn, record, sources, snapshot.topics, told)


def with_profile(
    response: dict[str, Any], stored: Dossier, before: int, snapshot: Snapshot
) -> dict[str, Any]:
    """The turn's completeness scores when this turn moved one (the stream's `completeness`
    line), and as the next step the most useful fact still missing for the topic the
    conversation is about (never the numbers in the chat text)."""
    moved = [e for e in stored.completeness if e.seq >= before]
    if moved:
        response = {**response, "completeness": completeness_view(stored)["scores"]}
    wanted = next_question(stored, snapshot.topics, snapshot.concepts)
    if wanted is not None and "nextStep" not in response and response.get("kind") == "ANSWER":
        _topic, item = wanted
        language = response_language(response)
        response = {**response, "nextStep": item.question[language][:100]}
    return response


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
    if explain and turn.carried and "trace" in response:
        carried = {"stage": "followup", "decision": "carried", "details": {"carried": turn.carried}}
        response["trace"] = [carried, *response["trace"]]
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
    """The retriable refusal for a failure inside Navod (logged with its traceback)."""
    language = request.language or detect_language(request.query)[0]
    return _technical_refusal(
        request,
        today,
        language,
        ("REGULATORY", "NO_CITABLE_RULES"),
        tpl.REFUSAL_HEADLINE["NO_CITABLE_RULES"][language],
        {"message": tpl.INTERNAL_ERROR[language], "retriable": True},
    )


def store_unavailable(request: ChatRequest, today: date) -> dict[str, Any]:
    """A contract-valid refusal for a database outage. Not NO_CITABLE_RULES: that tells the
    asker the law gives no answer. OUT_OF_SCOPE on topic SUPPORT says the question was not
    answered for a reason outside the law, and `error` (code `unavailable`, retriable) tells a
    client to retry (docs/contract.md, "When the database is down")."""
    language = request.language or detect_language(request.query)[0]
    return _technical_refusal(
        request,
        today,
        language,
        ("SUPPORT", "OUT_OF_SCOPE"),
        tpl.UNAVAILABLE_HEADLINE[language],
        {"message": tpl.UNAVAILABLE[language], "retriable": True, "code": "unavailable"},
    )


def _technical_refusal(
    request: ChatRequest,
    today: date,
    language: str,
    kind: tuple[str, str],
    headline: str,
    error: dict[str, Any],
) -> dict[str, Any]:
    topic, reason = kind
    return {
        "schemaVersion": "1.0.0",
        "kind": "REFUSAL",
        "topic": topic,
        "surface": request.surface,
        "asOfDate": (request.asOfDate or today).isoformat(),
        "language": language,
        "refusalReason": reason,
        "headline": headline,
        "directAnswer": "",
        "refusal": {"message": error["message"]},
        "error": error,
    }


_TOPICS = frozenset({"REGULATORY", "PRODUCT", "SUPPORT", "OFFTOPIC"})


def redacted_facts(facts: Mapping[str, Any]) -> dict[str, Any]:
    """Facts as a turn may read them and a dossier keep them: an identifier in a text value
    (at any depth, keys included) is redacted, in any spelling the input guardrail knows (an
    IBAN typed into a free-text fact)."""
    return {_redacted(name): _redacted(value) for name, value in facts.items()}


def _redacted(value: Any) -> Any:
    if isinstance(value, str):
        findings = detect_pii(value)
        return redact(value, findings) if findings else value
    if isinstance(value, Mapping):
        return redacted_facts(value)
    if isinstance(value, list | tuple):
        return [_redacted(item) for item in value]
    return value

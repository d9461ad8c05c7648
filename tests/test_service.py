"""The service edge: snapshot per KB version, fail-closed validation, ids and createdAt."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from engine.contract import ChatRequest
from engine.service import AnswerService
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import PackContents
from engine.types import KnowledgeBase, Pointer
from tests.factories import RULES, knowledge

NOW = datetime(2026, 11, 22, 10, 30, tzinfo=UTC)


def _repository(kb: KnowledgeBase) -> MemoryRepository:
    repository = MemoryRepository()
    repository.save_knowledge(PackContents(kb.sources, kb.evidence, kb.concepts, kb.rules), ["t"])
    return repository


def test_ids_and_created_at_are_stamped_at_the_edge() -> None:
    response = AnswerService(_repository(knowledge()), clock=lambda: NOW).answer(
        ChatRequest(query="stopa pdv-a")
    )
    assert response["requestId"].startswith("req_") and response["traceId"].startswith("trace_")
    assert response["createdAt"] == "2026-11-22T10:30:00Z"
    assert response["asOfDate"] == "2026-11-22"  # today comes from the same clock


def test_snapshot_is_rebuilt_when_a_load_bumps_the_version() -> None:
    repository = _repository(knowledge())
    service = AnswerService(repository, clock=lambda: NOW)
    first = service.snapshot()
    assert service.snapshot() is first  # same version: the compiled snapshot is reused
    kb = knowledge()
    repository.save_knowledge(PackContents(kb.sources, kb.evidence, kb.concepts, kb.rules), ["t"])
    assert service.snapshot() is not first and service.snapshot().version == first.version + 1


def test_a_quote_missing_from_its_evidence_fails_closed() -> None:
    forged = tuple(
        replace(r, pointers=(Pointer(r.pointers[0].evidence_id, "Opća stopa PDV-a iznosi 5 %"),))
        if r.id == "rate-2013"
        else r
        for r in RULES
    )
    service = AnswerService(_repository(knowledge(forged)), clock=lambda: NOW)
    response = service.answer(ChatRequest(query="stopa pdv-a", explain=True))
    assert response["kind"] == "REFUSAL" and response["refusalReason"] == "NO_CITABLE_RULES"
    assert "citations" not in response and response["directAnswer"] == ""
    validate = response["trace"][-1]
    assert validate["stage"] == "validate" and any(
        "quote" in e for e in validate["details"]["errors"]
    )


def test_client_context_is_ignored_on_the_marketing_surface() -> None:
    service = AnswerService(_repository(knowledge()), clock=lambda: NOW)
    marketing = service.answer(
        ChatRequest(query="full retirement age", clientContext={"birth_year": 1962})
    )
    app = service.answer(
        ChatRequest(query="full retirement age", surface="APP", clientContext={"birth_year": 1962})
    )
    # MARKETING never reads client data: it gets the rules with their conditions instead
    assert marketing["kind"] == "ANSWER" and "depending on year of birth" in marketing["headline"]
    assert app["kind"] == "ANSWER" and app["directAnswer"].startswith("Full retirement age is 67")


def test_the_version_is_checked_again_only_after_refresh_seconds() -> None:
    repository = _repository(knowledge())
    now = [100.0]
    service = AnswerService(repository, refresh_seconds=1.0, monotonic=lambda: now[0])
    first = service.snapshot()
    kb = knowledge()
    repository.save_knowledge(PackContents(kb.sources, kb.evidence, kb.concepts, kb.rules), ["t"])
    now[0] += 0.5
    assert service.snapshot() is first  # within the interval: no store round trip
    now[0] += 0.6
    assert service.snapshot().version == first.version + 1

"""Same question + same knowledge + same as-of date → the same bytes, apart from the ids."""

from __future__ import annotations

from datetime import UTC, datetime

import orjson
import pytest

from engine.contract import ChatRequest
from engine.service import AnswerService
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths

QUESTIONS = [
    "Koja je stopa PDV-a?",
    "kolki je prag za pdv 2024",
    "Wat is het algemene btw-tarief?",
    "What is the RMD age?",
    "Koliko je sati?",
    "stopa pvd-a u Njemačkoj",
    "porez",
]


def _service(hour: int) -> AnswerService:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return AnswerService(repository, clock=lambda: datetime(2026, 11, 22, hour, tzinfo=UTC))


def _bytes(response: dict[str, object]) -> bytes:
    stable = {k: v for k, v in response.items() if k not in ("requestId", "traceId", "createdAt")}
    return orjson.dumps(stable, option=orjson.OPT_SORT_KEYS)


@pytest.mark.parametrize("query", QUESTIONS)
def test_answers_are_byte_identical(query: str) -> None:
    first, second = _service(8), _service(17)  # two processes' worth of state, other times
    request = ChatRequest(query=query, explain=True)
    one, two = first.answer(request), second.answer(request)
    assert one["requestId"] != two["requestId"]
    assert _bytes(one) == _bytes(two)
    assert _bytes(one) == _bytes(first.answer(request))

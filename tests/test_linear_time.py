"""The whole answer (guards, pipeline, output checks, as the server runs it) costs time
linear in the question's length, on the long runs an attacker can send: digits, spaces,
punctuation, digits with separators, repeated words and identifiers, mixed.

This is a complexity check, not a speed target: it compares the CPU cost of one shape at n and
at 8n characters on the same machine in the same second, so a slow machine scales both.
Linear work gives a ratio near 8, quadratic near 64; the bound of 24 leaves room for noise and
still fails anything that grows with the square of the length. A fixed cost (the guards'
setup, the response) is measured on a one-word question and taken off both, so it cannot hide
a quadratic part. How fast the worst question is belongs to the benchmark (`navod bench`).
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from functools import cache

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.contract import ChatRequest
from engine.service import AnswerService
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths

LARGE = 4_000  # the contract's query size limit
SMALL = LARGE // 8
BOUND = 24.0
# The least of several runs is the cost of the input; the others also paid for a garbage
# collection or a neighbour on the shared machine.
REPEATS = 5

# What a run is made of: each example repeats one unit drawn from one of these alphabets.
ALPHABETS = {
    "digits": "0123456789",
    "digits and spaces": "0123456789 ",
    "spaces": " \t\n",
    "punctuation": ".,;:!?-/()'\"%€$+*&",
    "digits and punctuation": "0123456789.,-/ ",
    "letters": "abcdefghijklmnopqrstuvwxyzčćšž",
    "mixed": "0123456789abcdefghijklmnopqrstuvwxyz .,-/()%€",
}


@cache
def service() -> AnswerService:
    """The service as the server builds it (a function, not a fixture: hypothesis would print a
    fixture's whole repr with every failing example)."""
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return AnswerService(
        repository,
        clock=lambda: datetime(2026, 11, 22, 9, tzinfo=UTC),
        guards=load_guards(),
        dossiers=MemoryDossierRepository(),
    )


def costs(*queries: str) -> list[float]:
    """The least CPU time each query's answer took over REPEATS rounds. CPU time, not the clock:
    on a shared machine a long answer is preempted more often than a short one, and the waits
    would read as growth. The queries take turns, so a busy moment falls on all alike."""
    requests = [ChatRequest(query=query) for query in queries]
    best = [float("inf")] * len(requests)
    for _ in range(REPEATS):
        for index, request in enumerate(requests):
            began = time.thread_time()
            service().answer(request)
            best[index] = min(best[index], time.thread_time() - began)
    return best


@st.composite
def runs(draw: st.DrawFn) -> str:
    """A unit of 1 to 12 characters of one alphabet, or a few words, repeated."""
    words = st.sampled_from(["pdv", "stopa", "prag", "eura", "2024.", "401(k)", "btw", "age"])
    alphabet = draw(st.sampled_from(sorted(ALPHABETS)))
    unit = draw(
        st.one_of(
            st.text(ALPHABETS[alphabet], min_size=1, max_size=12),
            st.lists(words, min_size=1, max_size=4).map(lambda w: " ".join(w) + " "),
        )
    )
    return unit if unit.strip() else "1" + unit  # a question of spaces only is refused early


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,  # the same shapes every run: a failure can be rerun and looked at
    suppress_health_check=[HealthCheck.too_slow],
)
@given(unit=runs())
@example(unit="1")  # one long number
@example(unit="1 ")  # spaced digits
@example(unit="12  ")  # digit runs and double spaces
@example(unit=".")  # a punctuation run
@example(unit="1.")  # digits and dots, a date or an amount at every position
@example(unit="123.456,78 ")  # grouped numbers
@example(unit="HR12 1001 0051 8630 0016 0 ")  # identifier-shaped groups (IBAN)
@example(unit="12345678903 ")  # OIB-shaped numbers
@example(unit="koliko je prag 45.000 eura 2024. godine, ")  # facts and times everywhere
@example(unit="ne ")  # negations
def test_the_answer_costs_linear_time_in_the_question_length(unit: str) -> None:
    large = (unit * (LARGE // len(unit) + 1))[:LARGE]
    fixed, small, big = costs("a", large[:SMALL], large)
    growth = (big - fixed) / max(small - fixed, 1e-4)
    assert growth < BOUND, f"{growth:.1f}x for 8x the length of {unit!r}"

"""The understanding stage measured on its own: the frame's cost on the benchmark's question
mix, and the worst questions of the size limit (4,000 characters) an attacker could send."""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from datetime import date
from typing import Any

from engine.contract import ChatRequest
from engine.service import AnswerService
from engine.text.language import detect_language
from engine.understanding.read import read_question
from measure.bench_data import BenchQuestion

LIMIT = 4_000  # the contract's query size limit, in characters
# Each shape is timed five times and the median kept: the cost of the input, not of a garbage
# collection or a neighbour on the shared machine that happened to fall into one run.
RUNS = 5
# Shapes that cost the most per character: long runs of digits, of digits with spaces or
# separators, of punctuation, of spaces and of one repeated word or identifier (where a regex
# that backtracks or a check against every earlier finding shows), grouped numbers (the
# tokenizer's and the quantity reader's worst case), dates, amounts, percentages, cue words.
WORST: dict[str, str] = {
    "digits": "1" * LIMIT,
    "grouped numbers": ("123.456,78 " * 400)[:LIMIT],
    "spaced digits": ("1 " * 2000)[:LIMIT],
    "digits and double spaces": ("12  " * 1000)[:LIMIT],
    "digits and dots": ("1." * 2000)[:LIMIT],
    "digits and dashes": ("1-" * 2000)[:LIMIT],
    "dates": ("1.1.2024. " * 400)[:LIMIT],
    "amounts": ("45.000 eura prometa, " * 200)[:LIMIT],
    "percentages": ("25 % i 13 % " * 334)[:LIMIT],
    "punctuation": (".,;:!?-/()" * 400)[:LIMIT],
    "question marks": "?" * LIMIT,
    "spaces and newlines": "a" + " \n" * 1999 + "b",
    "cue words": ("koliko kada rok stopa prag " * 150)[:LIMIT],
    "repeated word": ("pdv " * 1000)[:LIMIT],
    "repeated OIB": ("12345678903 " * 334)[:LIMIT],
    "repeated IBAN": ("HR12 1001 0051 8630 0016 0 " * 149)[:LIMIT],
    "facts and times": ("koliko je prag 45.000 eura 2024. godine, " * 98)[:LIMIT],
    "one long word": "a" * LIMIT,
    "dashes and brackets": ("(401)-(k)-" * 400)[:LIMIT],
}


def measure_understanding(
    service: AnswerService, questions: Sequence[BenchQuestion], today: date
) -> dict[str, Any]:
    """p50/p99 of reading a question into its frame over `questions`, and for each worst-case
    shape the median of RUNS runs of the frame alone and of the whole answer."""
    known = service.snapshot().aliases_by_key.__contains__
    texts = [(q.payload["query"], detect_language(q.payload["query"])[0]) for q in questions]
    timings: list[int] = []
    for text, language in texts:
        begin = time.perf_counter_ns()
        read_question(text, language, today, known)
        timings.append(time.perf_counter_ns() - begin)
    timings.sort()
    worst: dict[str, dict[str, float]] = {}
    for name, text in WORST.items():
        language = detect_language(text)[0]
        request = ChatRequest.model_validate({"query": text})
        frames: list[float] = []
        answers: list[float] = []
        for _ in range(RUNS):
            begin = time.perf_counter_ns()
            read_question(text, language, today, known)
            middle = time.perf_counter_ns()
            service.answer(request)
            end = time.perf_counter_ns()
            frames.append((middle - begin) / 1e6)
            answers.append((end - middle) / 1e6)
        worst[name] = {
            "frame_ms": round(statistics.median(frames), 3),
            "answer_ms": round(statistics.median(answers), 3),
        }
    return {
        "frame_p50_ms": round(timings[len(timings) // 2] / 1e6, 4),
        "frame_p99_ms": round(timings[int(len(timings) * 0.99)] / 1e6, 4),
        "worst_4000_chars": worst,
        "worst_frame_ms": max(w["frame_ms"] for w in worst.values()),
        "worst_answer_ms": max(w["answer_ms"] for w in worst.values()),
    }

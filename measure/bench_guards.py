"""The guardrails' share of `navod bench`: input checks on a 200-character question, and the
output and tone checks on real answers, each timed alone (p50 over many runs)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from engine.flow.turn import Guards
from engine.guardrails.abuse import detect_abuse
from engine.guardrails.injection import detect_injection
from engine.guardrails.output import check_output
from engine.guardrails.pii import detect_pii, redact
from engine.guardrails.tone import check_tone

# A long, ordinary question: amounts, dates and a thank-you, none of which is personal data.
INPUT_CHECK_QUESTION = (
    "Imam paušalni obrt od 1.1.2024. s prihodom od 39.816,84 eura i zaposlenika s plaćom "
    "od 1.200,00 eura mjesečno; moram li ući u sustav PDV-a i kolika je stopa PDV-a za 2025.? "
    "Hvala unaprijed na odgovoru."
)
INPUT_RUNS = 5000
# The personal-data scan's worst inputs at the query size limit: identifiers packed in every
# spelling, digits and separators, IBAN-like words, e-mail-like text. Each shape is timed
# WORST_RUNS times and the median kept.
LIMIT = 4_000
WORST_PII: dict[str, str] = {
    "digits and separators": ("1 .-/\u00a0" * 700)[:LIMIT],
    "spaced digits": ("1 " * 2000)[:LIMIT],
    "3-digit groups": ("123 456 " * 500)[:LIMIT],
    "OIBs": ("12345678903 " * 400)[:LIMIT],
    "spaced OIBs": ("123 456 789 03 " * 300)[:LIMIT],
    "SSNs": ("536 90 4399 " * 400)[:LIMIT],
    "Arabic-Indic digits": ("\u0661\u0662\u0663 " * 1000)[:LIMIT],
    "zero-width digits": ("1\u200b" * 2000)[:LIMIT],
    "IBANs": ("HR12 1001 0051 8630 0016 0 " * 200)[:LIMIT],
    "IBAN-like words": ("HR12 " * 1000)[:LIMIT],
    "e-mail-like": ("a@b.c" * 800)[:LIMIT],
}
WORST_RUNS = 5


def measure_guardrails(guards: Guards, answers: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """p50 in milliseconds of all input checks together, and of the output and tone checks."""
    config = guards.guardrails

    def input_checks() -> None:
        redacted = redact(INPUT_CHECK_QUESTION, detect_pii(INPUT_CHECK_QUESTION))
        detect_injection(redacted, config)
        detect_abuse(redacted, config)

    worst = {name: _p50_ms([partial(_scan, text)] * WORST_RUNS) for name, text in WORST_PII.items()}
    return {
        "question_chars": len(INPUT_CHECK_QUESTION),
        "input_checks_p50_ms": _p50_ms([input_checks] * INPUT_RUNS),
        "pii_worst_4000_chars_ms": worst,
        "pii_worst_ms": max(worst.values()),
        "output_check_p50_ms": _p50_ms([partial(check_output, r) for r in answers]),
        "tone_check_p50_ms": _p50_ms([partial(check_tone, r, guards.tone) for r in answers]),
        "answers_checked": len(answers),
    }


def _scan(text: str) -> str:
    return redact(text, detect_pii(text))


def _p50_ms(actions: Sequence[Callable[[], object]]) -> float:
    timings = []
    for action in actions:
        begin = time.perf_counter_ns()
        action()
        timings.append(time.perf_counter_ns() - begin)
    return round(statistics.median(timings) / 1e6, 4) if timings else 0.0

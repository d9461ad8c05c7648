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


def measure_guardrails(guards: Guards, answers: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """p50 in milliseconds of all input checks together, and of the output and tone checks."""
    config = guards.guardrails

    def input_checks() -> None:
        redacted = redact(INPUT_CHECK_QUESTION, detect_pii(INPUT_CHECK_QUESTION))
        detect_injection(redacted, config)
        detect_abuse(redacted, config)

    return {
        "question_chars": len(INPUT_CHECK_QUESTION),
        "input_checks_p50_ms": _p50_ms([input_checks] * INPUT_RUNS),
        "output_check_p50_ms": _p50_ms([partial(check_output, r) for r in answers]),
        "tone_check_p50_ms": _p50_ms([partial(check_tone, r, guards.tone) for r in answers]),
        "answers_checked": len(answers),
    }


def _p50_ms(actions: Sequence[Callable[[], object]]) -> float:
    timings = []
    for action in actions:
        begin = time.perf_counter_ns()
        action()
        timings.append(time.perf_counter_ns() - begin)
    return round(statistics.median(timings) / 1e6, 4) if timings else 0.0

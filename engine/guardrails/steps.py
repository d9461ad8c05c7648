"""The guardrail and triage steps of a turn: input guardrail, relevance, FAQ, intent, the rule
pipeline, output guardrail and tone.

Each step is a small pure function over the turn state returning what it changed and a log
line, the same shape as the pipeline's stages. Any step may settle the response early (a
greeting, an injection, an off-topic question); the steps that decide are then skipped and the
checks that guard every response (output guardrail, tone) still run. The runner that folds them,
with the conversation's steps, is engine/flow/runner.py: adding a check is one module and one
line in its STEPS.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.flow.reading import answer_pinned, answer_reading, reading_of
from engine.flow.turn import (
    Settings,
    StepResult,
    Turn,
    small_talk,
    support_answer,
)
from engine.guardrails.abuse import detect_abuse
from engine.guardrails.faq import match_faq
from engine.guardrails.injection import detect_injection
from engine.guardrails.output import check_output, safe_refusal
from engine.guardrails.pii import detect_pii, redact
from engine.guardrails.tone import check_tone
from engine.pipeline import templates as tpl
from engine.pipeline.render import clip
from engine.text.language import detect_language
from engine.types import Language


def input_guardrail(turn: Turn, settings: Settings) -> StepResult:
    findings = tuple(
        f for f in detect_pii(turn.text) if f.confidence >= settings.guardrails.pii_min_confidence
    )
    redacted = redact(turn.text, findings)
    verdict = detect_injection(redacted, settings.guardrails)
    abusive = detect_abuse(redacted, settings.guardrails)
    changes: dict[str, Any] = {"pii": findings, "injection": verdict, "abusive": abusive}
    question = redacted
    if verdict.detected and verdict.wrapped_question:
        question = verdict.wrapped_question  # the real question, without the injected claims
    changes["redacted"] = question
    if abusive or (verdict.detected and not verdict.wrapped_question):
        language = turn.language or detect_language(question)[0]
        reason = "abusive" if abusive else "injection"
        changes.update(
            route="blocked", early=True, response=_blocked(turn, question, language, reason)
        )
    if changes.get("early"):
        status = "BLOCKED"
    elif verdict.detected:
        status = "INJECTION REMOVED"  # the wrapped question goes on, without the attack
    else:
        status = "PASS"
    found = f", pii {[f.type for f in findings]}" if findings else ""
    return StepResult(changes, f"input_guardrail: {status}{found}")


def triage_relevance(turn: Turn, settings: Settings) -> StepResult:
    """The core's topic classification: anything but a regulatory question (or small talk,
    which the intent step answers) is refused OUT_OF_SCOPE with redirect options."""
    reading = reading_of(turn, settings)
    state = reading.triaged
    topic = state.classification.topic if state.classification else "REGULATORY"
    if topic == "REGULATORY":
        return StepResult({"reading": reading}, f"relevance: {topic}")
    if small_talk(turn, settings) is not None:
        return StepResult({"reading": reading}, f"relevance: {topic} (small talk)")
    done = answer_reading(reading)  # classify decided the refusal; compose renders it
    return StepResult(
        {"state": done, "response": done.response, "route": "out_of_scope", "early": True},
        f"relevance: {topic}",
    )


def triage_faq(turn: Turn, settings: Settings) -> StepResult:
    """A paraphrase of a stored FAQ is answered from the rules the entry points at."""
    reading = reading_of(turn, settings)
    state = reading.triaged
    match = None if state.refusal else match_faq(state, settings.guardrails)
    if match is None:
        return StepResult({}, "faq: NO MATCH")
    entry = match.entry
    question = replace(
        state.question,
        pinned_concepts=(entry.concept,),
        allowed_rules=frozenset(entry.rules) if entry.rules else None,
    )
    done = answer_pinned(reading, question)
    return StepResult(
        {"state": done, "response": done.response, "route": "faq", "early": True},
        f"faq: MATCH {entry.id} ({match.score:.0f})",
    )


def triage_intent(turn: Turn, settings: Settings) -> StepResult:
    intent = small_talk(turn, settings)
    if intent is None:
        return StepResult({}, "intent: NONE")
    # a long reply's headline ends at a word with "…", never mid-word; the reply is whole below
    response = support_answer(turn, intent.language, clip(intent.reply, 120), intent.reply)
    return StepResult(
        {"route": "intent", "early": True, "response": response}, f"intent: {intent.kind}"
    )


def answer_pipeline(turn: Turn, settings: Settings) -> StepResult:
    """The rule pipeline, resumed after the message's reading."""
    state = answer_reading(reading_of(turn, settings))
    return StepResult(
        {"state": state, "response": state.response, "route": "pipeline"},
        f"pipeline: {(state.response or {}).get('kind', 'NONE')}",
    )


def output_guardrail(turn: Turn, settings: Settings) -> StepResult:
    assert turn.response is not None
    verdict = check_output(turn.response)
    if verdict.safe:
        return StepResult({}, "output_guardrail: PASS")
    return StepResult(
        {"response": safe_refusal(turn.response, verdict), "output_issues": verdict.issues},
        f"output_guardrail: REPLACED ({len(verdict.issues)} issue(s))",
    )


def tone_check(turn: Turn, settings: Settings) -> StepResult:
    assert turn.response is not None
    adjusted, verdict = check_tone(turn.response, settings.tone)
    return StepResult(
        {
            "response": adjusted,
            "tone_ok": verdict.appropriate,
            "tone_adjustments": verdict.adjustments,
        },
        f"tone: {'OK' if verdict.appropriate else 'FLAGGED'}",
    )


def _blocked(turn: Turn, question: str, language: Language, reason: str) -> dict[str, Any]:
    message = (tpl.BLOCKED_ABUSE if reason == "abusive" else tpl.BLOCKED_INJECTION)[language]
    return {
        "schemaVersion": "1.0.0",
        "kind": "REFUSAL",
        "topic": "OFFTOPIC",
        "surface": turn.surface,
        "asOfDate": (turn.as_of or turn.today).isoformat(),
        "language": language,
        "refusalReason": "OUT_OF_SCOPE",
        "headline": tpl.REFUSAL_HEADLINE["OUT_OF_SCOPE"][language],
        "directAnswer": "",
        "refusal": {"message": message},
    }

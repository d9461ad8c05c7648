"""PII detection and redaction: the red-team table, precision/recall per type, properties."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from engine.guardrails.pii import PiiFinding, detect_pii, redact

TABLE = Path(__file__).parent / "data" / "redteam.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(TABLE.read_text(encoding="utf-8"))["cases"]
TYPES = ("OIB", "IBAN", "BSN", "SSN", "CARD", "EMAIL", "PHONE")


def _detected_types(text: str) -> list[str]:
    return [finding.type for finding in detect_pii(text)]


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_table_pii_types(case: dict[str, Any]) -> None:
    assert _detected_types(case["text"]) == case["expect"]["pii"], case["text"]


def _scores() -> dict[str, Counter[str]]:
    """True positives, false positives and false negatives per type over the whole table."""
    scores = {kind: Counter[str]() for kind in TYPES}
    for case in CASES:
        expected = Counter(case["expect"]["pii"])
        found = Counter(_detected_types(case["text"]))
        for kind in TYPES:
            hits = min(expected[kind], found[kind])
            scores[kind]["tp"] += hits
            scores[kind]["fp"] += found[kind] - hits
            scores[kind]["fn"] += expected[kind] - hits
    return scores


def _report(scores: dict[str, Counter[str]]) -> str:
    lines = [f"{'type':<8}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>9}"]
    total: Counter[str] = Counter()
    for kind, score in [*scores.items(), ("overall", total)]:
        if kind != "overall":
            total.update(score)
        tp, fp, fn = score["tp"], score["fp"], score["fn"]
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        lines.append(f"{kind:<8}{tp:>5}{fp:>5}{fn:>5}{precision:>11.3f}{recall:>9.3f}")
    return "\n".join(lines)


def test_precision_and_recall_per_type() -> None:
    scores = _scores()
    report = _report(scores)
    print(f"\nPII precision/recall over {len(CASES)} red-team cases\n{report}")
    assert all(scores[kind]["tp"] > 0 for kind in TYPES), f"a type is untested\n{report}"
    assert all(scores[kind]["fn"] == 0 for kind in TYPES), f"recall below 100 %\n{report}"
    assert all(scores[kind]["fp"] == 0 for kind in TYPES), f"false positives\n{report}"


NEAR_MISSES = [case for case in CASES if not case["expect"]["pii"]]


def test_near_misses_have_no_findings() -> None:
    flagged = {case["id"]: _detected_types(case["text"]) for case in NEAR_MISSES}
    flagged = {case_id: found for case_id, found in flagged.items() if found}
    assert len(NEAR_MISSES) >= 60
    assert not flagged, f"amounts, dates, years or broken checksums flagged: {flagged}"


@pytest.mark.parametrize(
    ("text", "raw_values", "redacted"),
    [
        (
            "Moj OIB je 12345678903, koliko moram platiti?",
            ["12345678903"],
            "Moj OIB je [OIB], koliko moram platiti?",
        ),
        (
            "IBAN: HR12 1001 0051 8630 0016 0 za uplatu poreza",
            ["HR12 1001 0051 8630 0016 0"],
            "IBAN: [IBAN] za uplatu poreza",
        ),
        (
            "iban hr1210010051863000160 je moj",
            ["hr1210010051863000160"],
            "iban [IBAN] je moj",
        ),
        (
            "BSN 1112.22.333 en mail jan@example.nl",
            ["1112.22.333", "jan@example.nl"],
            "BSN [BSN] en mail [EMAIL]",
        ),
        (
            "SSN 536-90-4399, card 4111 1111 1111 1111 2024, call (212) 555-1234.",
            ["536-90-4399", "4111 1111 1111 1111", "(212) 555-1234"],
            "SSN [SSN], card [CARD] 2024, call [PHONE].",
        ),
        (
            "Moj mail je 12345678903@gmail.com, tel +385 98 123 4567",
            ["12345678903@gmail.com", "+385 98 123 4567"],
            "Moj mail je [EMAIL], tel [PHONE]",
        ),
    ],
)
def test_redaction_replaces_each_span_with_its_placeholder(
    text: str, raw_values: list[str], redacted: str
) -> None:
    findings = detect_pii(text)
    assert [text[f.start : f.end] for f in findings] == raw_values
    assert redact(text, findings) == redacted
    assert not any(raw in redact(text, findings) for raw in raw_values)


def test_table_redaction_leaves_no_raw_value() -> None:
    for case in CASES:
        findings = detect_pii(case["text"])
        redacted = redact(case["text"], findings)
        for finding in findings:
            raw = case["text"][finding.start : finding.end]
            assert raw not in redacted, case["id"]
            assert f"[{finding.type}]" in redacted


def test_findings_hold_no_value_and_confidence_reflects_validation() -> None:
    assert PiiFinding.__slots__ == ("type", "start", "end", "confidence")
    findings = detect_pii("OIB 12345678903, mail a.b@example.com, tel 06-12345678")
    assert [(f.type, f.confidence) for f in findings] == [
        ("OIB", 1.0),
        ("EMAIL", 0.8),
        ("PHONE", 0.8),
    ]


def test_findings_are_sorted_and_never_overlap() -> None:
    for case in CASES:
        findings = detect_pii(case["text"])
        for before, after in itertools.pairwise(findings):
            assert before.end <= after.start, case["id"]


def test_redact_ignores_overlapping_input_spans() -> None:
    text = "OIB 12345678903"
    findings = [PiiFinding("OIB", 4, 15, 1.0), PiiFinding("PHONE", 6, 10, 0.8)]
    assert redact(text, findings) == "OIB [OIB]"


_FRAGMENTS = [case["text"] for case in CASES if case["expect"]["pii"]]


@given(st.text())
def test_detect_and_redact_never_raise(text: str) -> None:
    findings = detect_pii(text)
    redacted = redact(text, findings)
    for finding in findings:
        assert 0 <= finding.start < finding.end <= len(text)
        assert text[finding.start : finding.end] not in redacted


@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=8)), max_size=6))
def test_redacted_text_keeps_no_detected_value(parts: list[str]) -> None:
    text = " ".join(parts)
    findings = detect_pii(text)
    redacted = redact(text, findings)
    assert not any(text[f.start : f.end] in redacted for f in findings)


def test_a_value_found_once_is_redacted_wherever_it_appears() -> None:
    text = "Graag de aanslag voor 102030406 Graag de aanslag voor 102030406 £"
    assert "102030406" not in redact(text, detect_pii(text))

"""Prompt injection and abuse: the red-team table, reasons, properties, the edge loader."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ConfigError
from engine.guardrails import detect_abuse, detect_injection, detect_pii, redact
from engine.guardrails.config import GuardrailConfig
from engine.store.guardrails.config import default_guardrail_folder, load_guardrail_config
from measure.bench_guards import INPUT_CHECK_QUESTION

TABLE = Path(__file__).parent / "data" / "redteam.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(TABLE.read_text(encoding="utf-8"))["cases"]
IDS = [case["id"] for case in CASES]


@pytest.fixture(scope="module")
def config() -> GuardrailConfig:
    return load_guardrail_config()


def test_table_is_large_and_covers_every_language() -> None:
    assert len(CASES) >= 150
    assert len(set(IDS)) == len(IDS)
    assert {case["language"] for case in CASES} == {"hr", "nl", "en"}
    assert sum(case["expect"]["injection"] for case in CASES) >= 40
    assert sum(case["expect"]["abusive"] for case in CASES) >= 10


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_table_injection(case: dict[str, Any], config: GuardrailConfig) -> None:
    verdict = detect_injection(case["text"], config)
    expect = case["expect"]
    assert (verdict.detected, verdict.wrapped_question) == (
        expect["injection"],
        expect["wrapped_question"],
    ), verdict.reasons
    assert bool(verdict.reasons) == verdict.detected


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_table_abuse(case: dict[str, Any], config: GuardrailConfig) -> None:
    assert detect_abuse(case["text"], config) == case["expect"]["abusive"]


@pytest.mark.parametrize(
    ("case_id", "reason"),
    [
        ("inj-en-ignore", "ignore-instructions"),
        ("inj-hr-glumi", "role-play"),
        ("inj-nl-doe-alsof", "role-play"),
        ("inj-en-sysprompt", "reveal-configuration"),
        ("inj-nl-toon", "reveal-configuration"),
        ("inj-hr-say", "steer-answer"),
        ("inj-en-jailbreak", "jailbreak-marker"),
        ("b64-en", "encoded-payload"),
        ("spaced-en", "disguised-text"),
        ("leet-hr", "disguised-text"),
        ("zero-width", "disguised-text"),
        ("homoglyph-cyrillic", "disguised-text"),
    ],
)
def test_reasons_say_why(case_id: str, reason: str, config: GuardrailConfig) -> None:
    text = next(case["text"] for case in CASES if case["id"] == case_id)
    assert reason in detect_injection(text, config).reasons


def test_injected_claims_never_reach_the_wrapped_question(config: GuardrailConfig) -> None:
    wrapped = [case for case in CASES if case["expect"]["wrapped_question"]]
    assert len(wrapped) >= 12
    for case in wrapped:
        question = detect_injection(case["text"], config).wrapped_question
        assert question is not None, case["id"]
        assert not detect_injection(question, config).detected, case["id"]
        # A planted value survives only as the user's own question ("Is the VAT rate 5%?").
        assert "5%" not in question or question.endswith("?"), case["id"]


def test_verdicts_are_deterministic(config: GuardrailConfig) -> None:
    first = [detect_injection(case["text"], config) for case in CASES]
    second = [detect_injection(case["text"], config) for case in CASES]
    assert first == second


@given(st.text())
def test_detect_injection_never_raises(text: str) -> None:
    verdict = detect_injection(text, load_guardrail_config())
    assert verdict.detected == bool(verdict.reasons)
    assert verdict.wrapped_question is None or verdict.detected


@given(st.text())
def test_detect_abuse_never_raises(text: str) -> None:
    assert detect_abuse(text, load_guardrail_config()) in (True, False)


def test_loader_caches_per_folder() -> None:
    assert load_guardrail_config() is load_guardrail_config(default_guardrail_folder())


@pytest.mark.parametrize(
    ("file", "edit", "message"),
    [
        ("thresholds.yaml", {"pii_min_confidence": 2}, "thresholds.yaml: pii_min_confidence"),
        ("thresholds.yaml", {"base64_min_length": "x"}, "thresholds.yaml: base64_min_length"),
        ("abuse.yaml", {"words": {"hr": ["x"], "en": ["y"]}}, "abuse.yaml: words"),
        ("abuse.yaml", {"words": {"hr": ["pička"], "nl": ["a"], "en": ["b"]}}, "words.hr"),
        ("injection.yaml", {"markers": []}, "injection.yaml: markers"),
        ("injection.yaml", {"claims": {"hr": ["("], "nl": ["a"], "en": ["b"]}}, "claims.hr"),
    ],
)
def test_loader_names_file_and_key(
    tmp_path: Path, file: str, edit: dict[str, Any], message: str
) -> None:
    folder = tmp_path / "guardrails"
    shutil.copytree(default_guardrail_folder(), folder)
    data = yaml.safe_load((folder / file).read_text(encoding="utf-8"))
    data.update(edit)
    (folder / file).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_guardrail_config(folder)


def test_loader_reports_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"injection\.yaml"):
        load_guardrail_config(tmp_path)


def test_an_ordinary_long_question_passes_every_input_check(config: GuardrailConfig) -> None:
    """The benchmark's 200-character question (amounts, dates, thanks) is not flagged."""
    question = INPUT_CHECK_QUESTION
    assert 190 <= len(question) <= 210
    verdict = detect_injection(redact(question, detect_pii(question)), config)
    assert (detect_pii(question), verdict.detected, detect_abuse(question, config)) == (
        (),
        False,
        False,
    )

"""`navod bench` at a tiny size: the report's shape and arithmetic, and a generated knowledge
base that is deterministic and passes the same checks as a hand-written pack. No timings."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from typer.testing import CliRunner

from api.cli import app
from engine.contract import ChatRequest
from engine.store.knowledge.packs import PackContents, verify_packs
from engine.text.normalize import normalise_quote
from engine.text.quantities import value_stated
from measure.bench import BenchOptions, golden_cases, latency_summary, real_questions, run_bench
from measure.bench_data import MIX, REFUSAL_KINDS, generate_knowledge, generate_questions

TINY = BenchOptions(questions=200, concepts=50, rules_per_concept=10, seed=3, warmup=20)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    messages: list[str] = []
    result = run_bench(TINY, messages.append)
    assert any("snapshot compiled" in message for message in messages)
    return result


@pytest.fixture(scope="module")
def generated() -> PackContents:
    return generate_knowledge(40, 6, seed=11)


def test_report_counts_add_up(report: dict[str, Any]) -> None:
    assert report["questions"] == TINY.questions == sum(report["mix"].values())
    assert set(report["mix"]) == {*MIX, *REFUSAL_KINDS}
    answered = sum(sum(kinds.values()) for kinds in report["outcomes"].values())
    assert answered == TINY.questions
    assert report["generated"] == {"concepts": 50, "rules": 500}
    assert report["concepts"] > 50 and report["rules"] > 500  # the real packs are merged in
    assert sum(report["real_vs_golden_outcome"].values()) == report["mix"]["real"]
    for category, hits in report["answered_intended_concept"].items():
        assert 0 <= hits <= report["outcomes"][category].get("ANSWER", 0)


def test_report_numbers_are_positive_and_ordered(report: dict[str, Any]) -> None:
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"]
    assert report["snapshot_build_s"] > 0 and report["service_first_snapshot_s"] > 0
    assert report["peak_rss_mib"] > 0
    assert set(report["targets"]) == {
        "p50_ok",
        "p99_ok",
        "build_ok",
        "input_checks_ok",
        "frame_ok",
        "worst_question_ok",
    }
    understanding = report["understanding"]
    assert 0 < understanding["frame_p50_ms"] <= understanding["frame_p99_ms"]
    assert set(understanding["worst_4000_chars"]) == {
        "digits", "grouped numbers", "spaced digits", "digits and double spaces",
        "digits and dots", "digits and dashes", "dates", "amounts", "percentages",
        "punctuation", "question marks", "spaces and newlines", "cue words", "repeated word",
        "repeated OIB", "repeated IBAN", "facts and times", "one long word",
        "dashes and brackets",
    }  # fmt: skip
    assert understanding["worst_answer_ms"] == max(
        w["answer_ms"] for w in understanding["worst_4000_chars"].values()
    )
    guardrails = report["guardrails"]
    assert guardrails["question_chars"] >= 190 and guardrails["answers_checked"] > 0
    assert guardrails["input_checks_p50_ms"] > 0 and guardrails["output_check_p50_ms"] > 0
    assert "http" not in report


def test_report_is_one_json_line(report: dict[str, Any]) -> None:
    line = orjson.dumps(report)
    assert b"\n" not in line and orjson.loads(line) == report


@pytest.mark.parametrize(
    ("timings_ms", "expected"),
    [
        (range(1, 101), {"p50": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0, "mean": 50.5}),
        ([7], {"p50": 7.0, "p90": 7.0, "p99": 7.0, "max": 7.0, "mean": 7.0}),
        ([3, 1, 2], {"p50": 2.0, "p90": 3.0, "p99": 3.0, "max": 3.0, "mean": 2.0}),
    ],
)
def test_latency_summary_uses_nearest_rank(timings_ms: Any, expected: dict[str, float]) -> None:
    assert latency_summary([int(ms * 1e6) for ms in timings_ms]) == expected


def test_generated_knowledge_is_deterministic(generated: PackContents) -> None:
    assert generate_knowledge(40, 6, seed=11) == generated
    assert generate_knowledge(40, 6, seed=12) != generated
    real = real_questions(golden_cases())
    assert generate_questions(generated, real, 300, 5) == generate_questions(
        generated, real, 300, 5
    )


def test_generated_sizes_and_dated_history(generated: PackContents) -> None:
    assert len(generated.concepts) == 40 and len(generated.rules) == 240
    assert len({e.id for e in generated.evidence}) == len(generated.evidence) == 240
    assert any(rule.applies_when is not None for rule in generated.rules)  # a split period
    for concept in generated.concepts:
        rules = [r for r in generated.rules if r.concept == concept.slug]
        periods = sorted({(r.effective_from, r.effective_until) for r in rules})
        for (_, until), (next_start, _) in itertools.pairwise(periods):
            assert until == next_start, concept.slug  # consecutive, no gaps or overlaps
        assert periods[-1][1] is None  # the latest period is open
        assert len(rules) - len(periods) in (0, 1)  # one period may be split by a condition


def test_every_generated_value_is_stated_in_its_quote(generated: PackContents) -> None:
    texts = {evidence.id: evidence.text for evidence in generated.evidence}
    for rule in generated.rules:
        (pointer,) = rule.pointers
        assert value_stated(rule.value, rule.value_type, pointer.quote), rule.id
        assert normalise_quote(pointer.quote) in normalise_quote(texts[pointer.evidence_id])


def test_generated_pack_passes_the_pack_checks(generated: PackContents, tmp_path: Path) -> None:
    """Written out as a YAML pack, `navod kb verify` reads back exactly the generated records."""
    folder = tmp_path / "bench"
    write_pack(generated, folder)
    assert verify_packs([folder]) == generated


def test_question_mix_follows_the_shares(generated: PackContents) -> None:
    questions = generate_questions(generated, real_questions(golden_cases()), 1000, 5)
    counts = Counter(question.category for question in questions)
    for category, share in MIX.items():
        assert counts[category] == round(1000 * share)
    assert sum(counts[kind] for kind in REFUSAL_KINDS) == 1000 - sum(counts[c] for c in MIX)
    for question in questions:
        ChatRequest.model_validate(question.payload)  # every body is a valid request
        assert (question.concept is not None) == (question.category in ("generated", "typo"))


def test_cli_prints_the_report_as_its_last_line() -> None:
    result = CliRunner().invoke(app, ["bench", "--questions", "30", "--concepts", "12"])
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    assert orjson.loads(last)["questions"] == 30


def write_pack(contents: PackContents, folder: Path) -> None:
    """`contents` as a pack folder in the documented format (fixtures/packs/README.md)."""
    folder.mkdir()
    keys = {evidence.id: evidence.key for evidence in contents.evidence}
    meta = {
        "name": folder.name,
        "description": "generated",
        "licence": "generated",
        "attribution": [{"source": s.id, "text": s.publisher} for s in contents.sources],
        "topics": [
            {
                "id": topic.id,
                "label": dict(topic.label),
                "checklist": [
                    {
                        "fact": item.fact,
                        "weight": item.weight,
                        "question": dict(item.question),
                        "subtopic": item.subtopic,
                        "kind": item.kind,
                    }
                    for item in topic.checklist
                ],
            }
            for topic in contents.topics
        ],
    }
    records: dict[str, list[dict[str, Any]]] = {
        "sources": [
            {
                "id": s.id,
                "title": s.title,
                "act": s.act_id,
                "authority": s.authority,
                "jurisdiction": s.jurisdiction,
                "language": s.language,
                "url": s.url,
                "publisher": s.publisher,
                "licence": s.licence,
            }
            for s in contents.sources
        ],
        "evidence": [
            {
                "key": e.key,
                "source": e.source_id,
                "locator": e.locator,
                "url": e.url,
                "fetched_at": e.fetched_at.isoformat(),
                "capture": e.capture_method,
                "sha256": e.sha256,
                "note": e.note,
                "text": e.text,
            }
            for e in contents.evidence
        ],
        "concepts": [
            {
                "slug": c.slug,
                "domain": c.domain,
                "jurisdiction": c.jurisdiction,
                "labels": dict(c.labels),
                "aliases": {k: list(v) for k, v in c.aliases.items()},
            }
            for c in contents.concepts
        ],
        "rules": [
            {
                "id": r.id,
                "concept": r.concept,
                "title": dict(r.title),
                "explanation": dict(r.explanation),
                "value": r.value,
                "value_type": r.value_type,
                "unit": r.unit,
                "effective_from": r.effective_from,
                "effective_until": r.effective_until,
                "status": r.status,
                "authority": r.authority,
                "obligation_type": r.obligation_type,
                "risk_tier": r.risk_tier,
                "confidence": r.confidence,
                "verified_as_of": r.verified_as_of,
                "stability": r.stability,
                "applies_when": r.applies_when,
                "pointers": [
                    {"evidence": keys[p.evidence_id], "quote": p.quote} for p in r.pointers
                ],
            }
            for r in contents.rules
        ],
    }
    for name, data in (("pack.yaml", meta), ("10-records.yaml", records)):
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        (folder / name).write_text(text, encoding="utf-8")

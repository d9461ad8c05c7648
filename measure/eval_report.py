"""The `navod eval` report: numbers from judged gold outcomes, as JSON or as rich tables.

The gate (`passed`): no wrong value and no off-target answer anywhere, and at least
`min_accuracy` of the answerable gold questions (expected ANSWER) answered correctly. A wrong value
or an answer to a question that was not asked fails on its own: either is worse than a refusal.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from engine.store.knowledge.packs import display_path
from measure.eval import Outcome

DEFAULT_MIN_ACCURACY = 0.90


def build_report(
    outcomes: Sequence[Outcome],
    files: Sequence[Path],
    mode: str,
    min_accuracy: float = DEFAULT_MIN_ACCURACY,
) -> dict[str, Any]:
    """Everything `navod eval` prints, as plain JSON-ready values (deterministic order)."""
    answerable = [o for o in outcomes if o.question.expect.kind == "ANSWER"]
    answerable_correct = sum(o.verdict == "correct" for o in answerable)
    accuracy = answerable_correct / len(answerable) if answerable else None
    wrong_values = sum(o.verdict == "wrong_value" for o in outcomes)
    off_target = sum(o.verdict == "off_target" for o in outcomes)
    recovered = sum(o.recovered is True for o in answerable)
    several = [o for o in outcomes if o.question.shape is not None]
    summary = {
        **_tally(outcomes),
        "answerable": len(answerable),
        "answerable_correct": answerable_correct,
        "answerable_accuracy": _round(accuracy),
        "min_accuracy": min_accuracy,
        "recovered": recovered,
        "right_or_recovered": _round(
            (answerable_correct + recovered) / len(answerable) if answerable else None
        ),
        "several_values": len(several),
        "several_values_complete": sum(o.verdict == "correct" for o in several),
        "noted": sum(o.observed.route == "dossier" for o in outcomes),
        "invalid": sum(o.verdict == "invalid" for o in outcomes),
        "errors": sum(o.verdict == "error" for o in outcomes),
        "passed": wrong_values == 0
        and off_target == 0
        and (accuracy is None or accuracy >= min_accuracy),
    }
    return {
        "mode": mode,
        "files": [display_path(file) for file in files],
        "summary": summary,
        "by_language": _grouped(outcomes, lambda o: o.question.language),
        "by_category": _grouped(outcomes, lambda o: o.question.category),
        "by_shape": _grouped(
            [o for o in outcomes if o.question.shape], lambda o: str(o.question.shape)
        ),
        "verdicts": dict(sorted(Counter(o.verdict for o in outcomes).items())),
        "confusion": _confusion(outcomes),
        "misses": [_miss(o) for o in outcomes if o.verdict != "correct"],
    }


def exit_code(report: Mapping[str, Any]) -> int:
    return 0 if report["summary"]["passed"] else 1


def _tally(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    correct = sum(o.verdict == "correct" for o in outcomes)
    return {
        "questions": len(outcomes),
        "correct": correct,
        "accuracy": _round(correct / len(outcomes) if outcomes else None),
        "wrong_values": sum(o.verdict == "wrong_value" for o in outcomes),
        "off_target": sum(o.verdict == "off_target" for o in outcomes),
    }


def _grouped(
    outcomes: Sequence[Outcome], key: Callable[[Outcome], str]
) -> dict[str, dict[str, Any]]:
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        groups[key(outcome)].append(outcome)
    return {name: _tally(groups[name]) for name in sorted(groups)}


def expected_label(outcome: Outcome) -> str:
    """ANSWER, or the allowed refusal reasons joined by "|" (one row per distinct allowance)."""
    expect = outcome.question.expect
    return "ANSWER" if expect.kind == "ANSWER" else "|".join(expect.reasons)


def actual_label(outcome: Outcome) -> str:
    observed = outcome.observed
    return observed.reason or observed.kind


def _confusion(outcomes: Sequence[Outcome]) -> dict[str, dict[str, int]]:
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for outcome in outcomes:
        table[expected_label(outcome)][actual_label(outcome)] += 1
    return {row: dict(sorted(table[row].items())) for row in sorted(table)}


def _miss(outcome: Outcome) -> dict[str, Any]:
    question, observed, expect = outcome.question, outcome.observed, outcome.question.expect
    return {
        "id": question.id,
        "file": question.file,
        "language": question.language,
        "category": question.category,
        "query": question.query,
        "as_of": question.as_of.isoformat() if question.as_of else None,
        "verdict": outcome.verdict,
        "expected": {
            "kind": expect.kind,
            "refusal_reasons": list(expect.reasons),
            "topic": expect.topic,
            "concept": expect.concept,
            "value": expect.value,
            "answers": [list(pair) for pair in expect.answers],
            "obligation": expect.obligation,
            "conditional": expect.conditional,
        },
        "actual": {
            "kind": observed.kind,
            "refusal_reason": observed.reason,
            "topic": observed.topic,
            "rule": observed.rule_id,
            "concept": observed.concept,
            "value": observed.value,
            "cited": [list(pair) for pair in observed.cited],
            "obligation": observed.obligation,
            "errors": list(observed.errors),
            "route": observed.route,
            "related": list(observed.related),
        },
        "recovered": outcome.recovered,
    }


def _round(share: float | None) -> float | None:
    return None if share is None else round(share, 4)


# ---- Terminal output


def print_report(console: Console, report: Mapping[str, Any]) -> None:
    """Accuracy per language and category, the confusion table, every miss, then the verdict."""
    console.print(escape(f"gold: {', '.join(report['files'])} ({report['mode']})"))
    for title, key in (
        ("Accuracy per language", "by_language"),
        ("per category", "by_category"),
        ("per shape of a question asking several values", "by_shape"),
    ):
        console.print(_accuracy_table(title, report[key]))
    console.print(_confusion_table(report["confusion"]))
    if report["misses"]:
        console.print(_misses_table(report["misses"]))
    summary = report["summary"]
    share = summary["answerable_accuracy"]
    colour = "green" if summary["passed"] else "red"
    console.print(
        f"[{colour}]{'PASS' if summary['passed'] else 'FAIL'}[/{colour}]: "
        f"{summary['correct']}/{summary['questions']} correct; answerable "
        f"{summary['answerable_correct']}/{summary['answerable']} "
        f"({_percent(share)}, minimum {_percent(summary['min_accuracy'])}); "
        f"wrong values {summary['wrong_values']}; off-target {summary['off_target']}; "
        f"invalid {summary['invalid']}; "
        f"no response {summary['errors']}; "
        f"recovered in one click {summary['recovered']} "
        f"(right or recovered {_percent(summary['right_or_recovered'])}); "
        f"several values complete {summary['several_values_complete']}/"
        f"{summary['several_values']}; noted {summary['noted']}"
    )


def _accuracy_table(title: str, groups: Mapping[str, Mapping[str, Any]]) -> Table:
    table = Table(title=title, title_justify="left")
    for column in ("group", "questions", "correct", "accuracy", "wrong values", "off-target"):
        table.add_column(column, justify="left" if column == "group" else "right")
    for name, row in groups.items():
        wrong, off = row["wrong_values"], row["off_target"]
        table.add_row(
            escape(name),
            str(row["questions"]),
            str(row["correct"]),
            _percent(row["accuracy"]),
            f"[red]{wrong}[/red]" if wrong else "0",
            f"[red]{off}[/red]" if off else "0",
        )
    return table


def _confusion_table(confusion: Mapping[str, Mapping[str, int]]) -> Table:
    columns = sorted({actual for row in confusion.values() for actual in row})
    table = Table(
        title="Expected (rows) vs actual (columns)",
        title_justify="left",
        caption=", ".join(f"{short} = {reason}" for reason, short in SHORT_REASONS.items()),
        caption_justify="left",
    )
    table.add_column("expected")
    for column in columns:
        table.add_column(_short(column), justify="right")
    for expected, row in confusion.items():
        allowed = expected.split("|")
        cells = [_cell(row.get(column, 0), column in allowed) for column in columns]
        table.add_row("|".join(_short(label) for label in allowed), *cells)
    return table


# Refusal reasons are long; the confusion table uses these names (its caption spells them out).
SHORT_REASONS: Mapping[str, str] = {
    "NO_CITABLE_RULES": "NO_RULES",
    "OUT_OF_SCOPE": "SCOPE",
    "MISSING_CLIENT_DATA": "CLIENT_DATA",
    "UNRESOLVED_CONFLICT": "CONFLICT",
    "NEEDS_CLARIFICATION": "CLARIFY",
    "UNSUPPORTED_JURISDICTION": "JURISDICTION",
}


def _short(label: str) -> str:
    return SHORT_REASONS.get(label, label)


def _cell(count: int, agrees: bool) -> str:
    if not count:
        return "·"
    return f"[green]{count}[/green]" if agrees else f"[yellow]{count}[/yellow]"


def _misses_table(misses: Sequence[Mapping[str, Any]]) -> Table:
    table = Table(title=f"Misses ({len(misses)})", title_justify="left", show_lines=True)
    for column in ("id", "query", "verdict", "expected", "actual"):
        table.add_column(column, overflow="fold", no_wrap=column == "verdict")
    for miss in misses:
        verdict = miss["verdict"]
        query = miss["query"] + (f" (as of {miss['as_of']})" if miss["as_of"] else "")
        table.add_row(
            escape(miss["id"]),
            escape(query),
            f"[red]{verdict}[/red]" if verdict in ("wrong_value", "off_target") else verdict,
            escape(_expected_text(miss["expected"])),
            escape(_actual_text(miss["actual"])),
        )
    return table


def _expected_text(expected: Mapping[str, Any]) -> str:
    if expected["kind"] == "ANSWER":
        pairs = expected["answers"] or [[expected["concept"], "(rows under conditions)"]]
        text = "ANSWER " + "; ".join(f"{concept} = {value}" for concept, value in pairs)
        if expected["obligation"]:
            text += f" [{expected['obligation']}]"
        return text + (" (conditional)" if expected["conditional"] else "")
    topic = f" [{expected['topic']}]" if expected["topic"] else ""
    return f"REFUSAL {'|'.join(expected['refusal_reasons'])}{topic}"


def _actual_text(actual: Mapping[str, Any]) -> str:
    parts = [actual["kind"]]
    if actual["refusal_reason"]:
        parts.append(actual["refusal_reason"])
    if actual["topic"]:
        parts.append(f"[{actual['topic']}]")
    if actual["concept"] or actual["rule"]:
        parts.append(f"{actual['concept'] or actual['rule']} = {actual['value']}")
    if len(actual["cited"]) > 1:
        parts.append("+ " + "; ".join(f"{c} = {v}" for c, v in actual["cited"][1:]))
    if actual["obligation"]:
        parts.append(f"[{actual['obligation']}]")
    text = " ".join(parts)
    return text + "".join(f"\n! {error}" for error in actual["errors"][:3])


def _percent(share: float | None) -> str:
    return "n/a" if share is None else f"{share * 100:.1f} %"

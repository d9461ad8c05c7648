"""What the maintainer's `navod kb` commands print: one screen of summary by default, every
quote or sentence only with --verbose. Nothing here prints a raw Python value."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from engine.errors import PackProblem
from engine.store.knowledge.coverage import Coverage
from engine.store.knowledge.packs import PackContents, PackDiff
from engine.store.knowledge.repository import record_key
from engine.text.normalize import normalise_quote

KINDS = ("source", "evidence", "concept", "rule", "faq", "topic", "resolution")


def print_pack_summary(console: Console, contents: PackContents) -> None:
    """One row per pack: how many records of each kind it holds (rules: published of all)."""
    held: Counter[tuple[str, str]] = Counter()
    for key, pack in contents.owners.items():
        held[(pack, key.split(":", 1)[0])] += 1
    published = Counter(
        contents.owners.get(record_key("rule", rule.id), "")
        for rule in contents.rules
        if rule.status == "PUBLISHED"
    )
    table = Table(
        "pack", *KINDS[:3], "rules (published)", "faq", "topics", "resolutions", title="packs"
    )
    for pack in sorted({pack for pack, _ in held}):
        rules = f"{held[(pack, 'rule')]} ({published[pack]})"
        table.add_row(
            pack,
            *(str(held[(pack, kind)]) for kind in KINDS[:3]),
            rules,
            *(str(held[(pack, kind)]) for kind in ("faq", "topic", "resolution")),
        )
    console.print(table)


def print_problems(console: Console, problems: Sequence[PackProblem]) -> None:
    """Why packs were refused: each problem with its file and record, then the count."""
    table = Table("file", "record", "problem", title="refused", title_style="red")
    for problem in problems:
        table.add_row(problem.file, problem.record, problem.problem)
    console.print(table)
    files = len({problem.file for problem in problems})
    console.print(
        f"[red]refused[/red]: {len(problems)} problem(s) in {files} file(s); nothing was written",
        highlight=False,
    )


def print_diff_summary(console: Console, diff: PackDiff) -> None:
    """What a load did (or would do), by kind of record."""
    table = Table("records", "added", "changed", "removed")
    counted = {
        label: Counter(key.split(":", 1)[0] for key in keys)
        for label, keys in (
            ("added", diff.added),
            ("changed", diff.changed),
            ("removed", diff.removed),
        )
    }
    for kind in KINDS:
        table.add_row(kind, *(str(counted[label][kind]) for label in counted))
    console.print(table)


def print_quote_checks(console: Console, contents: PackContents) -> None:
    """One row per pointer of every PUBLISHED rule: is its quote in the evidence it names?"""
    evidence = {e.id: e for e in contents.evidence}
    table = Table("rule", "value", "evidence", "quote", "found", title="published rules")
    for rule in sorted(contents.rules, key=lambda r: r.id):
        if rule.status != "PUBLISHED":
            continue
        for pointer in rule.pointers:
            source = evidence.get(pointer.evidence_id)
            found = source is not None and normalise_quote(pointer.quote) in normalise_quote(
                source.text
            )
            table.add_row(
                rule.id,
                rule.value,
                f"{source.key} ({source.locator})" if source else pointer.evidence_id,
                pointer.quote if len(pointer.quote) <= 60 else pointer.quote[:59] + "…",
                "[green]yes[/green]" if found else "[red]NO[/red]",
            )
    console.print(table)


def print_coverage(
    console: Console, report: Coverage, contents: PackContents, *, verbose: bool
) -> None:
    """Per pack (and with --verbose per evidence text and sentence): cited, explained, open."""
    pack_of = {
        e.key: contents.owners.get(record_key("evidence", e.id), "") for e in contents.evidence
    }
    rows: dict[str, Counter[str]] = {}
    for sentence in report.sentences:
        for name in (pack_of.get(sentence.evidence, ""), f"  {sentence.evidence}"):
            rows.setdefault(name, Counter())[_state(sentence.cited_by, sentence.not_a_fact)] += 1
    table = Table(
        "pack" if not verbose else "pack / evidence",
        "sentences",
        "cited",
        "not a fact",
        "open",
        "covered",
        title="figure-bearing evidence sentences",
    )
    packs = sorted(name for name in rows if not name.startswith(" "))
    for pack in packs:
        table.add_row(pack, *_counts(rows[pack]), style="bold" if verbose else None)
        if verbose:
            for key, owner in sorted(pack_of.items()):
                if owner == pack and f"  {key}" in rows:
                    table.add_row(f"  {key}", *_counts(rows[f"  {key}"]))
    console.print(table)
    if verbose:
        for sentence in report.sentences:
            if not sentence.cited_by:
                why = f"not a fact: {sentence.not_a_fact}" if sentence.not_a_fact else "open"
                console.print(
                    f"[dim]{sentence.evidence}[/dim] ({why}): {sentence.text}", highlight=False
                )
    console.print(
        f"of {len(report.sentences)} figure-bearing sentences, {report.covered} are cited by a "
        f"published rule and {report.explained} are no fact to answer ({report.share:.1%})",
        highlight=False,
    )


def _state(cited_by: Sequence[str], not_a_fact: str) -> str:
    return "cited" if cited_by else "explained" if not_a_fact else "open"


def _counts(counts: Counter[str]) -> tuple[str, ...]:
    total = sum(counts.values())
    done = counts["cited"] + counts["explained"]
    share = f"{done / total:.0%}" if total else "—"
    return (str(total), str(counts["cited"]), str(counts["explained"]), str(counts["open"]), share)

"""The `navod` command line: ask, chat, kb load|verify|diff|coverage|conflicts|gaps|list,
dossiers prune, keys create|list|revoke, validate, serve, bench, eval."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import date
from pathlib import Path
from typing import Annotated, Any, TypeVar

import orjson
import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn

from api.chat_client import chat
from api.cli_conflicts import kb_conflicts
from api.cli_dossiers import dossiers
from api.cli_gaps import kb_gaps
from api.cli_keys import keys as keys_cli
from api.http_client import ask_server
from api.kb_render import (
    print_coverage,
    print_diff_summary,
    print_pack_summary,
    print_problems,
    print_quote_checks,
)
from api.limits.server import bounded_server_options
from api.logs import log_config
from api.monitor import monitor
from api.render import print_response
from api.settings import get_settings
from engine.contract import ChatRequest
from engine.errors import NavodError, PackRefused
from engine.service import AnswerService
from engine.store.bootstrap import open_store
from engine.store.db import make_engine, migrate
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.packs import diff_packs, load_packs, pack_paths, verify_packs
from engine.store.knowledge.sql import SqlRepository
from engine.stream import parse_ndjson, validate_stream
from engine.validation import validate_response

T = TypeVar("T")
WORKER_PING_SECONDS = 60

app = typer.Typer(help="Navod: regulatory answers with verified citations.", no_args_is_help=True)
kb = typer.Typer(help="Knowledge packs: load, verify, list.", no_args_is_help=True)
kb.command("gaps")(kb_gaps)
kb.command("conflicts")(kb_conflicts)
app.add_typer(kb, name="kb")
app.add_typer(dossiers, name="dossiers")
app.add_typer(keys_cli, name="keys")
app.add_typer(monitor, name="monitor")
app.command()(chat)
console = Console()
errors = Console(stderr=True)


@app.command()
def ask(
    question: str,
    as_of: Annotated[str | None, typer.Option("--as-of", help="YYYY-MM-DD")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the AssistantResponse")] = False,
    explain: Annotated[
        bool, typer.Option("--explain", help="Show what each stage decided")
    ] = False,
    surface: Annotated[str, typer.Option(help="MARKETING or APP")] = "MARKETING",
    language: Annotated[str | None, typer.Option(help="hr, nl or en")] = None,
    session: Annotated[
        str | None, typer.Option("--session", help="Continue this conversation (dos_…)")
    ] = None,
    client_context: Annotated[
        list[str] | None,
        typer.Option("--client-context", help="KEY=VALUE, repeatable (APP surface)"),
    ] = None,
    url: Annotated[
        str | None, typer.Option(help="Ask a running server (e.g. http://127.0.0.1:8000)")
    ] = None,
    key: Annotated[
        str | None,
        typer.Option(help="API key secret for --url (default: NAVOD_API_KEY; none: anonymous)"),
    ] = None,
) -> None:
    """Ask one question and print the answer with its citation, and the conversation's id."""
    payload: dict[str, Any] = {"query": question, "surface": surface, "explain": explain}
    if as_of:
        payload["asOfDate"] = _date(as_of)
    if language:
        payload["language"] = language
    if session:
        payload["sessionId"] = session
    if client_context:
        payload["clientContext"] = _context(client_context)
    request = _request(payload)
    if url:
        response = _guard(lambda: ask_server(url, request, key))
    else:
        with _stores() as service:
            response = _guard(lambda: service.answer(request))
    if as_json:
        _print_json(response)
    else:
        print_response(console, response)
        if response.get("sessionId"):
            console.print(f"[dim]session {response['sessionId']}[/dim]")


_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]+")


def _context(pairs: list[str]) -> dict[str, Any]:
    """KEY=VALUE pairs as clientContext: whole numbers as integers, decimals (45000.50) as
    numbers, true/false as booleans; the request's model then checks each fact's type and range."""
    found: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            errors.print(f"[red]--client-context[/red]: '{pair}' is not KEY=VALUE")
            raise typer.Exit(2)
        text = value.strip()
        found[key.strip()] = (
            int(text)
            if text.lstrip("-").isdigit()
            else float(text)
            if _DECIMAL.fullmatch(text)
            else {"true": True, "false": False}.get(text.lower(), text)
        )
    return found


@kb.command("load")
def kb_load(
    packs: Annotated[list[str] | None, typer.Argument()] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON")] = False,
) -> None:
    """Load packs (all bundled ones by default) in one transaction; the store then holds
    exactly what they hold."""
    url = get_settings().database_url
    _guard(lambda: migrate(url))
    engine = make_engine(url)
    paths = _guard(lambda: pack_paths(packs or []))
    try:
        repository = SqlRepository(engine)
        diff = _guard(lambda: diff_packs(repository, paths))
        if as_json:  # machine-readable: the JSON alone, no progress lines
            version = _guard(lambda: load_packs(repository, paths))
        else:
            with Progress(SpinnerColumn(), TextColumn("{task.description}"), console=errors) as bar:
                task = bar.add_task("loading", total=3)

                def step(message: str) -> None:
                    bar.update(task, advance=1, description=message)

                version = _guard(lambda: load_packs(repository, paths, step))
        counts = repository.counts()
    finally:
        engine.dispose()
    names = [path.name for path in paths]
    if as_json:
        body = {"version": version, "packs": names, **asdict(diff), "counts": counts}
        _print_json(body)
        return
    print_diff_summary(console, diff)
    console.print(
        f"[green]loaded[/green] {', '.join(names)} as knowledge base version {version}: "
        f"{len(diff.added)} added, {len(diff.changed)} changed, {len(diff.removed)} removed",
        highlight=False,
    )
    console.print(_counted(counts), highlight=False)


def _counted(counts: dict[str, int]) -> str:
    return "holds " + ", ".join(f"{n} {name}" for name, n in counts.items())


@kb.command("diff")
def kb_diff(
    packs: Annotated[list[str] | None, typer.Argument()] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the diff as JSON")] = False,
) -> None:
    """Show what loading packs would add, change and remove; writes nothing."""
    with _store() as repository:
        diff = _guard(lambda: diff_packs(repository, pack_paths(packs or [])))
    if as_json:
        _print_json(asdict(diff))
        return
    for label, colour, keys in (
        ("add", "green", diff.added),
        ("change", "yellow", diff.changed),
        ("remove", "red", diff.removed),
    ):
        for key in keys:
            console.print(f"[{colour}]{label:<6}[/{colour}] {key}", highlight=False)
    console.print(
        f"{len(diff.added)} to add, {len(diff.changed)} to change, {len(diff.removed)} to remove"
    )


@kb.command("coverage")
def kb_coverage(
    packs: Annotated[list[str] | None, typer.Argument()] = None,
    verbose: Annotated[bool, typer.Option("--verbose", help="List every sentence")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON")] = False,
) -> None:
    """How many figure-bearing evidence sentences a published rule cites, per evidence text."""
    from engine.store.knowledge.coverage import coverage  # only for this report

    contents = _guard(lambda: verify_packs(pack_paths(packs or [])))
    report = coverage(contents)
    if as_json:
        by_evidence: dict[str, list[int]] = {}
        for sentence in report.sentences:
            counts = by_evidence.setdefault(sentence.evidence, [0, 0])
            counts[0] += bool(sentence.cited_by or sentence.not_a_fact)
            counts[1] += 1
        body = {
            "sentences": len(report.sentences),
            "covered": report.covered,
            "explained": report.explained,
            "share": round(report.share, 4),
            "evidence": {
                key: {"covered": c, "sentences": n} for key, (c, n) in by_evidence.items()
            },
            "uncovered": [
                {"evidence": s.evidence, "sentence": s.text}
                for s in report.sentences
                if not s.cited_by and not s.not_a_fact
            ],
        }
        _print_json(body)
        return
    print_coverage(console, report, contents, verbose=verbose)


@kb.command("verify")
def kb_verify(
    packs: Annotated[list[str] | None, typer.Argument()] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="Only the summary line")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Also list every published quote as checked")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
) -> None:
    """Check packs without writing anything: a summary per pack, every problem with its file
    and record; each published rule's quotes with --verbose."""
    if as_json:
        _verify_as_json(packs or [])
        return
    contents = _guard(lambda: verify_packs(pack_paths(packs or [])))
    if verbose:
        print_quote_checks(console, contents)
    if not quiet:
        print_pack_summary(console, contents)
    console.print(
        f"[green]ok[/green]: {len(contents.sources)} sources, {len(contents.evidence)} evidence, "
        f"{len(contents.concepts)} concepts, {len(contents.rules)} rules, "
        f"{len(contents.topics)} planning topics"
    )


def _verify_as_json(packs: list[str]) -> None:
    """`kb verify --json`: the counts, or every problem with its file and record (exit 1)."""
    try:
        contents = verify_packs(pack_paths(packs))
    except PackRefused as refused:
        problems = [asdict(problem) for problem in refused.problems]
        body: dict[str, Any] = {"ok": False, "problems": problems}
        _print_json(body)
        raise typer.Exit(1) from refused
    except NavodError as error:
        body = {"ok": False, "problems": [{"file": "", "record": "", "problem": str(error)}]}
        _print_json(body)
        raise typer.Exit(1) from error
    body = {
        "ok": True,
        "sources": len(contents.sources),
        "evidence": len(contents.evidence),
        "concepts": len(contents.concepts),
        "rules": len(contents.rules),
        "faqs": len(contents.faqs),
        "topics": len(contents.topics),
    }
    _print_json(body)


@kb.command("list")
def kb_list() -> None:
    """List the concepts in the knowledge base with their rules."""
    with _store() as repository:
        knowledge = repository.load_knowledge()
    console.print(f"knowledge base version {knowledge.version}")
    for concept in knowledge.concepts:
        rules = [r for r in knowledge.rules if r.concept == concept.slug]
        console.print(f"[bold]{concept.slug}[/bold] ({concept.jurisdiction}, {concept.domain})")
        for rule in rules:
            until = rule.effective_until.isoformat() if rule.effective_until else "open"
            console.print(
                f"  {rule.id}: {rule.value} {rule.unit} "
                f"[{rule.effective_from.isoformat()} .. {until}) {rule.status}"
            )


@app.command()
def validate(source: Annotated[str, typer.Argument(help="A JSON or NDJSON file, or -")]) -> None:
    """Validate an AssistantResponse (JSON) or an NDJSON stream against the contract."""
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    try:
        document = orjson.loads(text)  # one JSON document (pretty-printed or not) …
    except orjson.JSONDecodeError:
        document = None
    try:
        lines = [] if isinstance(document, dict) else parse_ndjson(text)  # … or NDJSON lines
    except ValueError as exc:
        errors.print(f"[red]invalid[/red]: {exc}")
        raise typer.Exit(1) from exc
    result = validate_response(document) if isinstance(document, dict) else validate_stream(lines)
    for warning in result.warnings:
        errors.print(f"[yellow]warning[/yellow]: {warning}")
    if not result.valid:
        for error in result.errors:
            errors.print(f"[red]error[/red]: {error}")
        raise typer.Exit(1)
    console.print("[green]valid[/green]")


@app.command()
def serve(
    host: Annotated[str | None, typer.Option()] = None,
    port: Annotated[int | None, typer.Option()] = None,
    workers: Annotated[
        int, typer.Option(min=1, help="Worker processes (more than 1 needs PostgreSQL)")
    ] = 1,
) -> None:
    """Serve the API (migrating and loading the bundled packs on first start)."""
    import uvicorn

    settings = get_settings()
    if workers > 1 and settings.database_url.startswith("sqlite"):
        errors.print(
            f"[red]--workers {workers}[/red]: SQLite takes one writer at a time, so more worker "
            "processes would only queue on its lock; set DATABASE_URL=postgresql://… or serve "
            "with --workers 1"
        )
        raise typer.Exit(2)
    # Migrate and load the bundled packs once, before any worker starts; workers only attach.
    engine, _repository = _guard(lambda: open_store(settings.database_url))
    engine.dispose()  # the workers are other processes with their own connections
    if host:  # the workers' apps answer to the bound address (NAVOD_ALLOWED_HOSTS' default)
        os.environ["HOST"] = host
    uvicorn.run(
        "api.app:app_for_workers",
        factory=True,
        host=host or settings.host,
        port=port or settings.port,
        workers=workers,
        log_level=settings.log_level,
        # No query string and no conversation id in a log line; refusals thinned out (api/logs.py).
        log_config=log_config(),
        # A worker must answer the supervisor's ping within this many seconds or be replaced;
        # uvicorn's 5 s killed workers still starting (importing, compiling the snapshot) on a
        # busy 2-core machine, over and over.
        timeout_worker_healthcheck=WORKER_PING_SECONDS,
        **bounded_server_options(settings),
    )


@app.command()
def bench(
    questions: Annotated[int, typer.Option(min=1, help="Questions to time")] = 10_000,
    concepts: Annotated[int, typer.Option(min=1, help="Generated concepts")] = 10_000,
    rules_per_concept: Annotated[int, typer.Option(min=1, help="Dated rules per concept")] = 10,
    seed: Annotated[int, typer.Option(help="Seed of the generated data")] = 1,
    http: Annotated[bool, typer.Option("--http", help="Also drive a real server")] = False,
    http_seconds: Annotated[float, typer.Option(min=0.5, help="Seconds per HTTP route")] = 5.0,
    conversations: Annotated[
        bool,
        typer.Option(
            "--conversations",
            help="With --http: only the scale-out run, `navod serve --workers N` on DATABASE_URL, "
            "stateless questions and conversation turns",
        ),
    ] = False,
    workers: Annotated[int, typer.Option(min=1, help="Server workers (--conversations)")] = 2,
    clients: Annotated[int, typer.Option(min=1, help="Concurrent clients (--conversations)")] = 60,
) -> None:
    """Measure answer latency, snapshot build and memory; the last stdout line is JSON."""
    if conversations:
        if not http:
            errors.print("[red]--conversations[/red] drives a server: add --http")
            raise typer.Exit(2)
        from measure.bench_scale import ScaleOptions, measure_scale

        url = get_settings().database_url
        if workers > 1 and url.startswith("sqlite"):
            errors.print(f"[red]--workers {workers}[/red] needs DATABASE_URL=postgresql://…")
            raise typer.Exit(2)
        scale = ScaleOptions(url, workers, clients, http_seconds)
        report = measure_scale(scale, lambda message: errors.print(message))
        sys.stdout.write(orjson.dumps(report).decode() + "\n")
        return
    from measure.bench import BenchOptions, run_bench  # heavy: only when benchmarking

    options = BenchOptions(questions, concepts, rules_per_concept, seed, http, http_seconds)
    report = run_bench(options, lambda message: errors.print(message))
    sys.stdout.write(orjson.dumps(report).decode() + "\n")


@app.command("eval")
def evaluate(
    gold: Annotated[
        Path | None, typer.Option(help="A gold .yaml file or folder (default fixtures/gold)")
    ] = None,
    url: Annotated[
        str | None, typer.Option(help="Ask a running server (e.g. http://127.0.0.1:8000)")
    ] = None,
    min_accuracy: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Share of answerable questions to get right")
    ] = 0.90,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON")] = False,
    conversation: Annotated[
        bool,
        typer.Option(
            help="In process: ask each question as the first message of a conversation "
            "(as /chat without a sessionId does), not on its own"
        ),
    ] = False,
) -> None:
    """Run the gold questions; exit 1 on any wrong value or too few answerable ones right.
    A refused answerable question is asked again through each related question it offered
    (in its conversation): the report counts those *recovered in one click*."""
    from measure.eval import evaluate as run_eval  # only when evaluating
    from measure.eval_report import build_report, exit_code, print_report

    files, outcomes = _guard(lambda: run_eval(gold, url, conversation))
    mode = url or ("in-process, conversations" if conversation else "in-process")
    report = build_report(outcomes, files, mode, min_accuracy)
    if as_json:
        _print_json(report)
    else:
        print_report(console, report)
    raise typer.Exit(exit_code(report))


@contextmanager
def _store() -> Iterator[SqlRepository]:
    """The migrated store (bundled packs loaded on first use), closed when the command ends."""
    engine, repository = _guard(lambda: open_store(get_settings().database_url))
    try:
        yield repository
    finally:
        engine.dispose()


@contextmanager
def _stores() -> Iterator[AnswerService]:
    """A service over the migrated store that keeps conversations, closed when done."""
    engine, repository = _guard(lambda: open_store(get_settings().database_url))
    try:
        yield AnswerService(repository, guards=load_guards(), dossiers=SqlDossierRepository(engine))
    finally:
        engine.dispose()


def _request(payload: dict[str, Any]) -> ChatRequest:
    try:
        return ChatRequest.model_validate(payload)
    except ValueError as exc:
        errors.print(f"[red]invalid request[/red]: {exc}")
        raise typer.Exit(2) from exc


def _date(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError as exc:
        errors.print(f"[red]--as-of[/red]: '{text}' is not a date; use YYYY-MM-DD")
        raise typer.Exit(2) from exc


def _print_json(body: object) -> None:
    """Machine-readable output: indented JSON on stdout, nothing else."""
    sys.stdout.write(orjson.dumps(body, option=orjson.OPT_INDENT_2).decode() + "\n")


def _guard(action: Callable[[], T]) -> T:
    try:
        return action()
    except PackRefused as refused:
        print_problems(errors, refused.problems)
        raise typer.Exit(1) from refused
    except NavodError as exc:
        errors.print(f"[red]error[/red]: {exc}")
        raise typer.Exit(1) from exc


def main() -> None:
    app()


if __name__ == "__main__":
    main()

"""`navod eval`: run the gold questions (fixtures/gold/*.yaml) and judge every response.

Each gold entry names a question and what must come back: an ANSWER on a concept with a value,
or a REFUSAL with one of the allowed reasons. Questions run in process (the bundled packs in a
memory store, a fixed clock) or against a server (`--url`). The worst failure is a wrong value:
an answer on the expected concept stating another value, or any answer stating a value where a
refusal was expected. The report (api/eval_report.py) turns the outcomes into numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Final, Literal, Protocol
from urllib.parse import quote

import httpx
import yaml

from engine.contract import REFUSAL_REASONS, ChatRequest
from engine.errors import NavodError
from engine.service import AnswerService, quote_checker
from engine.store.db import REPO_ROOT
from engine.store.guardrail_data import load_guards
from engine.store.memory import MemoryRepository
from engine.store.packs import display_path, load_packs, pack_paths
from engine.types import LANGUAGES, Language, Surface, Topic
from engine.validation import ValidationResult, validate_response

GOLD_DIR: Final = REPO_ROOT / "fixtures" / "gold"
TODAY: Final = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)  # the gold set's fixed "now"
HTTP_TIMEOUT: Final = httpx.Timeout(10.0, connect=5.0)
NO_RESPONSE: Final = "NO_RESPONSE"  # the kind recorded when the server sent no usable response

Verdict = Literal[
    "correct",  # what the entry expects
    "wrong_value",  # an answer stating a value the entry does not allow: fails CI on its own
    "wrong_concept",  # answered, but about another concept
    "refused",  # refused where an answer was expected
    "answered",  # answered (without a citable value) where a refusal was expected
    "wrong_reason",  # refused for a reason the entry does not allow
    "wrong_topic",  # refused for an allowed reason but under another topic
    "invalid",  # the response fails validate_response
    "error",  # no response at all (HTTP failure)
]

_ENTRY_KEYS: Final = frozenset(
    {"id", "query", "category", "language", "as_of", "surface", "client_context", "expect", "note"}
)
_EXPECT_KEYS: Final = frozenset(
    {"kind", "refusal_reason", "refusal_reason_any", "topic", "concept", "value"}
)
_TOPICS: Final = ("REGULATORY", "PRODUCT", "SUPPORT", "OFFTOPIC")


class GoldError(NavodError):
    """A gold file cannot be used: the message names the file, the entry id and the problem."""


@dataclass(frozen=True, slots=True)
class Expectation:
    kind: Literal["ANSWER", "REFUSAL"]
    reasons: tuple[str, ...] = ()  # the allowed refusal reasons; empty for ANSWER
    topic: Topic | None = None
    concept: str | None = None
    value: str | None = None


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    id: str
    file: str
    query: str
    category: str
    language: Language
    expect: Expectation
    as_of: date | None = None
    surface: Surface = "MARKETING"
    client_context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Observed:
    """What came back, reduced to what is judged; concept and value come from the cited rule."""

    kind: str
    reason: str | None = None
    topic: str | None = None
    rule_id: str | None = None
    concept: str | None = None
    value: str | None = None
    errors: tuple[str, ...] = ()  # validation errors, or the HTTP failure


@dataclass(frozen=True, slots=True)
class Outcome:
    question: GoldQuestion
    observed: Observed
    verdict: Verdict


class Reply(Protocol):
    @property
    def status_code(self) -> int: ...

    @property
    def text(self) -> str: ...

    def json(self) -> Any: ...


class HttpClient(Protocol):
    """What http_answerer needs: an httpx.Client, or a test client built on one."""

    @property
    def base_url(self) -> Any: ...

    def get(self, url: str) -> Reply: ...

    def post(self, url: str, *, json: Any) -> Reply: ...


Answerer = Callable[[GoldQuestion], Observed]
RuleFacts = Callable[[str], tuple[str, str] | None]  # rule id -> (concept, value)


# ---- Gold files


def gold_files(path: Path | None = None) -> list[Path]:
    """The YAML files of the gold set: `path` itself, every *.yaml in it, or fixtures/gold."""
    target = path or GOLD_DIR
    if target.is_file():
        return [target]
    files = sorted(target.glob("*.yaml")) if target.is_dir() else []
    if not files:
        raise GoldError(f"{target}: no gold files found; pass a .yaml file or a folder of them")
    return files


def load_gold(path: Path | None = None) -> tuple[GoldQuestion, ...]:
    """Every entry of every gold file, checked; ids are unique across the whole set."""
    found: list[GoldQuestion] = []
    seen: dict[str, str] = {}
    for file in gold_files(path):
        name = display_path(file)
        try:
            entries = yaml.safe_load(file.read_text(encoding="utf-8")) or []
        except yaml.YAMLError as exc:
            raise GoldError(f"{name}: not valid YAML: {exc}") from exc
        if not isinstance(entries, list):
            raise GoldError(f"{name}: must hold a list of entries (- id: …)")
        for position, raw in enumerate(entries, start=1):
            question = parse_entry(raw, name, position)
            if question.id in seen:
                raise GoldError(f"{name}: {question.id}: id already used in {seen[question.id]}")
            seen[question.id] = name
            found.append(question)
    return tuple(found)


def parse_entry(raw: object, file: str, position: int = 0) -> GoldQuestion:
    """One gold entry as a GoldQuestion, or a GoldError naming the file, id and problem."""
    where = f"{file}: entry {position}"
    if not isinstance(raw, Mapping):
        raise GoldError(f"{where}: must be a mapping with id, query, category, language, expect")
    entry_id = raw.get("id")
    if not isinstance(entry_id, str) or not entry_id.strip():
        raise GoldError(f"{where}: needs an `id` (a non-empty string)")

    def fail(problem: str) -> GoldError:
        return GoldError(f"{file}: {entry_id}: {problem}")

    _no_unknown_keys(raw, _ENTRY_KEYS, "", fail)
    query, category = raw.get("query"), raw.get("category")
    for name, text in (("query", query), ("category", category)):
        if not isinstance(text, str) or not text.strip():
            raise fail(f"`{name}` must be a non-empty string")
    language = raw.get("language")
    if language not in LANGUAGES:
        raise fail(f"`language` must be one of {', '.join(LANGUAGES)}, not {language!r}")
    surface = raw.get("surface", "MARKETING")
    if surface not in ("MARKETING", "APP"):
        raise fail(f"`surface` must be MARKETING or APP, not {surface!r}")
    context = raw.get("client_context") or {}
    if not isinstance(context, Mapping):
        raise fail("`client_context` must be a mapping")
    if context and surface != "APP":
        raise fail("`client_context` needs `surface: APP` (MARKETING carries no client data)")
    return GoldQuestion(
        id=entry_id,
        file=file,
        query=str(query),
        category=str(category),
        language=language,
        expect=_expectation(raw.get("expect"), fail),
        as_of=_as_of(raw.get("as_of"), fail),
        surface=surface,
        client_context=dict(context),
    )


def _expectation(raw: object, fail: Callable[[str], GoldError]) -> Expectation:
    if not isinstance(raw, Mapping):
        raise fail("`expect` must be a mapping with at least `kind`")
    _no_unknown_keys(raw, _EXPECT_KEYS, "expect.", fail)
    kind, topic = raw.get("kind"), raw.get("topic")
    if topic is not None and topic not in _TOPICS:
        raise fail(f"`expect.topic` must be one of {', '.join(_TOPICS)}, not {topic!r}")
    single, many = raw.get("refusal_reason"), raw.get("refusal_reason_any")
    concept, value = raw.get("concept"), raw.get("value")
    if kind == "ANSWER":
        if single is not None or many is not None:
            raise fail("an expected ANSWER has no `refusal_reason`/`refusal_reason_any`")
        if not isinstance(concept, str) or not concept:
            raise fail("an expected ANSWER needs `expect.concept` (a concept slug)")
        if isinstance(value, bool) or not isinstance(value, str | int | float) or value == "":
            raise fail("an expected ANSWER needs `expect.value` (the rule value, as a string)")
        return Expectation("ANSWER", (), topic, concept, str(value))
    if kind != "REFUSAL":
        raise fail(f"`expect.kind` must be ANSWER or REFUSAL, not {kind!r}")
    if (single is None) == (many is None):
        raise fail("an expected REFUSAL needs exactly one of `refusal_reason`/`refusal_reason_any`")
    reasons = (single,) if many is None else many
    if not isinstance(reasons, list | tuple) or not reasons:
        raise fail("`expect.refusal_reason_any` must be a non-empty list of reasons")
    if unknown := [reason for reason in reasons if reason not in REFUSAL_REASONS]:
        raise fail(f"unknown refusal reason {unknown[0]!r}; use {', '.join(REFUSAL_REASONS)}")
    if value is not None:
        raise fail("an expected REFUSAL states no `expect.value`")
    if concept is not None and not isinstance(concept, str):
        raise fail("`expect.concept` must be a concept slug")
    return Expectation("REFUSAL", tuple(reasons), topic, concept, None)


def _as_of(raw: object, fail: Callable[[str], GoldError]) -> date | None:
    if raw is None or (isinstance(raw, date) and not isinstance(raw, datetime)):
        return raw
    try:
        return date.fromisoformat(str(raw))
    except ValueError as exc:
        raise fail(f"`as_of` must be a date (YYYY-MM-DD), not {raw!r}") from exc


def _no_unknown_keys(
    raw: Mapping[Any, Any], allowed: frozenset[str], prefix: str, fail: Callable[[str], GoldError]
) -> None:
    unknown = sorted(str(key) for key in raw if key not in allowed)
    if unknown:
        raise fail(f"unknown key(s) {', '.join(prefix + k for k in unknown)}")


# ---- Asking


def request_body(question: GoldQuestion) -> dict[str, Any]:
    """The chat request for a gold question (the wire field names)."""
    body: dict[str, Any] = {"query": question.query, "surface": question.surface}
    if question.as_of is not None:
        body["asOfDate"] = question.as_of.isoformat()
    if question.client_context:
        body["clientContext"] = dict(question.client_context)
    return body


def in_process_answerer(clock: datetime = TODAY) -> Answerer:
    """Answer through AnswerService over the bundled packs in a memory store, at a fixed clock."""
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    service = AnswerService(repository, clock=lambda: clock, guards=load_guards())

    def answer(question: GoldQuestion) -> Observed:
        response = service.answer(ChatRequest.model_validate(request_body(question)))
        snapshot = service.snapshot()

        def facts(rule_id: str) -> tuple[str, str] | None:
            rule = snapshot.rules.get(rule_id)
            return (rule.concept, rule.value) if rule else None

        return observe(response, facts, validate_response(response, quote_checker(snapshot)))

    return answer


def http_answerer(client: HttpClient) -> Answerer:
    """POST each question to the server; look each cited rule up once (GET /api/kb/rules/{id}).
    The server keeps its own clock: entries without `as_of` are answered for the server's today."""
    rules: dict[str, tuple[str, str] | None] = {}

    def facts(rule_id: str) -> tuple[str, str] | None:
        if rule_id not in rules:
            reply = client.get(f"/api/kb/rules/{quote(rule_id, safe='')}")
            body = reply.json() if reply.status_code == 200 else None
            concept, value = (body.get("concept"), body.get("value")) if body else (None, None)
            rules[rule_id] = (str(concept), str(value)) if concept and value is not None else None
        return rules[rule_id]

    def answer(question: GoldQuestion) -> Observed:
        try:
            reply = client.post("/api/assistant/chat", json=request_body(question))
            response = reply.json() if reply.status_code == 200 else None
            if not isinstance(response, Mapping):
                return Observed(
                    NO_RESPONSE, errors=(f"HTTP {reply.status_code}: {reply.text[:200]}",)
                )
            return observe(response, facts, validate_response(response))
        except httpx.ConnectError as exc:  # nothing to judge when the server is not there
            raise GoldError(f"cannot reach {client.base_url}: {exc}") from exc
        except (httpx.HTTPError, ValueError) as exc:
            return Observed(NO_RESPONSE, errors=(f"{type(exc).__name__}: {exc}",))

    return answer


def observe(response: Mapping[str, Any], facts: RuleFacts, validity: ValidationResult) -> Observed:
    """Reduce a response to the judged fields; the primary card id is "<rule_id>@<evidence_id>"."""
    citations = response.get("citations")
    primary = citations.get("primary") if isinstance(citations, Mapping) else None
    card_id = primary.get("id") if isinstance(primary, Mapping) else None
    rule_id = card_id.split("@", 1)[0] if isinstance(card_id, str) and card_id else None
    found = facts(rule_id) if rule_id else None
    return Observed(
        kind=str(response.get("kind")),
        reason=response.get("refusalReason"),
        topic=response.get("topic"),
        rule_id=rule_id,
        concept=found[0] if found else None,
        value=found[1] if found else None,
        errors=validity.errors,
    )


# ---- Judging


def judge(expect: Expectation, observed: Observed) -> Verdict:
    """The verdict on one response. A wrong value outranks everything, invalidity the rest."""
    if observed.kind == NO_RESPONSE:
        return "error"
    verdict = _judge_content(expect, observed)
    if verdict != "wrong_value" and observed.errors:
        return "invalid"
    return verdict


def _judge_content(expect: Expectation, observed: Observed) -> Verdict:
    if expect.kind == "ANSWER":
        if observed.kind != "ANSWER":
            return "refused"
        if observed.concept != expect.concept:
            return "wrong_concept"
        if observed.value is None or not same_value(observed.value, expect.value or ""):
            return "wrong_value"
    elif observed.kind == "ANSWER":
        return "wrong_value" if observed.value is not None else "answered"
    elif observed.reason not in expect.reasons:
        return "wrong_reason"
    if expect.topic is not None and observed.topic != expect.topic:
        return "wrong_topic"
    return "correct"


def same_value(actual: str, expected: str) -> bool:
    """Equal as numbers when both parse ("40000.00" == "40000"), else as trimmed strings."""
    left, right = _number(actual), _number(expected)
    if left is not None and right is not None:
        return left == right
    return actual.strip() == expected.strip()


def _number(text: str) -> Decimal | None:
    try:
        number = Decimal(text.strip())
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def run_gold(questions: Iterable[GoldQuestion], answer: Answerer) -> tuple[Outcome, ...]:
    """Ask every question and judge its response, in gold order."""
    outcomes = []
    for question in questions:
        observed = answer(question)
        outcomes.append(Outcome(question, observed, judge(question.expect, observed)))
    return tuple(outcomes)


def evaluate(
    gold: Path | None = None, url: str | None = None
) -> tuple[Sequence[Path], tuple[Outcome, ...]]:
    """Load the gold set and run it in process, or against the server at `url`."""
    files, questions = gold_files(gold), load_gold(gold)
    if url is None:
        return files, run_gold(questions, in_process_answerer())
    with httpx.Client(base_url=url.rstrip("/"), timeout=HTTP_TIMEOUT) as client:
        return files, run_gold(questions, http_answerer(client))

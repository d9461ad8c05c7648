"""The contract's quality gates: exact error strings, the citation matrix, every limit, enums,
quotes verified against evidence. Each case mutates a valid fixture in one place."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from engine.contract import (
    LIMITS,
    REFUSAL_REASONS,
    SCHEMA_VERSION,
    AssistantResponse,
    ChatRequest,
)
from engine.validation import validate_response

EVIDENCE = {
    "ev_law": "Članak 12. Stopa doprinosa za mirovinsko osiguranje iznosi 20 % od bruto plaće.",
    "ev_reg": "Doprinos se obračunava i uplaćuje istodobno s isplatom plaće.",
}
DELETE = object()


def quote_in_evidence(evidence_id: str, quote: str) -> bool:
    return quote in EVIDENCE.get(evidence_id, "")


def card(card_id: str, evidence_id: str, quote: str, authority: str = "LAW") -> dict[str, Any]:
    return {
        "id": card_id,
        "title": f"Zakon {card_id}",
        "authority": authority,
        "reference": "čl. 12.",
        "quote": quote,
        "url": f"https://narodne-novine.nn.hr/{card_id}",
        "effectiveFrom": "2024-01-01",
        "confidence": 0.95,
        "status": "ACTIVE",
        "evidenceId": evidence_id,
        "fetchedAt": "2024-11-02T08:30:00+00:00",
        "freshnessStatus": "fresh",
        "daysSinceFetch": 74,
    }


def primary() -> dict[str, Any]:
    return card("src_law", "ev_law", "Stopa doprinosa za mirovinsko osiguranje iznosi 20 %")


def supporting() -> dict[str, Any]:
    return card("src_reg", "ev_reg", "uplaćuje istodobno s isplatom plaće", "REGULATION")


def header(kind: str, topic: str = "REGULATORY") -> dict[str, Any]:
    return {
        "schemaVersion": "1.0.0",
        "requestId": "req_01",
        "traceId": "trace_01",
        "kind": kind,
        "topic": topic,
        "surface": "APP",
        "createdAt": "2025-01-15T10:00:00+00:00",
        "asOfDate": "2025-01-15",
    }


def answer() -> dict[str, Any]:
    """A full, valid REGULATORY ANSWER using every optional block."""
    return {
        **header("ANSWER"),
        "headline": "Doprinos za mirovinsko osiguranje je 20 %",
        "directAnswer": "Stopa doprinosa za mirovinsko osiguranje iznosi 20 % bruto plaće.",
        "keyDetails": ["Obračunava se na bruto plaću.", "Uplaćuje se uz isplatu plaće."],
        "nextStep": "Provjerite obračun na platnoj listi.",
        "confidence": {"level": "HIGH", "score": 0.92, "rationale": "Jedno pravilo, zakon."},
        "why": {"bullets": ["Zakon propisuje stopu od 20 %.", "Pravilo je na snazi od 2024."]},
        "howToApply": {"steps": ["Uzmite bruto plaću.", "Pomnožite s 0,20."]},
        "citations": {"primary": primary(), "supporting": [supporting()]},
        "clientContext": {
            "used": [{"label": "Bruto plaća", "value": 2000, "source": "payroll"}],
            "completeness": {"status": "COMPLETE", "score": 1.0},
            "computedResult": {"label": "Doprinos", "value": "400,00 EUR"},
        },
        "obligationContext": {"type": "OBLIGATION", "badge": {"text": "Obveza", "level": "high"}},
        "missingContext": {"ruleCount": 0, "message": "Ništa nije izostavljeno."},
        "relatedQuestions": ["Koliki je doprinos za zdravstveno?"],
        "disclaimer": {"short": "Informativno.", "expanded": "Nije pravni savjet."},
        "sessionId": "s_1",
        "language": "hr",
    }


def refusal(reason: str = "NO_CITABLE_RULES") -> dict[str, Any]:
    """A valid refusal; an UNRESOLVED_CONFLICT one cites both sides."""
    response = {
        **header("REFUSAL"),
        "headline": "Ne mogu odgovoriti s izvorom",
        "directAnswer": "",
        "refusalReason": reason,
        "refusal": {
            "message": "Nemam pravilo na snazi koje mogu citirati.",
            "relatedTopics": ["doprinosi"],
            "redirectOptions": [{"label": "Podrška", "href": "/support", "type": "SUPPORT"}],
        },
    }
    if reason == "UNRESOLVED_CONFLICT":
        response["citations"] = {"primary": primary(), "supporting": [supporting()]}
        response["conflict"] = {
            "status": "UNRESOLVED",
            "description": "Dva propisa navode različite rokove.",
            "sources": [primary(), supporting()],
        }
        response["refusal"]["conflictingSources"] = [primary(), supporting()]
    return response


def minimal(kind: str, topic: str, reason: str | None, cited: bool) -> dict[str, Any]:
    """Only the required fields for one matrix cell, with or without citations."""
    response = refusal(reason) if kind == "REFUSAL" and reason else header(kind, topic)
    response.update(topic=topic, headline="Naslov", directAnswer="" if kind != "ANSWER" else "Da.")
    response.pop("conflict", None)
    response.pop("citations", None)
    if kind == "ERROR":
        response["error"] = {"message": "Privremena greška.", "retriable": True}
    if cited:
        response["citations"] = {"primary": primary(), "supporting": [supporting()]}
    return response


def mutate(response: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A deep copy with `path` ("a.b.0.c") set to value, or removed when value is DELETE."""
    result = copy.deepcopy(response)
    *parents, last = path.split(".")
    target: Any = result
    for step in parents:
        target = target[int(step)] if step.isdigit() else target.setdefault(step, {})
    key: Any = int(last) if last.isdigit() else last
    if value is DELETE:
        del target[key]
    else:
        target[key] = value
    return result


def errors_of(response: dict[str, Any], **kwargs: Any) -> tuple[str, ...]:
    return validate_response(response, **kwargs).errors


@pytest.mark.parametrize(
    "response",
    [answer(), refusal(), *(refusal(r) for r in REFUSAL_REASONS)],
    ids=["answer", "refusal", *REFUSAL_REASONS],
)
def test_valid_fixtures_have_no_errors(response: dict[str, Any]) -> None:
    result = validate_response(response, quote_in_evidence)
    assert result.errors == ()
    assert result.valid is True


def test_missing_fields_are_reported_in_contract_order() -> None:
    response = {k: v for k, v in answer().items() if k not in header("ANSWER")}
    missing = ["schemaVersion", "requestId", "traceId", "kind", "topic", "surface"]
    assert list(errors_of(response)[:6]) == [f"Missing {name}" for name in missing]


@pytest.mark.parametrize(
    "field",
    ["schemaVersion", "requestId", "traceId", "kind", "topic", "surface", "createdAt", "asOfDate"],
)
@pytest.mark.parametrize("value", [DELETE, None, ""], ids=["absent", "null", "empty"])
def test_each_missing_required_field_is_its_own_single_error(field: str, value: Any) -> None:
    assert errors_of(mutate(answer(), field, value)) == (f"Missing {field}",)


@pytest.mark.parametrize("field", ["headline", "directAnswer"])
def test_missing_headline_or_direct_answer(field: str) -> None:
    assert errors_of(mutate(answer(), field, DELETE)) == (f"Missing {field}",)


# (path, length at the limit, error when one longer); strings of "x" * length.
TEXT_LIMITS = [
    ("headline", 120, "Headline exceeds 120 chars"),
    ("directAnswer", 240, "DirectAnswer exceeds 240 chars"),
    ("nextStep", 100, "NextStep exceeds 100 chars"),
    ("keyDetails.0", 120, "keyDetails[0] exceeds 120 chars"),
    ("why.bullets.1", 140, "why.bullets[1] exceeds 140 chars"),
    ("relatedQuestions.0", 80, "relatedQuestions[0] exceeds 80 chars"),
    ("citations.primary.quote", 240, "citations.primary.quote exceeds 240 chars"),
    ("conflict.sources.0.quote", 240, "conflict.sources[0].quote exceeds 240 chars"),
]


@pytest.mark.parametrize(("path", "limit", "error"), TEXT_LIMITS, ids=[t[0] for t in TEXT_LIMITS])
def test_text_limits_at_the_boundary(path: str, limit: int, error: str) -> None:
    base = answer() if not path.startswith("conflict") else refusal("UNRESOLVED_CONFLICT")
    assert errors_of(mutate(base, path, "x" * limit)) == ()
    assert errors_of(mutate(base, path, "x" * (limit + 1))) == (error,)


ITEM_LIMITS = [
    ("keyDetails", 3, "keyDetails exceeds 3 items"),
    ("why.bullets", 5, "why.bullets exceeds 5 items"),
    ("relatedQuestions", 4, "relatedQuestions exceeds 4 items"),
]


@pytest.mark.parametrize(("path", "limit", "error"), ITEM_LIMITS, ids=[t[0] for t in ITEM_LIMITS])
def test_item_limits_at_the_boundary(path: str, limit: int, error: str) -> None:
    assert errors_of(mutate(answer(), path, ["kratko"] * limit)) == ()
    assert errors_of(mutate(answer(), path, ["kratko"] * (limit + 1))) == (error,)


def test_why_total_is_700_chars() -> None:
    assert errors_of(mutate(answer(), "why.bullets", ["x" * 140] * 5)) == ()
    assert "why.bullets exceed 700 chars in total" in errors_of(
        mutate(answer(), "why.bullets", ["x" * 117] * 6)
    )


def test_citations_hold_at_most_four_cards_and_1200_quote_chars() -> None:
    three = [{**supporting(), "id": f"src_reg_{n}"} for n in range(3)]  # ids unique, as sent
    assert errors_of(mutate(answer(), "citations.supporting", three)) == ()
    many = [{**supporting(), "id": f"src_reg_{n}", "quote": "x" * 240} for n in range(5)]
    assert set(errors_of(mutate(answer(), "citations.supporting", many))) == {
        "citations exceed 4 cards",
        "citations quotes exceed 1200 chars in total",
    }


def test_whole_response_text_is_3500_chars() -> None:
    """Counted on a refusal whose only texts are headline, message and the disclaimer."""
    base = refusal()
    del base["refusal"]["relatedTopics"], base["refusal"]["redirectOptions"]
    base["disclaimer"] = {"short": "Informativno.", "expanded": ""}
    used = len(base["headline"]) + len(base["refusal"]["message"]) + len("Informativno.")
    fits = mutate(base, "disclaimer.expanded", "x" * (LIMITS.response_text - used))
    assert errors_of(fits) == ()
    too_long = mutate(base, "disclaimer.expanded", "x" * (LIMITS.response_text - used + 1))
    assert errors_of(too_long) == ("Response text exceeds 3500 chars",)


NOT_ALLOWED = "Citations not allowed for this response type"
MATRIX = [
    # kind, topic, refusalReason, cited, expected errors
    ("ANSWER", "REGULATORY", None, True, ()),
    ("ANSWER", "REGULATORY", None, False, ("REGULATORY ANSWER requires citations (fail-closed)",)),
    *(("ANSWER", t, None, True, (NOT_ALLOWED,)) for t in ("PRODUCT", "SUPPORT", "OFFTOPIC")),
    *(("ANSWER", t, None, False, ()) for t in ("PRODUCT", "SUPPORT", "OFFTOPIC")),
    ("REFUSAL", "REGULATORY", "UNRESOLVED_CONFLICT", True, ()),
    (
        "REFUSAL",
        "REGULATORY",
        "UNRESOLVED_CONFLICT",
        False,
        ("UNRESOLVED_CONFLICT REFUSAL requires citations (fail-closed)",),
    ),
    ("REFUSAL", "REGULATORY", "MISSING_CLIENT_DATA", True, ()),
    ("REFUSAL", "REGULATORY", "MISSING_CLIENT_DATA", False, ()),
    *(
        ("REFUSAL", "REGULATORY", r, True, (NOT_ALLOWED,))
        for r in REFUSAL_REASONS
        if r not in ("UNRESOLVED_CONFLICT", "MISSING_CLIENT_DATA")
    ),
    *(("REFUSAL", "OFFTOPIC", r, False, ()) for r in REFUSAL_REASONS if r != "UNRESOLVED_CONFLICT"),
    ("ERROR", "REGULATORY", None, True, (NOT_ALLOWED,)),
    ("ERROR", "REGULATORY", None, False, ()),
]


@pytest.mark.parametrize(
    ("kind", "topic", "reason", "cited", "expected"),
    MATRIX,
    ids=[f"{k}-{t}-{r}-{'cited' if c else 'uncited'}" for k, t, r, c, _ in MATRIX],
)
def test_citation_matrix(
    kind: str, topic: str, reason: str | None, cited: bool, expected: tuple[str, ...]
) -> None:
    assert errors_of(minimal(kind, topic, reason, cited), quote_in_evidence=quote_in_evidence) == (
        expected
    )


@pytest.mark.parametrize("field", ["url", "quote", "evidenceId", "fetchedAt"])
@pytest.mark.parametrize(
    "value", [DELETE, None, "", "  "], ids=["absent", "null", "empty", "blank"]
)
@pytest.mark.parametrize(
    ("base", "who"),
    [
        (answer, "REGULATORY ANSWER"),
        (lambda: refusal("UNRESOLVED_CONFLICT"), "UNRESOLVED_CONFLICT REFUSAL"),
    ],
    ids=["answer", "conflict-refusal"],
)
def test_primary_card_must_be_verifiable(base: Any, who: str, field: str, value: Any) -> None:
    response = mutate(base(), f"citations.primary.{field}", value)
    expected = f"{who} requires citations.primary.{field} (fail-closed)"
    assert errors_of(response) == (expected,)


def test_citations_without_primary() -> None:
    expected = ("REGULATORY ANSWER requires citations.primary (fail-closed)",)
    assert errors_of(mutate(answer(), "citations", {})) == expected
    cited_refusal = minimal("REFUSAL", "REGULATORY", "MISSING_CLIENT_DATA", cited=False)
    assert errors_of(mutate(cited_refusal, "citations", {})) == ("citations.primary is required",)


STATE = [
    ("answer-with-reason", answer, "refusalReason", "OUT_OF_SCOPE",
     "ANSWER cannot have refusalReason (invalid state)"),
    ("answer-with-refusal", answer, "refusal", {"message": "Ne."},
     "ANSWER cannot have a refusal block (invalid state)"),
    ("refusal-no-reason", refusal, "refusalReason", DELETE, "REFUSAL requires refusalReason"),
    ("refusal-no-block", refusal, "refusal", DELETE, "REFUSAL requires a refusal block"),
    ("refusal-no-message", refusal, "refusal.message", "", "refusal.message is required"),
    ("refusal-with-answer", refusal, "directAnswer", "20 %",
     'REFUSAL requires directAnswer to be ""'),
    ("client-context-marketing", answer, "surface", "MARKETING",
     "clientContext is only allowed on the APP surface"),
    ("computed-result-on-refusal", refusal, "clientContext",
     answer()["clientContext"],
     "clientContext.computedResult not allowed for this response type"),
    ("error-without-block", lambda: minimal("ERROR", "REGULATORY", None, cited=False),
     "error", DELETE, "ERROR requires an error block"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("base", "path", "value", "error"), [s[1:] for s in STATE], ids=[s[0] for s in STATE]
)
def test_invalid_states(base: Any, path: str, value: Any, error: str) -> None:
    assert errors_of(mutate(base(), path, value)) == (error,)


def expected_one_of(values: tuple[str, ...]) -> str:
    return ", ".join(values)


ENUMS = [
    (answer, "topic", "UNKNOWN", "REGULATORY, PRODUCT, SUPPORT, OFFTOPIC"),
    (answer, "kind", "MAYBE", "ANSWER, REFUSAL, ERROR"),
    (answer, "surface", "WEB", "MARKETING, APP"),
    (answer, "language", "de", "hr, nl, en"),
    (refusal, "refusalReason", "BECAUSE", expected_one_of(REFUSAL_REASONS)),
    (answer, "confidence.level", "SURE", "HIGH, MEDIUM, LOW"),
    (answer, "citations.primary.authority", "PROCEDURE", "LAW, REGULATION, GUIDANCE, PRACTICE"),
    (answer, "citations.supporting.0.status", "REPEALED", "ACTIVE, SUPERSEDED"),
    (answer, "citations.primary.freshnessStatus", "old", "fresh, aging, stale, critical"),
    (answer, "obligationContext.type", "MUST",
     "OBLIGATION, NO_OBLIGATION, CONDITIONAL, INFORMATIONAL"),
    (answer, "obligationContext.badge.level", "HIGH", "high, medium, low, none"),
    (answer, "clientContext.completeness.status", "FULL", "COMPLETE, PARTIAL, NONE"),
    (refusal, "refusal.redirectOptions.0.type", "EMAIL", "SUPPORT, DOCS, CONTACT"),
    (lambda: refusal("UNRESOLVED_CONFLICT"), "conflict.status", "OPEN",
     "RESOLVED, UNRESOLVED, CONTEXT_DEPENDENT"),
    (lambda: refusal("UNRESOLVED_CONFLICT"), "refusal.conflictingSources.1.authority", "CASE",
     "LAW, REGULATION, GUIDANCE, PRACTICE"),
]  # fmt: skip


@pytest.mark.parametrize(("base", "path", "value", "allowed"), ENUMS, ids=[e[1] for e in ENUMS])
def test_enum_values_are_checked(base: Any, path: str, value: str, allowed: str) -> None:
    where = path.replace(".0.", "[0].").replace(".1.", "[1].")
    expected = f"Invalid {where}: {value!r} (expected one of {allowed})"
    assert expected in errors_of(mutate(base(), path, value))


FORMATS = [
    ("schemaVersion", "2.0.0", "Unsupported schemaVersion '2.0.0' (expected '1.0.0')"),
    ("requestId", "01", "requestId must start with 'req_'"),
    ("traceId", "req_01", "traceId must start with 'trace_'"),
    ("createdAt", "yesterday", "createdAt must be an ISO-8601 timestamp"),
    ("asOfDate", "2025-1-5", "asOfDate must be a YYYY-MM-DD date"),
    ("asOfDate", "20250115", "asOfDate must be a YYYY-MM-DD date"),
    ("asOfDate", "2025-02-30", "asOfDate must be a YYYY-MM-DD date"),
    ("asOfDate", "２０２５-01-15", "asOfDate must be a YYYY-MM-DD date"),
    ("citations.primary.effectiveFrom", "01.01.2024",
     "citations.primary.effectiveFrom must be a YYYY-MM-DD date"),
    ("citations.primary.fetchedAt", "last week",
     "citations.primary.fetchedAt must be an ISO-8601 timestamp"),
    ("confidence.score", 1.01, "confidence.score must be a number from 0 to 1"),
    ("confidence.score", -0.01, "confidence.score must be a number from 0 to 1"),
    ("confidence.score", True, "confidence.score must be a number from 0 to 1"),
    ("citations.supporting.0.confidence", 2,
     "citations.supporting[0].confidence must be a number from 0 to 1"),
    ("clientContext.completeness.score", "1",
     "clientContext.completeness.score must be a number from 0 to 1"),
    ("missingContext.ruleCount", -1, "missingContext.ruleCount must be a non-negative integer"),
    ("citations.primary.daysSinceFetch", 1.5,
     "citations.primary.daysSinceFetch must be a non-negative integer"),
    ("headline", 42, "headline must be a string"),
    ("keyDetails", "jedan", "keyDetails must be a list"),
    ("why", ["a"], "why must be an object"),
    ("error", {"message": "x", "retriable": "yes"}, "error.retriable must be a boolean"),
    ("citations.supporting.0", "src_reg", "citations.supporting[0] must be an object"),
    ("citations.supporting.0.title", DELETE, "citations.supporting[0].title is required"),
    ("obligationContext.badge", {"level": "high"}, "obligationContext.badge.text is required"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "value", "error"), FORMATS, ids=[f[0] for f in FORMATS])
def test_formats_ranges_and_shapes(path: str, value: Any, error: str) -> None:
    assert error in errors_of(mutate(answer(), path, value))


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("citations.primary.effectiveFrom", None),
        ("confidence.score", 0),
        ("confidence.score", 1),
        ("createdAt", "2025-01-15T10:00:00Z"),
        ("clientContext.used.0.asOfDate", "2024-12-31"),
    ],
)
def test_valid_edge_values(path: str, value: Any) -> None:
    assert errors_of(mutate(answer(), path, value)) == ()


def test_quotes_are_checked_against_the_evidence_they_name() -> None:
    calls: list[tuple[str, str]] = []

    def recording(evidence_id: str, quote: str) -> bool:
        calls.append((evidence_id, quote))
        return quote_in_evidence(evidence_id, quote)

    assert errors_of(refusal("UNRESOLVED_CONFLICT"), quote_in_evidence=recording) == ()
    assert len(calls) == 6  # citations: 2, conflict.sources: 2, refusal.conflictingSources: 2
    assert calls[0] == ("ev_law", primary()["quote"])


QUOTES = [
    (answer, "citations.primary.quote", "Stopa iznosi 25 %",
     "citations.primary.quote not found in evidence ev_law"),
    (answer, "citations.supporting.0.evidenceId", "ev_law",
     "citations.supporting[0].quote not found in evidence ev_law"),
    (answer, "citations.supporting.0.evidenceId", DELETE,
     "citations.supporting[0] has a quote but no evidenceId to verify it against"),
    (lambda: refusal("UNRESOLVED_CONFLICT"), "conflict.sources.1.quote", "izmišljeno",
     "conflict.sources[1].quote not found in evidence ev_reg"),
    (lambda: refusal("UNRESOLVED_CONFLICT"), "refusal.conflictingSources.0.evidenceId", "ev_none",
     "refusal.conflictingSources[0].quote not found in evidence ev_none"),
]  # fmt: skip


@pytest.mark.parametrize(("base", "path", "value", "error"), QUOTES, ids=[q[1] for q in QUOTES])
def test_quote_not_in_evidence_is_an_error(base: Any, path: str, value: Any, error: str) -> None:
    response = mutate(base(), path, value)
    assert error in errors_of(response, quote_in_evidence=quote_in_evidence)
    assert error not in errors_of(response)  # without a lookup the check is skipped


@pytest.mark.parametrize(
    ("path", "value", "warning"),
    [
        ("citations.primary.freshnessStatus", DELETE, "citations.primary has no freshnessStatus"),
        ("citations.supporting.0.freshnessStatus", "stale",
         "citations.supporting[0] cites stale evidence"),
        ("createdAt", "2025-01-15T10:00:00", "createdAt has no UTC offset"),
    ],
)  # fmt: skip
def test_soft_problems_are_warnings(path: str, value: Any, warning: str) -> None:
    result = validate_response(mutate(answer(), path, value))
    assert result.valid and result.warnings == (warning,)


def test_non_object_response_is_an_error() -> None:
    assert errors_of([]) == ("Response must be a JSON object",)  # type: ignore[arg-type]


@given(st.text(max_size=300))
def test_any_headline_is_valid_iff_within_120_chars(headline: str) -> None:
    result = validate_response(mutate(answer(), "headline", headline))
    assert result.valid == (len(headline) <= LIMITS.headline)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=10,
)
FUZZ_PATHS = [
    "kind", "topic", "surface", "refusalReason", "createdAt", "asOfDate", "keyDetails", "why",
    "why.bullets", "citations", "citations.primary", "citations.supporting",
    "citations.primary.quote", "citations.primary.confidence", "clientContext",
    "clientContext.used", "obligationContext", "conflict", "refusal", "refusal.redirectOptions",
    "error", "disclaimer", "trace",
]  # fmt: skip


@given(st.sampled_from(FUZZ_PATHS), JSON)
def test_malformed_values_never_crash_the_gate(path: str, value: Any) -> None:
    result = validate_response(mutate(answer(), path, value), quote_in_evidence)
    assert result.valid == (result.errors == ())


def test_typed_construction_dumps_to_a_valid_wire_response() -> None:
    model = AssistantResponse.model_validate(answer())
    wire = model.model_dump(by_alias=True, exclude_none=True)
    assert wire == answer()
    assert wire["schemaVersion"] == SCHEMA_VERSION
    assert validate_response(wire, quote_in_evidence).valid


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"query": "   "}, "query"),
        ({"query": "x" * 4001}, "query"),
        ({}, "query"),
        ({"query": "q", "surface": "WEB"}, "surface"),
        ({"query": "q", "sessionId": "s" * 101}, "sessionId"),
        ({"query": "q", "asOfDate": "15.01.2025"}, "asOfDate"),
        ({"query": "q", "colour": "blue"}, "colour"),
    ],
)
def test_chat_request_errors_name_the_field(body: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as caught:
        ChatRequest.model_validate(body)
    assert [error["loc"][0] for error in caught.value.errors()] == [field]


def test_chat_request_trims_the_query_and_fills_defaults() -> None:
    request = ChatRequest.model_validate({"query": "  " + "x" * 4000 + "\n"})
    assert request.query == "x" * 4000
    assert (request.surface, request.explain, request.clientContext.facts()) == (
        "MARKETING",
        False,
        {},
    )


CARD_LISTS = [
    ("citations", lambda r: r["citations"].update(supporting=[primary()])),
    ("conflict.sources", lambda r: r["conflict"].update(sources=[primary(), primary()])),
    ("refusal.conflictingSources",
     lambda r: r["refusal"].update(conflictingSources=[supporting(), supporting()])),
]  # fmt: skip


@pytest.mark.parametrize(("name", "repeat"), CARD_LISTS, ids=[c[0] for c in CARD_LISTS])
def test_a_card_id_repeated_within_a_list_is_an_error(name: str, repeat: Any) -> None:
    response = refusal("UNRESOLVED_CONFLICT")
    assert validate_response(response).valid  # the same card in two lists is fine
    repeat(response)
    card_id = (primary() if name != "refusal.conflictingSources" else supporting())["id"]
    assert validate_response(response).errors == (
        f"{name} card id {card_id!r} appears more than once",
    )

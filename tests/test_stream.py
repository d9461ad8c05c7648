"""The NDJSON stream: line order, the round trip through a client's merge, order checks, parsing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.stream import encode_line, merge_lines, parse_ndjson, stream_lines, validate_stream
from tests.test_quality_gates import answer, quote_in_evidence, refusal


def shapes(lines: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """Each line's keys other than requestId: the stream's order at a glance."""
    return [tuple(key for key in line if key != "requestId") for line in lines]


METADATA = ("schemaVersion", "traceId", "kind", "topic", "surface", "createdAt", "asOfDate")


def test_answer_stream_order() -> None:
    response = {**answer(), "trace": [{"stage": "triage"}], "zeta": 1, "alpha": 2}
    assert shapes(stream_lines(response)) == [
        (*METADATA, "sessionId", "language"),
        ("citations",),
        ("headline", "directAnswer", "confidence"),
        ("relatedQuestions",),
        ("keyDetails",),
        ("nextStep",),
        ("why",),
        ("howToApply",),
        ("clientContext",),
        ("obligationContext",),
        ("missingContext",),
        ("disclaimer",),
        ("trace",),
        ("alpha",),
        ("zeta",),
        ("_done",),
    ]


def test_refusal_stream_order() -> None:
    assert shapes(stream_lines(refusal())) == [
        METADATA,
        ("headline", "directAnswer"),
        ("refusalReason", "refusal"),
        ("_done",),
    ]


def test_conflict_refusal_streams_citations_before_the_text() -> None:
    assert shapes(stream_lines(refusal("UNRESOLVED_CONFLICT"))) == [
        METADATA,
        ("citations",),
        ("headline", "directAnswer"),
        ("refusalReason", "refusal"),
        ("conflict",),
        ("_done",),
    ]


FIXTURES: dict[str, Callable[[], dict[str, Any]]] = {
    "answer": answer,
    "refusal": refusal,
    "conflict": lambda: refusal("UNRESOLVED_CONFLICT"),
    "missing-data": lambda: refusal("MISSING_CLIENT_DATA"),
    "failed": lambda: {**refusal(), "error": {"message": "Please retry.", "retriable": True}},
}


@pytest.mark.parametrize("name", FIXTURES)
def test_every_line_carries_the_request_id_and_done_is_last(name: str) -> None:
    lines = stream_lines(FIXTURES[name]())
    assert {line["requestId"] for line in lines} == {"req_01"}
    assert lines[-1] == {"requestId": "req_01", "_done": True}


@pytest.mark.parametrize("name", FIXTURES)
def test_merge_gives_back_the_response(name: str) -> None:
    response = FIXTURES[name]()
    assert merge_lines(stream_lines(response)) == response


@pytest.mark.parametrize("name", FIXTURES)
def test_stream_survives_encoding_and_parsing(name: str) -> None:
    lines = stream_lines(FIXTURES[name]())
    body = b"".join(encode_line(line) for line in lines)
    assert body.endswith(b"\n") and body.count(b"\n") == len(lines)
    assert parse_ndjson(body) == lines
    assert parse_ndjson(body.decode()) == lines
    assert validate_stream(parse_ndjson(body), quote_in_evidence).errors == ()


def test_an_error_line_names_the_error_as_a_string_with_its_detail() -> None:
    """FiskAI's stream parser throws `new Error(line.error)`: the message, not an object."""
    response = FIXTURES["failed"]()
    (line,) = [line for line in stream_lines(response) if "error" in line]
    assert line == {
        "requestId": "req_01",
        "error": "Please retry.",
        "errorDetail": {"message": "Please retry.", "retriable": True},
    }
    assert merge_lines(stream_lines(response))["error"] == response["error"]


ERROR_LINE_ERRORS = [
    ("object", {"error": {"message": "x", "retriable": True}}, "must carry error as a string"),
    ("no-detail", {"error": "x"}, "must carry error as a string and errorDetail"),
    ("other-message", {"error": "x", "errorDetail": {"message": "y", "retriable": True}},
     "has an error that is not its errorDetail.message"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "fields", "error"), ERROR_LINE_ERRORS, ids=[e[0] for e in ERROR_LINE_ERRORS]
)
def test_validate_stream_checks_the_error_line(name: str, fields: Any, error: str) -> None:
    lines = stream_lines(refusal())
    lines.insert(-1, {"requestId": "req_01", **fields})
    assert any(error in problem for problem in validate_stream(lines).errors)


def test_fail_closed_stream_is_one_full_line_then_done() -> None:
    response = refusal()
    lines = [response, {"requestId": "req_01", "_done": True}]
    assert validate_stream(lines).errors == ()


ORDER_ERRORS = [
    # name, how to break the answer's stream (metadata, citations, content, ..., done), error
    ("citations-after-content", lambda ls: [ls[0], ls[2], ls[1], *ls[3:]],
     "Citations line must come before the content line"),
    ("metadata-not-first", lambda ls: [ls[1], ls[0], *ls[2:]],
     "Stream must start with the metadata line"),
    ("missing-done", lambda ls: ls[:-1], "Stream must end with a done line"),
    ("done-not-last", lambda ls: [*ls[:-2], ls[-1], ls[-2]], "Done line must be the last line"),
    ("two-done-lines", lambda ls: [*ls, ls[-1]], "Stream has more than one done line"),
    ("other-request-id", lambda ls: [*ls[:3], {**ls[3], "requestId": "req_02"}, *ls[4:]],
     "Line 4 has requestId 'req_02', not 'req_01'"),
    ("no-request-id", lambda ls: [*ls[:5], {"nextStep": "x"}, *ls[6:]], "Line 6 has no requestId"),
    ("empty", lambda ls: [], "Stream is empty"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "breaks", "error"), ORDER_ERRORS, ids=[e[0] for e in ORDER_ERRORS]
)
def test_validate_stream_catches_order_errors(name: str, breaks: Any, error: str) -> None:
    lines = stream_lines(answer())
    assert validate_stream(lines).errors == ()
    errors = validate_stream(breaks(lines)).errors
    assert errors[0] == error
    assert len(errors) == 1 or name == "empty"  # an empty stream also merges to an empty response


def test_validate_stream_checks_the_merged_response() -> None:
    lines = stream_lines(answer())
    lines[2] = {**lines[2], "headline": "x" * 121}
    assert validate_stream(lines).errors == ("Headline exceeds 120 chars",)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"requestId": "req_01"}\n{"oops"\n', "NDJSON line 2 is not valid JSON"),
        ('{"a": 1}\n\n[1, 2]\n', r"NDJSON line 3 is not a JSON object \(got list\)"),
        (b"\xff\n", "NDJSON line 1 is not valid JSON"),
        ('{"a": "\ud800"}', "NDJSON line 1 is not valid JSON"),
    ],
)
def test_parse_ndjson_names_the_bad_line(body: bytes | str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_ndjson(body)


def test_parse_ndjson_skips_blank_lines_and_accepts_crlf() -> None:
    assert parse_ndjson(b'{"a": 1}\r\n\r\n{"b": 2}\r\n') == [{"a": 1}, {"b": 2}]

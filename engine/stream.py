"""The NDJSON stream: a full wire response split into ordered lines, and the way back.

Order (the contract's): metadata, citations (always before the answer text), content, refusal,
related, then one line per remaining block in BLOCK_ORDER (unknown keys after them, sorted),
then done. Every line carries requestId, so a client can merge lines without other state.

A line carrying the response's `error` block sends `error` as its message (a string) and the
block itself as `errorDetail`: stream clients such as FiskAI's raise `Error(line.error)`, which
must read as the message, not "[object Object]". `merge_lines` puts the block back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import orjson

from engine.validation import QuoteInEvidence, ValidationResult, validate_response

METADATA_KEYS: Final = (
    "schemaVersion", "requestId", "traceId", "kind", "topic", "surface", "createdAt", "asOfDate",
    "sessionId", "language", "unreadLanguage",
)  # fmt: skip
# The cards of values beyond the contract's four travel with the citations, before the text.
CITATION_KEYS: Final = ("citations", "additionalCitations")
CONTENT_KEYS: Final = ("headline", "directAnswer", "confidence")
REFUSAL_KEYS: Final = ("refusalReason", "refusal")
BLOCK_ORDER: Final = (
    "understood", "keyDetails", "nextStep", "why", "howToApply", "clientContext", "completeness",
    "conflict",
    "obligationContext", "missingContext", "disclaimer", "error", "redactions", "triage",
    "validation", "trace",
)  # fmt: skip
_GROUPED: Final = frozenset(
    (*METADATA_KEYS, *CITATION_KEYS, *CONTENT_KEYS, *REFUSAL_KEYS, "relatedQuestions", *BLOCK_ORDER)
)
DONE_KEY: Final = "_done"
ERROR_DETAIL_KEY: Final = "errorDetail"


def stream_lines(response: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Split a wire response into NDJSON line objects; `merge_lines` of the result gives it back."""
    request_id = response.get("requestId")

    def line(keys: Iterable[str]) -> dict[str, Any]:
        return {"requestId": request_id, **{key: response[key] for key in keys if key in response}}

    metadata = {key: response[key] for key in METADATA_KEYS if key in response}
    lines = [{**metadata, "requestId": request_id} if "requestId" not in metadata else metadata]
    if "citations" in response:
        lines.append(line(CITATION_KEYS))
    lines.append(line(CONTENT_KEYS))
    if any(key in response for key in REFUSAL_KEYS):
        lines.append(line(REFUSAL_KEYS))
    if "relatedQuestions" in response:
        lines.append(line(["relatedQuestions"]))
    others = sorted(key for key in response if key not in _GROUPED and key != DONE_KEY)
    lines += [line([key]) for key in (*BLOCK_ORDER, *others) if key in response]
    lines.append({"requestId": request_id, DONE_KEY: True})
    return [with_error_message(line) for line in lines]


def with_error_message(line: Mapping[str, Any]) -> dict[str, Any]:
    """The line as sent: an `error` block becomes its message, the block goes to errorDetail."""
    error = line.get("error")
    if not isinstance(error, Mapping):
        return dict(line)
    return {**line, "error": str(error.get("message", "")), ERROR_DETAIL_KEY: dict(error)}


def encode_line(obj: Mapping[str, Any]) -> bytes:
    """One NDJSON line: compact JSON in the object's key order, then a newline."""
    return orjson.dumps(dict(obj)) + b"\n"


_NOT_MERGED: Final = frozenset({DONE_KEY, ERROR_DETAIL_KEY})


def merge_lines(lines: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """What a client does with the stream: fold the lines into one response object."""
    merged: dict[str, Any] = {}
    for line in lines:
        merged.update((key, value) for key, value in line.items() if key not in _NOT_MERGED)
        if ERROR_DETAIL_KEY in line:  # the error block, which `error` only names
            merged["error"] = line[ERROR_DETAIL_KEY]
    return merged


def validate_stream(
    lines: Sequence[Mapping[str, Any]], quote_in_evidence: QuoteInEvidence | None = None
) -> ValidationResult:
    """Check the stream's order and requestIds, then the merged response against the contract."""
    order = _order_errors(lines)
    merged = validate_response(merge_lines(lines), quote_in_evidence)
    errors = (*order, *merged.errors)
    return ValidationResult(not errors, errors, merged.warnings)


def _first_line_with(lines: Sequence[Mapping[str, Any]], key: str) -> int | None:
    return next((i for i, line in enumerate(lines) if key in line), None)


def _order_errors(lines: Sequence[Mapping[str, Any]]) -> list[str]:
    if not lines:
        return ["Stream is empty"]
    errors = [] if "schemaVersion" in lines[0] else ["Stream must start with the metadata line"]
    citations, content = _first_line_with(lines, "citations"), _first_line_with(lines, "headline")
    if citations is not None and content is not None and citations > content:
        errors.append("Citations line must come before the content line")
    done = [i for i, line in enumerate(lines) if DONE_KEY in line]
    if not done:
        errors.append("Stream must end with a done line")
    elif len(done) > 1:
        errors.append("Stream has more than one done line")
    elif done[0] != len(lines) - 1:
        errors.append("Done line must be the last line")
    request_id = lines[0].get("requestId")
    for number, line in enumerate(lines, start=1):
        errors += _error_line_errors(number, line)
        if "requestId" not in line:
            errors.append(f"Line {number} has no requestId")
        elif line["requestId"] != request_id:
            errors.append(f"Line {number} has requestId {line['requestId']!r}, not {request_id!r}")
    return errors


def _error_line_errors(number: int, line: Mapping[str, Any]) -> list[str]:
    """A failure line names its error as a string and carries the block as errorDetail."""
    if "error" not in line and ERROR_DETAIL_KEY not in line:
        return []
    detail = line.get(ERROR_DETAIL_KEY)
    if not isinstance(line.get("error"), str) or not isinstance(detail, Mapping):
        return [f"Line {number} must carry error as a string and errorDetail as an object"]
    if detail.get("message") != line["error"]:
        return [f"Line {number} has an error that is not its errorDetail.message"]
    return []


def parse_ndjson(data: bytes | str) -> list[dict[str, Any]]:
    """Parse an NDJSON body into line objects; blank lines are skipped, numbering starts at 1."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    parsed: list[dict[str, Any]] = []
    for number, chunk in enumerate(raw.split(b"\n"), start=1):
        if not chunk.strip():
            continue
        try:
            value = orjson.loads(chunk)
        except orjson.JSONDecodeError as error:
            raise ValueError(f"NDJSON line {number} is not valid JSON: {error}") from error
        if not isinstance(value, dict):
            kind = type(value).__name__
            raise ValueError(f"NDJSON line {number} is not a JSON object (got {kind})")
        parsed.append(value)
    return parsed

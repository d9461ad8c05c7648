"""The `applies_when` condition language: parse once, evaluate three-valued.

A condition is JSON: `true`/`false`/`null`, `{and: [...]}`, `{or: [...]}`, `{not: c}`,
`{cmp: {field, op, value}}`, `{in: {field, values}}`, `{exists: field}`,
`{between: {field, min, max}}`. Evaluation against a client context gives TRUE, FALSE or
MISSING (a field the condition needs is absent), so the caller can tell "does not apply" from
"cannot tell without the client's data".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from enum import Enum
from typing import Any, Literal, TypeAlias

CmpOp = Literal["eq", "neq", "gt", "gte", "lt", "lte"]
_CMP_OPS: frozenset[str] = frozenset({"eq", "neq", "gt", "gte", "lt", "lte"})


class Truth(Enum):
    TRUE = "true"
    FALSE = "false"
    MISSING = "missing"


@dataclass(frozen=True, slots=True)
class Const:
    value: bool


@dataclass(frozen=True, slots=True)
class All:
    parts: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class Any_:
    parts: tuple[Cond, ...]


@dataclass(frozen=True, slots=True)
class Not:
    part: Cond


@dataclass(frozen=True, slots=True)
class Cmp:
    field: str
    op: CmpOp
    value: Any


@dataclass(frozen=True, slots=True)
class In:
    field: str
    values: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Exists:
    field: str


@dataclass(frozen=True, slots=True)
class Between:
    field: str
    low: Any
    high: Any


Cond: TypeAlias = Const | All | Any_ | Not | Cmp | In | Exists | Between


def parse_condition(raw: object) -> Cond:
    """Parse stored JSON into a condition tree; raise ValueError naming what is wrong."""
    if raw is None or raw is True:
        return Const(True)
    if raw is False:
        return Const(False)
    if not isinstance(raw, Mapping) or len(raw) != 1:
        raise ValueError(
            f"a condition must be true, false, null or an object with one key: {raw!r}"
        )
    ((key, body),) = raw.items()
    if key in ("and", "or"):
        if not isinstance(body, list) or not body:
            raise ValueError(f"'{key}' needs a non-empty list of conditions")
        parts = tuple(parse_condition(part) for part in body)
        return All(parts) if key == "and" else Any_(parts)
    if key == "not":
        return Not(parse_condition(body))
    if key == "exists":
        return Exists(_field_name(body))
    if not isinstance(body, Mapping):
        raise ValueError(f"'{key}' needs an object, got {body!r}")
    field = _field_name(body.get("field"))
    if key == "cmp":
        op = body.get("op")
        if op not in _CMP_OPS:
            raise ValueError(f"unknown comparison {op!r}; use one of {sorted(_CMP_OPS)}")
        return Cmp(field, op, _scalar(body.get("value"), key))
    if key == "in":
        values = body.get("values")
        if not isinstance(values, list) or not values:
            raise ValueError("'in' needs a non-empty list 'values'")
        return In(field, tuple(_scalar(v, key) for v in values))
    if key == "between":
        return Between(field, _scalar(body.get("min"), key), _scalar(body.get("max"), key))
    raise ValueError(f"unknown condition operator {key!r}")


def evaluate(cond: Cond, context: Mapping[str, Any]) -> Truth:
    """Evaluate with Kleene logic: MISSING only where the answer depends on absent fields."""
    match cond:
        case Const(value):
            return Truth.TRUE if value else Truth.FALSE
        case All(parts):
            results = [evaluate(part, context) for part in parts]
            if Truth.FALSE in results:
                return Truth.FALSE
            return Truth.MISSING if Truth.MISSING in results else Truth.TRUE
        case Any_(parts):
            results = [evaluate(part, context) for part in parts]
            if Truth.TRUE in results:
                return Truth.TRUE
            return Truth.MISSING if Truth.MISSING in results else Truth.FALSE
        case Not(part):
            inner = evaluate(part, context)
            return {Truth.TRUE: Truth.FALSE, Truth.FALSE: Truth.TRUE}.get(inner, Truth.MISSING)
        case Exists(field):
            return Truth.TRUE if context.get(field) is not None else Truth.FALSE
        case Cmp(field, op, value):
            return _compare(context.get(field), op, value)
        case In(field, values):
            actual = context.get(field)
            if actual is None:
                return Truth.MISSING
            return _truth(any(_equal(actual, v) for v in values))
        case Between(field, low, high):
            actual = context.get(field)
            if actual is None:
                return Truth.MISSING
            return _truth(
                _compare(actual, "gte", low) is Truth.TRUE
                and _compare(actual, "lte", high) is Truth.TRUE
            )
    raise AssertionError(f"unhandled condition {cond!r}")  # pragma: no cover


def fields_of(cond: Cond) -> frozenset[str]:
    """Every client-context field a condition reads (to say what data is missing)."""
    match cond:
        case All(parts) | Any_(parts):
            return frozenset().union(*(fields_of(part) for part in parts))
        case Not(part):
            return fields_of(part)
        case Cmp(field, _, _) | In(field, _) | Exists(field) | Between(field, _, _):
            return frozenset({field})
    return frozenset()


def _field_name(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"a condition field must be a non-empty string, got {raw!r}")
    return raw


def _scalar(raw: object, key: str) -> Any:
    if isinstance(raw, str | int | float | bool):
        return raw
    raise ValueError(f"'{key}' needs a string, number or boolean value, got {raw!r}")


def _truth(flag: bool) -> Truth:
    return Truth.TRUE if flag else Truth.FALSE


def _number(value: object) -> Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float | Decimal):
        return Decimal(str(value))
    if isinstance(value, str):
        try:
            return Decimal(value.strip())
        except InvalidOperation:
            return None
    return None


def _equal(actual: object, expected: object) -> bool:
    left, right = _number(actual), _number(expected)
    if left is not None and right is not None:
        return left == right
    if isinstance(actual, str) and isinstance(expected, str):
        return actual.strip().casefold() == expected.strip().casefold()
    return actual == expected


def _compare(actual: object, op: str, expected: object) -> Truth:
    if actual is None:
        return Truth.MISSING
    if op in ("eq", "neq"):
        return _truth(_equal(actual, expected) == (op == "eq"))
    left, right = _number(actual), _number(expected)
    if left is None or right is None:
        # Ordering non-numbers (e.g. ISO dates as strings) is well-defined only for strings.
        if not (isinstance(actual, str) and isinstance(expected, str)):
            return Truth.FALSE
        return _truth(_ORDER[op](actual, expected))
    return _truth(_ORDER[op](left, right))


_ORDER: Mapping[str, Any] = {
    "gt": lambda a, b: a > b,
    "gte": lambda a, b: a >= b,
    "lt": lambda a, b: a < b,
    "lte": lambda a, b: a <= b,
}


def numeric_bounds(cond: Cond, field: str) -> tuple[Decimal | None, Decimal | None] | None:
    """The range of `field` values a condition admits (None ends are open), or None when it
    does not bound the field with numbers. "age ≥ 50" is (50, None); "60–63" is (60, 63)."""
    match cond:
        case Between(name, low, high) if name == field:
            return _number(low), _number(high)
        case Cmp(name, op, value) if name == field and _number(value) is not None:
            number = _number(value)
            return {
                "eq": (number, number),
                "gte": (number, None),
                "gt": (number, None),
                "lte": (None, number),
                "lt": (None, number),
            }.get(op)
        case All(parts):
            found = [b for b in (numeric_bounds(p, field) for p in parts) if b is not None]
            if not found:
                return None
            lows = [low for low, _ in found if low is not None]
            highs = [high for _, high in found if high is not None]
            return (max(lows) if lows else None, min(highs) if highs else None)
    return None

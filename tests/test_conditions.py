"""The applies_when language: parsing (fail closed) and three-valued evaluation."""

from __future__ import annotations

from typing import Any

import pytest

from engine.conditions import Truth, evaluate, fields_of, parse_condition

T, F, M = Truth.TRUE, Truth.FALSE, Truth.MISSING

CASES: list[tuple[Any, dict[str, Any], Truth]] = [
    (None, {}, T),
    (True, {}, T),
    (False, {}, F),
    ({"cmp": {"field": "birth_year", "op": "gte", "value": 1960}}, {"birth_year": 1960}, T),
    ({"cmp": {"field": "birth_year", "op": "gte", "value": 1960}}, {"birth_year": 1959}, F),
    ({"cmp": {"field": "birth_year", "op": "gt", "value": 1960}}, {"birth_year": 1960}, F),
    ({"cmp": {"field": "birth_year", "op": "lt", "value": 1960}}, {"birth_year": "1950"}, T),
    ({"cmp": {"field": "birth_year", "op": "lte", "value": 1960}}, {"birth_year": 1960}, T),
    ({"cmp": {"field": "birth_year", "op": "eq", "value": 1960}}, {"birth_year": 1960.0}, T),
    ({"cmp": {"field": "birth_year", "op": "neq", "value": 1960}}, {"birth_year": 1961}, T),
    ({"cmp": {"field": "birth_year", "op": "gte", "value": 1960}}, {}, M),
    ({"cmp": {"field": "entity", "op": "eq", "value": "obrt"}}, {"entity": "OBRT "}, T),
    ({"cmp": {"field": "birth_year", "op": "gte", "value": 1960}}, {"birth_year": "abc"}, F),
    ({"in": {"field": "entity", "values": ["obrt", "doo"]}}, {"entity": "doo"}, T),
    ({"in": {"field": "entity", "values": ["obrt", "doo"]}}, {"entity": "jdoo"}, F),
    ({"in": {"field": "entity", "values": ["obrt"]}}, {}, M),
    ({"exists": "vat_id"}, {"vat_id": "HR1"}, T),
    ({"exists": "vat_id"}, {}, F),
    ({"between": {"field": "birth_year", "min": 1943, "max": 1954}}, {"birth_year": 1943}, T),
    ({"between": {"field": "birth_year", "min": 1943, "max": 1954}}, {"birth_year": 1954}, T),
    ({"between": {"field": "birth_year", "min": 1943, "max": 1954}}, {"birth_year": 1955}, F),
    ({"between": {"field": "birth_year", "min": 1943, "max": 1954}}, {}, M),
    ({"and": [True, {"exists": "x"}]}, {"x": 1}, T),
    ({"and": [False, {"cmp": {"field": "y", "op": "eq", "value": 1}}]}, {}, F),  # FALSE wins
    ({"and": [True, {"cmp": {"field": "y", "op": "eq", "value": 1}}]}, {}, M),
    ({"or": [True, {"cmp": {"field": "y", "op": "eq", "value": 1}}]}, {}, T),  # TRUE wins
    ({"or": [False, {"cmp": {"field": "y", "op": "eq", "value": 1}}]}, {}, M),
    ({"not": {"exists": "x"}}, {}, T),
    ({"not": {"cmp": {"field": "y", "op": "eq", "value": 1}}}, {}, M),
]


@pytest.mark.parametrize(("raw", "context", "expected"), CASES)
def test_evaluate(raw: Any, context: dict[str, Any], expected: Truth) -> None:
    assert evaluate(parse_condition(raw), context) is expected


BAD: list[Any] = [
    {"cmp": {"field": "x", "op": "like", "value": 1}},
    {"cmp": {"field": "", "op": "eq", "value": 1}},
    {"cmp": {"field": "x", "op": "eq", "value": [1]}},
    {"and": []},
    {"or": "x"},
    {"in": {"field": "x", "values": []}},
    {"exists": 3},
    {"xor": [True]},
    {"and": [True], "or": [True]},
    "true",
    7,
]


@pytest.mark.parametrize("raw", BAD)
def test_unparseable_conditions_are_rejected(raw: Any) -> None:
    with pytest.raises(ValueError):
        parse_condition(raw)


def test_fields_of_lists_every_field_read() -> None:
    cond = parse_condition(
        {
            "and": [
                {"exists": "a"},
                {
                    "or": [
                        {"cmp": {"field": "b", "op": "eq", "value": 1}},
                        {"not": {"in": {"field": "c", "values": [1]}}},
                    ]
                },
            ]
        }
    )
    assert fields_of(cond) == {"a", "b", "c"}

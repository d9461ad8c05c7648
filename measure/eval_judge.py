"""Judging one gold question: reduce the response to what is judged, then give the verdict.

The worst outcomes fail the gate on their own: a *wrong value* (the expected fact with another
value, or the wrong obligation outcome) and an *off-target* answer (an ANSWER stating none of
the expected facts: the value of a different fact, or any value where a refusal was expected).
An answer to a question that was not asked is wrong, whatever its citation.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from engine.text.numbers import decimal_value
from engine.validation import ValidationResult
from measure.eval_gold import Expectation

NO_RESPONSE: Final = "NO_RESPONSE"  # the kind recorded when the server sent no usable response
MAX_CARDS: Final = 4  # the contract's citation limit: a larger family is judged on four members

Verdict = Literal[
    "correct",  # what the entry expects
    "wrong_value",  # the expected fact with another value or outcome: fails the gate
    "off_target",  # an answer about a fact that was not asked: fails the gate
    "incomplete",  # the right fact, but members of the family are missing or others are added
    "refused",  # refused where an answer was expected
    "answered",  # answered (without a citable value) where a refusal was expected
    "wrong_reason",  # refused for a reason the entry does not allow
    "wrong_topic",  # refused for an allowed reason but under another topic
    "invalid",  # the response fails validate_response
    "error",  # no response at all (HTTP failure)
]
FATAL: Final = frozenset({"wrong_value", "off_target"})
RuleFacts = Callable[[str], tuple[str, str] | None]  # rule id -> (concept, value)


@dataclass(frozen=True, slots=True)
class Observed:
    """What came back, reduced to what is judged; concepts and values come from cited rules."""

    kind: str
    reason: str | None = None
    topic: str | None = None
    rule_id: str | None = None  # the primary card's rule
    concept: str | None = None
    value: str | None = None
    errors: tuple[str, ...] = ()  # validation errors, or the HTTP failure
    cited: tuple[tuple[str, str], ...] = ()  # (concept, value) of every cited card, primary first
    obligation: str | None = None  # obligationContext.type
    # concepts a computed result rests on (a threshold): cited beside the answer, not off it
    computed_from: frozenset[str] = frozenset()
    related: tuple[str, ...] = ()  # the related questions offered
    session: str | None = None  # the conversation the response belongs to
    route: str | None = None  # triage's route: "dossier" when a message was only noted


def observe(response: Mapping[str, Any], facts: RuleFacts, validity: ValidationResult) -> Observed:
    """Reduce a response to the judged fields; a card id is "<rule_id>@<evidence_id>"."""
    citations = response.get("citations")
    cards: list[Any] = []
    if isinstance(citations, Mapping):
        supporting = citations.get("supporting")
        cards = [citations.get("primary"), *(supporting if isinstance(supporting, list) else [])]
    more = response.get("additionalCitations")  # the cards of values beyond the contract's four
    cards += more if isinstance(more, list) else []
    rule_ids = [_rule_id(card) for card in cards]
    cited = tuple(found for rule in rule_ids if rule and (found := facts(rule)) is not None)
    primary = rule_ids[0] if rule_ids else None
    found = facts(primary) if primary else None
    obligation = response.get("obligationContext")
    understood = response.get("understood")
    computed = understood.get("computed") if isinstance(understood, Mapping) else None
    uses = frozenset(
        str(slug)
        for item in (computed if isinstance(computed, list) else [])
        if isinstance(item, Mapping)
        for slug in (item.get("uses") or [])
    )
    return Observed(
        kind=str(response.get("kind")),
        reason=response.get("refusalReason"),
        topic=response.get("topic"),
        rule_id=primary,
        concept=found[0] if found else None,
        value=found[1] if found else None,
        errors=validity.errors,
        cited=cited,
        obligation=obligation.get("type") if isinstance(obligation, Mapping) else None,
        computed_from=uses,
        related=tuple(
            str(q) for q in (response.get("relatedQuestions") or []) if isinstance(q, str)
        ),
        session=response.get("sessionId") if isinstance(response.get("sessionId"), str) else None,
        route=_route(response),
    )


def _route(response: Mapping[str, Any]) -> str | None:
    triage = response.get("triage")
    route = triage.get("route") if isinstance(triage, Mapping) else None
    return route if isinstance(route, str) else None


def _rule_id(card: Any) -> str | None:
    card_id = card.get("id") if isinstance(card, Mapping) else None
    return card_id.split("@", 1)[0] if isinstance(card_id, str) and card_id else None


def judge(expect: Expectation, observed: Observed, complete: bool = False) -> Verdict:
    """The verdict on one response. A fatal miss outranks everything, invalidity the rest.
    `complete`: the question asks for several values, and is right only when every expected
    value is stated with its citation (not only the contract's first four)."""
    if observed.kind == NO_RESPONSE:
        return "error"
    verdict = _judge_content(expect, observed, complete)
    if verdict not in FATAL and observed.errors:
        return "invalid"
    return verdict


def _judge_content(expect: Expectation, observed: Observed, complete: bool) -> Verdict:
    if expect.kind == "ANSWER":
        if observed.kind != "ANSWER":
            return "refused"
        verdict = _judge_answer(expect, observed, complete)
        if verdict != "correct":
            return verdict
    elif observed.kind == "ANSWER":
        return "off_target" if observed.value is not None else "answered"
    elif observed.reason not in expect.reasons:
        return "wrong_reason"
    if expect.topic is not None and observed.topic != expect.topic:
        return "wrong_topic"
    return "correct"


def _judge_answer(expect: Expectation, observed: Observed, complete: bool) -> Verdict:
    if expect.conditional and not expect.answers:  # any rows of the concept, with conditions
        if observed.concept != expect.concept:
            return "off_target"
        if observed.obligation != "CONDITIONAL":
            return "wrong_value"  # one row given as if it applied to everybody
        concepts = {concept for concept, _ in observed.cited}
        return "correct" if concepts == {expect.concept} else "incomplete"
    expected = expect.answers or _single(expect)
    cited_pairs = observed.cited or _single(observed)
    allowed: dict[str, list[str]] = {}
    for concept, value in expected:
        allowed.setdefault(concept, []).append(value)
    if observed.concept not in allowed:
        return "off_target"
    if not _allowed(observed.value, allowed[observed.concept]):
        return "wrong_value"
    if expect.obligation is not None and observed.obligation != expect.obligation:
        return "wrong_value"
    if expect.conditional and observed.obligation != "CONDITIONAL":
        return "wrong_value"
    cited = [pair for pair in expected if _is_cited(pair, cited_pairs)]
    wanted = len(set(expected)) if complete else min(len(expected), MAX_CARDS)
    if len(set(cited)) < wanted:
        return "incomplete"
    if any(c not in allowed and c not in observed.computed_from for c, _ in cited_pairs):
        return "incomplete"
    return "correct"


def _single(found: Expectation | Observed) -> tuple[tuple[str, str], ...]:
    """The one (concept, value) of an expectation or observation written without a list."""
    if found.concept is None or found.value is None:
        return ()
    return ((found.concept, found.value),)


def _allowed(value: str | None, values: list[str]) -> bool:
    return value is not None and any(same_value(value, expected) for expected in values)


def _is_cited(pair: tuple[str, str], cited: tuple[tuple[str, str], ...]) -> bool:
    return any(concept == pair[0] and same_value(value, pair[1]) for concept, value in cited)


def same_value(actual: str, expected: str) -> bool:
    """Equal as numbers when both parse ("40000.00" == "40000"), else as trimmed strings."""
    left, right = decimal_value(actual), decimal_value(expected)
    if left is not None and right is not None:
        return left == right
    return actual.strip() == expected.strip()

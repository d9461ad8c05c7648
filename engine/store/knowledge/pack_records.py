"""Read one record of each kind (source, evidence, concept, rule, faq) into its domain type.

Each reader gets the record's fields and reports bad ones through them; the caller keeps the
result only when no problem was found. A rule's pointers still hold evidence *keys* here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, cast

from engine.conditions import parse_condition
from engine.store.knowledge.pack_fields import RecordFields
from engine.store.knowledge.pack_resolutions import FIELDS as RESOLUTION_FIELDS
from engine.store.knowledge.pack_resolutions import read_resolution
from engine.types import (
    AMOUNT_FACTS,
    ANSWER_KINDS,
    AUTHORITIES,
    CAPTURE_METHODS,
    JURISDICTIONS,
    LANGUAGES,
    OBLIGATION_TYPES,
    QUALIFIER_DIMENSIONS,
    RISK_TIERS,
    RULE_STATUSES,
    STABILITIES,
    VALUE_TYPES,
    Concept,
    DateFromAge,
    Evidence,
    FaqEntry,
    Jurisdiction,
    Language,
    Pointer,
    Rule,
    Source,
    Threshold,
)

# The language a concept must at least be labelled in, by jurisdiction.
HOME_LANGUAGE: Mapping[Jurisdiction, Language] = {"HR": "hr", "NL": "nl", "US": "en", "EU": "en"}


def evidence_id(url: str, text: str) -> str:
    """The content-derived evidence id: "ev_" + 16 hex digits of sha256(url, newline, text).

    The url is part of the content: the same article text in two consolidated versions of an
    act (two urls) is two pieces of evidence, each speaking for its own period.
    """
    return "ev_" + hashlib.sha256(f"{url}\n{text}".encode()).hexdigest()[:16]


def _read_source(fields: RecordFields) -> Source:
    return Source(
        id=fields.text("id"),
        title=fields.text("title"),
        act_id=fields.text("act"),
        authority=cast(Any, fields.choice("authority", AUTHORITIES)),
        jurisdiction=cast(Any, fields.choice("jurisdiction", JURISDICTIONS)),
        language=cast(Any, fields.choice("language", LANGUAGES)),
        url=fields.text("url"),
        publisher=fields.text("publisher", required=False),
        licence=fields.text("licence", required=False),
        reflects=fields.names("reflects"),
    )


def _read_evidence(fields: RecordFields) -> Evidence:
    text, url = fields.text("text"), fields.text("url")
    sha256 = fields.text("sha256")
    actual = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if text and sha256 and sha256.lower() != actual:
        fields.fail(
            f"sha256 does not match the text (the text hashes to {actual}); copy the text verbatim"
        )
    return Evidence(
        id=evidence_id(url, text),
        key=fields.text("key"),
        source_id=fields.text("source"),
        locator=fields.text("locator"),
        text=text,
        sha256=actual,
        url=url,
        fetched_at=cast(Any, fields.moment("fetched_at")),
        capture_method=cast(Any, fields.choice("capture", CAPTURE_METHODS)),
        note=fields.text("note", required=False),
    )


CAVEAT_LIMIT = 140  # a caveat is one bullet of an answer's why, shown whole


def _read_concept(fields: RecordFields) -> Concept:
    jurisdiction = fields.choice("jurisdiction", JURISDICTIONS)
    labels = fields.localised("labels")
    home = HOME_LANGUAGE.get(cast(Jurisdiction, jurisdiction))
    if home and labels and home not in labels:
        fields.fail(f"labels need at least {home!r}, the language of jurisdiction {jurisdiction}")
    caveat = fields.localised("caveat", required=False)
    if caveat and set(caveat) != {"hr", "nl", "en"}:
        fields.fail("caveat needs hr, nl and en: every answer in any language states it")
    if long := [lang for lang, text in caveat.items() if len(text) > CAVEAT_LIMIT]:
        fields.fail(f"caveat ({long[0]}) is longer than {CAVEAT_LIMIT} characters, a why bullet")
    return Concept(
        slug=fields.text("slug"),
        domain=fields.text("domain"),
        jurisdiction=cast(Jurisdiction, jurisdiction),
        labels=labels,
        aliases=fields.aliases("aliases"),
        family=fields.text("family", required=False),
        answers=cast(Any, fields.choices("answers", ANSWER_KINDS)),
        varies_by=cast(Any, fields.choices("varies_by", QUALIFIER_DIMENSIONS)),
        threshold=_read_threshold(fields),
        date_from_age=_read_date_from_age(fields),
        caveat=caveat,
    )


def _read_threshold(fields: RecordFields) -> Threshold | None:
    raw = fields.raw("threshold")
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or not {"facts", "above", "at_or_below"} <= set(raw) <= {
        "facts",
        "above",
        "at_or_below",
        "since",
    }:
        fields.fail("threshold must be a mapping with facts, above, at_or_below (and since)")
        return None
    since = raw.get("since")
    if since is not None and (not isinstance(since, date) or isinstance(since, datetime)):
        fields.fail(f"threshold.since must be a date (YYYY-MM-DD), got {since!r}")
        return None
    facts = raw["facts"]
    if not isinstance(facts, list) or not facts or any(f not in AMOUNT_FACTS for f in facts):
        fields.fail(f"threshold.facts must be a non-empty list of {', '.join(AMOUNT_FACTS)}")
        return None
    sides = (raw["above"], raw["at_or_below"])
    if not all(isinstance(side, str) and side for side in sides):
        fields.fail(
            "threshold.above and threshold.at_or_below must be an obligation type or a slug"
        )
        return None
    return Threshold(tuple(facts), str(sides[0]), str(sides[1]), since)


def _read_date_from_age(fields: RecordFields) -> DateFromAge | None:
    raw = fields.raw("date_from_age")
    if raw is None:
        return None
    if (
        not isinstance(raw, Mapping)
        or set(raw) != {"age_concept", "after_years"}
        or not isinstance(raw["age_concept"], str)
        or isinstance(raw["after_years"], bool)
        or not isinstance(raw["after_years"], int)
    ):
        fields.fail("date_from_age must be {age_concept: <slug>, after_years: <whole number>}")
        return None
    return DateFromAge(raw["age_concept"], raw["after_years"])


def _read_rule(fields: RecordFields) -> Rule:
    effective_from = fields.day("effective_from")
    effective_until = fields.day("effective_until", required=False)
    if effective_from and effective_until and effective_from >= effective_until:
        fields.fail(
            f"effective_from {effective_from} must be before effective_until {effective_until}"
        )
    status = fields.choice("status", RULE_STATUSES)
    pointers = _read_pointers(fields)
    if status == "PUBLISHED" and not fields.raw("pointers"):
        fields.fail("a PUBLISHED rule needs at least one pointer to evidence")
    return Rule(
        id=fields.text("id"),
        concept=fields.text("concept"),
        title=fields.localised("title"),
        explanation=fields.localised("explanation"),
        value=fields.text("value"),
        value_type=cast(Any, fields.choice("value_type", VALUE_TYPES)),
        unit=fields.text("unit", required=False),
        effective_from=cast(Any, effective_from),
        effective_until=effective_until,
        status=cast(Any, status),
        authority=cast(Any, fields.choice("authority", AUTHORITIES)),
        obligation_type=cast(Any, fields.choice("obligation_type", OBLIGATION_TYPES)),
        risk_tier=cast(Any, fields.choice("risk_tier", RISK_TIERS)),
        applies_when=_read_condition(fields),
        pointers=pointers,
        confidence=fields.fraction("confidence", 0.9),
        verified_as_of=fields.day("verified_as_of", required=False),
        stability=_read_stability(fields),
        value_label=fields.localised("value_label", required=False),
        conflicts_with=_conflict_ids(fields.raw("conflicts_with")),
    )


def _conflict_ids(raw: object) -> tuple[str, ...]:
    """`conflicts_with`: a rule id or a list of them (pack_parse reports a bad one)."""
    ids = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return tuple(rule_id for rule_id in ids if isinstance(rule_id, str) and rule_id)


def _read_faq(fields: RecordFields) -> FaqEntry:
    question = fields.text("question")
    if question and not question.strip():
        fields.fail("question is empty; write the question as a user would type it")
    return FaqEntry(
        id=fields.text("id"),
        language=cast(Language, fields.choice("language", LANGUAGES)),
        question=question.strip(),
        concept=fields.text("concept"),
        rules=fields.names("rules"),
    )


@dataclass(frozen=True, slots=True)
class NotAFact:
    """A sentence of an evidence text that states a figure but no fact to answer (a heading, a
    reference to another act), with the reason: `navod kb coverage` counts it as explained."""

    evidence: str  # the evidence key
    sentence: str  # verbatim words of the sentence, enough to find it
    reason: str


def _read_not_fact(fields: RecordFields) -> NotAFact:
    return NotAFact(
        evidence=fields.text("evidence"),
        sentence=fields.text("sentence"),
        reason=fields.text("not_a_fact"),
    )


def _read_stability(fields: RecordFields) -> Any:
    if fields.raw("stability") is None:
        return None
    return fields.choice("stability", STABILITIES)


def _read_pointers(fields: RecordFields) -> tuple[Pointer, ...]:
    raw = fields.raw("pointers") or []
    if not isinstance(raw, list):
        fields.fail("pointers must be a list of {evidence, quote}")
        return ()
    pointers: list[Pointer] = []
    for index, item in enumerate(raw, start=1):
        if not isinstance(item, Mapping):
            fields.fail(f"pointer {index} must be a mapping {{evidence, quote}}")
            continue
        unknown = sorted(str(name) for name in item if name not in ("evidence", "quote"))
        key, quote = item.get("evidence"), item.get("quote")
        if (
            unknown
            or not isinstance(key, str)
            or not key
            or not isinstance(quote, str)
            or not quote
        ):
            fields.fail(f"pointer {index} needs exactly a non-empty evidence key and quote")
            continue
        pointers.append(Pointer(evidence_id=key, quote=quote))
    return tuple(pointers)


def _read_condition(fields: RecordFields) -> object:
    raw = fields.raw("applies_when")
    try:
        parse_condition(raw)
        json.dumps(raw)
    except ValueError as error:
        fields.fail(f"applies_when does not parse: {error}")
    except TypeError:
        fields.fail("applies_when must be plain JSON values (quote dates as strings)")
    return raw


READERS: Mapping[str, tuple[str, str, Callable[[RecordFields], Any]]] = {
    "sources": ("source", "id", _read_source),
    "evidence": ("evidence", "key", _read_evidence),
    "concepts": ("concept", "slug", _read_concept),
    "rules": ("rule", "id", _read_rule),
    "faq": ("faq", "id", _read_faq),
    "not_facts": ("not-a-fact", "sentence", _read_not_fact),
    "resolutions": ("resolution", "id", read_resolution),
}
KNOWN_FIELDS: Mapping[str, tuple[str, ...]] = {
    "sources": (
        "id",
        "title",
        "act",
        "authority",
        "jurisdiction",
        "language",
        "url",
        "publisher",
        "licence",
        "reflects",
    ),
    "evidence": (
        "key",
        "source",
        "locator",
        "url",
        "fetched_at",
        "capture",
        "sha256",
        "note",
        "text",
    ),
    "concepts": (
        "slug",
        "domain",
        "jurisdiction",
        "labels",
        "aliases",
        "family",
        "answers",
        "varies_by",
        "threshold",
        "date_from_age",
        "caveat",
    ),
    "rules": (
        "id",
        "concept",
        "title",
        "explanation",
        "value",
        "value_type",
        "unit",
        "effective_from",
        "effective_until",
        "status",
        "authority",
        "obligation_type",
        "risk_tier",
        "confidence",
        "verified_as_of",
        "stability",
        "value_label",
        "applies_when",
        "pointers",
        "conflicts_with",
    ),
    "faq": ("id", "language", "question", "concept", "rules"),
    "not_facts": ("evidence", "sentence", "not_a_fact"),
    "resolutions": RESOLUTION_FIELDS,
}

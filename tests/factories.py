"""Small knowledge bases built in code, for stage tests that should not depend on real packs."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import UTC, date, datetime
from typing import Any

from engine.snapshot import Snapshot, compile_snapshot
from engine.types import Concept, Evidence, KnowledgeBase, Pointer, Question, Rule, Source

FETCHED = datetime(2026, 11, 1, tzinfo=UTC)
TODAY = date(2026, 11, 22)

LAW = Source("law", "Zakon o testu", "NN 1/24", "LAW", "HR", "hr", "https://example.test/law")
GUIDE = Source("guide", "Upute", "", "GUIDANCE", "HR", "hr", "https://example.test/guide")
BLOG = Source("blog", "Savjetnik", "", "PRACTICE", "HR", "hr", "https://example.test/blog")
US_LAW = Source(
    "us", "42 U.S.C. 416(l)", "42 USC 416(l)", "LAW", "US", "en", "https://example.test/us"
)


def evidence(source: Source, text: str, key: str) -> Evidence:
    digest = hashlib.sha256(text.encode()).hexdigest()
    return Evidence(
        f"ev_{digest[:16]}",
        key,
        source.id,
        "čl. 1",
        text,
        digest,
        source.url + "#" + key,
        FETCHED,
        "transcribed",
    )


EV_RATE = evidence(LAW, "Opća stopa PDV-a iznosi 25 %, snižene stope 13 % i 5 %.", "rate")
EV_RATE_OLD = evidence(LAW, "Opća stopa PDV-a iznosi 23 %.", "rate-old")
EV_PRAG_GUIDE = evidence(GUIDE, "Prag za ulazak u sustav PDV-a je 40.000,00 eura.", "prag-g")
EV_PRAG_BLOG = evidence(BLOG, "Prag iznosi 39.816,84 eura.", "prag-b")
EV_FRA = evidence(US_LAW, "retirement age means 67 years of age; 66 years of age", "fra")


def concept(
    slug: str,
    hr: str,
    en: str,
    aliases: tuple[str, ...] = (),
    jurisdiction: Any = "HR",
    domain: str = "tax.vat",
) -> Concept:
    return Concept(slug, domain, jurisdiction, {"hr": hr, "en": en, "nl": en}, {"hr": aliases})


def rule(
    rule_id: str,
    concept_slug: str,
    value: str,
    ev: Evidence,
    quote: str,
    start: date,
    until: date | None = None,
    **extra: Any,
) -> Rule:
    base = Rule(
        id=rule_id,
        concept=concept_slug,
        title={"hr": rule_id, "en": rule_id},
        explanation={"hr": "Objašnjenje.", "en": "Explanation.", "nl": "Uitleg."},
        value=value,
        value_type="percentage",
        unit="%",
        effective_from=start,
        effective_until=until,
        status="PUBLISHED",
        authority="LAW",
        obligation_type="INFORMATIONAL",
        risk_tier="low",
        applies_when=None,
        pointers=(Pointer(ev.id, quote),),
        confidence=0.9,
    )
    return replace(base, **extra)


CONCEPTS = (
    concept("rate", "opća stopa PDV-a", "standard VAT rate", ("stopa pdv-a", "pdv stopa")),
    concept(
        "reduced-13", "snižena stopa PDV-a 13", "reduced VAT rate 13", ("snižena stopa pdv-a",)
    ),
    concept("reduced-5", "snižena stopa PDV-a 5", "reduced VAT rate 5", ("snižena stopa pdv-a",)),
    concept("prag", "prag za PDV", "VAT threshold", ("pdv prag", "prag za ulazak u sustav pdv-a")),
    concept(
        "fra",
        "puna dob za mirovinu",
        "full retirement age",
        ("retirement age", "fra"),
        jurisdiction="US",
        domain="retirement.income_cash_flow",
    ),
)

RULES = (
    rule("rate-2013", "rate", "25", EV_RATE, "Opća stopa PDV-a iznosi 25 %", date(2013, 7, 1)),
    rule(
        "rate-2012",
        "rate",
        "23",
        EV_RATE_OLD,
        "Opća stopa PDV-a iznosi 23 %",
        date(2010, 1, 1),
        date(2013, 7, 1),
    ),
    rule("reduced-13", "reduced-13", "13", EV_RATE, "13 %", date(2013, 7, 1)),
    rule("reduced-5", "reduced-5", "5", EV_RATE, "5 %", date(2013, 7, 1)),
    rule(
        "prag-guide",
        "prag",
        "40000",
        EV_PRAG_GUIDE,
        "40.000,00 eura",
        date(2024, 1, 1),
        authority="GUIDANCE",
        value_type="currency_eur",
        unit="EUR",
    ),
    rule(
        "prag-blog",
        "prag",
        "39816.84",
        EV_PRAG_BLOG,
        "39.816,84 eura",
        date(2023, 1, 1),
        authority="PRACTICE",
        value_type="currency_eur",
        unit="EUR",
        confidence=0.6,
    ),
    rule(
        "fra-67",
        "fra",
        "67",
        EV_FRA,
        "67 years of age",
        date(1983, 4, 20),
        value_type="years",
        unit="years",
        applies_when={"cmp": {"field": "birth_year", "op": "gte", "value": 1960}},
    ),
    rule(
        "fra-66",
        "fra",
        "66",
        EV_FRA,
        "66 years of age",
        date(1983, 4, 20),
        value_type="years",
        unit="years",
        applies_when={"between": {"field": "birth_year", "min": 1943, "max": 1954}},
    ),
)


def knowledge(rules: tuple[Rule, ...] = RULES, version: int = 1) -> KnowledgeBase:
    return KnowledgeBase(
        version=version,
        sources=(LAW, GUIDE, BLOG, US_LAW),
        evidence=(EV_RATE, EV_RATE_OLD, EV_PRAG_GUIDE, EV_PRAG_BLOG, EV_FRA),
        concepts=CONCEPTS,
        rules=rules,
    )


def snapshot(rules: tuple[Rule, ...] = RULES) -> Snapshot:
    return compile_snapshot(knowledge(rules))


def question(text: str, **extra: Any) -> Question:
    return Question(text=text, surface=extra.pop("surface", "MARKETING"), today=TODAY, **extra)

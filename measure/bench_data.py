"""The benchmark's generated knowledge base and question mix, deterministic for a seed.

Concepts are named with pronounceable pseudo-words that no hr/nl/en dictionary knows, so they
never collide with the real packs, and end in a consonant no stemmer trims, so every language
reads them as the same key. Each rule rests on its own evidence text that states the value
(one text per period, as a law's consolidated versions are), quoted verbatim.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import simplemma

from engine.store.knowledge.pack_records import HOME_LANGUAGE, evidence_id
from engine.store.knowledge.packs import PackContents
from engine.text.stopwords import STOPWORDS
from engine.types import (
    LANGUAGES,
    Authority,
    ChecklistItem,
    Concept,
    Evidence,
    Jurisdiction,
    Language,
    PlanningTopic,
    Pointer,
    Rule,
    Source,
    ValueType,
)

FETCHED_AT = datetime(2026, 11, 1, tzinfo=UTC)  # a fixed capture time: never "now"
CONCEPTS_PER_SOURCE = 100
CONDITION_SHARE = 0.05  # concepts whose latest period depends on the client's turnover
CONDITION_FIELD = "annual_turnover_eur"  # a field clientContext declares
BENCH_PACK = "bench"  # the pack the generated knowledge belongs to, written out as a folder
# A pack's conditions read only facts its planning topics ask for: the turnover, here.
BENCH_TOPIC = PlanningTopic(
    id="bench_turnover",
    pack=BENCH_PACK,
    label={"en": "Turnover", "hr": "Promet", "nl": "Omzet"},
    checklist=(
        ChecklistItem(
            fact=CONDITION_FIELD,
            weight=1,
            question={
                "en": "What is your yearly turnover?",
                "hr": "Koliki je vaš godišnji promet?",
                "nl": "Hoeveel omzet heeft u per jaar?",
            },
        ),
    ),
)
_JURISDICTIONS: tuple[Jurisdiction, ...] = ("HR", "NL", "US")
_ONSETS = "b d g k l m p r s t v z br dr gr kr pl st tr sk".split()
_VOWELS, _CODAS = "aeiou", ("", "", "l", "r", "s")
_FINALS = "k r t l d v p z b".split()  # letters no hr/nl/en suffix rule trims
_SIMPLEMMA = ("hbs", "nl", "en")
_STOP = frozenset().union(*STOPWORDS.values())


@dataclass(frozen=True, slots=True)
class Kind:
    """One family of generated concepts: its value type and how each language names it."""

    value_type: ValueType
    unit: str
    nouns: Mapping[Language, str]


_KINDS: tuple[Kind, ...] = (
    Kind("percentage", "%", {"hr": "stopa", "nl": "tarief", "en": "rate"}),
    Kind("percentage", "%", {"hr": "postotak", "nl": "percentage", "en": "percentage"}),
    Kind("currency_eur", "EUR", {"hr": "prag", "nl": "drempel", "en": "threshold"}),
    Kind("currency_eur", "EUR", {"hr": "limit", "nl": "grens", "en": "limit"}),
    Kind("years", "years", {"hr": "dob", "nl": "leeftijd", "en": "age"}),
)
_VERB: Mapping[Language, str] = {"hr": "iznosi", "nl": "bedraagt", "en": "is"}
_FROM: Mapping[Language, str] = {"hr": "Vrijedi od", "nl": "Geldt vanaf", "en": "Applies from"}


def pseudo_words(rng: random.Random, count: int, taken: set[str]) -> list[str]:
    """`count` new words of 2-3 syllables, unknown to every dictionary, none in `taken`."""
    found: list[str] = []
    while len(found) < count:
        syllables = [rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(rng.randint(2, 3))]
        word = "".join(s + rng.choice(_CODAS) for s in syllables[:-1]) + syllables[-1]
        word += rng.choice(_FINALS)
        if len(word) < 6 or word in taken or word in _STOP or _known(word):
            continue
        taken.add(word)
        found.append(word)
    return found


def _known(word: str) -> bool:
    return any(simplemma.is_known(word, lang=code) for code in _SIMPLEMMA)


def generate_knowledge(concepts: int, rules_per_concept: int, seed: int) -> PackContents:
    """A knowledge base of `concepts` concepts with `rules_per_concept` dated rules each."""
    rng = random.Random(seed)
    taken: set[str] = set()
    sources: list[Source] = []
    evidence: list[Evidence] = []
    made_concepts: list[Concept] = []
    rules: list[Rule] = []
    for number in range(concepts):
        jurisdiction = _JURISDICTIONS[number % len(_JURISDICTIONS)]
        if number // len(_JURISDICTIONS) % CONCEPTS_PER_SOURCE == 0:
            sources.append(_source(jurisdiction, len(sources)))
        source = next(s for s in reversed(sources) if s.jurisdiction == jurisdiction)
        words = pseudo_words(rng, 3, taken)
        kind = _kind_for(jurisdiction, rng.choice(_KINDS))
        concept = _concept(number, source, kind, words, rng)
        made_concepts.append(concept)
        article = number // len(_JURISDICTIONS) % CONCEPTS_PER_SOURCE + 1
        url = f"{source.url}#art-{article}"
        for rule, text in _history(concept, kind, url, source, rules_per_concept, rng):
            evidence.append(_evidence(rule, text, url, source))
            rules.append(rule)
    return PackContents(
        tuple(sources), tuple(evidence), tuple(made_concepts), tuple(rules), topics=(BENCH_TOPIC,)
    )


def _kind_for(jurisdiction: Jurisdiction, kind: Kind) -> Kind:
    """US amounts are in dollars."""
    if jurisdiction == "US" and kind.value_type == "currency_eur":
        return replace(kind, value_type="currency_usd", unit="USD")
    return kind


def _source(jurisdiction: Jurisdiction, number: int) -> Source:
    authority: Authority = "LAW" if number % 2 == 0 else "REGULATION"
    act = f"BENCH-{jurisdiction}-{number:03d}"
    return Source(
        id=f"bench-src-{number:03d}",
        title=f"Generated benchmark act {act}",
        act_id=act,
        authority=authority,
        jurisdiction=jurisdiction,
        language=HOME_LANGUAGE[jurisdiction],
        url=f"https://bench.navod.invalid/{act.lower()}",
        publisher="navod bench",
        licence="Generated text, no rights reserved",
    )


def _concept(
    number: int, source: Source, kind: Kind, words: list[str], rng: random.Random
) -> Concept:
    """A concept named by pseudo-words; its domain is its act, about 100 concepts each."""
    first, second, third = words
    name = f"{first} {second}"
    aliases = [name, f"{second} {third}"] + ([third] if rng.random() < 0.5 else [])
    return Concept(
        slug=f"bench-{number:05d}-{first}-{second}",
        domain=f"bench.{source.act_id.lower()}",
        jurisdiction=source.jurisdiction,
        labels={
            "hr": f"{kind.nouns['hr']} {name}",
            "nl": f"{kind.nouns['nl']} {name}",
            "en": f"{name} {kind.nouns['en']}",
        },
        aliases={source.language: tuple(aliases)},
    )


def _history(
    concept: Concept, kind: Kind, url: str, source: Source, count: int, rng: random.Random
) -> Iterator[tuple[Rule, str]]:
    """Consecutive periods, the last open; a few concepts split the last period by turnover."""
    split = count >= 2 and rng.random() < CONDITION_SHARE
    periods = count - 1 if split else count
    starts = [date(rng.randint(1995, 2008), 1, 1)]
    for _ in range(periods - 1):
        starts.append(date(starts[-1].year + rng.randint(1, 2), rng.choice((1, 7)), 1))
    value = _first_value(kind, rng)
    for index, start in enumerate(starts):
        until = starts[index + 1] if index + 1 < len(starts) else None
        value = _next_value(kind, value, rng) if index else value
        if until is None and split:
            limit = rng.choice((25_000, 40_000, 60_000))
            for op, extra in (("lte", Decimal("0")), ("gt", Decimal("1"))):
                condition = {"cmp": {"field": CONDITION_FIELD, "op": op, "value": limit}}
                yield _rule(concept, kind, url, source, start, None, value + extra, condition, op)
        else:
            yield _rule(concept, kind, url, source, start, until, value, None, "")


def _first_value(kind: Kind, rng: random.Random) -> Decimal:
    if kind.value_type == "percentage":
        return Decimal(rng.choice((5, 10, 13, 15, 20, 22, 25))) + Decimal(rng.choice((0, 0, "0.5")))
    if kind.value_type == "years":
        return Decimal(rng.randint(55, 67))
    return Decimal(rng.randrange(5_000, 100_000, 500))


def _next_value(kind: Kind, value: Decimal, rng: random.Random) -> Decimal:
    if kind.value_type == "percentage":
        return max(Decimal(1), value + Decimal(rng.choice((-1, 0, 0, 1, 2))))
    if kind.value_type == "years":
        return value + rng.choice((0, 0, 1))
    return value + rng.randrange(0, 5_000, 500)


def _rule(
    concept: Concept,
    kind: Kind,
    url: str,
    source: Source,
    start: date,
    until: date | None,
    value: Decimal,
    condition: dict[str, Any] | None,
    suffix: str,
) -> tuple[Rule, str]:
    language = source.language
    statement = stated(kind, concept, value, language)
    # one line per sentence: the quote is the whole first one ("… iznosi 45.000 eura.")
    text = f"{statement}.\n{_FROM[language]} {start.isoformat()}."
    if condition is not None:
        text += f" ({CONDITION_FIELD} {condition['cmp']['op']} {condition['cmp']['value']})"
    rule_id = f"{concept.slug}-{start.isoformat()}" + (f"-{suffix}" if suffix else "")
    title = {lang: stated(kind, concept, value, lang) for lang in LANGUAGES}
    rule = Rule(
        id=rule_id,
        concept=concept.slug,
        title=title,
        explanation=title,
        value=str(value),
        value_type=kind.value_type,
        unit=kind.unit,
        effective_from=start,
        effective_until=until,
        status="PUBLISHED",
        authority=source.authority,
        obligation_type="INFORMATIONAL",
        risk_tier="low",
        applies_when=condition,
        pointers=(Pointer(evidence_id=evidence_id(url, text), quote=f"{statement}."),),
        confidence=0.9,
        # a closed period is vouched for up to its last day, an open one up to the capture
        verified_as_of=until - timedelta(days=1) if until else FETCHED_AT.date(),
        stability="stable",
    )
    return rule, text


def stated(kind: Kind, concept: Concept, value: Decimal, language: Language) -> str:
    """The sentence that states `value` for the concept, written the way `language` writes it."""
    name = concept.labels["hr"].split(" ", 1)[1]
    if language == "en":
        return f"The {name} {kind.nouns['en']} {_VERB['en']} {_format(kind, value, 'en')}"
    noun = kind.nouns[language].capitalize()
    return f"{noun} {name} {_VERB[language]} {_format(kind, value, language)}"


def _format(kind: Kind, value: Decimal, language: Language) -> str:
    if kind.value_type == "percentage":
        number = str(value).replace(".", ",") if language != "en" else str(value)
        return f"{number} %"
    if kind.value_type == "years":
        return {"hr": f"{value} godina", "nl": f"{value} jaar", "en": f"{value} years"}[language]
    grouped = f"{int(value):,}"
    code = "USD" if kind.value_type == "currency_usd" else "EUR"
    if language == "en":
        return f"{code} {grouped}"
    local = grouped.replace(",", ".")
    if language == "hr":
        return f"{local} {'dolara' if code == 'USD' else 'eura'}"
    return f"{'$' if code == 'USD' else '€'} {local}"


def _evidence(rule: Rule, text: str, url: str, source: Source) -> Evidence:
    return Evidence(
        id=evidence_id(url, text),
        key=f"{rule.id}-text",
        source_id=source.id,
        locator=f"art. {url.rsplit('-', 1)[1]}",
        text=text,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        url=url,
        fetched_at=FETCHED_AT,
        capture_method="transcribed",
        note=f"Generated for the benchmark; the version in force from {rule.effective_from}.",
    )


@dataclass(frozen=True, slots=True)
class BenchQuestion:
    """One request of the mix: its ChatRequest body, its category, and what it is about."""

    category: str
    payload: Mapping[str, Any]
    concept: str | None = None  # the generated concept a correct answer cites
    expected: str | None = None  # the golden outcome of a real case ("ANSWER", "REFUSAL:…")


# Share of each category in the mix; the refusal kinds share what is left over evenly.
MIX: Mapping[str, float] = {"real": 0.30, "generated": 0.40, "typo": 0.15}
REFUSAL_KINDS = ("offtopic", "unsupported_jurisdiction", "vague", "before_history", "unknown_term")
_OFFTOPIC = tuple(
    "Koliko je sati?|What's the weather in Zagreb?|Hoe laat is het?|How do I reset my password?|"
    "Koliko košta pretplata na Navod?|Tell me a joke".split("|")
)
_VAGUE = ("porez", "stopa", "tax", "belasting", "retirement", "prag", "tarief", "rate", "limit")
_ABROAD: Mapping[Language, tuple[str, ...]] = {
    "hr": ("u Njemačkoj", "u Austriji", "u Sloveniji"),
    "nl": ("in Duitsland", "in België", "in Frankrijk"),
    "en": ("in Germany", "in Canada", "in Italy"),
}
# The first template of each language names the noun, a regulatory cue when a typo hides the alias.
_ASK: Mapping[Language, tuple[str, ...]] = {
    "hr": (
        "Koliki je {noun} {alias}?",
        "{noun} {alias}",
        "{alias} {year}",
        "{noun} {alias} {year}.",
    ),
    "nl": (
        "Wat is het {noun} {alias}?",
        "{alias} in {year}",
        "Hoeveel bedraagt {alias} in {year}?",
    ),
    "en": (
        "What is the {alias} {noun}?",
        "{alias} in {year}",
        "What was the {alias} {noun} in {year}?",
    ),
}


def generate_questions(
    kb: PackContents, real: Sequence[BenchQuestion], count: int, seed: int
) -> tuple[BenchQuestion, ...]:
    """`count` questions in the MIX proportions, shuffled; the same for the same inputs."""
    rng = random.Random(seed)
    asker = _Asker(kb, rng)
    sizes = {name: round(count * share) for name, share in MIX.items()}
    left = count - sum(sizes.values())
    sizes |= {
        kind: left // len(REFUSAL_KINDS) + (i < left % len(REFUSAL_KINDS))
        for i, kind in enumerate(REFUSAL_KINDS)
    }
    questions = [real[i % len(real)] for i in range(sizes.pop("real"))] if real else []
    for category, size in sizes.items():
        questions.extend(asker.ask(category) for _ in range(size))
    rng.shuffle(questions)
    return tuple(questions)


class _Asker:
    """Writes questions about random generated concepts, the way people type them."""

    def __init__(self, kb: PackContents, rng: random.Random) -> None:
        self.rng = rng
        self.concepts = kb.concepts
        self.starts: dict[str, list[date]] = {}
        self.split: set[str] = set()
        for rule in kb.rules:
            self.starts.setdefault(rule.concept, []).append(rule.effective_from)
            if rule.applies_when is not None:
                self.split.add(rule.concept)
        self.taken = {
            w for c in kb.concepts for a in c.aliases.values() for n in a for w in n.split()
        }

    def ask(self, category: str) -> BenchQuestion:
        rng = self.rng
        if category == "offtopic":
            return BenchQuestion(category, {"query": rng.choice(_OFFTOPIC)})
        if category == "vague":
            return BenchQuestion(category, {"query": rng.choice(_VAGUE)})
        concept = rng.choice(self.concepts)
        language: Language = next(iter(concept.aliases))
        if rng.random() < 0.2:
            language = rng.choice(LANGUAGES)
        alias = rng.choice(next(iter(concept.aliases.values())))
        noun = concept.labels[language].replace(concept.labels["hr"].split(" ", 1)[1], "").strip()
        starts = sorted(set(self.starts[concept.slug]))
        year = str(rng.choice([*(s.year for s in starts), "", ""]))
        if category == "before_history":
            year = str(starts[0].year - rng.randint(1, 5))
        template = rng.choice([t for t in _ASK[language] if ("{year}" in t) == bool(year)])
        if category == "typo":
            template, alias = _ASK[language][0], _typo(alias, rng)
        elif category == "unknown_term":
            template, alias = _ASK[language][0], " ".join(pseudo_words(rng, 2, self.taken))
        text = template.format(noun=noun, alias=alias, year=year)
        if category == "unsupported_jurisdiction":
            text = f"{text.rstrip('?')} {rng.choice(_ABROAD[language])}?"
        payload: dict[str, Any] = {"query": text}
        if concept.slug in self.split and rng.random() < 0.5:
            turnover = rng.randrange(0, 100_000, 1_000)
            payload |= {"surface": "APP", "clientContext": {CONDITION_FIELD: turnover}}
        answerable = category in ("generated", "typo")
        return BenchQuestion(category, payload, concept.slug if answerable else None)


def _typo(alias: str, rng: random.Random) -> str:
    """The alias with one letter of its longest word dropped, doubled or swapped with the next."""
    words = alias.split()
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    word = words[longest]
    at = rng.randrange(1, len(word) - 1)
    edit = rng.choice(("drop", "double", "swap"))
    if edit == "drop":
        word = word[:at] + word[at + 1 :]
    elif edit == "double":
        word = word[:at] + word[at] + word[at:]
    else:
        word = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    words[longest] = word
    return " ".join(words)

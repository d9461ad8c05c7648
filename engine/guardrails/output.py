"""Output guardrail: what Navod is about to send must not leak or invent anything.

A response fails when its human-readable text holds personal data, a URL that is not one of its
citations, an internal detail (stack trace, SQL, file path, configuration), or, in the answer
itself (headline, directAnswer, keyDetails), a number no cited source states. A failed response
is replaced by `safe_refusal`. Works on the wire dict and never raises on malformed input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

from engine.flow.cards import as_list, cited_cards, only_mappings
from engine.guardrails.pii import detect_pii
from engine.pipeline import templates as tpl
from engine.text.normalize import fold
from engine.text.numbers import dot_groups_thousands, parse_number
from engine.text.quantities import extract_quantities, numbers_stated
from engine.types import LANGUAGES, Language, Topic

_TOPICS: tuple[Topic, ...] = ("REGULATORY", "PRODUCT", "SUPPORT", "OFFTOPIC")
_KEEP = ("schemaVersion", "requestId", "traceId", "createdAt", "surface", "asOfDate", "language")
# Where each human-readable string lives; a list path is scanned item by item.
_TEXT_PATHS = (
    ("headline",),
    ("directAnswer",),
    ("keyDetails",),
    ("why", "bullets"),
    ("nextStep",),
    ("refusal", "message"),
    ("relatedQuestions",),
    ("disclaimer", "short"),
    ("disclaimer", "expanded"),
    ("disclaimer", "highRiskWarning"),
    ("obligationContext", "clarification"),
    ("conflict", "description"),
    ("conflict", "rationale"),
    ("missingContext", "message"),
)
# The answer proper: every number here must be stated by a cited source.
_VALUE_FIELDS = frozenset({"headline", "directAnswer", "keyDetails"})
_CARD_TEXTS = ("quote", "reference", "title", "freshnessWarning")
_CARD_DATES = ("effectiveFrom", "effectiveUntil")

# A range's end ("60-63 jaar") bounds a condition, it states no value: the look-behinds skip it.
_DURATION = re.compile(
    r"(?<![\d.,])(?<!\d[-–])(?<!\d [-–] )(\d+(?:[.,]\d+)?)\s*"
    r"(?:years?|yrs|months?|weeks?|days?|godin[aeu]|god\."
    r"|mjesec[aei]?|tjedan[a]?|tjedna|dan[a]?|jaar|jaren|maand(?:en)?|we(?:e)?k(?:en)?|dag(?:en)?)"
    r"(?![^\W\d_])"
)
# Joins fields for the first scan; long enough that no pattern's context reaches across it.
_FIELD_BREAK = "\n" * 12
_URL = re.compile(
    r"(?i)\b(?:https?://|ftp://|www\.)[^\s<>\"'`]+"
    r"|(?<![@\w.-])(?:[a-z0-9-]+\.)+(?:hr|nl|com|org|net|gov|eu|io|info|biz|us)"
    r"(?:/[^\s<>\"'`]*)?(?![\w.-]*\w)"
)
# Cheap test before the URL pattern, which would otherwise try every position of the text.
_URL_HINT = re.compile(r"(?i)://|www\.|\.(?:hr|nl|com|org|net|gov|eu|io|info|biz|us)\b")
_URL_TAIL = ".,;:!?)]}'\""
# (what leaked, substrings one of which must be present, pattern): the substrings spare
# clean text the regex scans, which matters since every response passes through here.
_INTERNALS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("a stack trace", ("Traceback",), re.compile(r"\bTraceback\b")),
    ("a source path", ('File "',), re.compile(r"File \"(?:/|[A-Za-z]:\\)")),
    (
        "an exception name",
        ("Error: ", "Exception: "),
        re.compile(r"\b[A-Z]\w*(?:Error|Exception): "),
    ),
    (
        "SQL",
        ("SELECT", "INSERT", "UPDATE", "DELETE", "TABLE"),
        re.compile(
            r"\bSELECT\b[^.;]{0,200}?\bFROM\b|\bINSERT\s+INTO\b|\bUPDATE\s+\w+\s+SET\b"
            r"|\bDELETE\s+FROM\b|\b(?:DROP|CREATE|ALTER|TRUNCATE)\s+TABLE\b"
        ),
    ),
    (
        "a file path",
        ("/", ":\\"),
        re.compile(r"(?<![\w.])/(?:work|etc|home|usr|var|tmp|opt|root|srv|proc)/|\b[A-Za-z]:\\"),
    ),
    (
        "configuration",
        ("_", "://"),
        re.compile(
            r"\b[A-Z][A-Z0-9]*_(?:URL|DSN|KEY|SECRET|TOKEN|PASSWORD)\b"
            r"|(?i:\b(?:postgres(?:ql)?(?:\+\w+)?|sqlite|mysql|mongodb|redis)://)"
        ),
    ),
)
_UNVERIFIED_MESSAGE: Mapping[Language, str] = {
    "hr": "Odgovor nije prošao provjeru prema citiranim izvorima, pa ga ne dajem. "
    "Pokušajte preformulirati pitanje.",
    "nl": "Het antwoord doorstond de controle tegen de geciteerde bronnen niet, "
    "dus ik geef het niet. Probeer de vraag anders te stellen.",
    "en": "The answer did not pass the check against its cited sources, so I do not give it. "
    "Try rephrasing the question.",
}


@dataclass(frozen=True, slots=True)
class OutputVerdict:
    safe: bool
    issues: tuple[str, ...]


def response_language(response: Mapping[str, Any]) -> Language:
    language = response.get("language")
    return language if language in LANGUAGES else "en"


def text_fields(response: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    """(name, text) for every human-readable string; list items are named "keyDetails[1]"."""
    for path in _TEXT_PATHS:
        value: Any = response
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        name = ".".join(path)
        if isinstance(value, str):
            yield name, value
        elif isinstance(value, list):
            yield from ((f"{name}[{i}]", v) for i, v in enumerate(value) if isinstance(v, str))


def check_output(response: Mapping[str, Any]) -> OutputVerdict:
    """Whether the response may leave the server, and every reason it may not."""
    cards = list(cited_cards(response))
    cited_urls = [_bare_url(card["url"]) for card in cards if isinstance(card.get("url"), str)]
    # A cited URL may also be named by its host alone ("irs.gov").
    allowed_urls = {*cited_urls, *(url.split("/")[0] for url in cited_urls)}
    allowed_numbers: frozenset[Decimal] | None = None  # computed only when a value needs it
    language = response_language(response)
    fields = list(text_fields(response))
    issues: list[str] = []
    # One scan of all the text first: a clean response (the usual case) is scanned once, and
    # only a response with a finding is scanned field by field to name where it is.
    if _leaks("", _FIELD_BREAK.join(text for _, text in fields), allowed_urls):
        for name, text in fields:
            issues += _leaks(name, text, allowed_urls)
    for name, text in fields:
        if name.split("[")[0] in _VALUE_FIELDS and any(char.isdigit() for char in text):
            if allowed_numbers is None:
                allowed_numbers = _numbers_cited(response, cards)
            issues += _unstated_numbers(name, text, language, allowed_numbers)
    return OutputVerdict(safe=not issues, issues=tuple(dict.fromkeys(issues)))


def _leaks(name: str, text: str, allowed_urls: set[str]) -> list[str]:
    found = [f"{name} contains personal data ({f.type})" for f in detect_pii(text)]
    if _URL_HINT.search(text):
        for match in _URL.finditer(text):
            if _bare_url(match.group()) not in allowed_urls:
                found.append(f"{name} links to a URL that is not a citation")
    found += [
        f"{name} exposes {what}"
        for what, needles, pattern in _INTERNALS
        if any(needle in text for needle in needles) and pattern.search(text)
    ]
    return found


def _unstated_numbers(
    name: str, text: str, language: Language, allowed: frozenset[Decimal]
) -> list[str]:
    """Values in `text` (percentages, amounts, counts of years, months, days) no source states.

    Bare numbers and years are not values: in the answer proper they name a thing or a
    condition ("Box 3", "401(k)", "50+", "do 2020.", "birth year ≥ 1960"). Dates are not
    checked either: "Vrijedilo do 31. prosinca 2024." renders the rule's effective_until,
    which the wire does not carry.
    """
    return [
        f"{name} states {_show(value)} not found in any cited quote"
        for value in _values_stated(text, language)
        if value not in allowed
    ]


# Answers repeat (the same rule renders the same text), so the parse is remembered: it is a
# pure function of the text, and the cache only bounds how much is remembered.
@lru_cache(maxsize=8192)
def _values_stated(text: str, language: Language) -> tuple[Decimal, ...]:
    stated = extract_quantities(text, language)
    values = [
        *stated.percentages,
        *(money.value for money in stated.amounts),
        *_durations(text, language),
    ]
    return tuple(dict.fromkeys(values))


def _durations(text: str, language: Language) -> list[Decimal]:
    """Numbers counting years, months, weeks or days: "73 godine", "66 and 6 months"."""
    thousands = dot_groups_thousands(language)
    return [parse_number(m.group(1), thousands) for m in _DURATION.finditer(fold(text))]


def _numbers_cited(
    response: Mapping[str, Any], cards: list[Mapping[str, Any]]
) -> frozenset[Decimal]:
    """Numbers the sources (and the asker's own data) state, with the parts of their dates."""
    texts = [card.get(key) for card in cards for key in _CARD_TEXTS]
    dates = [card.get(key) for card in cards for key in _CARD_DATES]
    dates.append(response.get("asOfDate"))
    texts += _client_values(response.get("clientContext"))
    texts += _stated_values(response.get("understood"))
    allowed: set[Decimal] = set()
    for text in texts:
        if isinstance(text, str):
            allowed |= numbers_stated(text)
    for value in dates:
        day = _iso_date(value)
        if day is not None:
            allowed |= {Decimal(day.day), Decimal(day.month), Decimal(day.year)}
    allowed |= _computed_from_cited(response.get("understood"), frozenset(allowed))
    return frozenset(allowed)


def _computed_from_cited(understood: Any, cited: frozenset[Decimal]) -> set[Decimal]:
    """A change between two cited values (`understood.computed`, kind "change"): its value may
    be stated when both ends are cited numbers and it is exactly their difference. Checked
    here again, so no computed number leaves unless the sources give its parts."""
    if not isinstance(understood, Mapping):
        return set()
    found: set[Decimal] = set()
    for item in only_mappings(as_list(understood.get("computed"))):
        if item.get("kind") != "change":
            continue
        try:
            old, new, value = (Decimal(str(item.get(k))) for k in ("from", "to", "value"))
        except ArithmeticError:
            continue
        if old in cited and new in cited and new - old == value:
            found.add(abs(value))
    return found


def _client_values(context: Any) -> list[str]:
    """The asker's own data and the result computed from it: an answer may restate them."""
    if not isinstance(context, Mapping):
        return []
    items = [
        *only_mappings(as_list(context.get("used"))),
        *only_mappings([context.get("computedResult")]),
    ]
    return [str(item.get("value")) for item in items if item.get("value") is not None]


def _stated_values(understood: Any) -> list[str]:
    """What the asker stated in the question (their turnover, their age): an answer may
    restate it when it compares it with a cited value."""
    if not isinstance(understood, Mapping):
        return []
    facts = [
        *only_mappings(as_list(understood.get("facts"))),
        *only_mappings(as_list(understood.get("remembered"))),  # said earlier in the dossier
    ]
    return [str(fact.get("value")) for fact in facts if fact.get("value") is not None]


def safe_refusal(response: Mapping[str, Any], verdict: OutputVerdict) -> dict[str, Any]:
    """The NO_CITABLE_RULES refusal that replaces a response failing `check_output`.

    The issues stay out of the text the asker sees (they may describe what leaked); callers log
    or trace `verdict.issues` themselves.
    """
    del verdict  # the refusal is the same whatever failed: nothing of the answer survives
    language = response_language(response)
    topic = response.get("topic")
    return {
        **{key: response[key] for key in _KEEP if isinstance(response.get(key), str)},
        "language": language,
        "kind": "REFUSAL",
        "topic": topic if topic in _TOPICS else "REGULATORY",
        "refusalReason": "NO_CITABLE_RULES",
        "headline": tpl.REFUSAL_HEADLINE["NO_CITABLE_RULES"][language],
        "directAnswer": "",
        "refusal": {"message": _UNVERIFIED_MESSAGE[language]},
    }


def _bare_url(url: str) -> str:
    """A URL without scheme, "www.", trailing punctuation or slash, lowercased, for comparison."""
    bare = url.strip().rstrip(_URL_TAIL).lower()
    bare = re.sub(r"^(?:https?|ftp)://", "", bare)
    return bare.removeprefix("www.").rstrip("/")


def _iso_date(value: Any) -> date | None:
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _show(value: Decimal) -> str:
    return format(value, "f")

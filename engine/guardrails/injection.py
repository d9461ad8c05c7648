"""Prompt injection: attempts to steer the service, found in a normalised matching copy.

The copy undoes the usual disguises (zero-width characters, look-alike letters, s p a c e d or
1337 spelling) before the configured patterns run; base64 runs are decoded and checked too.
When the text also holds a real question, that question is returned without the injection and
without the values it tried to plant, so it can be answered from the knowledge base unchanged.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
from dataclasses import dataclass

from engine.guardrails.config import GuardrailConfig
from engine.text.normalize import fold
from engine.types import LANGUAGES

ENCODED_PAYLOAD = "encoded-payload"
JAILBREAK_MARKER = "jailbreak-marker"
DISGUISED_TEXT = "disguised-text"

_INVISIBLE = "\u00ad\u034f\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
_INVISIBLE += "\u2060\u2061\u2062\u2063\u2064\ufeff"
# Cyrillic and Greek letters that pass for Latin ones; unidecode would spell some as others
# (Cyrillic р as "r"), which is right for Serbian but wrong for a disguised "prompt".
_LOOKALIKES = "асеіјорѕухкмнвтАВСЕНІЈКМНОРЅТХαοριενκτυχΑΒΕΗΙΚΜΝΟΡΤΧΥΖ"
_LATIN = "aceijopsyxkmhbtABCEHIJKMHOPSTXaopieyktuxABEHIKMNOPTXYZ"
_DISGUISE_TABLE = str.maketrans(_LOOKALIKES, _LATIN, _INVISIBLE)
_DISGUISE_CHAR = re.compile(f"[{_INVISIBLE}{_LOOKALIKES}]")
# Letters that lose more than an accent when folded (as in engine.text.normalize.fold).
_SPECIAL_LETTERS = {"đ": "d", "ð": "d", "ß": "ss", "æ": "ae", "ø": "o", "ł": "l", "ı": "i"}
_SPECIAL_TABLE = str.maketrans(_SPECIAL_LETTERS)
_SPECIAL_LETTER = re.compile(f"[{''.join(_SPECIAL_LETTERS)}]")
_COMBINING_MARK = re.compile(r"[\u0300-\u036f]")
# Four or more single characters joined by one separator: "i g n o r e", "j.a.i.l".
_SPACED = re.compile(r"\b(?:\w[ .*·+-]){3,}\w\b")
_SPACED_SEPARATOR = re.compile(r"[ .*·+-]")
# A word mixing letters with digits or @/$: "1gn0re", "$ystem". The gate finds such a
# character quickly; most questions hold none, so the slower rewrite rarely runs.
_LEET_GATE = re.compile(r"[0-9@$](?:(?<=[a-z][0-9@$])|(?=[a-z]))")
_LEET_WORD = re.compile(r"\b[a-z@$]*(?:[a-z][0-9@$]|[0-9@$][a-z])[a-z0-9@$]*")
_LEET = str.maketrans("013457@$", "oieastas")
# "ru1es": between letters a 1 stands for an l as often as for an i, so both are read.
_INNER_ONE = re.compile(r"(?<=[a-z])1(?=[a-z])")
# Everything but letters, deleted before markers are looked for ("jail-break" → "jailbreak").
_DROP_NON_LETTERS = str.maketrans(
    "",
    "",
    "".join(map(chr, range(128))).translate(str.maketrans("", "", "abcdefghijklmnopqrstuvwxyz")),
)
_BASE64_ALPHABET = r"[A-Za-z0-9+/]"
# Segment boundaries: sentence and clause punctuation followed by space, line breaks, dashes.
# Each alternative starts where a run of spaces starts and never backtracks into it (retrying
# `\s*\n` at every position of a long run of spaces cost the square of its length).
_BOUNDARY = re.compile(r"(?<=[.!?,;:])\s++|(?<!\s)[^\S\n]*+\n\s*+|(?<!\s)\s++[-–—]\s++")
_EDGE_PUNCTUATION = " ,;:-–—"


@dataclass(frozen=True, slots=True)
class InjectionVerdict:
    """Whether `text` tries to steer the service, why, and the real question inside it if any."""

    detected: bool
    wrapped_question: str | None
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _TriggerGate:
    """Which patterns can match a text, from the words it holds: most questions hold none.

    Running three dozen regexes over every question costs far more than a set intersection,
    so each pattern is indexed by the words it must start with (see `_triggers`).
    """

    patterns: tuple[tuple[str, re.Pattern[str]], ...]  # (reason, pattern)
    by_word: dict[str, tuple[int, ...]]  # a whole word that opens the pattern
    prefixes: tuple[tuple[str, int], ...]  # the start of a word that opens the pattern
    prefix_tuple: tuple[str, ...]
    always: tuple[int, ...]  # patterns of another shape: run on every text

    def reasons(self, copy: str) -> set[str]:
        words = set(_TOKEN.findall(copy))
        candidates = set(self.always)
        for word in words & self.by_word.keys():
            candidates.update(self.by_word[word])
        if self.prefix_tuple:
            for word in words:
                if word.startswith(self.prefix_tuple):
                    candidates.update(i for prefix, i in self.prefixes if word.startswith(prefix))
        return {self.patterns[i][0] for i in candidates if self.patterns[i][1].search(copy)}


@dataclass(frozen=True, slots=True)
class _Compiled:
    by_reason: tuple[tuple[str, re.Pattern[str]], ...]
    gate: _TriggerGate
    markers: tuple[str, ...]
    claims: re.Pattern[str]
    base64_run: re.Pattern[str]


_COMPILED: dict[tuple[object, ...], _Compiled] = {}


def detect_injection(text: str, config: GuardrailConfig) -> InjectionVerdict:
    """Look for injection in `text` (any of hr, nl, en); see the module docstring."""
    compiled = _compile(config)
    reasons = _reasons(text, compiled, decode=True)
    if not reasons:
        return InjectionVerdict(detected=False, wrapped_question=None, reasons=())
    question = _wrapped_question(text, compiled, config)
    return InjectionVerdict(detected=True, wrapped_question=question, reasons=reasons)


@dataclass(frozen=True, slots=True)
class MatchingText:
    """A text prepared for matching: its matching copies and its s p a c e d runs.

    copies: the folded text with disguises undone; a second reading is added when a "1"
        inside a word may stand for an "l" ("ru1es").
    spaced_runs: each s p a c e d run joined ("a m o r o n" → "amoron"); a run may have
        swallowed a real one-letter word, so look for words inside a run, not equal to it.
    disguised: whether undoing a disguise (not mere folding) changed the text.
    """

    copies: tuple[str, ...]
    spaced_runs: tuple[str, ...]
    disguised: bool


def matching_text(text: str) -> MatchingText:
    """Prepare `text` for the injection patterns and the abuse word list."""
    composed = unicodedata.normalize("NFKC", text)
    disguised = composed != text
    if _DISGUISE_CHAR.search(composed):
        composed = composed.translate(_DISGUISE_TABLE)
        disguised = True
    lowered = composed.lower()
    runs = tuple(_SPACED_SEPARATOR.sub("", m.group()) for m in _SPACED.finditer(lowered))
    if runs:
        lowered = _SPACED.sub(lambda m: _SPACED_SEPARATOR.sub("", m.group()), lowered)
    folded = _fold_latin(lowered)
    if _LEET_GATE.search(folded) is None:
        return MatchingText((folded,), tuple(map(_fold_latin, runs)), disguised or bool(runs))
    copies = [_LEET_WORD.sub(lambda m: m.group().translate(_LEET), folded)]
    if _INNER_ONE.search(folded):
        copies.append(
            _LEET_WORD.sub(lambda m: _INNER_ONE.sub("l", m.group()).translate(_LEET), folded)
        )
    return MatchingText(tuple(copies), tuple(map(_fold_latin, runs)), disguised=True)


def matching_copy(text: str) -> str:
    """The folded form of `text` with disguises undone; patterns and word lists match this."""
    return matching_text(text).copies[0]


def _fold_latin(lowered: str) -> str:
    """`fold` for Latin letters, faster: accents dropped by decomposition, spaces collapsed.

    Other scripts stay as they are; the patterns are ASCII and cannot match them anyway.
    """
    if not lowered.isascii():
        if _SPECIAL_LETTER.search(lowered):
            lowered = lowered.translate(_SPECIAL_TABLE)
        lowered = _COMBINING_MARK.sub("", unicodedata.normalize("NFKD", lowered))
    return " ".join(lowered.split())


def _reasons(text: str, compiled: _Compiled, *, decode: bool) -> tuple[str, ...]:
    prepared = matching_text(text)
    found: set[str] = set()
    for copy in prepared.copies:
        found.update(compiled.gate.reasons(copy))
        squashed = copy.translate(_DROP_NON_LETTERS)
        if any(marker in squashed for marker in compiled.markers):
            found.add(JAILBREAK_MARKER)
    if decode and _injected_runs(text, compiled):
        found.add(ENCODED_PAYLOAD)
    if found and prepared.disguised:
        found.add(DISGUISED_TEXT)
    return tuple(sorted(found))


def _injected_runs(text: str, compiled: _Compiled) -> list[re.Match[str]]:
    """The base64 runs in `text` that decode to readable text which is itself an injection."""
    return [
        match
        for match in compiled.base64_run.finditer(text)
        if _decodes_to_injection(match.group(), compiled)
    ]


def _decodes_to_injection(run: str, compiled: _Compiled) -> bool:
    run = run.rstrip("=")
    try:
        decoded = base64.b64decode(run + "=" * (-len(run) % 4), validate=True).decode("utf-8")
    except (binascii.Error, ValueError):  # not base64, or bytes that are not text
        return False
    return decoded.isprintable() and bool(_reasons(decoded, compiled, decode=False))


def _wrapped_question(text: str, compiled: _Compiled, config: GuardrailConfig) -> str | None:
    """The segments of `text` that are neither injection nor planted claim, if they ask."""
    # An encoded payload is cut out first: it sits inside a sentence, not at a boundary.
    for match in reversed(_injected_runs(text, compiled)):
        text = text[: match.start()] + "\n" + text[match.end() :]
    kept = [segment for segment in _BOUNDARY.split(text) if _is_clean(segment, compiled)]
    remainder = " ".join(segment.strip() for segment in kept).strip(_EDGE_PUNCTUATION)
    if not remainder or _reasons(remainder, compiled, decode=True):
        return None
    return remainder if _asks(remainder, config) else None


def _is_clean(segment: str, compiled: _Compiled) -> bool:
    if not segment.strip() or _reasons(segment, compiled, decode=True):
        return False
    # A planted value is dropped; a question about a value ("is it 5%?") is kept.
    if segment.rstrip().endswith("?"):
        return True
    return not any(compiled.claims.search(copy) for copy in matching_text(segment).copies)


def _asks(remainder: str, config: GuardrailConfig) -> bool:
    if "?" in remainder:
        return True
    words = matching_copy(remainder).split()
    if len(words) < 2:
        return False
    return any(words[0] in config.question_words[language] for language in LANGUAGES)


def _compile(config: GuardrailConfig) -> _Compiled:
    """The config's patterns compiled once per distinct set of patterns."""
    patterns = tuple(config.injection_patterns[language] for language in LANGUAGES)
    claims = tuple(config.claim_patterns[language] for language in LANGUAGES)
    key = (patterns, claims, config.injection_markers, config.base64_min_length)
    compiled = _COMPILED.get(key)
    if compiled is None:
        if len(_COMPILED) > 16:  # a long-running process only ever sees a few configs
            _COMPILED.clear()
        compiled = _build(config)
        _COMPILED[key] = compiled
    return compiled


def _build(config: GuardrailConfig) -> _Compiled:
    grouped: dict[str, list[str]] = {}
    for language in LANGUAGES:
        for pattern in config.injection_patterns[language]:
            reason = config.injection_reasons.get(pattern, "injection")
            grouped.setdefault(reason, []).append(pattern)
    by_reason = tuple(
        (reason, re.compile("|".join(f"(?:{p})" for p in patterns)))
        for reason, patterns in sorted(grouped.items())
    )
    claims = [p for language in LANGUAGES for p in config.claim_patterns[language]]
    return _Compiled(
        gate=_gate(config),
        by_reason=by_reason,
        markers=tuple(
            fold(marker).translate(_DROP_NON_LETTERS) for marker in config.injection_markers
        ),
        claims=re.compile("|".join(f"(?:{p})" for p in claims) or r"(?!)"),
        base64_run=re.compile(
            rf"(?<![A-Za-z0-9+/]){_BASE64_ALPHABET}{{{config.base64_min_length},}}={{0,2}}"
        ),
    )


# The opening of a pattern: \b, lookbehind guards, then a word or a group of plain alternatives.
_LOOKBEHIND = r"\(\?<[=!][^()]*\)"
_PATTERN_OPENING = re.compile(
    rf"\\b(?:{_LOOKBEHIND}|\(\?:(?:{_LOOKBEHIND}\|?)+\))*"
    r"(?:\(\?:(?P<group>[a-z' |-]+)\)|(?P<word>[a-z']+))(?P<next>.?)",
    re.DOTALL,
)
_TOKEN = re.compile(r"[a-z0-9']+")


def _gate(config: GuardrailConfig) -> _TriggerGate:
    patterns: list[tuple[str, re.Pattern[str]]] = []
    by_word: dict[str, list[int]] = {}
    prefixes: list[tuple[str, int]] = []
    always: list[int] = []
    for language in LANGUAGES:
        for pattern in config.injection_patterns[language]:
            index = len(patterns)
            patterns.append(
                (config.injection_reasons.get(pattern, "injection"), re.compile(pattern))
            )
            triggers = _triggers(pattern)
            if triggers is None:
                always.append(index)
                continue
            words, is_prefix = triggers
            for word in words:
                if is_prefix:
                    prefixes.append((word, index))
                else:
                    by_word.setdefault(word, []).append(index)
    return _TriggerGate(
        patterns=tuple(patterns),
        by_word={word: tuple(indexes) for word, indexes in by_word.items()},
        prefixes=tuple(prefixes),
        prefix_tuple=tuple(sorted({prefix for prefix, _ in prefixes})),
        always=tuple(always),
    )


def _triggers(pattern: str) -> tuple[frozenset[str], bool] | None:
    """The words a match of `pattern` must start with, and whether they may continue.

    None when the pattern does not open with a plain word or group of plain alternatives.
    """
    opening = _PATTERN_OPENING.match(pattern)
    if opening is None:
        return None
    alternatives = (opening["group"] or opening["word"]).split("|")
    words = frozenset(_TOKEN.findall(alternative)[0] for alternative in alternatives if alternative)
    if not words or any(not alternative for alternative in alternatives):
        return None
    # A lone word directly followed by more pattern ("pretend(?:ing)?") may go on as a longer
    # word; a word ended by space, "-" or \b inside the group is whole.
    follows_word = opening["word"] is not None and opening["next"] not in ("", " ", "\\")
    return words, follows_word

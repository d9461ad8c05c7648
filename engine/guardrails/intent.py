"""Small talk: a message that is only a greeting, thanks, goodbye, a help request or chit-chat.

Such a message gets a short canned reply in the question's language and never reaches the rules.
Only the WHOLE message counts: "Bok, koja je stopa PDV-a?" carries a real question, so it is not
an intent and the pipeline answers it. Phrases, fillers and replies are data (intents.yaml).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, get_args

from engine.text.normalize import fold
from engine.types import LANGUAGES, Language

IntentKind = Literal["greeting", "thanks", "goodbye", "help", "chitchat"]
INTENT_KINDS: tuple[IntentKind, ...] = get_args(IntentKind)

# Letters and digits only: punctuation, emoji and emoticons such as ":)" fall between tokens.
_TOKEN = re.compile(r"[^\W_]+")


@dataclass(frozen=True, slots=True)
class Intent:
    kind: IntentKind
    reply: str
    language: Language


@dataclass(frozen=True, slots=True)
class IntentConfig:
    """The small-talk vocabulary, already folded (see `phrase_key`); built by the store loader.

    `phrases` maps a folded phrase ("hvala lijepa") to its kind and `phrase_languages` to the
    languages listing it ("bok": hr; "hello": hr and en); `fillers` may appear anywhere
    ("oh", "ok"); `addressees` are words that name the assistant ("navod", "bot"); `priority`
    settles a message with several kinds ("hi, what can you do?" is help).
    """

    phrases: Mapping[str, IntentKind]
    replies: Mapping[IntentKind, Mapping[Language, str]]
    fillers: frozenset[str]
    addressees: frozenset[str]
    priority: tuple[IntentKind, ...]
    max_tokens: int
    max_names: int
    phrase_languages: Mapping[str, frozenset[Language]] = field(default_factory=dict)

    @property
    def longest_phrase(self) -> int:
        return max((key.count(" ") + 1 for key in self.phrases), default=0)


def _tokens(text: str) -> list[tuple[str, str]]:
    """(original, folded) word pairs; the original keeps its case so a name can be told apart."""
    composed = unicodedata.normalize("NFKC", text)
    return [(word, fold(word)) for word in _TOKEN.findall(composed)]


def phrase_key(text: str) -> str:
    """The folded, punctuation-free form of a phrase: how `IntentConfig.phrases` is keyed."""
    return " ".join(folded for _, folded in _tokens(text))


def _looks_like_name(word: str) -> bool:
    """A capitalised word ("Ana", "Piet"): tolerated next to small talk, as in "Bok Ana!"."""
    return word.isalpha() and word[:1].isupper() and word[1:].islower()


def _kinds_spoken(
    text: str, config: IntentConfig
) -> tuple[set[IntentKind], list[frozenset[Language]]] | None:
    """Every kind the message is made of and the languages of each phrase, or None when some
    word is not small talk."""
    tokens = _tokens(text)
    if not tokens or len(tokens) > config.max_tokens:
        return None
    kinds: set[IntentKind] = set()
    languages: list[frozenset[Language]] = []
    names = 0
    index = 0
    longest = config.longest_phrase
    while index < len(tokens):
        for width in range(min(longest, len(tokens) - index), 0, -1):
            key = " ".join(folded for _, folded in tokens[index : index + width])
            if key in config.phrases:
                kinds.add(config.phrases[key])
                languages.append(config.phrase_languages.get(key, frozenset()))
                index += width
                break
        else:
            original, folded = tokens[index]
            if folded in config.fillers or folded in config.addressees:
                pass
            elif _looks_like_name(original) and names < config.max_names:
                names += 1
            else:
                return None
            index += 1
    return (kinds, languages) if kinds else None


def detect_intent(
    text: str, language: Language | None, config: IntentConfig, guess: Language = "en"
) -> Intent | None:
    """The canned reply when the whole message is small talk, else None (the pipeline answers).

    The reply is in `language` when the asker set one; otherwise in the language the phrases
    themselves belong to ("bok" is Croatian whatever a detector makes of three letters), with
    `guess` (the detected language) settling phrases several languages share ("hello").
    """
    spoken = _kinds_spoken(text, config)
    if spoken is None:
        return None
    kinds, phrase_languages = spoken
    kind = next((k for k in config.priority if k in kinds), None)
    if kind is None:
        return None
    if language is None:
        language = _reply_language(phrase_languages, guess)
    reply = config.replies.get(kind, {}).get(language)
    if reply is None:
        return None
    return Intent(kind=kind, reply=reply, language=language)


def _reply_language(phrase_languages: list[frozenset[Language]], guess: Language) -> Language:
    """The language every phrase shares (the guess among several), else the guess."""
    known = [languages for languages in phrase_languages if languages]
    shared = frozenset.intersection(*known) if known else frozenset()
    if guess in shared or not shared:
        return guess
    return next(lang for lang in LANGUAGES if lang in shared)

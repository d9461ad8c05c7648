"""Small-talk intents (engine/guardrails/intent.py) and the guardrail data loaders."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ConfigError
from engine.guardrails.intent import IntentConfig, detect_intent
from engine.store.guardrails.guards import load_intent_config, load_tone_config
from engine.types import LANGUAGES, Language

CONFIG = load_intent_config()

# (message, language, expected kind or None). None: the pipeline answers (or refuses) it.
CASES: list[tuple[str, Language, str | None]] = [
    ("bok", "hr", "greeting"),
    ("Bok!", "hr", "greeting"),
    ("dobar dan", "hr", "greeting"),
    ("Dobro jutro 😊", "hr", "greeting"),
    ("pozdrav", "hr", "greeting"),
    ("Bok Ana!", "hr", "greeting"),
    ("hvala", "hr", "thanks"),
    ("Hvala lijepa!", "hr", "thanks"),
    ("hvala puno :)", "hr", "thanks"),
    ("doviđenja", "hr", "goodbye"),
    ("Dovidjenja", "hr", None),  # not a spelling we know: better the pipeline than a guess
    ("hvala i doviđenja", "hr", "goodbye"),
    ("što možeš?", "hr", "help"),
    ("Što sve znaš?", "hr", "help"),
    ("kako si?", "hr", "chitchat"),
    ("Bok, kako si?", "hr", "chitchat"),
    ("tko si ti?", "hr", "chitchat"),
    ("hallo", "nl", "greeting"),
    ("Goedemorgen!", "nl", "greeting"),
    ("Hoi Navod", "nl", "greeting"),
    ("dank je", "nl", "thanks"),
    ("Bedankt!!", "nl", "thanks"),
    ("dank je wel 🙏", "nl", "thanks"),
    ("tot ziens", "nl", "goodbye"),
    ("wat kun je?", "nl", "help"),
    ("Wat kun je doen?", "nl", "help"),
    ("hoe gaat het?", "nl", "chitchat"),
    ("hi", "en", "greeting"),
    ("Hello there!", "en", "greeting"),
    ("hey Piet", "en", "greeting"),
    ("thanks", "en", "thanks"),
    ("Thank you very much!", "en", "thanks"),
    ("bye", "en", "goodbye"),
    ("Goodbye, take care", "en", "goodbye"),
    ("what can you do?", "en", "help"),
    ("Hi, what can you do?", "en", "help"),
    ("how are you?", "en", "chitchat"),
    ("Who are you?", "en", "chitchat"),
    ("HOW ARE YOU", "en", "chitchat"),
    # A greeting or thanks around a real question is not small talk.
    ("Bok, koja je stopa PDV-a?", "hr", None),
    ("hvala, a koliko je prag?", "hr", None),
    ("Dobar dan, koliki je osobni odbitak?", "hr", None),
    ("Hallo, wat is het btw-tarief?", "nl", None),
    ("dank je, en de KOR?", "nl", None),
    ("Hi, what is the RMD age?", "en", None),
    ("thanks, and the 401k limit?", "en", None),
    ("hello 2024", "en", None),
    ("help me with VAT", "en", None),
    ("Koja je stopa PDV-a?", "hr", None),
    ("ok", "en", None),
    ("", "en", None),
    ("   ?!  ", "en", None),
    ("🙂", "en", None),
    ("hi hi hi hi hi hi hi hi hi hi hi hi", "en", None),  # too long to be only small talk
]


@pytest.mark.parametrize(("text", "language", "kind"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_detect_intent(text: str, language: Language, kind: str | None) -> None:
    intent = detect_intent(text, language, CONFIG)
    assert (intent.kind if intent else None) == kind


@pytest.mark.parametrize("language", LANGUAGES)
def test_reply_is_in_the_question_language(language: Language) -> None:
    intent = detect_intent("hvala", language, CONFIG)
    assert intent is not None
    assert intent.language == language
    assert intent.reply == CONFIG.replies["thanks"][language]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("hr", ("hrvatsk", "nizozemsk", "američk", "izvor")),
        ("nl", ("Kroatische", "Nederlandse", "Amerikaanse", "bron")),
        ("en", ("Croatian", "Dutch", "US retirement", "source")),
    ],
)
def test_help_reply_says_what_navod_covers(language: Language, words: tuple[str, ...]) -> None:
    intent = detect_intent("what can you do?", language, CONFIG)
    assert intent is not None and intent.kind == "help"
    assert all(word in intent.reply for word in words), intent.reply


def test_every_reply_is_short_and_present() -> None:
    for replies in CONFIG.replies.values():
        assert set(replies) == set(LANGUAGES)
        assert all(0 < len(reply) <= 300 for reply in replies.values())


def test_detection_is_deterministic() -> None:
    first = [detect_intent(text, language, CONFIG) for text, language, _ in CASES]
    second = [detect_intent(text, language, CONFIG) for text, language, _ in CASES]
    assert first == second


@given(st.text(max_size=200), st.sampled_from(LANGUAGES))
def test_detect_intent_never_raises(text: str, language: Language) -> None:
    intent = detect_intent(text, language, CONFIG)
    assert intent is None or intent.language == language


def test_tone_config_folds_words() -> None:
    config = load_tone_config()
    assert "zajamceno" in config.absolute_words["hr"]
    assert {"always", "never"} <= set(config.absolute_words["en"])
    assert {"altijd", "nooit"} <= set(config.absolute_words["nl"])


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("intents: [", "not valid YAML"),
        ("- a list", "top level"),
        ("max_tokens: 5\nintents: {}", "intents.greeting"),
        ("intents: {greeting: {}, smalltalk: {}}", "unknown kind 'smalltalk'"),
    ],
)
def test_intent_loader_names_the_problem(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "intents.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_intent_config(path)
    assert str(path) in str(caught.value) and named in str(caught.value)


def test_intent_loader_refuses_a_phrase_of_two_kinds(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[1] / "fixtures" / "guardrails" / "intents.yaml"
    text = source.read_text(encoding="utf-8").replace("[bye,", "[bok, bye,", 1)
    path = tmp_path / "intents.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=r"intents\.goodbye\.phrases\.en: 'bok' is also a greet"):
        load_intent_config(path)


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("absolute_words: {hr: [uvijek], nl: [altijd]}", "absolute_words.en"),
        ("absolute_words: {hr: [uvijek], nl: [altijd], en: [yes]}", "absolute_words.en"),
        ("words: []", "absolute_words"),
    ],
)
def test_tone_loader_names_the_key(tmp_path: Path, text: str, named: str) -> None:
    path = tmp_path / "tone.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_tone_config(path)
    assert str(path) in str(caught.value) and named in str(caught.value)


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_intent_config(tmp_path / "absent.yaml")


def test_config_is_frozen() -> None:
    assert isinstance(CONFIG, IntentConfig)
    with pytest.raises(TypeError):
        CONFIG.phrases["hoi"] = "thanks"  # type: ignore[index]

"""Scripted multi-turn conversations (fixtures/conversations/*.yaml) through the guarded service.

Each conversation runs in its own dossier on the bundled packs; every turn's response is checked
against what its `expect` lists (the keys are described at the top of each fixture file) and
passes validate_response with the quote check. A conversation marked `xfail` is a known engine
fault: strict, so the fix flips it. Below the table: a past answer superseded by a knowledge-base
change, and requests that keep out of the dossier (`use_memory: false`, an unknown sessionId).
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.contract import ChatRequest
from engine.dossier.model import Dossier
from engine.dossier.profile import completeness_view, known_facts
from engine.errors import DossierNotFound
from engine.service import AnswerService, quote_checker
from engine.store.dossiers.memory import MemoryDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import load_packs, pack_paths
from engine.validation import validate_response

CONVERSATIONS_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "conversations"
MINI = Path(__file__).parent / "data" / "packs" / "mini"
TODAY = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
LANGUAGES = ("hr", "nl", "en")


def _conversations() -> list[Any]:
    found = []
    for path in sorted(CONVERSATIONS_DIR.glob("*.yaml")):
        for conversation in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            why = conversation.get("xfail")
            # raises=AssertionError: a crash is a new fault, not the known one.
            known = pytest.mark.xfail(reason=why, strict=True, raises=AssertionError)
            case_id = f"{path.stem}:{conversation['id']}"
            found.append(pytest.param(conversation, id=case_id, marks=[known] if why else []))
    return found


@pytest.fixture(scope="module")
def service() -> AnswerService:
    repository = MemoryRepository()
    load_packs(repository, pack_paths([]))
    return AnswerService(
        repository, clock=lambda: TODAY, guards=load_guards(), dossiers=MemoryDossierRepository()
    )


# --- what each expect key reads from a turn --------------------------------------------------


def _primary_rule(response: Mapping[str, Any], _: tuple[str, ...]) -> str | None:
    primary = (response.get("citations") or {}).get("primary")
    return str(primary["id"]).split("@")[0] if primary else None


def _text(response: Mapping[str, Any]) -> str:
    refusal = response.get("refusal") or {}
    return " ".join((response["headline"], response["directAnswer"], refusal.get("message", "")))


def _carried(response: Mapping[str, Any], _: tuple[str, ...]) -> bool:
    return any(line.startswith("followup: CARRIED") for line in response["triage"]["log"])


def _dossier_list(name: str) -> Callable[[Mapping[str, Any], tuple[str, ...]], int]:
    return lambda response, _: len(response["dossier"][name])


def _memory(name: str) -> Callable[[Mapping[str, Any], tuple[str, ...]], Any]:
    return lambda response, _: (response.get("memory") or {}).get(name)


# Each key: how to read the actual value (from the response and the concepts the turn stored)
# and how to turn the expected YAML value into something comparable with it.
_READ: Mapping[str, Callable[[Mapping[str, Any], tuple[str, ...]], Any]] = {
    "kind": lambda response, _: response["kind"],
    "reason": lambda response, _: response.get("refusalReason"),
    "route": lambda response, _: response["triage"]["route"],
    "primary_rule": _primary_rule,
    "concepts": lambda _, concepts: set(concepts),
    "carried": _carried,
    "as_of": lambda response, _: response["asOfDate"],
    "selected": _dossier_list("selected"),
    "unselected": _dossier_list("unselected"),
    "changed": lambda response, _: [c["action"] for c in response["dossier"].get("changed", [])],
    "recalled_turn": _memory("turn"),
    "superseded": _memory("superseded"),
}
_EXPECTED: Mapping[str, Callable[[Any], Any]] = {"concepts": set, "as_of": str}


def _describe(number: int, question: str, response: Mapping[str, Any]) -> str:
    """What a failing turn shows: which turn, what was asked, and how the engine triaged it."""
    log = "\n  ".join(response.get("triage", {}).get("log", []))
    return (
        f"turn {number}: {question!r}\n"
        f"  -> {response.get('kind')} {response.get('refusalReason') or ''} "
        f"| {response.get('headline')} | {response.get('directAnswer')}\n  {log}"
    )


def _check_profile(expect: Mapping[str, Any], dossier: Dossier, where: str) -> None:
    """`facts`: fact types and the latest values the dossier holds after the turn (those named);
    `scores`: the topics' completeness after the turn (those named)."""
    if "facts" in expect:
        held = {name: known.record.value for name, known in known_facts(dossier).items()}
        for name, value in expect["facts"].items():
            assert held.get(name) == value, f"fact {name}: expected {value!r}, held {held}\n{where}"
    if "scores" in expect:
        scores = {s["topic"]: s["score"] for s in completeness_view(dossier)["scores"]}
        for topic, value in expect["scores"].items():
            assert scores.get(topic) == value, f"score {topic}: {value} expected, {scores}\n{where}"


def _check_turn(
    expect: Mapping[str, Any], response: Mapping[str, Any], concepts: tuple[str, ...], where: str
) -> None:
    unknown = set(expect) - {*_READ, "contains", "facts", "scores", "next_step"}
    assert not unknown, f"unknown expect keys {sorted(unknown)}\n{where}"
    for key, wanted in expect.items():
        if key in ("facts", "scores"):
            continue  # the dossier's, checked by _check_profile
        if key == "next_step":
            assert wanted in str(response.get("nextStep")), (
                f"nextStep {response.get('nextStep')!r}\n{where}"
            )
            continue
        if key == "contains":
            text = _text(response)
            for fragment in wanted:
                assert str(fragment) in text, f"{fragment!r} not in the answer\n{where}"
            continue
        actual = _READ[key](response, concepts)
        expected = _EXPECTED.get(key, lambda value: value)(wanted)
        assert actual == expected, f"{key}: expected {expected!r}, got {actual!r}\n{where}"


@pytest.mark.parametrize("conversation", _conversations())
def test_conversation(conversation: dict[str, Any], service: AnswerService) -> None:
    assert service.dossiers is not None
    check = quote_checker(service.snapshot())
    session: str | None = None
    for number, turn in enumerate(conversation["turns"], start=1):
        request = ChatRequest(
            query=turn["ask"],
            sessionId=session,
            explain=True,
            surface=turn.get("surface", "MARKETING"),
            clientContext=turn.get("client_context", {}),
        )
        response = service.answer(request)
        where = _describe(number, turn["ask"], response)
        session = response.get("sessionId")
        assert session is not None, where
        dossier = service.dossiers.get(session)
        assert dossier is not None and dossier.turns, where
        result = validate_response(response, check)
        assert result.valid, f"{result.errors}\n{where}"
        _check_turn(turn.get("expect") or {}, response, dossier.turns[-1].concepts, where)
        _check_profile(turn.get("expect") or {}, dossier, where)


def test_the_conversation_fixtures_cover_every_language() -> None:
    conversations = [param.values[0] for param in _conversations()]
    assert len(conversations) >= 18
    ids = [c["id"] for c in conversations]
    assert len(ids) == len(set(ids))
    for language in LANGUAGES:
        assert sum(c["id"].startswith(f"{language}-") for c in conversations) >= 5, language


# --- a past answer whose rule changed since --------------------------------------------------


def _mini_service(tmp_path: Path) -> tuple[AnswerService, Path]:
    """A service over a copy of the mini pack, which the test may edit and load again."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    repository = MemoryRepository()
    load_packs(repository, [folder])
    service = AnswerService(
        repository, clock=lambda: TODAY, guards=load_guards(), dossiers=MemoryDossierRepository()
    )
    return service, folder


def _set_general_rate(folder: Path, percent: str) -> None:
    """The general rate becomes `percent`, with an evidence text that states it (and its hash)."""
    path = folder / "wet-ob-art9.yaml"
    pack = yaml.safe_load(path.read_text(encoding="utf-8"))
    sentence = f"De belasting bedraagt {percent} percent."
    evidence = next(e for e in pack["evidence"] if e["key"] == "nl-wet-ob-art9-lid1")
    evidence["text"] = f"1 {sentence}"
    evidence["sha256"] = hashlib.sha256(evidence["text"].encode("utf-8")).hexdigest()
    rule = next(r for r in pack["rules"] if r["id"] == "nl-btw-algemeen-tarief-2012")
    rule["value"] = percent
    rule["explanation"] = {"nl": sentence, "en": f"VAT is charged at {percent} percent."}
    rule["pointers"] = [{"evidence": "nl-wet-ob-art9-lid1", "quote": sentence}]
    path.write_text(yaml.safe_dump(pack, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _ask(service: AnswerService, query: str, session: str | None = None) -> dict[str, Any]:
    response = service.answer(ChatRequest(query=query, sessionId=session))
    result = validate_response(response, quote_checker(service.snapshot()))
    assert result.valid, result.errors
    return response


@pytest.mark.parametrize(("new_rate", "superseded"), [("22", True), ("21", False)])
def test_a_recalled_answer_is_checked_against_todays_rules(
    tmp_path: Path, new_rate: str, superseded: bool
) -> None:
    service, folder = _mini_service(tmp_path)
    first = _ask(service, "What is the Dutch VAT rate?")
    assert "21" in first["directAnswer"], first["directAnswer"]
    version = service.snapshot().version
    _set_general_rate(folder, new_rate)  # "21": the same value, written again
    load_packs(service.repository, [folder])
    assert service.snapshot().version != version  # the reload was seen and compiled

    recalled = _ask(service, "what did you answer about the Dutch VAT rate?", first["sessionId"])
    assert recalled["memory"]["turn"] == 1
    assert recalled["memory"]["superseded"] is superseded
    assert recalled["memory"]["answeredThen"] == first["headline"]
    assert f"{new_rate}%" in recalled["directAnswer"], recalled["directAnswer"]


# --- requests that keep out of the dossier ---------------------------------------------------


def test_use_memory_false_neither_reads_nor_writes_the_dossier(service: AnswerService) -> None:
    dossiers = service.dossiers
    assert isinstance(dossiers, MemoryDossierRepository)
    asker = "memory-off"
    alone = service.answer(ChatRequest(query="Koja je stopa PDV-a?", use_memory=False), asker)
    assert alone["kind"] == "ANSWER"
    assert "sessionId" not in alone and "dossier" not in alone
    assert dossiers.recent(asker, 10) == ()

    first = service.answer(ChatRequest(query="Koja je stopa PDV-a?"), asker)
    before = dossiers.get(first["sessionId"])
    request = ChatRequest(query="a snižena?", sessionId=first["sessionId"], use_memory=False)
    followup = service.answer(request, asker)
    assert "sessionId" not in followup and "dossier" not in followup
    # Not read: the elliptic question is not completed from the dossier's previous turn.
    assert not any(line.startswith("followup: CARRIED") for line in followup["triage"]["log"])
    # Not written: the dossier is exactly as before.
    assert dossiers.get(first["sessionId"]) == before
    assert len(dossiers.recent(asker, 10)) == 1


def test_an_unknown_session_is_not_found(service: AnswerService) -> None:
    request = ChatRequest(query="Koja je stopa PDV-a?", sessionId="dos_" + "0" * 32)
    with pytest.raises(DossierNotFound):
        service.answer(request)

"""`navod chat` driven through its input: against a real server, and against a small fake
WebSocket server that records what the client sent and replies with canned turns."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import pytest
from click.testing import Result
from typer.testing import CliRunner
from websockets.sync.server import ServerConnection, serve

from api.cli import app
from tests.servers import free_port
from tests.test_ws import ws_server

runner = CliRunner()


def chat(url: str, typed: str, *options: str) -> Result:
    # Wide columns: rich would otherwise wrap long lines where the assertions look for them.
    return runner.invoke(app, ["chat", "--url", url, *options], input=typed, env={"COLUMNS": "250"})


@pytest.fixture(scope="module")
def ws_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with ws_server(tmp_path_factory.mktemp("chat")) as url:
        yield url


def test_a_question_is_answered_with_its_citation_until_quit(ws_url: str) -> None:
    result = chat(ws_url, "Koja je stopa PDV-a?\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Opća stopa PDV-a iznosi 25 %" in result.output
    assert "esavjetovanja.gov.hr" in result.output and "dokaz ev_" in result.output
    # the chat's own lines speak the conversation's language too
    assert "ODGOVOR · na dan" in result.output and "razgovor dos_" in result.output
    assert result.output.rstrip().endswith("Doviđenja.")


def test_the_follow_up_is_asked_in_the_same_conversation(ws_url: str) -> None:
    # Alone, "A snižena?" is ambiguous (NEEDS_CLARIFICATION); only the first turn's dossier,
    # reached through the session id the client passes on, makes it the reduced VAT rate.
    result = chat(ws_url, "Koja je stopa PDV-a?\nA snižena?\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("razgovor dos_") == 1
    assert "Snižena stopa PDV-a od 13 %: 13 %" in result.output
    assert result.output.count("odabrani izvori") == 2  # in the conversation's language


HELP_EN = (
    "Navod answers questions about Croatian tax, Dutch VAT and income tax, and US retirement "
    "rules. Every answer comes with a cited source, or a reason why there is none."
)


def test_help_is_printed_once_and_whole(ws_url: str) -> None:
    result = chat(ws_url, "help\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Navod answers questions about") == 1, result.output
    assert HELP_EN in result.output  # not cut after "comes with a"


def test_help_in_a_croatian_conversation_is_in_croatian(ws_url: str) -> None:
    result = chat(ws_url, "Koja je stopa PDV-a?\nhelp\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("Navod odgovara na pitanja o hrvatskim porezima") == 1
    assert "kaže zašto." in result.output and "Navod answers" not in result.output


def test_end_of_input_ends_the_chat(ws_url: str) -> None:
    result = chat(ws_url, "What is the RMD age?\n")
    assert result.exit_code == 0, result.output
    assert "ANSWER" in result.output and result.output.rstrip().endswith("Goodbye.")


def test_a_refused_question_shows_the_reason(ws_url: str) -> None:
    result = chat(ws_url, "Koliko je sati?\nbye\n")
    assert result.exit_code == 0, result.output
    assert "ODBIJENO" in result.output and "OUT_OF_SCOPE" in result.output


def unreachable_url() -> str:
    return f"ws://127.0.0.1:{free_port()}/ws"  # nothing listens there once the probe closed


@pytest.mark.parametrize("refused", [True, False], ids=["refused", "malformed"])
def test_an_unreachable_server_is_named_before_the_prompt(refused: bool) -> None:
    url = unreachable_url() if refused else "not a url"
    result = chat(url, "Koja je stopa PDV-a?\n")
    assert result.exit_code == 1
    assert f"cannot reach {url}: " in result.output
    assert "NAVOD_URL" in result.output and "PORT" in result.output  # how to point elsewhere
    assert "you>" not in result.output  # nobody was asked to type a question first


@pytest.mark.parametrize("word", ["quit", "EXIT", "Stop.", "bye!", "  Bye  "])
def test_a_quit_word_ends_the_chat_without_sending(word: str) -> None:
    with fake_server([]) as (url, received):
        result = chat(url, f"\n{word}\nKoja je stopa PDV-a?\n")
    assert result.exit_code == 0, result.output
    assert "Goodbye." in result.output and received == []


def test_a_bad_option_is_a_usage_error() -> None:
    result = chat(unreachable_url(), "quit\n", "--surface", "WEB")
    assert result.exit_code == 2 and "--surface" in result.output


CARD = {
    "title": "Zakon o PDV-u",
    "authority": "LAW",
    "url": "https://narodne-novine.nn.hr/zpdv",
    "quote": "opća stopa PDV-a 25 %",
    "evidenceId": "ev_law",
}


def answer(headline: str, session: str | None, dossier: dict[str, Any] | None = None) -> Any:
    response: dict[str, Any] = {
        "kind": "ANSWER",
        "headline": headline,
        "directAnswer": f"{headline}.",
        "citations": {"primary": CARD, "supporting": []},
    }
    if dossier is not None:
        response["dossier"] = dossier
    return {"status": "ok", "response": response, "sessionId": session}


@contextmanager
def fake_server(replies: list[Any]) -> Iterator[tuple[str, list[Any]]]:
    """A WebSocket server answering the n-th connection with replies[n]; yields its URL and the
    messages it received, in order."""
    received: list[Any] = []

    def handle(connection: ServerConnection) -> None:
        received.append(orjson.loads(connection.recv()))
        connection.send(orjson.dumps(replies[len(received) - 1]).decode())

    with serve(handle, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever)
        thread.start()
        try:
            yield f"ws://127.0.0.1:{server.socket.getsockname()[1]}/ws", received
        finally:
            server.shutdown()
            thread.join()


def test_the_first_session_id_goes_with_every_later_message() -> None:
    replies = [answer("one", "s_1"), answer("two", "s_1"), answer("three", "s_1")]
    with fake_server(replies) as (url, received):
        result = chat(url, "first\n\n   \nsecond\nthird\n", "--language", "hr")
    assert result.exit_code == 0, result.output
    assert received == [
        {"message": "first", "language": "hr"},
        {"message": "second", "language": "hr", "sessionId": "s_1"},
        {"message": "third", "language": "hr", "sessionId": "s_1"},
    ]
    assert result.output.count("razgovor s_1") == 1  # in the --language asked for


def test_a_given_session_is_sent_from_the_first_message() -> None:
    with fake_server([answer("one", "s_old")]) as (url, received):
        result = chat(url, "first\n", "--session", "s_old", "--surface", "APP")
    assert result.exit_code == 0, result.output
    assert received == [{"message": "first", "sessionId": "s_old", "surface": "APP"}]


def test_an_error_reply_is_printed_and_the_chat_goes_on() -> None:
    replies = [{"status": "error", "error": "'message' is too long"}, answer("two", None)]
    with fake_server(replies) as (url, received):
        result = chat(url, "first\nsecond\nexit\n")
    assert result.exit_code == 0, result.output
    assert "error: 'message' is too long" in result.output and "two" in result.output
    assert [message["message"] for message in received] == ["first", "second"]
    assert all("sessionId" not in message for message in received)


DOSSIER = {
    "id": "s_1",
    "selected": [{"evidenceId": "ev_law", "title": "Zakon o PDV-u", "authority": "LAW"}],
    "unselected": [{"evidenceId": "ev_guide", "title": "Uputa [2024]", "authority": "GUIDANCE"}],
    "changed": [{"action": "unselected", "evidenceId": "ev_guide", "title": "Uputa [2024]"}],
}


def test_the_answer_citation_and_source_selection_are_shown() -> None:
    with fake_server([answer("Opća stopa PDV-a: 25 %", "s_1", DOSSIER)]) as (url, _):
        result = chat(url, "makni uputu\n")
    assert result.exit_code == 0, result.output
    lines = [line.strip() for line in result.output.splitlines()]
    assert "Opća stopa PDV-a: 25 %." in result.output
    assert "“opća stopa PDV-a 25 %”" in lines and "evidence ev_law" in result.output
    assert "https://narodne-novine.nn.hr/zpdv" in result.output
    assert "unselected Uputa [2024] (evidence ev_guide)" in lines
    assert "selected sources" in lines and "✓ Zakon o PDV-u (LAW) evidence ev_law" in lines
    assert "set aside" in lines and "✗ Uputa [2024] (GUIDANCE) evidence ev_guide" in lines


def test_absent_selection_blocks_render_nothing() -> None:
    empty = {"id": "s_1", "selected": [], "unselected": []}
    with fake_server([answer("one", None), answer("two", None, empty)]) as (url, _):
        result = chat(url, "first\nsecond\n")
    assert result.exit_code == 0, result.output
    assert "selected sources" not in result.output and "set aside" not in result.output


def test_a_source_change_is_confirmed_in_the_conversation_language() -> None:
    reply = answer("Opća stopa PDV-a: 25 %", "s_1", DOSSIER)
    reply["response"]["language"] = "hr"
    with fake_server([reply]) as (url, _):
        result = chat(url, "makni uputu\n")
    lines = [line.strip() for line in result.output.splitlines()]
    assert "izostavljeno Uputa [2024] (dokaz ev_guide)" in lines
    assert "odabrani izvori" in lines and "izostavljeni izvori" in lines
    assert "set aside" not in result.output and "unselected" not in result.output

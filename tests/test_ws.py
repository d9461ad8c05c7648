"""WebSocket /ws against a real uvicorn process: one message in, one reply out, then a close."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosedOK, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from api.app import create_app
from engine.contract import ChatRequest
from engine.store.db import make_engine
from engine.store.keys.sql import SqlKeyRepository
from engine.validation import validate_response
from tests.keys import make_key
from tests.servers import running_server

# A safety net so a broken server fails the test instead of hanging it; never an assertion.
WAIT = 30


@contextmanager
def ws_server(folder: Path) -> Iterator[str]:
    """`navod serve` over a new SQLite file in `folder`; yields the server's ws:// URL."""
    database = f"sqlite:///{folder / 'navod.db'}"
    with running_server(database, folder / "server.log") as base:
        yield base.replace("http://", "ws://", 1) + "/ws"


@pytest.fixture(scope="module")
def ws_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with ws_server(tmp_path_factory.mktemp("ws")) as url:
        yield url


def reply_of(connection: ClientConnection) -> dict[str, Any]:
    reply: dict[str, Any] = orjson.loads(connection.recv(timeout=WAIT))
    return reply


def assert_closed_normally(connection: ClientConnection) -> None:
    with pytest.raises(ConnectionClosedOK) as closed:
        connection.recv(timeout=WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1000


def ask(url: str, frame: str | bytes) -> dict[str, Any]:
    """Send one frame, read the one reply and check the server then closed with 1000."""
    with connect(url) as connection:
        connection.send(frame)
        reply = reply_of(connection)
        assert_closed_normally(connection)
    return reply


def test_a_regulatory_question_gets_one_valid_answer_then_a_normal_close(ws_url: str) -> None:
    reply = ask(ws_url, '{"message": "Koja je stopa PDV-a?"}')
    assert reply["status"] == "ok" and set(reply) == {"status", "response", "sessionId"}
    response = reply["response"]
    assert response["kind"] == "ANSWER" and "25" in response["directAnswer"]
    assert response["citations"]["primary"]["evidenceId"]
    assert reply["sessionId"] == response.get("sessionId")
    result = validate_response(response)
    assert result.valid, result.errors


def test_the_optional_fields_reach_the_answer(ws_url: str) -> None:
    # companyId is what FiskAI's APP client adds to every question: accepted and ignored.
    message = {"message": "What is the RMD age?", "surface": "APP", "language": "en",
               "companyId": "cmp_42", "explain": True}  # fmt: skip
    reply = ask(ws_url, orjson.dumps(message).decode())
    assert reply["status"] == "ok"
    assert reply["response"]["surface"] == "APP" and reply["response"]["language"] == "en"
    assert reply["response"]["trace"]
    assert validate_response(reply["response"]).valid


NOT_A_BOOL = "Input should be a valid boolean"
LONG_MESSAGE = orjson.dumps({"message": "x" * 4001}).decode()
BAD_FRAMES = {
    "not-json": ("Koja je stopa PDV-a?", "not valid JSON"),
    "not-an-object": ('["Koja je stopa PDV-a?"]', "must be a JSON object"),
    "missing-message": ('{"sessionId": "s1"}', "'message' is required"),
    "empty-message": ('{"message": ""}', "'message' is empty"),
    "blank-message": ('{"message": "   "}', "'message' is empty"),
    "too-long-message": (LONG_MESSAGE, "'message' is too long: at most 4000 characters"),
    "message-not-a-string": ('{"message": 5}', "'message': Input should be a valid string"),
    "message-null": ('{"message": null}', "'message': Input should be a valid string"),
    "bad-surface": ('{"message": "pdv", "surface": "WEB"}', "'surface'"),
    "bad-language": ('{"message": "pdv", "language": "de"}', "'language'"),
    "session-not-a-string": ('{"message": "pdv", "sessionId": 7}', "'sessionId'"),
    "session-malformed": ('{"message": "pdv", "sessionId": "s1"}', "'sessionId': String"),
    "use-memory-not-a-bool": ('{"message": "pdv", "use_memory": "yes"}', "'use_memory'"),
    "use-memory-zero": ('{"message": "pdv", "use_memory": 0}', f"'use_memory': {NOT_A_BOOL}"),
    "explain-yes": ('{"message": "pdv", "explain": "yes"}', f"'explain': {NOT_A_BOOL}"),
    "company-id-empty": ('{"message": "pdv", "companyId": ""}', "'companyId'"),
    "company-id-not-a-string": ('{"message": "pdv", "companyId": 42}', "'companyId'"),
    "unknown-fields": ('{"message": "pdv", "query": "x", "foo": 1}', "field(s) 'foo', 'query'"),
    "binary-frame": (b'{"message": "pdv"}', "binary frames are not accepted"),
}  # fmt: skip


@pytest.mark.parametrize(("frame", "problem"), BAD_FRAMES.values(), ids=BAD_FRAMES.keys())
def test_a_bad_message_gets_an_error_naming_the_problem(
    ws_url: str, frame: str | bytes, problem: str
) -> None:
    reply = ask(ws_url, frame)
    assert reply["status"] == "error" and set(reply) == {"status", "error", "retriable"}
    assert problem in reply["error"] and reply["retriable"] is False


def test_the_session_of_the_first_reply_continues_the_conversation(ws_url: str) -> None:
    first = ask(ws_url, '{"message": "Koja je stopa PDV-a?"}')
    session = first["sessionId"]
    assert session and session == first["response"]["sessionId"]
    follow = ask(ws_url, orjson.dumps({"message": "A snižena?", "sessionId": session}).decode())
    assert follow["status"] == "ok" and follow["sessionId"] == session
    assert follow["response"]["kind"] == "ANSWER"  # alone, "A snižena?" needs clarification
    assert follow["response"]["dossier"]["id"] == session
    assert validate_response(follow["response"]).valid


def test_an_unknown_session_is_an_error_naming_it(ws_url: str) -> None:
    unknown = "dos_" + "0" * 32
    reply = ask(ws_url, orjson.dumps({"message": "pdv", "sessionId": unknown}).decode())
    assert reply["status"] == "error" and f"no conversation '{unknown}'" in reply["error"]


def test_without_memory_no_session_is_kept(ws_url: str) -> None:
    reply = ask(ws_url, '{"message": "Koja je stopa PDV-a?", "use_memory": false}')
    assert reply["status"] == "ok" and reply["sessionId"] is None
    assert "sessionId" not in reply["response"] and "dossier" not in reply["response"]


def test_a_bad_key_or_origin_is_refused_before_the_handshake(ws_url: str) -> None:
    """The real server answers a refused handshake with the HTTP error itself (uvicorn's
    denial-response extension), not with an accepted socket that then closes."""
    for headers, status in (
        ({"Authorization": "Bearer navod_unknown"}, 401),
        ({"Origin": "https://evil.example"}, 403),
    ):
        with pytest.raises(InvalidStatus) as refused:
            connect(ws_url, additional_headers=headers)
        assert refused.value.response.status_code == status
        assert orjson.loads(refused.value.response.body)["error"]["status"] == status
    unknown = "bearer.navod_" + "A" * 43
    with pytest.raises(InvalidStatus) as refused:
        connect(ws_url, subprotocols=["navod", unknown])  # type: ignore[list-item]
    assert refused.value.response.status_code == 401


def test_a_second_message_on_the_same_connection_gets_no_reply(ws_url: str) -> None:
    with connect(ws_url) as connection:
        connection.send('{"message": "Koja je stopa PDV-a?"}')
        connection.send('{"message": "What is the RMD age?"}')
        first = reply_of(connection)
        assert_closed_normally(connection)
    assert first["status"] == "ok" and "25" in first["response"]["directAnswer"]


class FailingService:
    """Stands in for AnswerService: every answer raises, as a bug deep inside would."""

    def answer(self, request: ChatRequest, asker: str) -> dict[str, Any]:
        raise RuntimeError("secret detail of a bug")


def test_an_unexpected_failure_is_logged_and_never_sent(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(FailingService())  # only answer() is reached
    with (
        caplog.at_level(logging.ERROR, logger="navod.api"),
        TestClient(app) as client,
        client.websocket_connect("/ws") as connection,
    ):
        connection.send_text('{"message": "Koja je stopa PDV-a?"}')
        reply = orjson.loads(connection.receive_text())
        closing = connection.receive()
    assert reply == {"status": "error", "error": "internal error; please retry", "retriable": True}
    assert closing == {"type": "websocket.close", "code": 1000, "reason": ""}
    assert "Traceback" in caplog.text and "secret detail of a bug" in caplog.text


def test_a_key_as_subprotocol_owns_its_conversation_on_a_real_server(tmp_path: Path) -> None:
    with ws_server(tmp_path) as url:
        engine = make_engine(f"sqlite:///{tmp_path / 'navod.db'}")
        try:
            secret = make_key(SqlKeyRepository(engine), "browser")[1]
        finally:
            engine.dispose()
        offered = ["navod", f"bearer.{secret}"]
        with connect(url, subprotocols=offered) as connection:  # type: ignore[arg-type]
            assert connection.subprotocol == "navod"  # the secret is not echoed
            connection.send('{"message": "Koja je stopa PDV-a?"}')
            first = reply_of(connection)
        assert first["status"] == "ok" and first["sessionId"]
        followup = {"message": "a snižena?", "sessionId": first["sessionId"]}
        anonymous = ask(url, orjson.dumps(followup).decode())
        assert anonymous["status"] == "error" and "no conversation" in anonymous["error"]
        with connect(url, additional_headers={"Authorization": f"Bearer {secret}"}) as connection:
            connection.send(orjson.dumps(followup).decode())
            assert reply_of(connection)["status"] == "ok"

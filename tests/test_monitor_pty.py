"""`navod monitor completeness|profile` in a pseudo-terminal against a real server: awaiting
data first, then the screens move while a conversation runs; a number prints that topic's
question; Ctrl-D leaves."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api.monitor_render import AWAITING
from engine.store.db import make_engine
from engine.store.keys.sql import SqlKeyRepository
from tests.keys import make_key
from tests.servers import running_server

pytestmark = pytest.mark.db
WITHIN = 30.0  # seconds a screen may take to show what is expected


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[str]:
    with running_server(database_url, tmp_path / "server.log") as base:
        yield base


def new_secret(database_url: str, name: str) -> str:
    """A key made in the (migrated) database the server runs on."""
    engine = make_engine(database_url)
    try:
        return make_key(SqlKeyRepository(engine), name)[1]
    finally:
        engine.dispose()


class Terminal:
    """A monitor process on a pseudo-terminal; `expect` reads until a text appears."""

    def __init__(self, *args: str) -> None:
        self.main, follower = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "monitor", *args],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            close_fds=True,
        )
        os.close(follower)
        self.seen = ""

    def expect(self, text: str, times: int = 1) -> str:
        """Read until `text` has been shown `times` times in all."""
        deadline = time.monotonic() + WITHIN
        while self.seen.count(text) < times:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} not shown; the screen had:\n{self.seen[-2000:]}"
            ready, _, _ = select.select([self.main], [], [], min(left, 1.0))
            if ready:
                try:
                    self.seen += os.read(self.main, 65536).decode("utf-8", "replace")
                except OSError:  # the process ended and closed its side
                    time.sleep(0.1)
        return self.seen

    def send(self, keys: bytes) -> None:
        os.write(self.main, keys)

    def close(self) -> int:
        try:
            return self.process.wait(timeout=WITHIN)
        finally:
            os.close(self.main)


def test_the_completeness_monitor_follows_the_conversation(server: str, database_url: str) -> None:
    secret = new_secret(database_url, "ana")
    screen = Terminal("completeness", "--url", server, "--key", secret)
    try:
        screen.expect(AWAITING)
        headers = {"Authorization": f"Bearer {secret}"}
        first = httpx.post(
            f"{server}/api/assistant/chat",
            json={"query": "I'm 64 and my wife is 58.", "surface": "APP"},
            headers=headers,
            timeout=20,
        ).json()
        shown = screen.expect("Help me explore a specific topic (enter number 1-8)> ")
        assert "1. income_cash_flow     |" in shown
        before = shown.count("4. tax_efficiency_rmds")
        httpx.post(
            f"{server}/api/dossiers/{first['sessionId']}/facts",
            json={"facts": [{"topic": "tax_efficiency_rmds", "fact_type": "birth_year",
                             "value": 1962}]},
            headers=headers,
            timeout=20,
        )  # fmt: skip
        screen.expect("4. tax_efficiency_rmds  |", times=before + 1)  # drawn again
        screen.send(b"4\n")
        screen.expect("?")  # the question for the topic's most useful missing fact
        screen.send(b"\x04")  # Ctrl-D
        assert screen.close() == 0
    finally:
        if screen.process.poll() is None:
            screen.process.kill()


def test_the_profile_monitor_groups_what_was_said(server: str, database_url: str) -> None:
    secret = new_secret(database_url, "bo")
    screen = Terminal("profile", "--url", server, "--key", secret)
    try:
        screen.expect(AWAITING)
        httpx.post(
            f"{server}/api/assistant/chat",
            json={"query": "We want to retire next May.", "surface": "APP"},
            headers={"Authorization": f"Bearer {secret}"},
            timeout=20,
        )
        shown = screen.expect("Goal: retirement_date = 2027-05")
        assert "\nincome_cash_flow" in shown.replace("\r", "") or "income_cash_flow" in shown
        screen.send(b"\x04")
        assert screen.close() == 0
    finally:
        if screen.process.poll() is None:
            screen.process.kill()

"""A real `navod serve` for end-to-end tests: a subprocess on a free loopback port, healthy
before the test starts, always stopped afterwards."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx

HEALTHY_WITHIN = 240  # seconds; a safety net so a broken server fails the test, never hangs it


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_server(
    database_url: str,
    log: Path,
    settings: Mapping[str, str] | None = None,
    workers: int = 1,
) -> Iterator[str]:
    """`navod serve` on `database_url` (first start migrates and loads the packs) with
    `workers` processes and extra environment `settings`; yields the server's http:// base
    URL. Its output goes to `log`, shown if it dies while starting."""
    port = free_port()
    env = {
        **os.environ,
        "LOG_LEVEL": "warning",  # unless `settings` asks for more (tests/test_access_log.py)
        **(settings or {}),
        "DATABASE_URL": database_url,
        "PORT": str(port),
    }
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--workers", str(workers)],
            env=env,
            stdout=sink,
            stderr=sink,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + HEALTHY_WITHIN
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(log.read_text(encoding="utf-8", errors="replace"))
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        else:
            raise AssertionError(f"server did not become healthy in {HEALTHY_WITHIN} s")
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)

"""A PostgreSQL 15 of a test's own, to stop and start at will (tests/test_outage.py).

initdb refuses to run as root, so under root the server runs as the `postgres` user, in a
directory it owns.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.servers import free_port

PG_BIN = Path("/usr/lib/postgresql/15/bin")
TOOLS = ("initdb", "pg_ctl")


def missing_tools() -> list[str]:
    """The server binaries this machine lacks (empty when an own PostgreSQL can run)."""
    return [str(PG_BIN / tool) for tool in TOOLS if not (PG_BIN / tool).is_file()]


class OwnPostgres:
    """One initdb'd cluster on a free loopback port; `stop` is a crash (-m immediate)."""

    def __init__(self, home: Path, as_postgres: bool) -> None:
        self.home = home
        self.data = home / "data"
        self.port = free_port()
        self.log = home / "postgres.log"
        self._prefix = ["runuser", "-u", "postgres", "--"] if as_postgres else []

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        command = [*self._prefix, str(PG_BIN / tool), *args]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise AssertionError(f"{tool} {args[:2]} failed:\n{done.stdout}{done.stderr}\n{log}")

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")

    def start(self) -> None:
        # fsync off: a killed server's writes still reach the files through the OS cache (only
        # a lost host would lose them). synchronous_commit stays on: off, a crash drops commits
        # the clients were told succeeded, which is what the test checks never happens.
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.home} -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        """Kill the server the way a crash or a lost host would: no clean shutdown."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()


@contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    """A started PostgreSQL, stopped and removed afterwards."""
    as_postgres = os.geteuid() == 0
    home = Path(tempfile.mkdtemp(prefix="navod-pg-"))
    if as_postgres:
        owner = pwd.getpwnam("postgres")
        os.chown(home, owner.pw_uid, owner.pw_gid)
    server = OwnPostgres(home, as_postgres)
    try:
        server.init()
        server.start()
        yield server
    finally:
        if server.running():
            server.stop()
        shutil.rmtree(home, ignore_errors=True)

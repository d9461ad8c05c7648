"""`navod bench --http --workers N --conversations`: a real `navod serve --workers N` on the
configured database (PostgreSQL for more than one worker), driven by many keep-alive clients.

Two phases of equal length: stateless questions (`use_memory: false`) and conversation turns
(each client starts a conversation and keeps continuing it). Each reports requests/s, latency
p50/p90/p99/max, and the responses that were not a 200 or carried a retriable `error`. The
clients run in several processes so one interpreter's lock does not queue them; the machine's
cores are shared with the server, so the report also gives the server's CPU per request.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from engine.store.db import REPO_ROOT

Progress = Callable[[str], None]
# Questions a conversation cycles through: answers, a follow-up, a refusal, a stated figure.
CONVERSATION = (
    "Koja je stopa PDV-a?",
    "a snižena?",
    "kolki je prag za pdv 2024",
    "imam promet 45.000 eura, moram li u PDV?",
    "What is the RMD age?",
    "Wat is het algemene btw-tarief?",
)
STATELESS = tuple({"query": q, "use_memory": False} for q in CONVERSATION)
STARTUP_SECONDS = 600  # a safety net: workers import and compile their snapshot on start


@dataclass(frozen=True, slots=True)
class ScaleOptions:
    database_url: str
    workers: int = 2
    clients: int = 60
    seconds: float = 20.0
    client_processes: int = 4


def measure_scale(options: ScaleOptions, progress: Progress) -> dict[str, Any]:
    """Start the server, warm every worker, run both phases, stop the server."""
    with _server(options) as (base, pid):
        progress(f"{options.workers} workers up at {base}; warming up")
        _warm(base, options.clients)
        report: dict[str, Any] = {
            "workers": options.workers,
            "clients": options.clients,
            "seconds": options.seconds,
            "database": options.database_url.split(":", 1)[0],
        }
        for phase in ("stateless", "conversation"):
            cpu_before = _tree_cpu_seconds(pid)
            result = _drive(base, phase, options)
            cpu = _tree_cpu_seconds(pid) - cpu_before
            done = result["requests"]
            result["server_cpu_ms_per_request"] = round(cpu * 1000 / done, 3) if done else 0.0
            report[phase] = result
            progress(
                f"{phase}: {result['rps']} req/s, p50 {result['p50_ms']} ms, "
                f"p99 {result['p99_ms']} ms, {result['failed']} failed"
            )
    return report


def _drive(base: str, phase: str, options: ScaleOptions) -> dict[str, Any]:
    """`options.clients` clients spread over `options.client_processes` processes."""
    processes = max(1, min(options.client_processes, options.clients))
    shares = [
        options.clients // processes + (i < options.clients % processes) for i in range(processes)
    ]
    deadline = time.time() + options.seconds + 2.0  # the same wall-clock end for every process
    jobs = [(base, phase, share, deadline, i) for i, share in enumerate(shares)]
    with ProcessPoolExecutor(processes) as pool:
        parts = list(pool.map(_client_process, jobs))
    latencies = sorted(t for part in parts for t in part["latencies"])
    failed = sum(part["failed"] for part in parts)
    elapsed = max(part["elapsed"] for part in parts)
    return {
        "requests": len(latencies) + failed,
        "rps": round(len(latencies) / elapsed, 1) if elapsed else 0.0,
        "failed": failed,
        **latency_percentiles(latencies),
    }


def latency_percentiles(latencies_ms: list[float]) -> dict[str, float]:
    """p50/p90/p99/max of sorted latencies (nearest rank); zeros when there are none."""
    if not latencies_ms:
        return {"p50_ms": 0.0, "p90_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}

    def rank(share: float) -> float:
        index = min(len(latencies_ms) - 1, max(0, round(share * len(latencies_ms)) - 1))
        return round(latencies_ms[index], 1)

    return {
        "p50_ms": rank(0.50),
        "p90_ms": rank(0.90),
        "p99_ms": rank(0.99),
        "max_ms": round(latencies_ms[-1], 1),
    }


def _client_process(job: tuple[str, str, int, float, int]) -> dict[str, Any]:
    """One load process: `clients` threads with a keep-alive connection each, sending from
    the moment every process is ready (the deadline minus the phase's length) until it."""
    base, phase, clients, deadline, number = job
    url = f"{base}/api/assistant/chat"

    def client(index: int) -> tuple[list[float], int]:
        latencies: list[float] = []
        failed = 0
        session: str | None = None
        with httpx.Client(timeout=60) as http:
            sent = index + number * clients  # different questions first across clients
            while time.time() < deadline:
                if phase == "stateless":
                    body: dict[str, Any] = dict(STATELESS[sent % len(STATELESS)])
                else:
                    body = {"query": CONVERSATION[sent % len(CONVERSATION)]}
                    if session is not None:
                        body["sessionId"] = session
                began = time.perf_counter()
                try:
                    reply = http.post(url, json=body)
                except httpx.TransportError:
                    failed += 1
                    continue
                took = (time.perf_counter() - began) * 1000
                sent += 1
                answer = reply.json() if reply.status_code == 200 else {}
                if reply.status_code != 200 or "error" in answer:
                    failed += 1
                    continue
                latencies.append(took)
                session = answer.get("sessionId", session)
        return latencies, failed

    began = time.time()
    with ThreadPoolExecutor(clients) as threads:
        results = list(threads.map(client, range(clients)))
    return {
        "latencies": [t for latencies, _ in results for t in latencies],
        "failed": sum(failed for _, failed in results),
        "elapsed": time.time() - began,
    }


def _warm(base: str, clients: int) -> None:
    """Enough concurrent requests that every worker has answered (and compiled) before the
    clock starts; the workers compile their snapshot on start, this only warms the paths."""
    with ThreadPoolExecutor(min(clients, 16)) as pool:
        list(
            pool.map(
                lambda i: httpx.post(
                    f"{base}/api/assistant/chat", json=STATELESS[i % len(STATELESS)], timeout=120
                ),
                range(64),
            )
        )


@contextmanager
def _server(options: ScaleOptions) -> Iterator[tuple[str, int]]:
    """`navod serve --workers N` on a free port, healthy; always stopped on the way out."""
    from measure.bench import _free_port, _wait_healthy  # the single-worker bench's helpers

    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": options.database_url,
        "LOG_LEVEL": "warning",
        # Every client comes from this one address: the per-address limit would measure itself.
        "NAVOD_RATE_LIMIT_PER_MINUTE": str(10**9),
    }
    command = [sys.executable, "-m", "api.cli", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--workers", str(options.workers)]
    process = subprocess.Popen(
        command, env=env, cwd=REPO_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(base, process, STARTUP_SECONDS)
        _wait_settled(process.pid)
        yield base, process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_settled(pid: int, limit: float = STARTUP_SECONDS) -> None:
    """Wait until the server's processes are idle: the first worker answers /health while the
    others may still be compiling their snapshot, and a keep-alive connection opened then
    would stay with the first for the whole run."""
    deadline = time.monotonic() + limit
    before = _tree_cpu_seconds(pid)
    while time.monotonic() < deadline:
        time.sleep(1.0)
        now = _tree_cpu_seconds(pid)
        if now - before < 0.05:  # under 5 % of a core: every worker is up and waiting
            return
        before = now


def _tree_cpu_seconds(pid: int) -> float:
    """User + system CPU of process `pid` and its children (the workers), from /proc."""
    total = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(proc.name) == pid or int(fields[1]) == pid:  # fields[1]: the parent pid
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total

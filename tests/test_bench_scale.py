"""`navod bench --http --workers N --conversations`: the arguments it refuses and the
percentiles it reports. The run itself drives a real multi-worker server on PostgreSQL and is
a measurement, not a test (docs/benchmark.md)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from api.cli import app
from measure.bench_scale import latency_percentiles

runner = CliRunner()


def test_conversations_needs_http(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'navod.db'}"}
    result = runner.invoke(app, ["bench", "--conversations", "--workers", "1"], env=env)
    assert result.exit_code == 2
    assert "add --http" in result.output


def test_more_than_one_worker_needs_postgresql(tmp_path: Path) -> None:
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'navod.db'}"}
    result = runner.invoke(app, ["bench", "--http", "--conversations", "--workers", "2"], env=env)
    assert result.exit_code == 2
    assert "DATABASE_URL=postgresql" in result.output
    assert not (tmp_path / "navod.db").exists()  # no server was started


def test_latency_percentiles_take_the_nearest_rank() -> None:
    latencies = [float(n) for n in range(1, 201)]  # 1 … 200 ms
    assert latency_percentiles(latencies) == {
        "p50_ms": 100.0,
        "p90_ms": 180.0,
        "p99_ms": 198.0,
        "max_ms": 200.0,
    }
    assert latency_percentiles([7.0]) == {
        "p50_ms": 7.0,
        "p90_ms": 7.0,
        "p99_ms": 7.0,
        "max_ms": 7.0,
    }
    assert latency_percentiles([])["p99_ms"] == 0.0

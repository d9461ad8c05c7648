"""The pipeline is pure: engine/pipeline, engine/text, the guardrails, the conversation logic
and the value modules import no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"
PURE = sorted(
    [
        *ENGINE.glob("pipeline/*.py"),
        *ENGINE.glob("text/*.py"),
        *ENGINE.glob("guardrails/*.py"),
        *ENGINE.glob("dossier/*.py"),
        ENGINE / "snapshot.py",
        ENGINE / "conditions.py",
        ENGINE / "types.py",
        ENGINE / "contract.py",
        ENGINE / "contract_paths.py",
        ENGINE / "validation.py",
        ENGINE / "stream.py",
    ]
)
FORBIDDEN = (
    "os",
    "time",
    "random",
    "socket",
    "subprocess",
    "sqlite3",
    "sqlalchemy",
    "sqlmodel",
    "psycopg",
    "fastapi",
    "starlette",
    "uvicorn",
    "httpx",
    "engine.store",
    "engine.service",
    "api",
    "datetime.datetime.now",
    "uuid",
    "logging",
    "pathlib",
)


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ENGINE)))
def test_pure_modules_import_no_io(path: Path) -> None:
    bad = {
        name
        for name in _imports(path)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    }
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ENGINE)))
def test_pure_modules_read_no_clock(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    for call in ("datetime.now", "date.today", "datetime.utcnow", "time.time", "os.environ"):
        assert call not in source, f"{path.name} calls {call}"

"""The pipeline is pure: engine/pipeline, engine/text, the turn flow, the guardrails, the
conversation logic and the value modules import no I/O. And the packages keep their lanes: the
conversation logic does not reach into the guardrails (both plug into engine/flow), the HTTP
routes reach the stores only through the service, and the measuring tools only through the CLI."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
PURE = sorted(
    [
        *ENGINE.glob("pipeline/*.py"),
        *ENGINE.glob("text/*.py"),
        *ENGINE.glob("flow/*.py"),
        *ENGINE.glob("guardrails/**/*.py"),
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


def _importing(paths: list[Path], forbidden: str) -> dict[str, list[str]]:
    """Each file of `paths` that imports `forbidden` or a module inside it, with what it imports."""
    found = {
        str(path.relative_to(ROOT)): sorted(
            n for n in _imports(path) if n == forbidden or n.startswith(forbidden + ".")
        )
        for path in paths
    }
    return {path: names for path, names in found.items() if names}


def test_the_conversation_logic_imports_nothing_from_the_guardrails() -> None:
    assert _importing(sorted(ENGINE.glob("dossier/*.py")), "engine.guardrails") == {}


def test_the_routes_reach_the_stores_only_through_the_service() -> None:
    assert _importing(sorted(ROOT.glob("api/routes/*.py")), "engine.store") == {}


def test_only_the_cli_calls_the_measuring_tools() -> None:
    outside_cli = [p for p in sorted(ROOT.glob("api/**/*.py")) if p.name != "cli.py"]
    assert _importing(outside_cli, "measure") == {}
    assert _importing(sorted(ENGINE.glob("**/*.py")), "measure") == {}


# The pipeline's stages (engine/pipeline/runner.py) and the runner that folds them.
_STAGES = tuple(
    f"engine.pipeline.{name}"
    for name in (
        "runner", "analyse", "as_of", "typos", "classify", "match", "select", "conflicts",
        "compute", "citations", "compose",
    )
)  # fmt: skip


def test_the_conversation_logic_reads_a_message_only_through_the_one_reading() -> None:
    """A message is read once (engine/flow/reading.py): the conversation's steps take that
    reading and never run the pipeline's reading or answering stages themselves."""
    found = {
        str(path.relative_to(ROOT)): sorted(
            name
            for name in _modules(path)
            if any(name == stage or name.startswith(stage + ".") for stage in _STAGES)
        )
        for path in sorted(ENGINE.glob("dossier/*.py"))
    }
    assert {path: names for path, names in found.items() if names} == {}
    assert _modules(ENGINE / "dossier" / "followup.py") >= {"engine.flow.reading"}


def _modules(path: Path) -> set[str]:
    """Every module a file imports, `from package import module` included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found

"""The packs' evidence rebuilds byte-exact from fixtures/sources: a clone needs nothing else."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from engine.store.db import REPO_ROOT

PACKS = REPO_ROOT / "fixtures" / "packs"
BUILDER = REPO_ROOT / "fixtures" / "tools" / "build_evidence.py"


def test_every_evidence_file_rebuilds_byte_exact_from_the_repository(tmp_path: Path) -> None:
    packs = tmp_path / "packs"
    shutil.copytree(PACKS, packs)
    for evidence in packs.glob("*/20-evidence.yaml"):
        evidence.unlink()  # rebuilt from nothing but fixtures/sources
    done = subprocess.run(
        [sys.executable, str(BUILDER), "--packs", str(packs), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    built = sorted(packs.glob("*/20-evidence.yaml"))
    assert [p.parent.name for p in built] == ["hr", "nl", "us-retirement"]
    for path in built:
        assert path.read_bytes() == (PACKS / path.parent.name / path.name).read_bytes(), path


def test_no_pack_names_a_path_outside_the_repository() -> None:
    for path in PACKS.rglob("*.yaml"):
        assert "/work/" not in path.read_text(encoding="utf-8"), path

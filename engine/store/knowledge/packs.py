"""Knowledge packs: read and verify YAML packs, load them into a repository all or nothing.

The format and every refusal reason are described in fixtures/packs/README.md. Parsing is in
pack_parse.py (one record at a time), cross-record checks in pack_checks.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import PackError, PackRefused
from engine.store.db import REPO_ROOT
from engine.store.knowledge.pack_checks import check_packs
from engine.store.knowledge.pack_parse import PACK_FILE, parse_pack
from engine.store.knowledge.pack_records import NotAFact
from engine.store.knowledge.repository import KnowledgeRepository, keyed_records
from engine.types import (
    Concept,
    ConflictResolution,
    Evidence,
    FaqEntry,
    PlanningTopic,
    Rule,
    Source,
)


@dataclass(frozen=True, slots=True)
class PackContents:
    """Everything read from a set of packs, verified and ready to save."""

    sources: tuple[Source, ...]
    evidence: tuple[Evidence, ...]
    concepts: tuple[Concept, ...]
    rules: tuple[Rule, ...]
    faqs: tuple[FaqEntry, ...] = ()
    # sentences of evidence texts that are not facts to answer (`navod kb coverage`)
    not_facts: tuple[NotAFact, ...] = ()
    # each pack's planning topics, in load order then declared order (PlanningTopic.pack)
    topics: tuple[PlanningTopic, ...] = ()
    # the maintainers' decisions of declared conflicts (`resolutions:`, issue 25)
    resolutions: tuple[ConflictResolution, ...] = ()
    # the pack each record came from, by record_key(): a load replaces what its packs held
    owners: Mapping[str, str] = field(default_factory=dict, compare=False)


def bundled_packs_dir() -> Path:
    """The packs shipped with the code: <repo>/fixtures/packs."""
    return REPO_ROOT / "fixtures" / "packs"


def pack_paths(names: Sequence[str]) -> list[Path]:
    """The bundled pack folders called `names`, or all of them (sorted) when `names` is empty."""
    folder = bundled_packs_dir()
    folders = folder.iterdir() if folder.is_dir() else iter(())
    available = sorted(path.name for path in folders if (path / PACK_FILE).is_file())
    for name in names:
        if name not in available:
            known = ", ".join(available) or "none"
            raise PackError(
                display_path(folder / name), "", f"unknown pack {name!r}; known: {known}"
            )
    return [folder / name for name in (names or available)]


def display_path(path: Path) -> str:
    """`path` relative to the repository when inside it, as messages show it."""
    try:
        return path.resolve().relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return str(path)


def read_packs(paths: Sequence[Path]) -> PackContents:
    """Parse and check the packs in `paths`; raise PackRefused listing every problem found."""
    parsed = [parse_pack(path, display_path) for path in paths]
    checked = check_packs(parsed)
    if checked.problems:
        raise PackRefused(checked.problems)
    owners: dict[str, str] = {}
    for path, pack in zip(paths, parsed, strict=True):
        records = PackContents(
            sources=tuple(r.value for r in pack.sources),
            evidence=tuple(r.value for r in pack.evidence),
            concepts=tuple(r.value for r in pack.concepts),
            rules=tuple(r.value for r in pack.rules),
            faqs=tuple(r.value for r in pack.faqs),
            topics=tuple(r.value for r in pack.topics),
            resolutions=tuple(r.value for r in pack.resolutions),
        )
        owners.update(dict.fromkeys(keyed_records(records), path.name))
    return PackContents(
        sources=checked.sources,
        evidence=checked.evidence,
        concepts=checked.concepts,
        rules=checked.rules,
        faqs=checked.faqs,
        not_facts=checked.not_facts,
        topics=checked.topics,
        resolutions=checked.resolutions,
        owners=owners,
    )


def verify_packs(paths: Sequence[Path]) -> PackContents:
    """Check packs without touching any database (`navod kb verify`)."""
    return read_packs(paths)


def load_packs(
    repo: KnowledgeRepository,
    paths: Sequence[Path],
    progress: Callable[[str], None] | None = None,
) -> int:
    """Verify the packs, then save them in one transaction; return the new version.

    Raises PackRefused (nothing written) or StoreError (rolled back, nothing written).
    """
    report = progress or _ignore
    report(f"verifying {len(paths)} pack(s): {', '.join(path.name for path in paths)}")
    contents = read_packs(paths)
    report(
        f"saving {len(contents.sources)} sources, {len(contents.evidence)} evidence, "
        f"{len(contents.concepts)} concepts, {len(contents.rules)} rules, "
        f"{len(contents.faqs)} FAQ entries, {len(contents.topics)} planning topics"
        + (f", {len(contents.resolutions)} conflict resolutions" if contents.resolutions else "")
    )
    version = repo.save_knowledge(contents, [path.name for path in paths])
    report(f"knowledge base is now at version {version}")
    return version


def _ignore(_message: str) -> None:
    """The default progress callback: report nothing."""


@dataclass(frozen=True, slots=True)
class PackDiff:
    """What loading packs would do, by record_key ("rule:…"), each sorted."""

    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]


def diff_packs(repo: KnowledgeRepository, paths: Sequence[Path]) -> PackDiff:
    """Compare the packs in `paths` with what the store holds (`navod kb diff`); writes nothing."""
    contents = read_packs(paths)
    stored = repo.load_knowledge()
    before, after = keyed_records(stored), keyed_records(contents)
    owned = repo.owned([path.name for path in paths])
    return PackDiff(
        added=tuple(sorted(key for key in after if key not in before)),
        changed=tuple(
            sorted(k for k, record in after.items() if k in before and before[k] != record)
        ),
        removed=tuple(sorted(key for key in owned if key not in after)),
    )

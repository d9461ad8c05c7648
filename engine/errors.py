"""The project's error hierarchy: every error Navod raises on purpose is a NavodError.

    NavodError                  base: catch this to handle any Navod failure
    ├── PackError               a knowledge pack cannot be read: names file, record, problem
    │   └── PackRefused         one or more problems found by verify/load, all of them listed
    ├── StoreError              the knowledge-base store failed (the transaction was rolled back)
    ├── StoreUnavailable        the database cannot be reached right now: retry (HTTP 503)
    ├── ConfigError             a setting is missing or malformed
    ├── InvalidRequest          a request body breaks the API schema (HTTP 400), names the field
    ├── VersionConflict         a dossier patch was made from a version that is no longer stored
    └── DossierNotFound         no dossier has the given id (deleted, pruned or never created)

Messages name the bad input and say how to fix it, so they can be shown to the operator as is.
"""

from __future__ import annotations

from dataclasses import dataclass


class NavodError(Exception):
    """Base class of every error Navod raises on purpose."""


@dataclass(frozen=True, slots=True)
class PackProblem:
    """One reason a pack is refused: where (file, record) and what (problem)."""

    file: str
    record: str
    problem: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.record}" if self.record else self.file
        return f"{where}: {self.problem}"


class PackError(NavodError):
    """A knowledge pack cannot be used; `problems` holds every reason found."""

    def __init__(self, file: str, record: str, problem: str) -> None:
        self.problems: tuple[PackProblem, ...] = (PackProblem(file, record, problem),)
        super().__init__(str(self.problems[0]))

    @property
    def file(self) -> str:
        return self.problems[0].file

    @property
    def record(self) -> str:
        return self.problems[0].record

    @property
    def problem(self) -> str:
        return self.problems[0].problem


class PackRefused(PackError):
    """Verification found problems; the message lists all of them, one per line."""

    def __init__(self, problems: tuple[PackProblem, ...]) -> None:
        if not problems:
            raise ValueError("PackRefused needs at least one problem")
        self.problems = problems
        count = len(problems)
        noun = "problem" if count == 1 else "problems"
        lines = "\n".join(f"  - {problem}" for problem in problems)
        Exception.__init__(self, f"pack refused, {count} {noun}:\n{lines}")


class StoreError(NavodError):
    """The knowledge-base store could not complete an operation; nothing was written."""


class StoreUnavailable(NavodError):
    """The database could not be reached (down, restarting, connection lost): a technical
    outcome, not an answer about the law and not a bug. Whatever was being written was rolled
    back, or its commit is in doubt; retrying the same request later is safe.

    `operation` names what failed ("dossiers.get"); `reason` is the driver's first line.
    """

    def __init__(self, operation: str, reason: str) -> None:
        self.operation = operation
        self.reason = reason
        super().__init__(
            f"the database is unreachable ({operation}: {reason}); retry in a few seconds"
        )


class ConfigError(NavodError):
    """A setting is missing or malformed; the message names the setting."""


class InvalidRequest(NavodError):
    """A request that breaks the API schema; `field` names the offending field (HTTP 400)."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")


class VersionConflict(NavodError):
    """A dossier changed after the patch was read from it; nothing was written.

    Only `apply`, the optimistic write, raises it; the service's writes go through `update`,
    which locks the dossier instead (engine/store/dossiers/repository.py).
    """

    def __init__(self, dossier_id: str, base_version: int) -> None:
        self.dossier_id = dossier_id
        self.base_version = base_version
        super().__init__(
            f"dossier {dossier_id!r} is no longer at version {base_version}: "
            "read it again and remake the change"
        )


class DossierNotFound(NavodError):
    """No dossier has this id: it was deleted, pruned by retention, or never created."""

    def __init__(self, dossier_id: str) -> None:
        self.dossier_id = dossier_id
        super().__init__(f"no dossier {dossier_id!r}: it was deleted, pruned or never created")

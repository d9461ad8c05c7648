"""GET /health: what works and what is down. The database (reachable or not), its migration
against the code's head, the KB version and counts, and whether stateless questions are still
answered from the snapshot in memory (they are while the database is down, once one was built).

`stateless.keyedCallers` says which keyed callers are served: `all` while the key store
answers; while it is down, `recent` (the keys confirmed in the last minutes, counted in
`recentKeys`: api/auth/recent.py) or `none`.

`problems` names each thing that is wrong: `database_unreachable`, `migration_behind`,
`no_knowledge`. HTTP 200 only when there is none.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from api.deps import RepositoryDep, SchemaDep, ServiceDep
from api.responses import JSONBytes
from api.schemas.health import HealthReport, HealthUnavailable
from engine.errors import StoreUnavailable

router = APIRouter(tags=["health"])


@router.get(
    "/health",
    responses={
        200: {"model": HealthReport},
        503: {"model": HealthUnavailable, "description": "Degraded, or the database is down"},
    },
)
def health(
    request: Request, repository: RepositoryDep, schema: SchemaDep, service: ServiceDep
) -> JSONBytes:
    head = schema.head()
    snapshot = service.snapshot_version
    recent = request.app.state.auth.recent.count()
    stateless = {
        "answering": snapshot is not None,
        "snapshotVersion": snapshot,
        "keyedCallers": "all",
        "recentKeys": recent,
    }
    try:
        revision = schema.current()
        # An unmigrated or older schema may lack the tables read below: say so, read nothing.
        current = (repository.version(), repository.counts()) if revision == head else None
    except StoreUnavailable:  # logged, throttled, by the store
        return _reply(
            {"database": "unreachable", "migrationHead": head},
            ["database_unreachable"],
            {**stateless, "keyedCallers": "recent" if recent else "none"},
        )
    body: dict[str, Any] = {
        "database": "reachable",
        "migration": {"current": revision, "head": head},
    }
    problems = []
    if current is None:
        problems.append("migration_behind")
    else:
        body["kbVersion"], body["counts"] = current
        if current[0] == 0:
            problems.append("no_knowledge")
    return _reply(body, problems, stateless)


def _reply(body: dict[str, Any], problems: list[str], stateless: dict[str, Any]) -> JSONBytes:
    status = "ok" if not problems else "error" if "database_unreachable" in problems else "degraded"
    return JSONBytes(
        {"status": status, **body, "problems": problems, "stateless": stateless},
        status_code=200 if not problems else 503,
    )


@router.get("/api/noop", include_in_schema=False, response_class=JSONBytes)
async def noop() -> JSONBytes:
    """The benchmark's baseline: the same server doing no work."""
    return JSONBytes({"ok": True})

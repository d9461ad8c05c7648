"""GET /health: database reachable, migration head, KB version and counts."""

from __future__ import annotations

import logging

from fastapi import APIRouter

from api.deps import RepositoryDep, SchemaDep
from api.responses import JSONBytes
from api.schemas.health import HealthReport, HealthUnavailable

router = APIRouter(tags=["health"])
log = logging.getLogger("navod.api")


@router.get(
    "/health",
    responses={
        200: {"model": HealthReport},
        503: {"model": HealthUnavailable, "description": "Degraded, or the database is down"},
    },
)
def health(repository: RepositoryDep, schema: SchemaDep) -> JSONBytes:
    head = schema.head()
    try:
        revision = schema.current()
        version, counts = repository.version(), repository.counts()
    except Exception:
        log.exception("health check failed")
        return JSONBytes(
            {"status": "error", "database": "unreachable", "migrationHead": head}, status_code=503
        )
    ok = revision == head and version > 0
    return JSONBytes(
        {
            "status": "ok" if ok else "degraded",
            "database": "reachable",
            "migration": {"current": revision, "head": head},
            "kbVersion": version,
            "counts": counts,
        },
        status_code=200 if ok else 503,
    )


@router.get("/api/noop", include_in_schema=False, response_class=JSONBytes)
async def noop() -> JSONBytes:
    """The benchmark's baseline: the same server doing no work."""
    return JSONBytes({"ok": True})

"""The conversation API: read, list and delete dossiers, and select or unselect their sources.

`GET /api/dossiers/{id}` shows the events, the selected and unselected sources and the three
memory layers (recent turns, rolling summary, Q&A index), all derived from the events.

Another key's dossier is a 404 with the body of one that does not exist (no 403: whether an id
exists is not for others to learn); listing needs a key, as anonymous dossiers are never listed.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Response

from api.auth.caller import KEY_NEEDED, Caller, CallerDep, unauthorized
from api.deps import ServiceDep
from api.errors import error_response
from api.responses import JSONBytes
from api.schemas.dossiers import DOSSIER_ID_PATTERN, DossierList, DossierView, ShownTurns
from api.schemas.errors import errors
from engine.dossier.memory import qa_index, recent_turns, rolling_summary
from engine.dossier.model import Dossier, selection
from engine.dossier.record import selection_view
from engine.service import event_fields

router = APIRouter(prefix="/api/dossiers", tags=["dossiers"])

DOSSIER_ID = re.compile(DOSSIER_ID_PATTERN)
# The patterns document the ids; the routes check them themselves (a 400 naming `dossierId`).
DossierId = Annotated[
    str,
    Path(
        description="dos_ and 32 hexadecimal digits",
        json_schema_extra={"pattern": DOSSIER_ID_PATTERN},
    ),
]
EvidenceId = Annotated[
    str,
    Path(
        description="ev_ and 16 hexadecimal digits",
        json_schema_extra={"pattern": r"^ev_[0-9a-f]{16}$"},
    ),
]
ERRORS = errors(400, 404, 503)
_VIEW: dict[int | str, dict[str, Any]] = {200: {"model": DossierView}, **ERRORS}

# Plain `def` routes: they wait on the database, so FastAPI runs them in its thread pool.


@router.get("", responses={200: {"model": DossierList}, **ERRORS})
def list_dossiers(
    service: ServiceDep,
    caller: CallerDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> JSONBytes:
    """The calling key's most recently updated dossiers, newest first."""
    if caller.anonymous:
        return unauthorized(KEY_NEEDED)
    if not service.keeps_dossiers:
        return _no_dossiers()
    found = service.recent_dossiers(caller.asker, limit)
    return JSONBytes({"dossiers": [_summary(s) for s in found]})


@router.get("/{dossier_id}", responses=_VIEW)
def get_dossier(dossier_id: DossierId, service: ServiceDep, caller: CallerDep) -> JSONBytes:
    found = load_dossier(service, dossier_id, caller)
    return found if isinstance(found, JSONBytes) else JSONBytes(dossier_view(found))


@router.get("/{dossier_id}/turns", responses={200: {"model": ShownTurns}, **ERRORS})
def get_turns(dossier_id: DossierId, service: ServiceDep, caller: CallerDep) -> JSONBytes:
    """The conversation's turns, oldest first, each with the response it was answered with, so
    a client shows an earlier turn exactly as it was (its proof, sources and trace)."""
    found = load_dossier(service, dossier_id, caller)
    if isinstance(found, JSONBytes):
        return found
    return JSONBytes({"id": found.id, "turns": service.shown_turns(found)})


@router.delete("/{dossier_id}", status_code=204, responses=ERRORS)
def delete_dossier(dossier_id: DossierId, service: ServiceDep, caller: CallerDep) -> Response:
    found = load_dossier(service, dossier_id, caller)
    if isinstance(found, JSONBytes):
        return found
    service.delete_dossier(found.id)
    return Response(status_code=204)


@router.post("/{dossier_id}/sources/{evidence_id}:select", responses=_VIEW)
def select_source(
    dossier_id: DossierId, evidence_id: EvidenceId, service: ServiceDep, caller: CallerDep
) -> JSONBytes:
    return _change(service, caller, dossier_id, evidence_id, "restored")


@router.post("/{dossier_id}/sources/{evidence_id}:unselect", responses=_VIEW)
def unselect_source(
    dossier_id: DossierId, evidence_id: EvidenceId, service: ServiceDep, caller: CallerDep
) -> JSONBytes:
    return _change(service, caller, dossier_id, evidence_id, "unselected")


def _change(
    service: ServiceDep,
    caller: Caller,
    dossier_id: str,
    evidence_id: str,
    action: Literal["restored", "unselected"],
) -> JSONBytes:
    found = load_dossier(service, dossier_id, caller)
    if isinstance(found, JSONBytes):
        return found
    if not selection(found).knows(evidence_id):
        message = f"Dossier {dossier_id} has no source with evidence id '{evidence_id}'."
        return error_response(404, "not_found", message, "evidenceId")
    return JSONBytes(dossier_view(service.change_source(found.id, evidence_id, action)))


def dossier_view(dossier: Dossier) -> dict[str, Any]:
    return {
        "id": dossier.id,
        "surface": dossier.surface,
        "language": dossier.language,
        "createdAt": _iso(dossier.created_at),
        "updatedAt": _iso(dossier.updated_at),
        "version": dossier.version,
        **selection_view(selection(dossier)),
        "summary": rolling_summary(dossier),
        "recent": recent_turns(dossier),
        "index": qa_index(dossier),
        "events": [
            {"seq": event.seq, "at": _iso(event.at), **event_fields(event.record)}
            for event in dossier.events
        ],
    }


def load_dossier(service: ServiceDep, dossier_id: str, caller: Caller) -> Dossier | JSONBytes:
    """The dossier if the caller may reach it; else the error response (404 alike for one
    that does not exist and for another key's)."""
    if not DOSSIER_ID.match(dossier_id):
        message = f"'{dossier_id}' is not a dossier id (dos_ and 32 hexadecimal digits)."
        return error_response(400, "invalid_request", message, "dossierId")
    if not service.keeps_dossiers:
        return _no_dossiers()
    dossier = service.find_dossier(dossier_id, caller.asker)
    if dossier is None:
        return not_found(dossier_id)
    return dossier


def not_found(dossier_id: str) -> JSONBytes:
    return error_response(404, "not_found", f"No dossier {dossier_id}.", "dossierId")


def _no_dossiers() -> JSONBytes:
    return error_response(404, "not_found", "This server keeps no dossiers.", None)


def _summary(summary: Any) -> dict[str, Any]:
    return {
        "id": summary.id,
        "surface": summary.surface,
        "language": summary.language,
        "createdAt": _iso(summary.created_at),
        "updatedAt": _iso(summary.updated_at),
        "turns": summary.turns,
        "lastQuestion": summary.last_question,
    }


def _iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")

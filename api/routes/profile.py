"""What Navod knows about the asker in a conversation (issue 11): its fact records and how
complete they are per planning topic.

    GET  /api/dossiers/{id}/facts          every record, oldest first ({"facts": []} for none)
    POST /api/dossiers/{id}/facts          record facts for one or several topics (201)
    DELETE /api/dossiers/{id}/facts/{type} take a fact back (a new record; 200)
    GET  /api/dossiers/{id}/completeness   the latest score per topic, and the history
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from api.auth.caller import CallerDep
from api.deps import ServiceDep
from api.errors import error_response
from api.responses import JSONBytes
from api.routes.dossiers import ERRORS, DossierId, load_dossier, not_found
from api.schemas.dossiers import CompletenessView, FactList
from api.schemas.errors import errors
from engine.client_context import ClientContextIn, checked_fact
from engine.dossier.model import FACT_TEXT_LIMIT
from engine.dossier.profile import Told, completeness_view, fact_views
from engine.errors import DossierNotFound, InvalidRequest
from engine.guardrails.pii import hides_identifier

router = APIRouter(prefix="/api/dossiers", tags=["profile"])

MOST_FACTS = 50  # records in one request
FACT_NAMES = frozenset(ClientContextIn.model_fields)
NAME = r"^[a-z][a-z0-9_]{0,63}$"
Name = Annotated[str, StringConstraints(pattern=NAME)]


class FactIn(BaseModel):
    """One fact as an API client gives it: the topic it completes and its value."""

    model_config = ConfigDict(extra="forbid")

    topic: Name
    fact_type: Name
    value: (
        Annotated[str, StringConstraints(min_length=1, max_length=FACT_TEXT_LIMIT)]
        | int
        # NaN or ±inf (JSON NaN, 1e999) would be kept and then break every condition it meets
        | Annotated[float, Field(allow_inf_nan=False)]
        | bool
    )
    subtopic: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{0,64}$")] = ""
    confidence: Annotated[float, Field(ge=0.0, le=1.0)] = 1.0


class FactsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    facts: Annotated[list[FactIn], Field(min_length=1, max_length=MOST_FACTS)]


@router.get("/{dossier_id}/facts", responses={200: {"model": FactList}, **ERRORS})
def get_facts(dossier_id: DossierId, service: ServiceDep, caller: CallerDep) -> JSONBytes:
    found = load_dossier(service, dossier_id, caller)
    return found if isinstance(found, JSONBytes) else JSONBytes({"facts": fact_views(found)})


_POSTED: dict[int | str, dict[str, Any]] = {201: {"model": FactList}, **errors(400, 404, 413, 503)}


@router.post("/{dossier_id}/facts", status_code=201, responses=_POSTED)
def post_facts(
    dossier_id: DossierId, body: FactsIn, service: ServiceDep, caller: CallerDep
) -> JSONBytes:
    found = load_dossier(service, dossier_id, caller)
    if isinstance(found, JSONBytes):
        return found
    told: list[Told] = []
    for index, fact in enumerate(body.facts):
        if hides_identifier(fact.fact_type):  # refused without naming it back
            message = "a fact_type is a name; this one holds personal data"
            return error_response(400, "invalid_request", message, f"facts[{index}].fact_type")
        try:  # the clientContext model's types and ranges: one definition of every fact
            value = checked_fact(fact.fact_type, fact.value)
        except ValueError as invalid:
            field = "fact_type" if fact.fact_type not in FACT_NAMES else "value"
            return error_response(400, "invalid_request", str(invalid), f"facts[{index}].{field}")
        told.append(Told(fact.topic, fact.fact_type, value, fact.confidence, fact.subtopic))
    try:
        after, before = service.add_facts(found.id, tuple(told))
    except InvalidRequest as error:
        return error_response(400, "invalid_request", error.message, f"facts.{error.field}")
    except DossierNotFound:
        return not_found(dossier_id)
    return JSONBytes({"facts": fact_views(after, since=before)}, status_code=201)


FactType = Annotated[
    str,
    Path(description="A fact the conversation holds", json_schema_extra={"pattern": NAME}),
]


@router.delete("/{dossier_id}/facts/{fact_type}", responses={200: {"model": FactList}, **ERRORS})
def retract_fact(
    dossier_id: DossierId, fact_type: FactType, service: ServiceDep, caller: CallerDep
) -> JSONBytes:
    """Take back a fact (one Navod read wrongly, or one no longer true): a new record marked
    `retracted`, so the fact is unknown from now on and its history stays."""
    found = load_dossier(service, dossier_id, caller)
    if isinstance(found, JSONBytes):
        return found
    if not re.fullmatch(NAME, fact_type):
        message = "a fact type is a lower-case name (letters, digits, underscores)"
        return error_response(400, "invalid_request", message, "factType")
    try:
        after, before = service.retract_fact(found.id, fact_type)
    except KeyError:  # named back only when it is one of the API's fact names
        named = f" {fact_type}" if fact_type in FACT_NAMES else ""
        return error_response(
            404, "not_found", f"This conversation holds no fact{named}.", "factType"
        )
    except DossierNotFound:
        return not_found(dossier_id)
    return JSONBytes({"facts": fact_views(after, since=before)})


@router.get("/{dossier_id}/completeness", responses={200: {"model": CompletenessView}, **ERRORS})
def get_completeness(dossier_id: DossierId, service: ServiceDep, caller: CallerDep) -> JSONBytes:
    found = load_dossier(service, dossier_id, caller)
    return found if isinstance(found, JSONBytes) else JSONBytes(completeness_view(found))

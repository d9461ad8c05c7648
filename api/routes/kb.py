"""Browse what Navod knows: sources, concepts with their value history, and rules."""

from __future__ import annotations

import dataclasses
import re
from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BeforeValidator

from api import kb_views
from api.deps import RepositoryDep, ServiceDep
from api.errors import error_response
from api.kb_views import MAX_PAGE, ConceptView, RulePage, SourceList
from api.responses import JSONBytes
from api.schemas.errors import errors
from api.schemas.kb import ConceptList, RuleRecord, TopicList
from engine.dossier.profile import topic_view

router = APIRouter(prefix="/api/kb", tags=["knowledge base"])


def _iso_date(value: object) -> object:
    """pydantic reads a number as a Unix time (`asOf=0` was 1970-01-01): only YYYY-MM-DD."""
    if isinstance(value, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError("expected a date as YYYY-MM-DD")
    return value


# The snapshot routes answer from memory; the others read the database, which may be down.
_ERRORS = errors(400)
_NOT_FOUND = errors(404)
_FROM_DATABASE = errors(503)


@router.get("/sources", response_model=SourceList)
def list_sources(service: ServiceDep) -> JSONBytes:
    """Every source with its publisher, authority, licence, URL and evidence texts."""
    return JSONBytes(kb_views.sources(service.snapshot()).model_dump(mode="json"))


@router.get("/topics", responses={200: {"model": TopicList}})
def list_topics(service: ServiceDep) -> JSONBytes:
    """The planning topics of every pack, in the packs' order, with their checklists: the
    facts each needs, their weights and the question that asks for each."""
    return JSONBytes({"topics": [topic_view(t) for t in service.topics()]})


@router.get("/concepts", responses={200: {"model": ConceptList}, **_FROM_DATABASE})
def list_concepts(repository: RepositoryDep) -> JSONBytes:
    concepts = [dataclasses.asdict(c) for c in repository.list_concepts()]
    return JSONBytes({"version": repository.version(), "concepts": concepts})


@router.get("/concepts/{slug}", response_model=ConceptView, responses=_NOT_FOUND)
def get_concept(slug: str, service: ServiceDep) -> JSONBytes:
    """One concept and the history of its value: every rule, oldest first."""
    view = kb_views.concept_view(service.snapshot(), slug)
    if view is None:
        return error_response(404, "not_found", f"No concept with slug '{slug}'.", "slug")
    return JSONBytes(view.model_dump(mode="json"))


@router.get("/rules", response_model=RulePage, responses=_ERRORS)
def list_rules(
    service: ServiceDep,
    concept: Annotated[str | None, Query(max_length=200)] = None,
    jurisdiction: Annotated[str | None, Query(pattern="^[A-Z]{2}$")] = None,
    as_of: Annotated[
        date | None,
        BeforeValidator(_iso_date),
        Query(alias="asOf", description="Only rules in force then (YYYY-MM-DD)"),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    cursor: Annotated[
        str | None, Query(max_length=200, description="next_cursor of a page")
    ] = None,
) -> JSONBytes:
    """Rules sorted by id, filtered, one page at a time."""
    page = kb_views.rule_page(service.snapshot(), concept, jurisdiction, as_of, limit, cursor)
    return JSONBytes(page.model_dump(mode="json"))


@router.get(
    "/rules/{rule_id}", responses={200: {"model": RuleRecord}, **_NOT_FOUND, **_FROM_DATABASE}
)
def get_rule(rule_id: str, repository: RepositoryDep) -> JSONBytes:
    rule = repository.get_rule(rule_id)
    if rule is None:
        return error_response(404, "not_found", f"No rule with id '{rule_id}'.", "rule_id")
    body: dict[str, Any] = dataclasses.asdict(rule)
    return JSONBytes(body)

"""Browse what Navod knows: concepts and rules."""

from __future__ import annotations

import dataclasses
from typing import Any

from fastapi import APIRouter

from api.deps import RepositoryDep
from api.errors import error_response
from api.responses import JSONBytes

router = APIRouter(prefix="/api/kb", tags=["knowledge base"])


@router.get("/concepts", response_class=JSONBytes)
def list_concepts(repository: RepositoryDep) -> JSONBytes:
    concepts = [dataclasses.asdict(c) for c in repository.list_concepts()]
    return JSONBytes({"version": repository.version(), "concepts": concepts})


@router.get("/rules/{rule_id}", response_class=JSONBytes)
def get_rule(rule_id: str, repository: RepositoryDep) -> JSONBytes:
    rule = repository.get_rule(rule_id)
    if rule is None:
        return error_response(404, "not_found", f"No rule with id '{rule_id}'.", "rule_id")
    body: dict[str, Any] = dataclasses.asdict(rule)
    return JSONBytes(body)

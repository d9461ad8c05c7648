"""The caller the guard identified, as the routes see it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from api.errors import error_body
from api.responses import JSONBytes
from engine.dossier.ownership import ANONYMOUS


@dataclass(frozen=True, slots=True)
class Caller:
    """A key id, or anonymous; `asker` is what a conversation stores as its owner.
    `unverified`: a key was presented while the key store was down and is not one confirmed
    recently (api/auth/recent.py): the question routes answer it with their outage response."""

    key_id: str | None = None
    unverified: bool = False

    @property
    def asker(self) -> str:
        return self.key_id or ANONYMOUS

    @property
    def anonymous(self) -> bool:
        return self.key_id is None


async def get_caller(connection: HTTPConnection) -> Caller:
    """The caller guard.py put on the connection. It guards every request, so a missing one
    is a wiring mistake: a server error rather than an anonymous pass."""
    caller: Caller = connection.state.caller
    return caller


CallerDep = Annotated[Caller, Depends(get_caller)]


def unauthorized(message: str) -> JSONBytes:
    """401 in the error shape, with the challenge RFC 6750 asks for."""
    return JSONBytes(
        error_body(401, "unauthorized", message, "Authorization"),
        status_code=401,
        headers={"WWW-Authenticate": "Bearer"},
    )


KEY_NEEDED = (
    "This needs an API key: send 'Authorization: Bearer <secret>' (the server's operator makes "
    "keys with `navod keys create`)."
)

"""The web page at `/` and the OpenAPI page at `/docs`, both from files in api/web/static:
no CDN and no build step, so both work on a machine without internet access.

The page is a client of the public API like any other; it holds no server-side state. Every
HTML response, and every static file, carries the page's security headers: a policy that lets
it load only its own files (no inline script, which is why /docs starts Swagger UI from
js/docs-init.js), no framing, no MIME sniffing, no referrer.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

STATIC = Path(__file__).parent / "static"
# Everything the page loads is its own: no inline script or style, no other origin, no frames.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": PAGE_POLICY,
    "X-Frame-Options": "DENY",  # frame-ancestors 'none' for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
PAGE_HEADERS = {**SECURITY_HEADERS, "Cache-Control": "no-cache"}


class OwnFiles(StaticFiles):
    """api/web/static, each file with the security headers: an HTML or SVG file opened on its
    own runs under the page's policy, and nothing is sniffed into another type."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(SECURITY_HEADERS)
        return response


def install_pages(app: FastAPI) -> None:
    app.mount("/static", OwnFiles(directory=STATIC), name="static")
    app.add_api_route("/", page, methods=["GET", "HEAD"], include_in_schema=False)
    app.add_api_route("/docs", docs, methods=["GET"], include_in_schema=False)


async def page() -> FileResponse:
    return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)


async def docs() -> FileResponse:
    """Swagger UI (vendored in static/vendor/swagger-ui) over /openapi.json."""
    return FileResponse(STATIC / "docs.html", headers=PAGE_HEADERS)

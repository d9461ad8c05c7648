"""What the browser tests share: Debian's Chromium found and launched, a tab that can reach
only the server under test and records what went wrong in it, screenshots, and axe-core.

Everything here runs offline: the browser is the system's (tests/browser/ensure_chromium.sh),
axe-core is vendored (tests/browser/vendor/axe-core), and every request to a host other than
127.0.0.1 is aborted, so a page that needs the internet fails its test instead of passing on
a machine that happens to have it.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    Request,
    Response,
    Route,
    WebSocketRoute,
)

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
LOCAL_HOST = "127.0.0.1"  # tests/servers.py binds here; nothing else may be reached
INSTALL_HINT = "run `make browser` (sh tests/browser/ensure_chromium.sh) or set NAVOD_CHROMIUM"

# Headless, and quiet on the network: no sync, no component or field-trial downloads, no QUIC
# probes. --no-sandbox because the tests run as root in containers, where the sandbox cannot
# start.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 860}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
    },
}

# A WebSocket to anywhere but the server: the page routes (`context.route`) never see
# WebSockets, so these are closed by a route of their own. Local ones are not matched at all,
# so they reach the server directly rather than through Playwright's proxy.
FOREIGN_WEBSOCKET = re.compile(r"^wss?://(?!127\.0\.0\.1[:/])")


def find_chromium() -> str | None:
    """NAVOD_CHROMIUM if set, else Debian's /usr/bin/chromium, else `chromium` on PATH."""
    chosen = os.environ.get("NAVOD_CHROMIUM")
    if chosen:  # a wrong path is an error, not a reason to try another browser
        return chosen if os.access(chosen, os.X_OK) else None
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium")


@dataclass
class Tab:
    """One page in a context of its own (fresh storage), with what went wrong in it.

    `errors`: console errors and uncaught exceptions; `blocked`: requests to other hosts,
    aborted; `failed`: requests that got no response (the blocked ones included);
    `http_errors`: responses with a status of 400 or more. Anything a Playwright Page does,
    a Tab does too (`tab.goto("/")`: the context's base URL is the server's).
    """

    page: Page
    context: BrowserContext
    kind: str  # "desktop" or "phone": the viewport, and the screenshot's suffix
    base: str  # the server's http:// URL
    errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)

    def problems(self) -> list[str]:
        """Every error, blocked or failed request and error status seen so far, labelled."""
        return [
            *(f"error: {text}" for text in self.errors),
            *(f"blocked: {url}" for url in self.blocked),
            *(f"failed: {what}" for what in self.failed),
            *(f"status: {what}" for what in self.http_errors),
        ]


def open_tab(browser: Browser, kind: str, base: str, **context_options: Any) -> Tab:
    """A new context at the `kind` viewport, able to reach only 127.0.0.1, and its page."""
    # Service workers are blocked so that every request of the page passes the route below.
    context = browser.new_context(
        **VIEWPORTS[kind], service_workers="block", base_url=base, **context_options
    )
    page = context.new_page()
    tab = Tab(page, context, kind, base)

    def route(route: Route) -> None:
        if urlsplit(route.request.url).hostname == LOCAL_HOST:
            route.continue_()
        else:
            tab.blocked.append(route.request.url)
            route.abort("blockedbyclient")

    def foreign_websocket(socket: WebSocketRoute) -> None:
        tab.blocked.append(socket.url)
        socket.close()

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            tab.errors.append(message.text)

    def page_error(error: Error) -> None:
        tab.errors.append(f"{error.name}: {error.message}")

    def request_failed(request: Request) -> None:
        tab.failed.append(f"{request.method} {request.url}: {request.failure}")

    def response(answer: Response) -> None:
        if answer.status >= 400:
            tab.http_errors.append(f"{answer.status} {answer.request.method} {answer.url}")

    context.route("**/*", route)
    context.route_web_socket(FOREIGN_WEBSOCKET, foreign_websocket)
    page.on("console", console)
    page.on("pageerror", page_error)
    page.on("requestfailed", request_failed)
    page.on("response", response)
    return tab


def screenshot(tab: Tab, name: str) -> Path:
    """The whole page as artifacts/screenshots/<name>-<desktop|phone>.png (for a person to
    look at; no test compares pixels)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}-{tab.kind}.png"
    tab.page.screenshot(path=str(path), full_page=True)
    return path


def axe_violations(
    page: Page | Tab, impacts: Sequence[str] = ("serious", "critical")
) -> list[dict[str, Any]]:
    """axe-core's violations of the page as it is now, of the given impacts: each with its
    rule id, impact, help text and the CSS targets of the offending nodes.

    The page at `/` allows only its own scripts (`script-src 'self'`), so axe cannot go in as a
    <script> element: `add_script_tag` inlines the file and the CSP blocks it. `evaluate` runs
    the source through the DevTools protocol instead, which no page CSP governs, and axe needs
    no eval of its own. Every frame gets a copy, since axe checks frames with their own axe.
    """
    page = page.page if isinstance(page, Tab) else page
    source = AXE.read_text(encoding="utf-8")
    for frame in page.frames:
        if not frame.evaluate("typeof window.axe === 'object'"):
            frame.evaluate(source)
    found: list[dict[str, Any]] = page.evaluate(
        """async (impacts) => {
            const results = await axe.run(document, {resultTypes: ["violations"]});
            return results.violations
                .filter((v) => impacts.includes(v.impact))
                .map((v) => ({
                    id: v.id,
                    impact: v.impact,
                    help: v.help,
                    targets: v.nodes.map((n) => n.target.join(" ")),
                }));
        }""",
        list(impacts),
    )
    return found


def describe(violations: list[dict[str, Any]]) -> str:
    """Violations one a line, for an assert message a person can act on."""
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(v['targets'])}" for v in violations
    )

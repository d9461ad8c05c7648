"""The harness itself: the page loads in the real browser under its policy, nothing outside
127.0.0.1 can load, axe finds what is wrong (and so its silence means something), and the
keyed server takes the key the CLI made for it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error

from tests.browser.conftest import KeyedServer
from tests.browser.harness import Tab, axe_violations, describe

NAMELESS_BUTTON = "document.querySelector('main').append(document.createElement('button'))"
STATUS = "async (headers) => (await fetch('/api/kb/concepts', {headers})).status"


def test_the_page_loads_under_its_content_security_policy(page: Tab) -> None:
    response = page.goto("/")
    assert response is not None and response.status == 200
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert "Navod" in page.title()
    assert page.errors == [] and page.blocked == [], page.problems()


def test_no_request_leaves_the_machine(desktop_page: Tab) -> None:
    # .invalid never resolves, so even a harness that let it through would send nothing out.
    desktop_page.set_content('<img alt="far" src="http://far.invalid/x.png">')
    desktop_page.wait_for_load_state("load")
    assert desktop_page.blocked == ["http://far.invalid/x.png"]
    assert len(desktop_page.failed) == 1 and "ERR_BLOCKED_BY_CLIENT" in desktop_page.failed[0]


def test_errors_and_error_statuses_are_collected(desktop_page: Tab) -> None:
    """The other side of every `problems() == []`: the lists do fill when something breaks."""
    desktop_page.set_content("<script>console.error('said'); throw new Error('thrown')</script>")
    assert desktop_page.errors == ["said", "Error: thrown"]
    response = desktop_page.goto("/static/missing.css")
    assert response is not None and response.status == 404
    assert desktop_page.http_errors == [f"404 GET {desktop_page.base}/static/missing.css"]


def test_axe_finds_a_missing_alternative_on_a_blank_page(desktop_page: Tab) -> None:
    desktop_page.set_content('<html lang="en"><title>t</title><main><img src="x.png"></main>')
    found = axe_violations(desktop_page)
    assert [v["id"] for v in found] == ["image-alt"], describe(found)
    assert found[0]["impact"] == "critical" and found[0]["targets"] == ["img"]
    minor = axe_violations(desktop_page, impacts=("minor",))
    assert "image-alt" not in [v["id"] for v in minor]  # the impacts filter filters


def test_axe_runs_under_the_page_policy_that_blocks_script_tags(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    with pytest.raises(Error, match="Content Security Policy"):
        desktop_page.add_script_tag(content="window.injected = true")
    desktop_page.evaluate(NAMELESS_BUTTON)
    found = axe_violations(desktop_page)
    assert "button-name" in [v["id"] for v in found], describe(found)


def test_the_keyed_server_needs_the_key_the_cli_made(
    keyed_desktop_page: Tab, keyed_server: KeyedServer
) -> None:
    response = keyed_desktop_page.goto("/")
    assert response is not None and response.status == 200  # the page needs no key
    assert keyed_desktop_page.evaluate(STATUS, {}) == 401
    assert keyed_desktop_page.evaluate(STATUS, keyed_server.headers) == 200

"""/docs works with no internet: Swagger UI comes from api/web/static/vendor/swagger-ui, and
in the real browser, with every request to another host aborted, it renders the API with no
failed request and no console error."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

from tests.browser.harness import Tab, screenshot
from tests.web_assets import STATIC, references

CHAT = '.opblock-post .opblock-summary-path[data-path="/api/assistant/chat"]'


def test_docs_render_with_every_other_host_blocked(page: Tab) -> None:
    response = page.goto("/docs")
    assert response is not None and response.status == 200
    expect(page.locator(CHAT)).to_be_visible()
    expect(page.locator(".opblock")).not_to_have_count(0)
    page.wait_for_load_state("networkidle")
    assert page.title() == "Navod API"
    assert page.problems() == []
    screenshot(page, "docs")


def test_an_operation_opens_offline(desktop_page: Tab) -> None:
    desktop_page.goto("/docs")
    desktop_page.locator(CHAT).click()
    expect(desktop_page.locator(".opblock.is-open .opblock-body")).to_be_visible()
    desktop_page.wait_for_load_state("networkidle")
    assert desktop_page.problems() == []


def test_the_served_html_and_css_name_no_other_host(server: str) -> None:
    html = httpx.get(f"{server}/docs").text
    assert not re.search(r"https?://|//[a-z]", html, re.IGNORECASE), html
    assert set(references(html)) == {
        "/static/vendor/swagger-ui/swagger-ui.css",
        "/static/vendor/swagger-ui/swagger-ui-bundle.js",
        "/static/js/docs-init.js",  # Swagger UI's start: a file, as the policy allows no inline
        "/static/favicon.svg",
    }
    css = (STATIC / "vendor" / "swagger-ui" / "swagger-ui.css").read_text(encoding="utf-8")
    targets = re.findall(r"url\(\s*['\"]?([^'\")]*)", css)
    assert targets and all(target.startswith("data:") for target in targets), targets

"""When things go wrong: a stream cut half-way or a dead connection shows a retry message and
nothing of the partial answer; a server that needs a key asks for it once, keeps it in the tab
and lists only that key's conversations."""

from __future__ import annotations

from playwright.sync_api import Route, expect

from tests.browser.conftest import KeyedServer
from tests.browser.flows import ask, finished_card
from tests.browser.harness import Tab

STREAM = "**/api/assistant/chat/stream"
QUESTION = "Koja je opća stopa PDV-a?"


def cut_after_citations(route: Route) -> None:
    """The real stream, cut after its citations line: no content, no `_done`."""
    response = route.fetch()
    lines = response.body().split(b"\n")
    assert b'"citations"' in lines[1], lines[:2]
    route.fulfill(response=response, body=b"\n".join(lines[:2]) + b"\n")


def test_a_stream_cut_half_way_shows_a_retry_message_and_no_half_answer(page: Tab) -> None:
    page.goto("/")
    page.route(STREAM, cut_after_citations)
    card = ask(page, QUESTION)
    expect(card.locator(".stream-broken")).to_contain_text("Ništa od njega nije prikazano")
    # neither the citations that did arrive nor any text of the answer stays on screen
    assert card.locator(".source-card, .headline, .direct-answer").count() == 0
    page.unroute(STREAM)
    card.locator(".retry-button").click()
    retried = finished_card(page, 0)
    expect(retried.locator(".headline")).to_contain_text("25 %")
    expect(page.locator(".turn")).to_have_count(1)  # the broken turn was replaced


def test_a_dead_connection_is_not_reported_as_no_source(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    desktop_page.route(STREAM, lambda route: route.abort("connectionreset"))
    card = ask(desktop_page, QUESTION)
    expect(card.locator(".stream-broken")).to_contain_text("could not be reached")
    expect(card.locator(".retry-button")).to_be_visible()
    assert card.locator(".reason-NO_CITABLE_RULES").count() == 0


def test_a_server_needing_a_key_asks_for_it_once_and_keeps_it_in_the_tab(
    keyed_desktop_page: Tab, keyed_server: KeyedServer
) -> None:
    tab = keyed_desktop_page
    tab.goto("/")
    dialog = tab.locator("#key-dialog")
    expect(dialog).to_be_visible()
    tab.fill("#key-input", "navod_not-a-key-at-all")
    tab.locator("#key-dialog button[value=save]").click()
    expect(tab.locator("#key-error")).to_be_visible()
    tab.fill("#key-input", keyed_server.secret)
    tab.locator("#key-dialog button[value=save]").click()
    expect(dialog).to_be_hidden()
    card = ask(tab, "What is the RMD age?")
    expect(card.locator(".headline")).to_contain_text("73")
    expect(tab.locator("#conversation-list .conversation")).to_have_count(1)
    # the key lives in this tab's sessionStorage, never in localStorage or the URL
    assert tab.evaluate("() => sessionStorage.getItem('navod.apiKey')") == keyed_server.secret
    assert keyed_server.secret not in str(tab.evaluate("() => ({...localStorage})"))
    assert keyed_server.secret not in tab.url
    # the list is the key's own: a new tab with the same key sees it, asked through the API
    listed = tab.context.request.get(
        f"{keyed_server.base}/api/dossiers", headers=keyed_server.headers
    ).json()["dossiers"]
    current = tab.url.rsplit("/", 1)[1]  # the address names the conversation shown
    assert [d["id"] for d in listed] == [current]
    # a second tab (a new context: its own sessionStorage) is asked again
    browser = tab.context.browser
    assert browser is not None
    other = browser.new_context(base_url=keyed_server.base)
    second = other.new_page()
    second.goto("/")
    expect(second.locator("#key-dialog")).to_be_visible()
    other.close()

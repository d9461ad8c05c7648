"""Nothing is lost and history works (issue 26): every stored turn reopens in full after a
reload or a switch, a reload mid-answer keeps the question with a retry, the address names the
view and the conversation (Back and Forward move between them, a link reopens them, a new tab
starts a new conversation), and it holds ids only."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Route, expect

from tests.browser.flows import ANSWERED_WITHIN_MS, ask, open_panel
from tests.browser.harness import Tab

CONVERSATION_URL = re.compile(r"/#/c/dos_[0-9a-f]{32}$")
# one answer with a stated fact and a computed line, one table of values, one refusal
QUESTIONS = [
    "Koja je stopa PDV-a?",
    "Imam paušalni obrt i 45.000 eura primitaka, moram li u sustav PDV-a?",
    "Koliko košta kava u Splitu?",
]


def settled_cards(tab: Tab) -> list[str]:
    """Every card of the thread as drawn, once its quotes are decorated (value marked)."""
    tab.wait_for_load_state("networkidle")
    cards: list[str] = tab.locator("#thread .turn .card").evaluate_all(
        "nodes => nodes.map(node => node.innerHTML)"
    )
    return cards


def parts(card: Locator) -> dict[str, list[str]]:
    """What a person reopens a card for: quotes, sources, why, the trace."""
    return {
        name: card.locator(selector).all_inner_texts()
        for name, selector in {
            "quotes": ".quote",
            "sources": ".proof .source-card",
            "why": ".why",
            "trace": ".trace, details.trace",
            "headline": ".headline",
        }.items()
    }


def test_a_reload_and_a_switch_reopen_every_card_as_it_was(page: Tab) -> None:
    page.goto("/")
    live_cards = [ask(page, question) for question in QUESTIONS]
    assert any(parts(card)["quotes"] for card in live_cards)
    live = settled_cards(page)
    live_parts = [parts(card) for card in live_cards]
    expect(page.page).to_have_url(CONVERSATION_URL)

    page.reload()
    expect(page.locator("#thread .turn")).to_have_count(len(QUESTIONS))
    assert settled_cards(page) == live, "a reload shows every card exactly as it was answered"
    cards = page.locator("#thread .turn .card")
    assert [parts(cards.nth(i)) for i in range(len(QUESTIONS))] == live_parts

    # another conversation, then back to this one through the list
    open_panel(page, "sidebar")
    page.click("#new-conversation")
    expect(page.locator("#thread .turn")).to_have_count(0)
    ask(page, "What is the RMD age?")
    open_panel(page, "sidebar")
    page.locator(".open-conversation", has_text=QUESTIONS[-1]).click()
    expect(page.locator("#thread .turn")).to_have_count(len(QUESTIONS))
    assert settled_cards(page) == live, "a switch shows every card exactly as it was answered"
    assert not page.problems()


def test_a_reload_mid_answer_keeps_the_last_answer_and_offers_a_retry(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    ask(tab, "Koja je stopa PDV-a?")
    held: list[Route] = []
    tab.route("**/api/assistant/chat/stream", lambda route: held.append(route))  # never answered
    tab.fill("#question", "Koliki je prag za ulazak u sustav PDV-a?")
    tab.press("#question", "Enter")
    expect(tab.locator(".turn")).to_have_count(2)
    tab.wait_for_function("() => sessionStorage.getItem('navod.pending') !== null")
    tab.reload()
    turns = tab.locator("#thread .turn")
    expect(turns).to_have_count(2)
    expect(turns.nth(0).locator(".proof .quote").first).to_be_visible()  # the last complete turn
    interrupted = turns.nth(1)
    expect(interrupted.locator(".asked")).to_contain_text("Koliki je prag")
    expect(interrupted.locator(".interrupted")).to_be_visible()
    tab.unroute("**/api/assistant/chat/stream")
    interrupted.locator(".retry-button").click()
    card = tab.locator("#thread .turn").nth(1).locator(".card")
    card.and_(tab.locator("[aria-busy=false]")).wait_for(timeout=ANSWERED_WITHIN_MS)
    expect(card.locator(".headline")).to_contain_text("Prag")
    expect(tab.locator("#thread .turn")).to_have_count(2)
    assert tab.evaluate("() => sessionStorage.getItem('navod.pending')") is None


def test_back_and_forward_move_between_views_and_a_link_reopens_one(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    ask(tab, "Wat is het btw-tarief?")
    expect(tab.page).to_have_url(CONVERSATION_URL)
    conversation = tab.url
    tab.click("#nav-knowledge")
    expect(tab.page).to_have_url(re.compile(r"/#/knowledge$"))
    tab.fill("#kb-search", "KOR")
    tab.locator("#kb-concepts button.concept").first.click()
    expect(tab.page).to_have_url(re.compile(r"/#/knowledge/[\w.-]+$"))
    concept = tab.url
    title = tab.locator("#kb-concept-title").inner_text()

    tab.go_back()
    expect(tab.page).to_have_url(re.compile(r"/#/knowledge$"))
    expect(tab.locator("#kb-concept-title")).to_have_count(0)
    tab.go_back()
    expect(tab.page).to_have_url(conversation)
    expect(tab.locator("#ask-view")).to_be_visible()
    expect(tab.locator("#thread .turn")).to_have_count(1)
    tab.go_forward()
    expect(tab.locator("#knowledge-view")).to_be_visible()
    tab.go_forward()
    expect(tab.locator("#kb-concept-title")).to_have_text(title)

    # the concept's address, opened in a new tab, opens the same concept
    other = Tab(tab.context.new_page(), tab.context, tab.kind, tab.base)
    other.goto(concept)
    slug = concept.rsplit("/", 1)[1]
    expect(other.locator("#kb-concept code")).to_have_text(slug)  # (in that tab's language)
    assert not tab.problems()


def test_a_new_tab_starts_a_new_conversation_and_a_link_reopens_one(desktop_page: Tab) -> None:
    first = desktop_page
    first.goto("/")
    ask(first, "Koja je stopa PDV-a?")
    expect(first.page).to_have_url(CONVERSATION_URL)
    second = Tab(first.context.new_page(), first.context, first.kind, first.base)
    second.goto("/")
    expect(second.locator("#thread .turn")).to_have_count(0)
    ask(second, "What is the RMD age?")
    expect(second.page).to_have_url(CONVERSATION_URL)
    assert second.url != first.url
    expect(second.locator("#thread")).not_to_contain_text("PDV")
    # the first tab's next question stays in its own conversation
    ask(first, "a snižena?")
    expect(first.locator("#thread")).not_to_contain_text("RMD")
    expect(first.locator("#thread .turn")).to_have_count(2)
    # its address, opened elsewhere, reopens it
    third = Tab(first.context.new_page(), first.context, first.kind, first.base)
    third.goto(first.url)
    expect(third.locator("#thread .turn")).to_have_count(2)
    # the address and the browser's storage hold ids only
    for tab in (first, second, third):
        fragment = tab.url.split("#", 1)[1]
        assert re.fullmatch(r"/c/dos_[0-9a-f]{32}", fragment), fragment
    stored = first.evaluate("() => ({...localStorage})")
    assert set(stored) <= {"navod.conversations"}
    assert first.evaluate("() => Object.keys(sessionStorage)") == []

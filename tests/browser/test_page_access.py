"""The page for everyone: keyboard only, no serious accessibility violation in any main view
(axe-core), reduced motion respected, and a screenshot of each view at desktop and phone width
(artifacts/screenshots; one of them is in the README)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.flows import ask, open_panel
from tests.browser.harness import Tab, axe_violations, describe, screenshot


def assert_accessible(tab: Tab, view: str) -> None:
    violations = axe_violations(tab)
    assert not violations, f"{view} ({tab.kind}): {describe(violations)}"


def test_every_view_is_accessible_and_photographed(page: Tab) -> None:
    page.goto("/")
    expect(page.locator("#conversation-list")).to_contain_text("No conversations")
    assert_accessible(page, "empty page")
    screenshot(page, "start")

    ask(page, "Koliki je prag za ulazak u sustav PDV-a 2024?")
    page.locator(".trace summary").click()
    assert_accessible(page, "answer")
    # the answer's direct statement down to the quote that proves it
    page.locator(".turn .direct-answer").last.evaluate(
        "node => node.scrollIntoView({block: 'start'})"
    )
    screenshot(page, "answer")

    ask(page, "Hoe laat is het?")
    assert_accessible(page, "refusal")
    screenshot(page, "refusal")

    page.check("input[value=APP]")
    ask(page, "I was born in 1962. When must I take my first RMD?")
    open_panel(page, "profile")
    open_panel(page, "sidebar")
    assert_accessible(page, "conversation and profile")
    page.locator("#completeness").scroll_into_view_if_needed()
    screenshot(page, "profile")

    page.click("#nav-knowledge")
    page.fill("#kb-search", "prag pdv")
    page.locator("#kb-concepts button", has_text="VAT registration threshold").first.click()
    expect(page.locator("#kb-concept table")).to_be_visible()
    assert_accessible(page, "knowledge")
    page.locator("#kb-concept").scroll_into_view_if_needed()
    screenshot(page, "knowledge")
    assert not page.problems()


def test_the_key_dialog_is_accessible(keyed_desktop_page: Tab) -> None:
    keyed_desktop_page.goto("/")
    expect(keyed_desktop_page.locator("#key-dialog")).to_be_visible()
    expect(keyed_desktop_page.locator("#key-input")).to_be_focused()
    assert_accessible(keyed_desktop_page, "key dialog")
    screenshot(keyed_desktop_page, "key")


def test_keyboard_only(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    # the first Tab reaches the skip link, which leads to the question box
    tab.keyboard.press("Tab")
    expect(tab.locator(".skip-link")).to_be_focused()
    tab.keyboard.press("Enter")
    expect(tab.locator("#question")).to_be_focused()
    tab.keyboard.type("Wat is het algemene btw-tarief?")
    tab.keyboard.press("Shift+Enter")  # a new line, not a send
    expect(tab.locator(".turn")).to_have_count(0)
    tab.keyboard.press("Enter")
    card = tab.locator(".turn").first.locator(".card[aria-busy=false]")
    card.wait_for()
    expect(card.locator(".headline")).to_contain_text("21")
    # from the answer, Tab reaches a related question; Enter asks it
    related = card.locator(".related button").first
    for _ in range(60):
        tab.keyboard.press("Tab")
        if related.evaluate("node => node === document.activeElement"):
            break
    expect(related).to_be_focused()
    tab.keyboard.press("Enter")
    tab.locator(".turn").nth(1).locator(".card[aria-busy=false]").wait_for()
    # a source toggle works with the space bar
    toggle = tab.locator("#source-list input").first
    toggle.focus()
    tab.keyboard.press("Space")
    expect(toggle).not_to_be_checked()
    # the why drawer opens from the keyboard
    summary = card.locator(".trace summary")
    summary.focus()
    tab.keyboard.press("Enter")
    expect(card.locator(".trace-stages > li").first).to_be_visible()


def test_reduced_motion_turns_transitions_off(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.emulate_media(reduced_motion="reduce")
    tab.goto("/")
    tab.check("input[value=APP]")
    ask(tab, "I was born in 1962. When must I take my first RMD?")
    bar = tab.locator(".bar-fill").first
    assert bar.evaluate("node => getComputedStyle(node).transitionDuration") == "0s"
    tab.emulate_media(reduced_motion="no-preference")
    assert bar.evaluate("node => getComputedStyle(node).transitionDuration") != "0s"


def test_a_search_ranks_the_concept_it_names_first(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    desktop_page.click("#nav-knowledge")
    desktop_page.fill("#kb-search", "KOR")
    first = desktop_page.locator("#kb-concepts button").first
    # the KOR itself, not one of the many "heffingskorting" concepts that hold the letters
    expect(first).to_contain_text("KOR")
    expect(first).not_to_contain_text("heffingskorting")
    desktop_page.fill("#kb-search", "pdv na kruh")
    expect(desktop_page.locator("#kb-concepts button").first).to_contain_text("bread")
    assert not desktop_page.problems()

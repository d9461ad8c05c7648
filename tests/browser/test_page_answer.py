"""Asking on the page: the streamed answer with its proof, in three languages, a refusal with
its next steps and a clarification answered by a click."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Route, expect

from tests.browser.flows import api_answer, ask
from tests.browser.harness import Tab, axe_violations, describe


def test_a_cited_answer_shows_the_quote_with_the_value_marked_and_a_link_to_the_source(
    page: Tab,
) -> None:
    page.goto("/")
    question = "Koliki je prag za ulazak u sustav PDV-a 2024?"
    card = ask(page, question)
    expected = api_answer(page.base, {"query": question, "use_memory": False})
    primary = expected["citations"]["primary"]

    expect(card.locator(".headline")).to_have_text(expected["headline"])
    expect(card.locator(".direct-answer")).to_have_text(expected["directAnswer"])
    source = card.locator(".proof .source-card").first
    expect(source.locator(".quote")).to_have_text(primary["quote"])  # verbatim, whole
    expect(source.locator(".quote mark")).to_have_text("40.000,00")  # the rule's value
    link = source.locator("a.source-link")
    expect(link).to_have_attribute("href", primary["url"])
    expect(link).to_have_attribute("rel", "noopener noreferrer")
    expect(source.locator(".evidence code")).to_have_text(primary["evidenceId"])
    expect(source.locator(".fetched")).to_contain_text("2026")
    expect(source.locator(".in-force")).to_contain_text("2024")
    expect(source.locator(".authority")).to_have_text("Službena uputa")
    # confidence in words a person can act on, not a bare percentage
    expect(card.locator(".confidence-basis")).to_have_text(expected["confidence"]["rationale"])
    expect(card.locator(".badge.confidence")).not_to_contain_text("%")
    # the interface took the answer's language: Croatian labels, Croatian dates
    expect(card.locator(".as-of")).to_have_text("Propisi na dan 1. siječnja 2024.")
    assert page.evaluate("() => document.documentElement.lang") == "hr"
    assert not page.problems()


def test_the_why_drawer_tells_each_stage_in_the_interface_language(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    card = ask(desktop_page, "Wat is het algemene btw-tarief?")
    card.locator(".trace summary").click()
    stages = card.locator(".trace-stages > li")
    expect(stages.first).to_contain_text("De vraag lezen")
    expect(card.locator(".trace")).to_contain_text("Gekozen: algemeen btw-tarief")
    expect(card.locator(".trace")).to_contain_text("elk citaat is gecontroleerd")
    assert stages.count() >= 8


def test_three_languages_by_question_and_by_the_switch(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    for question, language, label in [
        ("Koja je opća stopa PDV-a?", "hr", "Vaše pitanje"),
        ("Wat is het algemene btw-tarief?", "nl", "Uw vraag"),
        ("What is the RMD age?", "en", "Your question"),
    ]:
        card = ask(tab, question)
        expect(card.locator(".card-body")).to_have_attribute("lang", language)
        expect(tab.locator("label[for=question]")).to_have_text(label)
    # each card keeps the language of its answer, its labels and dates included
    expect(tab.locator(".turn").first.locator(".as-of")).to_contain_text("Propisi na dan")
    expect(tab.locator(".turn").nth(1).locator(".as-of")).to_contain_text("Regels per")
    # chosen by the switch: the answer and the interface are Dutch, whatever the question's
    tab.select_option("#language", "nl")
    expect(tab.locator("#send")).to_have_text("Vragen")
    card = ask(tab, "What is the RMD age?")
    expect(card.locator(".card-body")).to_have_attribute("lang", "nl")
    expect(card.locator(".headline")).to_contain_text("73")
    expect(card.locator(".as-of")).to_contain_text("Regels per")


def test_a_refusal_says_what_navod_could_not_do_and_what_to_do_next(page: Tab) -> None:
    page.goto("/")
    card = ask(page, "Wat is het weer morgen in Amsterdam?")
    expect(card.locator(".reason-OUT_OF_SCOPE")).to_be_visible()
    expect(card.locator(".refusal-what")).to_contain_text("Dit valt buiten de regels")
    expect(card.locator(".refusal-next")).to_contain_text("Bekijk wat Navod weet")
    assert card.locator(".proof").count() == 0  # a refusal cites nothing
    # the server's "what Navod knows" link opens the knowledge view on the page
    card.locator(".redirects button").first.click()
    expect(page.locator("#knowledge-view")).to_be_visible()
    expect(page.locator("#kb-concepts li").first).to_be_visible()


def test_a_clarification_choice_asks_the_chosen_question(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    card = ask(desktop_page, "what is the rate")
    expect(card.locator(".reason-NEEDS_CLARIFICATION")).to_be_visible()
    choices = card.locator(".related.clarify button")
    assert choices.count() >= 2
    chosen = choices.first.inner_text()
    choices.first.click()
    answer = desktop_page.locator(".turn").nth(1).locator(".card[aria-busy=false]")
    answer.wait_for()
    expect(desktop_page.locator(".turn").nth(1).locator(".asked")).to_contain_text(chosen)
    expect(answer.locator(".headline")).to_contain_text(re.sub(r"\?$", "", chosen))
    assert answer.locator(".proof .source-card").count() >= 1


def test_the_interface_has_every_word_in_all_three_languages(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    missing = desktop_page.evaluate(
        """async () => {
            const paths = (node, prefix = "") => Object.entries(node).flatMap(([key, value]) =>
                value && typeof value === "object" && !Array.isArray(value)
                    ? paths(value, `${prefix}${key}.`) : [`${prefix}${key}`]);
            const tables = {};
            for (const language of ["en", "hr", "nl"]) {
                const table = await import(`/static/js/strings/${language}.js`);
                tables[language] = new Set(paths(table.default));
            }
            const all = new Set(Object.values(tables).flatMap((table) => [...table]));
            return Object.fromEntries(Object.entries(tables).map(
                ([language, table]) => [language, [...all].filter((key) => !table.has(key))]));
        }"""
    )
    assert missing == {"en": [], "hr": [], "nl": []}


def test_the_citations_are_on_screen_before_the_answer_text(desktop_page: Tab) -> None:
    """The contract streams the citations before the text; the page shows them in that order."""
    tab = desktop_page
    tab.goto("/")
    tab.evaluate(
        """() => {
            window.seen = [];
            new MutationObserver(() => {
                for (const name of ["source-card", "headline"]) {
                    if (!window.seen.includes(name) && document.querySelector(`#thread .${name}`)) {
                        window.seen.push(name);
                    }
                }
            }).observe(document.querySelector("#thread"), {childList: true, subtree: true});
        }"""
    )
    ask(tab, "Wat is het algemene btw-tarief?")
    assert tab.evaluate("() => window.seen") == ["source-card", "headline"]


def test_a_value_that_depends_on_the_asker_shows_one_row_per_condition(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    question = "What is the 401(k) catch-up contribution limit?"
    card = ask(desktop_page, question)
    expected = api_answer(desktop_page.base, {"query": question, "use_memory": False})
    # one row per condition, each value with its condition and the card that proves it
    (asked,) = expected["understood"]["asks"]
    rows = card.locator(".conditional .ask-values li")
    expect(rows.locator(".ask-value")).to_have_text(
        [f"{value['shown']} ({value['condition']})" for value in asked["values"]]
    )
    for row, value in zip(rows.all(), asked["values"], strict=True):
        expect(row).to_have_attribute("data-card", value["card"])
    expect(card.locator(".conditional h4")).to_have_text("Depends on your situation")
    clarification = expected["obligationContext"]["clarification"]
    expect(card.locator(".conditional .clarification")).to_have_text(clarification)
    expect(card.locator(".next-step")).to_contain_text(expected["nextStep"])


def with_conflict(route: Route) -> None:
    """The real stream with a conflict block added, its two sides the answer's own two cards
    (the bundled packs settle every conflict they hold, so none reaches a client unresolved)."""
    response = route.fetch()
    lines = [json.loads(line) for line in response.body().splitlines() if line.strip()]
    cited = lines[1]["citations"]
    sides = [cited["primary"], cited["supporting"][0]]
    conflict = {
        "requestId": lines[0]["requestId"],
        "conflict": {
            "status": "RESOLVED",
            "description": "Two texts of the law; the one in force wins.",
            "sources": sides,
            "winningSourceId": sides[0]["id"],
        },
    }
    lines.insert(-1, conflict)
    body = "".join(json.dumps(line) + "\n" for line in lines)
    route.fulfill(response=response, body=body)


def test_a_conflict_banner_shows_both_sides_and_which_one_applies(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    tab.route("**/api/assistant/chat/stream", with_conflict)
    card = ask(tab, "Wat is het algemene btw-tarief?")
    banner = card.locator(".conflict-banner")
    expect(banner.locator("h4").first).to_have_text("De bronnen spreken elkaar tegen")
    expect(banner).to_contain_text("Two texts of the law")
    expect(banner.locator(".source-card")).to_have_count(2)
    expect(banner.locator(".source-card").first.locator(".winner")).to_have_text("geldt")
    expect(banner.locator(".source-card").nth(1).locator(".winner")).to_have_count(0)


def test_a_conflict_settled_on_the_record_shows_the_value_applied_the_side_set_aside_and_why(
    desktop_page: Tab,
) -> None:
    """The 2026 IRA limit: the bundled us-retirement pack settles it by a resolution (issue 25)."""
    tab = desktop_page
    tab.goto("/")
    question = "What is the IRA contribution limit for 2026?"
    card = ask(tab, question)
    conflict = api_answer(tab.base, {"query": question, "use_memory": False})["conflict"]
    banner = card.locator(".conflict-banner.recorded")
    expect(banner.locator("h4").first).to_have_text("The sources disagree: decided on the record")
    expect(banner.locator(".recorded-decision .applied")).to_have_text("$7,500")
    expect(banner.locator(".recorded-decision .set-aside")).to_have_text("$7,000")
    expect(banner.locator(".recorded-decision .rationale")).to_have_text(conflict["rationale"])
    expect(banner.locator(".recorded-decision .decided")).to_contain_text("November 29, 2026")
    sides = banner.locator(".source-card")
    expect(sides).to_have_count(len(conflict["sources"]))
    winner = banner.locator(f'.source-card[data-card="{conflict["winningSourceId"]}"]')
    expect(winner.locator(".winner")).to_have_text("applies")
    loser = banner.locator(f'.source-card[data-card="{conflict["loser"]["sourceId"]}"]')
    expect(loser.locator(".badge.set-aside")).to_have_text("set aside")
    expect(loser.locator(".quote")).to_contain_text("$7,000")
    violations = axe_violations(tab)
    assert not violations, describe(violations)
    assert not tab.problems()


def test_a_question_of_several_asks_shows_one_row_per_ask_each_with_its_proof(
    desktop_page: Tab,
) -> None:
    tab = desktop_page
    tab.goto("/")
    question = "What is the 401(k) contribution limit for 2024, 2025 and 2026?"
    card = ask(tab, question)
    expected = api_answer(tab.base, {"query": question, "use_memory": False})
    rows = card.locator(".asks li.ask")
    expect(rows).to_have_count(len(expected["understood"]["asks"]))
    for row, asked in zip(rows.all(), expected["understood"]["asks"], strict=True):
        expect(row.locator(".ask-text")).to_contain_text(asked["text"])
        (value,) = asked["values"]  # one plain value: its proof link is on the ask's line
        expect(row).to_have_attribute("data-card", value["card"])
        expect(row.locator(".ask-text .ask-proof")).to_have_count(1)
    # a whole table: every row's card is shown, those beyond the contract's four included
    card = ask(tab, "Koje su stope poreza na dohodak?")
    values = card.locator(".asks .ask-values li")
    cards = card.locator(".proof .source-card")
    expect(values).to_have_count(8)
    expect(cards).to_have_count(8)
    last = values.nth(7)
    expect(last.locator(".ask-proof")).to_have_text("Izvor 8")
    last.locator(".ask-proof").click()
    proven = card.locator(f'.proof .source-card[data-card="{last.get_attribute("data-card")}"]')
    expect(proven).to_have_class(re.compile(r"\bshown\b"))
    expect(proven).to_be_in_viewport()


def test_a_card_says_how_long_its_source_vouches_once(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    question = "Koliki je prag za ulazak u sustav PDV-a?"  # its newest text is a year old
    card = ask(desktop_page, question)
    expected = api_answer(desktop_page.base, {"query": question, "use_memory": False})
    warning = expected["citations"]["primary"]["freshnessWarning"]
    assert warning and len(expected["citations"]["supporting"]) >= 1
    text = card.inner_text()
    assert text.count(warning.rstrip(".")) == 1, text  # once, not once per source card
    # every stale source card still carries its badge
    stale = card.locator(".proof .source-card .freshness .badge")
    assert stale.count() == 1 + len(expected["citations"]["supporting"])
    assert not desktop_page.problems()

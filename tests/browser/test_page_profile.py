"""The profile speaks the asker's language and never guesses (issue 26): every fact and value in
words of the interface language, no field or enum name anywhere; a fact Navod inferred is
marked and can be removed or corrected in place; a topic's next question is asked *to* the
asker with its own input, and answering it stores the fact without asking anything again."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.flows import ask, open_panel
from tests.browser.harness import Tab

FIELD_NAME = re.compile(r"\b[a-z]+_[a-z]+\b")
# questions that state facts of every kind: a legal form, amounts, a year, yes/no, a place
STATED = {
    "hr": [
        "Imam paušalni obrt i promet od 45.000 eura. Moram li u sustav PDV-a?",
        "Živim u općini, koja je stopa prireza?",
    ],
    "nl": ["Ik heb een eenmanszaak met 30.000 euro omzet. Geldt de KOR voor mij?"],
    "en": [
        "I was born in 1962 and have 300000 dollars in my IRA. When must I take my first RMD?",
        "I live in Florida and I am on Medicare. What is the Part B premium?",
    ],
}


def facts_of(tab: Tab) -> list[dict[str, object]]:
    session = tab.url.rsplit("/", 1)[1]
    records: list[dict[str, object]] = httpx.get(f"{tab.base}/api/dossiers/{session}/facts").json()[
        "facts"
    ]
    return records


@pytest.mark.parametrize("language", ["hr", "nl", "en"])
def test_the_profile_says_every_fact_in_words_of_the_interface(page: Tab, language: str) -> None:
    page.goto("/")
    page.check("input[value=APP]")
    for question in STATED[language]:
        ask(page, question)
    open_panel(page, "profile")
    assert facts_of(page), "the questions stated facts"
    expect(page.locator("#facts dd.fact").first).to_be_visible()
    for lang in ("hr", "nl", "en"):  # whatever the interface language
        page.select_option("#language", lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        # every text the page renders, the cards' included, not only the profile's
        shown = page.locator("body").inner_text()
        assert not FIELD_NAME.findall(shown), (lang, FIELD_NAME.findall(shown))
        # every topic's question, opened (the next language draws the profile afresh)
        bars = page.locator("#completeness .topic-bar:not([disabled])")
        for index in range(bars.count()):
            bars.nth(index).click()
        expect(page.locator("#completeness .navod-question").first).to_be_visible()
        asked = page.locator("#profile").inner_text()
        assert not FIELD_NAME.findall(asked), (lang, FIELD_NAME.findall(asked))


def test_an_inferred_fact_is_marked_and_can_be_removed_or_corrected(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    ask(tab, "Imam paušalni obrt i promet od 45.000 eura. Moram li u sustav PDV-a?")
    receipts = tab.locator("#facts dd.fact[data-fact=annual_receipts_eur]")
    turnover = tab.locator("#facts dd.fact[data-fact=annual_turnover_eur]")
    expect(receipts.locator(".badge.inferred")).to_have_text("Navodov zaključak")
    expect(turnover.locator(".badge.inferred")).to_have_count(0)  # said in so many words
    expect(tab.locator("#facts dd.fact[data-fact=entity_type] .fact-value")).to_have_text(
        "paušalni obrt"
    )
    # corrected in place: a new record with the value typed
    receipts.locator(".correct-fact").click()
    receipts.locator("input[name=value]").fill("41.500")
    receipts.locator("button[type=submit]").click()
    expect(receipts.locator(".fact-value")).to_have_text(re.compile(r"41\.500\s+EUR"))
    expect(receipts.locator(".badge.inferred")).to_have_count(0)
    # removed: gone from the profile, kept in the history as taken back
    turnover.locator(".remove-fact").click()
    expect(turnover).to_have_count(0)
    history = [f for f in facts_of(tab) if f["fact_type"] == "annual_turnover_eur"]
    assert [f["retracted"] for f in history] == [False, True]
    assert not tab.problems()


def test_navods_question_is_answered_in_its_own_input(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    tab.check("input[value=APP]")
    ask(tab, "I was born in 1962. When must I take my first RMD?")
    turns = tab.locator("#thread .turn").count()
    topic = tab.locator("#completeness li[data-topic=healthcare_medicare]")
    before = int(topic.get_attribute("data-score") or "0")
    topic.locator(".topic-bar").click()
    asks = tab.locator("#asks-healthcare_medicare")
    expect(asks.locator(".navod-question")).to_contain_text("Navod asks: How old are you?")
    asks.locator("input[name=value]").fill("64")
    asks.locator("button[type=submit]").click()
    expect(topic).not_to_have_attribute("data-score", str(before))
    assert int(topic.get_attribute("data-score") or "0") > before
    ages = [f["value"] for f in facts_of(tab) if f["fact_type"] == "age"]
    assert ages == [64] and facts_of(tab)[-1]["source"] == "api"
    # nothing was sent as a chat message: no new turn, the box is empty
    expect(tab.locator("#thread .turn")).to_have_count(turns)
    expect(tab.locator("#question")).to_have_value("")
    assert not tab.problems()

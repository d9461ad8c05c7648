"""Cards say each thing once: a quote shown as text (a table row's cells apart, a link's text,
"…" where it was cut, at a word's edge) with its value still marked, the reasons whole in a
drawer, a computed result and the facts a message told said once; and the knowledge view's
values in the view's language."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, expect

from tests.browser.flows import api_answer, ask
from tests.browser.harness import Tab, axe_violations, describe

CELL_GAP = " · "
LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)?")
ENGLISH_MONTHS = re.compile(
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December)\b"
)


def kb_rule(base: str, rule_id: str) -> dict[str, Any]:
    reply = httpx.get(f"{base}/api/kb/rules/{rule_id}", timeout=30)
    reply.raise_for_status()
    found: dict[str, Any] = reply.json()
    return found


def cards_of(answer: dict[str, Any]) -> list[dict[str, Any]]:
    citations = answer["citations"]
    return [citations["primary"], *citations.get("supporting", [])]


def passage_of(base: str, card: dict[str, Any]) -> str:
    """The passage of the rule's pointer the card's quote was taken from."""
    found = kb_rule(base, card["id"].split("@")[0])
    (passage,) = [
        p["quote"]
        for p in found["pointers"]
        if p["evidence_id"] == card["evidenceId"] and card["quote"] in p["quote"]
    ]
    return str(passage)


def shown_quote(card: Locator, index: int = 0) -> Locator:
    quote = card.locator(".proof .source-card").nth(index).locator(".quote")
    expect(quote.locator("mark").first).to_be_visible()  # decorated: the value is marked
    return quote


def test_a_table_row_is_shown_as_its_cells_with_the_value_marked(page: Tab) -> None:
    page.goto("/")
    question = "Wat is het tarief van de eerste schijf in box 1 in 2026?"
    card = ask(page, question)
    expected = api_answer(page.base, {"query": question, "use_memory": False})
    for index, cited in enumerate(cards_of(expected)):
        assert cited["quote"].startswith("|"), cited["quote"]  # a markdown table row
        cells = [cell.strip() for cell in cited["quote"].strip().strip("|").split("|")]
        quote = shown_quote(card, index)
        expect(quote).to_have_text(CELL_GAP.join(cell for cell in cells if cell))
        expect(quote).not_to_contain_text("|")
        expect(quote.locator("mark")).to_have_text(["8,10"])  # the rule's value, 8.10 %
    assert not page.problems()


def test_a_link_in_a_quote_is_shown_as_its_text(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    question = "Hoeveel is de zelfstandigenaftrek in 2026?"
    card = ask(desktop_page, question)
    cited = api_answer(desktop_page.base, {"query": question, "use_memory": False})
    primary = cited["citations"]["primary"]
    assert "](" in primary["quote"]
    (text,) = LINK.findall(primary["quote"])
    quote = shown_quote(card)
    expect(quote).to_contain_text(text)  # "artikel 7a, eerste lid, van de Algemene Ouderdomswet"
    shown = quote.inner_text()
    assert "](" not in shown and "[" not in shown and "http" not in shown, shown
    expect(quote.locator("mark")).to_have_text(["1.200"])


@pytest.mark.parametrize(
    "question",
    ["Koliki je prag za ulazak u sustav PDV-a 2025?", "Hoeveel is de zelfstandigenaftrek in 2026?"],
)
def test_a_cut_quote_is_cut_between_words_and_says_so(desktop_page: Tab, question: str) -> None:
    desktop_page.goto("/")
    card = ask(desktop_page, question)
    primary = api_answer(desktop_page.base, {"query": question, "use_memory": False})
    cited = primary["citations"]["primary"]
    passage = passage_of(desktop_page.base, cited)
    start = passage.index(cited["quote"])
    end = start + len(cited["quote"])
    assert len(cited["quote"]) < len(passage)  # the engine showed a window of the passage
    # whole words on both sides of the cut, never a word in two
    assert start == 0 or passage[start - 1].isspace()
    assert end == len(passage) or not (passage[end - 1].isalnum() and passage[end].isalnum())
    shown = shown_quote(card).inner_text()
    assert shown.startswith("…") == (start > 0), shown
    assert shown.endswith("…") == (end < len(passage)), shown
    assert not shown.strip("…").endswith((",", ";", ":")), shown


def test_the_reasons_are_whole_in_a_drawer(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    question = "Hoeveel is de zelfstandigenaftrek in 2026?"
    card = ask(desktop_page, question)
    expected = api_answer(desktop_page.base, {"query": question, "use_memory": False})
    bullets = expected["why"]["bullets"]
    assert any(bullet.endswith("…") for bullet in bullets)  # the contract's 140 characters
    explanation = kb_rule(desktop_page.base, expected["citations"]["primary"]["id"].split("@")[0])[
        "explanation"
    ]["nl"]
    whole = [explanation if bullet.endswith("…") else bullet for bullet in bullets]
    assert all(
        text.startswith(bullet.rstrip("…")) for text, bullet in zip(whole, bullets, strict=True)
    )
    drawer = card.locator("details.why")
    expect(drawer.locator("summary")).to_have_text("Waarom")
    assert drawer.get_attribute("open") is None  # collapsed
    drawer.locator("summary").click()
    expect(drawer.locator("li")).to_have_text(whole)
    assert "…" not in drawer.inner_text()


def test_a_computed_result_is_said_once(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    tab.check("input[name=surface][value=APP]")
    question = "Imam 45.000 eura prometa u 2024, moram li u sustav PDV-a?"
    card = ask(tab, question)
    expected = api_answer(tab.base, {"query": question, "surface": "APP", "use_memory": False})
    computed = expected["clientContext"]["computedResult"]
    text = card.text_content() or ""
    assert text.count(computed["explanation"].rstrip(".")) == 1, text
    for detail in expected["keyDetails"]:  # "Vrijedilo od …" is in the answer already
        assert text.count(detail.rstrip(".")) == 1, detail
    assert "turnover" not in text  # a fact's name in words, never its key
    # a later question in the conversation: what was read is said once, each part of it
    card = ask(tab, "Ik heb een omzet van 15.000 euro in 2025, kan ik de KOR gebruiken?")
    parts = (card.locator(".understood").text_content() or "").split(":", 1)[1].split(" · ")
    assert len(parts) == len({part.strip() for part in parts}), parts
    assert not tab.problems()


def test_the_facts_a_message_told_are_said_once(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    card = ask(desktop_page, "Imam paušalni obrt i 45.000 eura primitaka.")
    expect(card.locator(".direct-answer")).to_contain_text("Zabilježio sam")
    text = card.text_content() or ""
    for fact in ("paušalni obrt", "45.000,00 EUR"):
        assert text.count(fact) == 1, text
    expect(card.locator(".understood")).to_have_count(0)


def open_concept(tab: Tab, slug: str) -> Locator:
    tab.fill("#kb-search", slug.split("-", 1)[1].replace("-", " "))
    tab.click(f"#kb-concepts button[data-slug='{slug}']")
    view = tab.locator("#kb-concept")
    expect(view.locator("code")).to_have_text(slug)  # this concept's, not the one before
    expect(view.locator("table.history")).to_be_visible()
    return view


def test_a_headline_the_answer_opens_with_is_said_once(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    card = ask(tab, "Moram li na računu navesti OIB kupca?")
    headline = card.locator(".headline").inner_text()
    assert headline.startswith("Račun mora sadržavati")
    visible = card.locator(".card-head, .direct-answer, .key-details").all_inner_texts()
    assert " ".join(visible).count(headline) == 1, visible
    # the rest of the answer's text is still there, once
    expect(card.locator(".direct-answer")).to_have_text(re.compile(r"^Na snazi od"))


def test_a_decision_on_the_record_is_not_repeated_among_the_reasons(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    card = ask(tab, "What is the IRA contribution limit for 2026?")
    expect(card.locator(".conflict-banner.recorded")).to_be_visible()
    rationale = card.locator(".recorded-decision .rationale").inner_text()
    first = rationale.split(". ")[0]
    card.locator("details.why summary").click()
    assert first not in card.locator(".why").inner_text()
    assert card.locator(".card-body").inner_text().count(first) == 1


@pytest.mark.parametrize(
    ("language", "deadline", "ages"),
    [
        ("hr", "1. travnja", ["70 ½ godina", "72 godine", "73 godine", "75 godina"]),
        ("nl", "1 april", ["70 ½ jaar", "72 jaar", "73 jaar", "75 jaar"]),
        ("en", "April 1", ["70 ½ years", "72 years", "73 years", "75 years"]),
    ],
)
def test_the_knowledge_view_shows_values_in_its_language(
    desktop_page: Tab, language: str, deadline: str, ages: list[str]
) -> None:
    tab = desktop_page
    tab.goto("/")
    tab.select_option("#language", language)
    tab.click("#nav-knowledge")
    view = open_concept(tab, "us-rmd-first-distribution-deadline")
    values = view.locator("table.history tbody td:first-child")
    expect(values.first).to_have_text(deadline)
    view = open_concept(tab, "us-rmd-required-beginning-age")
    values = view.locator("table.history tbody td:first-child")
    expect(values.first).to_have_text(ages[0])
    assert set(ages) <= set(values.all_text_contents()), values.all_text_contents()
    view = open_concept(tab, "us-401k-catch-up")
    amounts = view.locator("table.history tbody td:first-child").all_text_contents()
    assert {"hr": "7.500,00 USD", "nl": "$ 7.500", "en": "$7,500"}[language] in amounts, amounts
    if language != "en":
        text = view.text_content() or ""
        assert not ENGLISH_MONTHS.search(text) and "years" not in text, text
    assert not tab.problems()


QUOTES = [
    ("| - | € 38.883 | – | 8,10% |", "- · € 38.883 · – · 8,10%"),
    ("| Dob | Faktor |\n|---|---|\n| 72 | 27.4 |", "Dob · Faktor\n72 · 27.4"),
    ("| 72 |\n27.4 |\n96 |\n8.4 |", "72 · 27.4 · 96 · 8.4"),
    ("| € 1.350.000 |   | € 4.725 |", "€ 1.350.000 · € 4.725"),
    (
        "bedoeld in [artikel 7a, eerste lid](https://wetten.overheid.nl/x&artikel=7a), nog",
        "bedoeld in artikel 7a, eerste lid, nog",
    ),
    ("gelijk aan 71,867%, bedoeld in [artikel", "gelijk aan 71,867%, bedoeld in artikel"),
    (
        "Ouderdomswet](https://wetten.overheid.nl/jci1.3:c:BWBR0002221&artikel=7a), nog",
        "Ouderdomswet, nog",
    ),
    (
        "bedoeld in [artikel 3.6](https://wetten.overheid.nl/jci1.3:c:BWBR00",
        "bedoeld in artikel 3.6",
    ),
    (
        "bedraagt 11,45% van het **arbeidsinkomen**, voor",
        "bedraagt 11,45% van het arbeidsinkomen, voor",
    ),
    (
        "b. 31,009% van het *arbeidsinkomen* voor zover",
        "b. 31,009% van het arbeidsinkomen voor zover",
    ),
    ("Catch-up contributions 8,000** 7,500** 7,500", "Catch-up contributions 8,000 7,500 7,500"),
    (
        "## Tarieven\n- a. hij een **arbeidsinkomen** heeft",
        "Tarieven a. hij een arbeidsinkomen heeft",
    ),
    (
        "Članak 38.\n(1) PDV se plaća po stopi od 25 %.",
        "Članak 38. (1) PDV se plaća po stopi od 25 %.",
    ),
]


def test_markdown_in_a_quote_is_shown_as_text(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    shown = desktop_page.evaluate(
        """async (quotes) => {
            const { quoteText } = await import("/static/js/quote-text.js");
            return quotes.map((quote) => quoteText(quote));
        }""",
        [quote for quote, _ in QUOTES],
    )
    assert shown == [text for _, text in QUOTES]


APRIL_1 = {"hr": "1. travnja", "nl": "1 april", "en": "April 1"}
SEVENTY_AND_A_HALF = {"hr": "70 ½ godina", "nl": "70 ½ jaar", "en": "70 ½"}  # en: the unit apart
# a rule as /api/kb/rules/{id} gives it (value, value_type, unit, value_label), and how hr, nl
# and en write it; without a value_type the unit says what the value is
VALUES = [
    (("April 1", "text", "", APRIL_1), "1. travnja | 1 april | April 1"),
    (("70 ½", "text", "years", SEVENTY_AND_A_HALF), "70 ½ godina | 70 ½ jaar | 70 ½ years"),
    (("60000.00", "currency_eur", "EUR", None), "60.000,00 EUR | € 60.000 | €60,000"),
    (("39816.84", "currency_eur", "EUR", None), "39.816,84 EUR | € 39.816,84 | €39,816.84"),
    (("8.10", "percentage", "%", None), "8,10 % | 8,10% | 8.10%"),
    (("2026-03-02", "date", "", None), "2. ožujka 2026. | 2 maart 2026 | March 2, 2026"),
    (
        ("15", "integer", "dana po isteku kalendarske godine", None),
        "15 dana po isteku kalendarske godine | 15 dagen na afloop van het kalenderjaar"
        " | 15 days after the end of the calendar year",
    ),
    (
        ("20", "integer", "dan u mjesecu", None),
        "20. dan u mjesecu | dag 20 van de maand | day 20 of the month",
    ),
    (("1225", "integer", "uren", None), "1.225 sati | 1.225 uur | 1,225 hours"),
    (("22", "years", "years", None), "22 godine | 22 jaar | 22 years"),
    (("6.4", "years", "years", None), "6,4 godine | 6,4 jaar | 6.4 years"),
    (("24", "integer", "months", None), "24 mjeseca | 24 maanden | 24 months"),
    (("300000", "integer", "kn", None), "300.000 kn | 300.000 kn | 300,000 kn"),
    (("true", "boolean", "", None), "da | ja | yes"),
    (("6500", None, "USD", None), "6.500,00 USD | $ 6.500 | $6,500"),
]


def test_a_rule_value_is_written_as_each_language_writes_it(desktop_page: Tab) -> None:
    desktop_page.goto("/")
    rules = [
        {"value": value, "value_type": kind, "unit": unit, "value_label": label}
        for (value, kind, unit, label), _ in VALUES
    ]
    shown = desktop_page.evaluate(
        """async (rules) => {
            const { formatRuleValue } = await import("/static/js/i18n.js");
            const languages = ["hr", "nl", "en"];
            return rules.map((rule) => languages.map((lang) => formatRuleValue(rule, lang)));
        }""",
        rules,
    )
    assert shown == [words.split(" | ") for _, words in VALUES]


def test_cards_and_the_knowledge_view_stay_accessible(desktop_page: Tab) -> None:
    tab = desktop_page
    tab.goto("/")
    card = ask(tab, "Hoeveel is de zelfstandigenaftrek in 2026?")
    shown_quote(card)
    card.locator("details.why summary").click()
    ask(tab, "Wat is het tarief van de eerste schijf in box 1 in 2026?")
    violations = axe_violations(tab)
    assert not violations, describe(violations)
    tab.click("#nav-knowledge")
    open_concept(tab, "us-rmd-required-beginning-age")
    violations = axe_violations(tab)
    assert not violations, describe(violations)

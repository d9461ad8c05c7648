"""The walk of issue 26, as a person does it: a Croatian bookkeeper, a Dutch freelancer and an
American near retirement ask 40 questions in Chromium at 1366×900 and 390×844, and every card
is checked for what made people close the tab. Not a test (it takes minutes and reads a
running server); run it before a change to the page lands and when the README's screenshots
are redone:

    python -m tests.browser.walk --url http://127.0.0.1:8000 [--screenshots docs/screenshots]

It prints each problem found (none, when the page is right) and exits 1 if there was any.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx
from playwright.sync_api import Error, Page, sync_playwright

from tests.browser.harness import LAUNCH_ARGS, find_chromium

PERSONAS: dict[str, list[str]] = {
    "hr": [
        "Koja je stopa PDV-a?",
        "a snižena?",
        "Koliki je prag za ulazak u sustav PDV-a?",
        "Imam paušalni obrt i promet od 45.000 eura. Moram li u sustav PDV-a?",
        "a za 2024?",
        "Koliki je limit za paušaliste?",
        "pdv na kruh",
        "Do kada se predaje DOH obrazac?",
        "Kolika je minimalna plaća 2026?",
        "Koja je stopa doprinosa za mirovinsko osiguranje?",
        "Koliki je osobni odbitak?",
        "Kada se predaje JOPPD?",
        "Koliko košta kava u Splitu?",
        "Moram li na računu navesti OIB kupca?",
        "PDV na cipele",
    ],
    "nl": [
        "Wat is het btw-tarief?",
        "en het verlaagde tarief?",
        "Wat is de omzetgrens van de KOR?",
        "Ik heb een eenmanszaak met 30.000 euro omzet. Kan ik de KOR gebruiken?",
        "Hoeveel is de zelfstandigenaftrek in 2025?",
        "en in 2026?",
        "Wat is het urencriterium?",
        "Hoeveel is de startersaftrek?",
        "Wat is de algemene heffingskorting?",
        "Wat zijn de tarieven in box 1?",
        "Hoeveel kost een parkeervergunning in Utrecht?",
        "Wat is de MKB-winstvrijstelling?",
    ],
    "en": [
        "When must I take my first RMD?",
        "I was born in 1962. What is my RMD age?",
        "What is the 401(k) contribution limit for 2026?",
        "and the catch-up?",
        "What is the IRA contribution limit for 2026?",
        "What is the penalty for a missed RMD?",
        "What is the full retirement age for Social Security?",
        "My wife and I are retired. When can I claim Social Security?",
        "What is the Medicare Part B premium?",
        "What happens if I miss my RMD?",
        "What is the best stock to buy?",
        "What is the standard deduction for 2026?",
        "How much can I give as a gift without tax?",
    ],
}
VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
FIELD_NAME = re.compile(r"\b[a-z]+_[a-z]+\b")
ENGLISH_MONTH = re.compile(
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December)\b"
)
ANSWERED_MS = 20_000


OWN_TEXT = """node => {
  const copy = node.cloneNode(true);
  copy.querySelectorAll('.source-card, .visually-hidden').forEach((n) => n.remove());
  copy.querySelectorAll('details').forEach((n) => n.setAttribute('open', ''));
  document.body.append(copy);
  const text = copy.innerText;
  copy.remove();
  return text;
}"""
# the freshness warnings said in words, not only by the badge (each source card says its own)
WARNINGS = """nodes => nodes.map(
  (n) => n.textContent.slice(n.querySelector('.badge').textContent.length).trim()
).filter(Boolean)"""


def repeated_lines(text: str) -> list[str]:
    """Sentences of more than a few words a card says twice."""
    lines = [line.strip() for line in re.split(r"\n|(?<=[.!?])\s+", text) if len(line.strip()) > 40]
    return [line for line, count in Counter(lines).items() if count > 1]


def check_card(page: Page, index: int, base: str, problems: list[str], where: str) -> None:
    turn = page.locator(".turn").nth(index)
    card = turn.locator(".card")
    top = turn.evaluate("node => node.getBoundingClientRect().top")
    if not -1 <= top < page.viewport_size["height"] * 0.5:  # type: ignore[index]
        problems.append(f"{where}: the new card's top is at {top:.0f} px, out of view")
    # what the card says in its own words (a source card's title and dates are the source's)
    text = card.evaluate(OWN_TEXT)
    for line in repeated_lines(text):
        problems.append(f"{where}: said twice on one card: {line[:80]!r}")
    warnings = Counter(card.locator(".freshness").evaluate_all(WARNINGS))
    for warning, count in warnings.items():
        if count > 1:
            problems.append(f"{where}: one freshness warning {count} times: {warning[:60]!r}")
    for quote in card.locator(".quote").all_inner_texts():
        if "|" in quote or "](" in quote or "**" in quote:
            problems.append(f"{where}: markup inside a quote: {quote[:80]!r}")
    for bullet in card.locator(".why li").all_inner_texts():
        if bullet.rstrip().endswith("…"):
            problems.append(f"{where}: a why line is cut: {bullet[-60:]!r}")
    meta = " ".join(card.locator(".card-meta").all_inner_texts())
    if "%" in meta:
        problems.append(f"{where}: a bare confidence percentage: {meta!r}")
    for related in card.locator("nav.related button.ask-this").all_inner_texts()[:3]:
        reply = httpx.post(f"{base}/api/assistant/chat", json={"query": related}, timeout=30).json()
        if reply.get("kind") == "REFUSAL":
            reason = reply.get("refusalReason")
            problems.append(f"{where}: the related question {related!r} is refused ({reason})")


def errors_into(errors: list[str]) -> Callable[[Error], None]:
    return lambda error: errors.append(str(error))


def walk(base: str, screenshots: Path | None) -> list[str]:
    problems: list[str] = []
    chromium = find_chromium()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=LAUNCH_ARGS, headless=True
        )
        for kind, viewport in VIEWPORTS.items():
            for language, questions in PERSONAS.items():
                context = browser.new_context(
                    viewport=viewport,
                    locale={"hr": "hr-HR", "nl": "nl-NL", "en": "en-US"}[language],
                )
                page = context.new_page()
                errors: list[str] = []
                page.on("pageerror", errors_into(errors))
                page.goto(base + "/")
                if language == "en":
                    page.check("input[value=APP]")
                for number, question in enumerate(questions):
                    where = f"{kind}/{language}#{number + 1} {question!r}"
                    page.fill("#question", question)
                    page.press("#question", "Enter")
                    card = page.locator(".turn").nth(number).locator(".card")
                    card.and_(page.locator("[aria-busy=false]")).wait_for(timeout=ANSWERED_MS)
                    page.wait_for_load_state("networkidle")
                    check_card(page, number, base, problems, where)
                    if screenshots and kind == "desktop" and language == "hr" and number == 3:
                        page.locator(".turn").nth(number).scroll_into_view_if_needed()
                        page.screenshot(path=str(screenshots / "answer-desktop.png"))
                profile = page.locator("#profile").inner_text()
                for name in FIELD_NAME.findall(profile):
                    problems.append(
                        f"{kind}/{language}: a field or enum name in the profile: {name}"
                    )
                if screenshots and kind == "desktop" and language == "hr":
                    page.locator("#profile").screenshot(
                        path=str(screenshots / "profile-desktop.png")
                    )
                # nothing lost on reload: every card keeps its proof
                proofs = page.locator(".turn .proof").count()
                page.reload()
                page.wait_for_load_state("networkidle")
                page.wait_for_timeout(500)
                after = page.locator(".turn .proof").count()
                if after != proofs:
                    problems.append(f"{kind}/{language}: proof on {proofs} cards, {after} reloaded")
                # history: the knowledge view and back
                if "/c/" not in page.url:  # the page keeps the conversation elsewhere
                    problems.append(
                        f"{kind}/{language}: the address does not name the conversation"
                    )
                page.click("#nav-knowledge")
                page.fill("#kb-search", {"hr": "prag", "nl": "KOR", "en": "RMD"}[language])
                page.locator("#kb-concepts button.concept").first.click()
                page.locator("#kb-concept-title").wait_for()
                concept = page.locator("#kb-concept").inner_text()
                month = ENGLISH_MONTH.search(concept)
                if language != "en" and month:
                    problems.append(f"{kind}/{language}: {month[0]!r} in the knowledge view")
                if screenshots and kind == "phone" and language == "en":
                    page.locator("#kb-concept").scroll_into_view_if_needed()
                    page.screenshot(path=str(screenshots / "knowledge-phone.png"))
                page.go_back()
                page.go_back()
                if (
                    not page.url.startswith(base)
                    or "#/c/" not in page.url
                    or page.locator("#ask-view").is_hidden()
                ):
                    problems.append(
                        f"{kind}/{language}: Back did not return to the conversation ({page.url})"
                    )
                problems.extend(f"{kind}/{language}: page error: {error}" for error in errors)
                context.close()
        browser.close()
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument(
        "--screenshots", type=Path, default=None, help="write the README's screenshots here"
    )
    options = parser.parse_args()
    if options.screenshots:
        options.screenshots.mkdir(parents=True, exist_ok=True)
    problems = walk(options.url.rstrip("/"), options.screenshots)
    for problem in problems:
        print(problem)
    asked = sum(len(questions) for questions in PERSONAS.values())
    print(f"{asked} questions at {len(VIEWPORTS)} widths: {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()

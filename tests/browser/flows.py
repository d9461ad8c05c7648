"""What a person does on the page, as steps the browser tests share: ask a question and wait
for its card to be complete, open a side panel on a phone, read what the API itself says."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Locator

from tests.browser.harness import Tab

ANSWERED_WITHIN_MS = 15_000


def ask(tab: Tab, question: str, *, press_enter: bool = True) -> Locator:
    """Type `question`, send it, and return its card once the stream has ended."""
    before = tab.locator(".turn").count()
    tab.fill("#question", question)
    if press_enter:
        tab.press("#question", "Enter")
    else:
        tab.click("#send")
    return finished_card(tab, before)


def finished_card(tab: Tab, index: int) -> Locator:
    card = tab.locator(".turn").nth(index).locator(".card")
    card.and_(tab.locator("[aria-busy=false]")).wait_for(timeout=ANSWERED_WITHIN_MS)
    return card


def open_panel(tab: Tab, panel: str) -> None:
    """On a phone the conversations and the profile are behind buttons."""
    toggle = tab.locator(f"[data-toggles={panel}]")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()


def api_answer(base: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    reply = httpx.post(f"{base}/api/assistant/chat", json=body, headers=headers, timeout=30)
    reply.raise_for_status()
    answer: dict[str, Any] = reply.json()
    return answer


def cited_evidence(card: Locator) -> list[str]:
    """The evidence ids of the proof cards of an answer (not of a conflict's sides)."""
    ids = card.locator(".proof .source-card").evaluate_all(
        "nodes => nodes.map(node => node.dataset.evidence)"
    )
    return [str(evidence) for evidence in ids]

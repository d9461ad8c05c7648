"""Readable terminal output of an AssistantResponse (the CLI's default view)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.panel import Panel

# The labels around a response, in its language (the response's own texts already are).
WORDS: Mapping[str, Mapping[str, str]] = {
    "en": {"ANSWER": "ANSWER", "REFUSAL": "REFUSAL", "as_of": "as of", "evidence": "evidence",
           "fetched": "fetched", "in_force": "in force from"},
    "hr": {"ANSWER": "ODGOVOR", "REFUSAL": "ODBIJENO", "as_of": "na dan", "evidence": "dokaz",
           "fetched": "preuzeto", "in_force": "na snazi od"},
    "nl": {"ANSWER": "ANTWOORD", "REFUSAL": "GEWEIGERD", "as_of": "per", "evidence": "bewijs",
           "fetched": "opgehaald", "in_force": "van kracht vanaf"},
}  # fmt: skip


def print_response(console: Console, response: Mapping[str, Any]) -> None:
    kind = response.get("kind", "?")
    words = WORDS.get(str(response.get("language")), WORDS["en"])
    colour = "green" if kind == "ANSWER" else "yellow"
    headline, direct = str(response.get("headline", "")), str(response.get("directAnswer") or "")
    if direct and direct.startswith(headline.rstrip("…").rstrip()):
        # a short reply is its own headline ("help", "hi"), cut there when long: said once, whole
        body = [f"[bold]{direct}[/bold]"]
    else:
        body = [f"[bold]{headline}[/bold]", *([direct] if direct else [])]
    refusal = response.get("refusal")
    if refusal:
        body.append(
            f"[{colour}]{response.get('refusalReason')}[/{colour}]: {refusal.get('message')}"
        )
    for detail in response.get("keyDetails", []):
        body.append(f"• {detail}")
    understood = response.get("understood")
    if isinstance(understood, Mapping) and understood.get("text"):
        body.append(f"[dim]{understood['text']}[/dim]")  # what Navod took the question to ask
    console.print(
        Panel(
            "\n".join(body),
            title=f"{words.get(kind, kind)} · {words['as_of']} {response.get('asOfDate')}",
            border_style=colour,
        )
    )
    citations = response.get("citations") or {}
    cards = [c for c in [citations.get("primary"), *citations.get("supporting", [])] if c]
    cards += response.get("additionalCitations") or []
    _print_asks(console, response, {card.get("id"): n for n, card in enumerate(cards, 1)})
    for number, card in enumerate(cards, 1):
        console.print(
            f"[bold][{number}][/bold] {card.get('title')} — {card.get('reference', '')} "
            f"({card.get('authority')})\n    “{card.get('quote', '')}”\n"
            f"    {card.get('url')}  {words['evidence']} {card.get('evidenceId')}, "
            f"{words['fetched']} {card.get('fetchedAt')}, "
            f"{words['in_force']} {card.get('effectiveFrom')}"
        )
    # numbered: in the conversation, the number alone asks a clarification's choice
    for number, question in enumerate(response.get("relatedQuestions", []), 1):
        console.print(f"  {number}. {question}")
    for entry in response.get("trace", []):
        console.print(f"[dim]{entry.get('stage')}: {entry.get('decision')}[/dim]")


def _print_asks(console: Console, response: Mapping[str, Any], numbers: Mapping[Any, int]) -> None:
    """One line per ask when the question asked several values, each value with the number
    of the card that proves it."""
    understood = response.get("understood")
    asks = understood.get("asks", []) if isinstance(understood, Mapping) else []
    if len(asks) < 2 and sum(len(ask.get("values", [])) for ask in asks) < 2:
        return
    for ask in asks:
        console.print(f"  [bold]›[/bold] {ask.get('text')}", highlight=False)
        for value in ask.get("values", []):
            condition = f" ({value['condition']})" if value.get("condition") else ""
            proof = f" [{numbers[value.get('card')]}]" if value.get("card") in numbers else ""
            console.print(f"      {value.get('shown')}{condition}{proof}", highlight=False)

"""What a served HTML page points at, for the tests that check it loads nothing from
another host (tests/test_web_pages.py, tests/browser/test_docs_offline.py)."""

from __future__ import annotations

from html.parser import HTMLParser

from api.web.pages import STATIC

__all__ = ["STATIC", "references"]


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.extend(value for name, value in attrs if name in ("src", "href") and value)


def references(html: str) -> list[str]:
    """Every src and href in `html`, in order."""
    parser = _References()
    parser.feed(html)
    parser.close()
    return parser.found

"""The retrieval gold set (fixtures/retrieval/questions.yaml, issue 27's measure, written from
the source texts by someone who had not read the matcher) stays true to the texts: every
question names passages that exist, by words copied verbatim from them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "fixtures" / "sources"
GOLD = ROOT / "fixtures" / "retrieval" / "questions.yaml"


def entries() -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = yaml.safe_load(GOLD.read_text(encoding="utf-8"))
    return loaded


def test_the_set_is_big_enough_and_its_ids_unique() -> None:
    found = entries()
    assert len(found) >= 150
    ids = Counter(entry["id"] for entry in found)
    assert not [name for name, count in ids.items() if count > 1]
    by_language = Counter(entry["language"] for entry in found)
    assert set(by_language) == {"hr", "nl", "en"} and min(by_language.values()) >= 40
    # some questions the texts do not answer: a retriever must not pretend
    assert sum(1 for entry in found if not entry["answers"]) >= 20


@pytest.mark.parametrize("entry", entries(), ids=lambda entry: str(entry["id"]))
def test_every_answer_is_a_passage_of_its_text(entry: dict[str, Any]) -> None:
    assert entry["question"].strip()
    for answer in entry["answers"]:
        path = (SOURCES / answer["file"]).resolve()
        assert path.is_relative_to(SOURCES) and path.is_file(), answer["file"]
        assert answer["locator"].strip()
        snippet = answer["snippet"]
        assert 6 <= len(snippet.split()) <= 20, snippet
        assert snippet in path.read_text(encoding="utf-8"), (answer["file"], snippet)

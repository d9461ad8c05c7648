"""The retrieval measure (measure/eval_retrieval.py) counts what it says it counts."""

from __future__ import annotations

from measure.eval_retrieval import RetrievalQuestion, hit_rank, load_questions, score

RATE = RetrievalQuestion("q1", "nl", "btw tarief", ("het tarief bedraagt 21",))
NONE = RetrievalQuestion("q2", "nl", "overdrachtsbelasting", ())
KOR = RetrievalQuestion("q3", "hr", "prag", ("prag od 60.000,00 eura", "60.000 eura"))


def test_a_passage_answers_when_it_holds_a_snippet_whatever_its_spacing() -> None:
    assert hit_rank(RATE, ["iets anders", "Art. 9: het tarief\n  bedraagt 21 percent"]) == 2
    assert hit_rank(RATE, ["het tarief bedraagt 9"]) is None
    assert hit_rank(KOR, ["... 60.000 eura ..."]) == 1  # any of its passages counts


def test_recall_mrr_and_pretending_per_language() -> None:
    passages = {"q1": ["x", "y", "het tarief bedraagt 21"], "q2": ["something"], "q3": ["z"] * 4}
    report = score([RATE, NONE, KOR], lambda question: passages[question.id], k=3)
    assert report["nl"] == {
        "answerable": 1,
        "recall_at_3": 1.0,
        "mrr": 0.333,
        "unanswerable_with_passages": 1,
    }
    assert report["hr"]["recall_at_3"] == 0.0 and report["all"]["answerable"] == 2
    # beyond k a hit does not count
    assert score([RATE], lambda _: passages["q1"], k=2)["nl"]["recall_at_2"] == 0.0


def test_the_gold_set_loads_with_its_snippets() -> None:
    questions = load_questions()
    assert len(questions) >= 150
    assert all(q.snippets for q in questions if q.id == "rt-hr-001")

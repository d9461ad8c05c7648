"""Pack reading, verification and all-or-nothing loading (fixtures/packs/README.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml

from engine.contract import ChatRequest
from engine.errors import PackError, PackRefused
from engine.service import AnswerService
from engine.store.knowledge.memory import MemoryRepository
from engine.store.knowledge.packs import (
    PackContents,
    PackDiff,
    bundled_packs_dir,
    diff_packs,
    load_packs,
    pack_paths,
    read_packs,
    verify_packs,
)
from engine.store.knowledge.repository import KnowledgeRepository

MINI = Path(__file__).parent / "data" / "packs" / "mini"
RECORDS = "wet-ob-art9.yaml"
RULE = "rule 'nl-btw-algemeen-tarief-2012'"
EVIDENCE = "evidence 'nl-wet-ob-art9-lid1'"
CONCEPT = "concept 'nl-btw-algemeen-tarief'"
SOURCE = "source 'nl-wet-ob-1968'"
TOPIC = "topic 'mini_btw'"
ITEM = "topic 'mini_btw' item 'vat_table'"
DELETE = object()
MINI_TOPIC = yaml.safe_load((MINI / "pack.yaml").read_text(encoding="utf-8"))["topics"][0]
LID1 = {
    key: value
    for key, value in yaml.safe_load((MINI / RECORDS).read_text(encoding="utf-8"))["evidence"][
        0
    ].items()
    if key != "key"
}


def copy_mini(
    tmp_path: Path, file: str = RECORDS, edit: Callable[[Any], None] | None = None
) -> Path:
    """A copy of the mini pack in tmp_path, with `edit` applied to the parsed `file`."""
    folder = tmp_path / "mini"
    shutil.copytree(MINI, folder)
    if edit is not None:
        doc = yaml.safe_load((folder / file).read_text(encoding="utf-8"))
        edit(doc)
        (folder / file).write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))
    return folder


def setting(path: str, value: object) -> Callable[[Any], None]:
    """An edit that sets (or with DELETE removes) the dotted `path`, e.g. rules.0.value."""

    def edit(doc: Any) -> None:
        *parents, last = [int(part) if part.isdigit() else part for part in path.split(".")]
        for part in parents:
            doc = doc[part]
        if value is DELETE:
            del doc[last]
        else:
            doc[last] = value

    return edit


def rehashed(index: int, text: str) -> Callable[[Any], None]:
    """An edit that gives evidence `index` a new text with a matching sha256."""

    def edit(doc: Any) -> None:
        doc["evidence"][index]["text"] = text
        doc["evidence"][index]["sha256"] = hashlib.sha256(text.encode()).hexdigest()

    return edit


def refusal(folder: Path) -> PackRefused:
    with pytest.raises(PackRefused) as caught:
        verify_packs([folder])
    return caught.value


# One row per refusal reason in fixtures/packs/README.md, then the loader's extra checks.
BAD_PACKS = [
    pytest.param(RECORDS, "rules.0.pointers.0.quote", "De belasting bedraagt 21 procent.", RULE,
                 "quote not found verbatim in evidence 'nl-wet-ob-art9-lid1' "
                 '("De belasting bedraagt 21 procent.")', id="quote-not-verbatim"),
    pytest.param(RECORDS, "rules.0.pointers.0.quote", "bedraagt 21 percent.", RULE,
                 "quote is part of a sentence", id="quote-a-fragment"),
    pytest.param(RECORDS, "rules.2.value_label", DELETE, "rule 'nl-btw-nultarief'",
                 "a text value needs value_label in hr, nl and en", id="text-value-unworded"),
    pytest.param(RECORDS, "rules.2.value_label.en", "nil from 2019", "rule 'nl-btw-nultarief'",
                 "value_label.en 'nil from 2019' states other numbers than 'nihil'",
                 id="text-value-worded-with-other-numbers"),
    pytest.param(RECORDS, "evidence.0.url", DELETE, EVIDENCE, "missing required field 'url'",
                 id="evidence-without-url"),
    pytest.param(RECORDS, "evidence.0.fetched_at", DELETE, EVIDENCE,
                 "missing required field 'fetched_at'", id="evidence-without-fetched-at"),
    pytest.param(RECORDS, "evidence.0.sha256", DELETE, EVIDENCE,
                 "missing required field 'sha256'", id="evidence-without-sha256"),
    pytest.param(RECORDS, "evidence.0.sha256", "0" * 64, EVIDENCE,
                 "sha256 does not match the text", id="sha256-mismatch"),
    pytest.param(RECORDS, "rules.0.effective_from", "2012-10-32", RULE,
                 "effective_from: invalid date '2012-10-32'", id="invalid-date"),
    pytest.param(RECORDS, "rules.0.effective_until", date(2012, 10, 1), RULE,
                 "effective_from 2012-10-01 must be before effective_until 2012-10-01",
                 id="from-not-before-until"),
    pytest.param(RECORDS, "rules.0.authority", "STATUTE", RULE, "unknown authority 'STATUTE'",
                 id="unknown-authority"),
    pytest.param(RECORDS, "rules.0.value_type", "percent", RULE, "unknown value_type 'percent'",
                 id="unknown-value-type"),
    pytest.param(RECORDS, "rules.0.status", "FINAL", RULE, "unknown status 'FINAL'",
                 id="unknown-status"),
    pytest.param(RECORDS, "evidence.0.capture", "scraped", EVIDENCE, "unknown capture 'scraped'",
                 id="unknown-capture-method"),
    pytest.param(RECORDS, "concepts.0.jurisdiction", "DE", CONCEPT, "unknown jurisdiction 'DE'",
                 id="unknown-jurisdiction"),
    pytest.param(RECORDS, "sources.0.language", "de", SOURCE, "unknown language 'de'",
                 id="unknown-language"),
    pytest.param(RECORDS, "concepts.0.labels.de", "btw-tarief", CONCEPT,
                 "unknown language 'de' in labels", id="unknown-label-language"),
    pytest.param(RECORDS, "rules.1.id", "nl-btw-algemeen-tarief-2012", RULE,
                 "duplicate rule id 'nl-btw-algemeen-tarief-2012'", id="duplicate-id"),
    pytest.param(RECORDS, "evidence.1.key", "nl-wet-ob-art9-lid1", EVIDENCE,
                 "duplicate evidence key 'nl-wet-ob-art9-lid1'", id="duplicate-key"),
    pytest.param(RECORDS, "evidence.1", {"key": "lid1-again", **LID1}, "evidence 'lid1-again'",
                 "duplicate evidence id 'ev_5fc1353811b6b58a' (first in", id="duplicate-text"),
    pytest.param(RECORDS, "evidence.0.source", "nl-nope", EVIDENCE, "unknown source 'nl-nope'",
                 id="unknown-source"),
    pytest.param(RECORDS, "rules.0.pointers.0.evidence", "nl-nope", RULE,
                 "unknown evidence 'nl-nope'", id="unknown-evidence"),
    pytest.param(RECORDS, "rules.0.concept", "nl-nope", RULE, "unknown concept 'nl-nope'",
                 id="unknown-concept"),
    pytest.param(RECORDS, "rules.0.pointers", [], RULE,
                 "a PUBLISHED rule needs at least one pointer", id="published-without-pointer"),
    pytest.param(RECORDS, "rules.0.value", "22", RULE,
                 "value '22' (percentage) is not stated in any of its quotes",
                 id="value-not-stated"),
    pytest.param(RECORDS, "evidence.0.fetched_at", "2026-11-22T00:00:00", EVIDENCE,
                 "has no timezone", id="fetched-at-naive"),
    pytest.param(RECORDS, "rules.0.confidence", 1.5, RULE,
                 "confidence must be a number from 0 to 1", id="confidence-out-of-range"),
    pytest.param(RECORDS, "concepts.0.labels", {"en": "VAT rate"}, CONCEPT,
                 "labels need at least 'nl'", id="label-missing-home-language"),
    pytest.param(RECORDS, "concepts.0.caveat", {"nl": "Niet gecontroleerd."}, CONCEPT,
                 "caveat needs hr, nl and en", id="caveat-not-in-every-language"),
    pytest.param(RECORDS, "concepts.0.caveat", {"nl": "x" * 141, "hr": "x", "en": "x"}, CONCEPT,
                 "caveat (nl) is longer than 140 characters", id="caveat-too-long"),
    pytest.param(RECORDS, "rules.0.applies_when", {"maybe": 1}, RULE,
                 "applies_when does not parse", id="condition-does-not-parse"),
    pytest.param(RECORDS, "rules.0.efective_until", None, RULE, "unknown field 'efective_until'",
                 id="unknown-field"),
    pytest.param(RECORDS, "rules.0.value", 21, RULE, "value must be a string",
                 id="value-not-a-string"),
    pytest.param("pack.yaml", "attribution.0.source", "nl-nope", "attribution #1",
                 "unknown source 'nl-nope'", id="attribution-unknown-source"),
    pytest.param("pack.yaml", "licence", DELETE, "pack", "missing required field 'licence'",
                 id="pack-without-licence"),
    pytest.param("pack.yaml", "topics", DELETE, "pack", "topics must be a non-empty list",
                 id="pack-without-topics"),
    pytest.param("pack.yaml", "topics", [MINI_TOPIC, MINI_TOPIC], TOPIC,
                 "duplicate topic id 'mini_btw' (first in", id="duplicate-topic-id"),
    pytest.param("pack.yaml", "topics.0.label.hr", DELETE, TOPIC,
                 "label needs hr, nl and en; missing hr", id="topic-label-not-in-every-language"),
    pytest.param("pack.yaml", "topics.0.checklist.0.question.nl", DELETE, ITEM,
                 "question needs hr, nl and en; missing nl",
                 id="checklist-question-not-in-every-language"),
    pytest.param("pack.yaml", "topics.0.checklist.0.weight", 0, ITEM,
                 "weight must be a positive whole number (1, 2, 3 ...), got 0",
                 id="checklist-weight-not-positive"),
    pytest.param("pack.yaml", "topics.0.checklist.0.weight", 2.5, ITEM,
                 "weight must be a positive whole number (1, 2, 3 ...), got 2.5",
                 id="checklist-weight-not-whole"),
    pytest.param("pack.yaml", "topics.0.checklist.0.kind", "wish", ITEM,
                 "unknown kind 'wish'; use one of goal, fact, preference",
                 id="checklist-unknown-fact-kind"),
    pytest.param("pack.yaml", "topics.0.checklist", [MINI_TOPIC["checklist"][0]] * 2, ITEM,
                 "fact 'vat_table' is listed twice in this topic's checklist",
                 id="checklist-fact-listed-twice"),
    pytest.param("pack.yaml", "topics.0.checklist", [], TOPIC,
                 "checklist must be a non-empty list", id="topic-without-checklist"),
    pytest.param(RECORDS, "rules.1.applies_when", {"exists": "vat_category"},
                 "rule 'nl-btw-verlaagd-tarief-2019'",
                 "applies_when reads 'vat_category', which no topic of pack 'mini' lists",
                 id="condition-field-on-no-checklist"),
]  # fmt: skip


@pytest.mark.parametrize(("file", "path", "value", "record", "problem"), BAD_PACKS)
def test_bad_pack_is_refused_naming_file_record_and_problem(
    tmp_path: Path, file: str, path: str, value: object, record: str, problem: str
) -> None:
    folder = copy_mini(tmp_path, file, setting(path, value))
    error = refusal(folder)
    assert f"{folder / file}: {record}: " in str(error)
    assert problem in str(error)
    assert any(
        (p.file, p.record) == (str(folder / file), record) and problem in p.problem
        for p in error.problems
    )


def test_the_mini_pack_verifies() -> None:
    contents = verify_packs([MINI])
    counts = [len(contents.sources), len(contents.evidence), len(contents.concepts)]
    assert [*counts, len(contents.rules)] == [1, 2, 2, 3]
    for evidence in contents.evidence:
        content = f"{evidence.url}\n{evidence.text}".encode()
        assert evidence.id == "ev_" + hashlib.sha256(content).hexdigest()[:16]
        assert evidence.sha256 == hashlib.sha256(evidence.text.encode()).hexdigest()
    evidence_ids = {evidence.id for evidence in contents.evidence}
    assert {p.evidence_id for rule in contents.rules for p in rule.pointers} == evidence_ids
    # A date-only fetched_at means 00:00 UTC that day.
    assert contents.evidence[1].fetched_at == datetime(2026, 11, 22, tzinfo=UTC)


def test_a_count_in_a_unit_navod_cannot_word_is_refused(tmp_path: Path) -> None:
    def counted_in_working_days(doc: Any) -> None:
        setting("rules.0.value_type", "integer")(doc)
        setting("rules.0.unit", "werkdagen")(doc)

    error = refusal(copy_mini(tmp_path, RECORDS, counted_in_working_days))
    assert [p.record for p in error.problems] == [RULE]
    assert "unit 'werkdagen' has no wording in hr, nl and en" in error.problems[0].problem


def test_every_problem_is_reported_not_only_the_first(tmp_path: Path) -> None:
    def two_mistakes(doc: Any) -> None:
        setting("rules.0.status", "FINAL")(doc)
        setting("evidence.1.url", DELETE)(doc)

    error = refusal(copy_mini(tmp_path, RECORDS, two_mistakes))
    assert len(error.problems) == 2
    assert "unknown status 'FINAL'" in str(error) and "'url'" in str(error)


@pytest.mark.parametrize(
    ("text", "accepted"),
    [
        ("effective_from: 2012-10-32", False),  # PyYAML itself would reject the whole file
        ("effective_from: '2012-10-01'", True),  # a quoted ISO date is fine too
        ("effective_from: 2012-10-01T00:00:00Z", False),  # a moment is not a day
    ],
)
def test_dates_written_as_text(tmp_path: Path, text: str, accepted: bool) -> None:
    folder = copy_mini(tmp_path)
    records = folder / RECORDS
    original = records.read_text(encoding="utf-8")
    records.write_text(original.replace("effective_from: 2012-10-01", text), encoding="utf-8")
    if accepted:
        assert verify_packs([folder]).rules[0].effective_from == date(2012, 10, 1)
    else:
        error = refusal(folder)
        assert f"{records}: {RULE}: effective_from: invalid date" in str(error)


@pytest.mark.parametrize(
    ("quote", "evidence_text", "accepted"),
    [
        ("De belasting\u00a0bedraagt 21 percent.", None, True),  # NBSP
        ("De be\u00adlasting bedraagt 21 percent.", None, True),  # soft hyphen
        ("De   belasting\n bedraagt\t21 percent.", None, True),  # whitespace runs
        ("De “belasting” bedraagt 21 percent.", '1 De "belasting" bedraagt 21 percent.', True),
        ('De "belasting" bedraagt 21 percent.', "1 De ‘belasting’ bedraagt 21 percent.", False),
        ("de belasting bedraagt 21 percent.", None, False),  # case-sensitive
        ("De belasting bedraagt 21 percent!", None, False),
    ],
)
def test_quote_matching_tolerates_typography_but_not_case(
    tmp_path: Path, quote: str, evidence_text: str | None, accepted: bool
) -> None:
    def edit(doc: Any) -> None:
        setting("rules.0.pointers.0.quote", quote)(doc)
        if evidence_text is not None:
            rehashed(0, evidence_text)(doc)

    folder = copy_mini(tmp_path, RECORDS, edit)
    if accepted:
        assert verify_packs([folder]).rules[0].pointers[0].quote == quote
    else:
        assert "quote not found verbatim" in str(refusal(folder))


def test_folder_without_pack_yaml_is_refused(tmp_path: Path) -> None:
    folder = copy_mini(tmp_path)
    (folder / "pack.yaml").unlink()
    assert f"{folder / 'pack.yaml'}: missing pack.yaml" in str(refusal(folder))


def test_invalid_yaml_is_refused_naming_the_file(tmp_path: Path) -> None:
    folder = copy_mini(tmp_path)
    (folder / "broken.yaml").write_text("rules: [\n", encoding="utf-8")
    assert f"{folder / 'broken.yaml'}: not valid YAML" in str(refusal(folder))


@pytest.mark.parametrize("name", ["wet-ob-art9.yaml", "pack.yaml"])
def test_a_file_that_is_not_utf8_is_refused_naming_the_file(tmp_path: Path, name: str) -> None:
    folder = copy_mini(tmp_path)
    text = (folder / name).read_text(encoding="utf-8")
    (folder / name).write_bytes(text.encode("utf-8") + "# één\n".encode("cp1252"))
    assert f"{folder / name}: not UTF-8 text" in str(refusal(folder))


def test_the_same_records_in_two_packs_are_duplicates(tmp_path: Path) -> None:
    other = tmp_path / "other"
    shutil.copytree(MINI, other)
    with pytest.raises(PackRefused, match="duplicate source id 'nl-wet-ob-1968'"):
        read_packs([MINI, other])


def test_pack_paths() -> None:
    assert bundled_packs_dir().parts[-2:] == ("fixtures", "packs")
    every = pack_paths([])
    assert [path.name for path in every] == sorted(path.name for path in every)
    assert all((path / "pack.yaml").is_file() for path in every)
    with pytest.raises(PackError, match="unknown pack 'no-such-pack'"):
        pack_paths(["no-such-pack"])


def test_loading_twice_is_idempotent(repo: KnowledgeRepository) -> None:
    messages: list[str] = []
    assert load_packs(repo, [MINI], messages.append) == 1
    first_counts, first = repo.counts(), repo.load_knowledge()
    assert load_packs(repo, [MINI]) == 2
    assert repo.counts() == first_counts == {
        "sources": 1, "evidence": 2, "concepts": 2, "rules": 3, "pointers": 3, "faqs": 0,
        "topics": 1, "resolutions": 0,
    }  # fmt: skip
    assert repo.load_knowledge().rules == first.rules
    assert messages[-1] == "knowledge base is now at version 1"


class InjectedFailure(Exception):
    """Raised inside the save transaction by the test itself."""


@pytest.fixture
def fail_inside_transaction(
    repo: KnowledgeRepository, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Make the next save fail at its very last write, after every record was written."""
    if isinstance(repo, MemoryRepository):

        def commit(_state: object) -> None:
            raise InjectedFailure

        monkeypatch.setattr(repo, "_commit", commit)
        return
    engine: sa.Engine = request.getfixturevalue("migrated_engine")

    def before_execute(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE KB_META"):
            raise InjectedFailure

    sa.event.listen(engine, "before_cursor_execute", before_execute)
    request.addfinalizer(lambda: sa.event.remove(engine, "before_cursor_execute", before_execute))


@pytest.mark.parametrize("preloaded", [False, True])
def test_refused_load_leaves_the_store_as_it_was(
    repo: KnowledgeRepository, tmp_path: Path, preloaded: bool
) -> None:
    if preloaded:
        load_packs(repo, [MINI])
    before = (repo.version(), repo.counts(), repo.load_knowledge())
    bad = copy_mini(tmp_path, RECORDS, setting("rules.2.value_type", "percent"))
    with pytest.raises(PackRefused):
        load_packs(repo, [bad])
    assert (repo.version(), repo.counts(), repo.load_knowledge()) == before


@pytest.mark.parametrize("preloaded", [False, True])
def test_failure_inside_the_transaction_leaves_the_store_as_it_was(
    repo: KnowledgeRepository, tmp_path: Path, preloaded: bool, request: pytest.FixtureRequest
) -> None:
    if preloaded:
        load_packs(repo, [MINI])
    before = (repo.version(), repo.counts(), repo.load_knowledge())
    changed = copy_mini(tmp_path, RECORDS, setting("concepts.0.labels.nl", "btw"))
    request.getfixturevalue("fail_inside_transaction")
    with pytest.raises(InjectedFailure):
        load_packs(repo, [changed])
    assert (repo.version(), repo.counts(), repo.load_knowledge()) == before


def without_rule(rule_id: str) -> Callable[[Any], None]:
    """An edit that removes one rule from the records file."""

    def edit(doc: Any) -> None:
        doc["rules"] = [rule for rule in doc["rules"] if rule["id"] != rule_id]

    return edit


def test_a_rule_removed_from_a_pack_is_removed_by_the_next_load(
    repo: KnowledgeRepository, tmp_path: Path
) -> None:
    load_packs(repo, [MINI])
    assert repo.get_rule("nl-btw-algemeen-tarief-2012") is not None
    service = AnswerService(repo)
    asked = {"query": "Wat is het algemene btw-tarief?", "asOfDate": "2026-01-01"}
    cited = service.answer(ChatRequest.model_validate(asked))["citations"]["primary"]["id"]
    assert cited.startswith("nl-btw-algemeen-tarief-2012@")
    load_packs(repo, [copy_mini(tmp_path, edit=without_rule("nl-btw-algemeen-tarief-2012"))])
    assert repo.get_rule("nl-btw-algemeen-tarief-2012") is None
    assert repo.counts()["rules"] == 2 and repo.counts()["pointers"] == 2
    after = AnswerService(repo).answer(ChatRequest.model_validate(asked))
    assert after["kind"] == "REFUSAL"  # the removed rule answers nothing any more


def test_a_load_keeps_what_other_packs_loaded(repo: KnowledgeRepository, tmp_path: Path) -> None:
    mini = read_packs([MINI])
    other = dataclasses.replace(mini.concepts[0], slug="other-concept")
    repo.save_knowledge(
        PackContents((), (), (other,), (), owners={"concept:other-concept": "other"}), ["other"]
    )
    load_packs(repo, [copy_mini(tmp_path, edit=without_rule("nl-btw-verlaagd-tarief-2019"))])
    slugs = [concept.slug for concept in repo.list_concepts()]
    assert "other-concept" in slugs and repo.get_rule("nl-btw-verlaagd-tarief-2019") is None


def test_kb_diff_names_what_a_load_would_add_change_and_remove(
    repo: KnowledgeRepository, tmp_path: Path
) -> None:
    load_packs(repo, [MINI])
    assert diff_packs(repo, [MINI]) == PackDiff((), (), ())

    def edit(doc: Any) -> None:
        without_rule("nl-btw-verlaagd-tarief-2019")(doc)
        doc["rules"][0]["title"]["en"] = "Standard VAT rate (Netherlands)"

    diff = diff_packs(repo, [copy_mini(tmp_path, edit=edit)])
    assert diff == PackDiff(
        (), ("rule:nl-btw-algemeen-tarief-2012",), ("rule:nl-btw-verlaagd-tarief-2019",)
    )
    assert repo.get_rule("nl-btw-verlaagd-tarief-2019") is not None  # a diff writes nothing


def two_answers_for_one_day(conflicts_with: str | None) -> Callable[[Any], None]:
    """An edit that gives the standard rate a second, open-ended value of 9 % from 2019."""

    def edit(doc: Any) -> None:
        rival = {**doc["rules"][1], "id": "nl-btw-algemeen-tarief-rival"}
        rival["concept"] = "nl-btw-algemeen-tarief"
        rival.pop("applies_when")
        if conflicts_with is not None:
            rival["conflicts_with"] = conflicts_with
        doc["rules"].append(rival)

    return edit


def test_two_published_values_for_one_day_are_refused_unless_declared(tmp_path: Path) -> None:
    refused = refusal(copy_mini(tmp_path / "a", edit=two_answers_for_one_day(None)))
    assert any("in force together with rule 'nl-btw-algemeen-tarief-2012'" in p.problem
               for p in refused.problems)  # fmt: skip
    declared = copy_mini(
        tmp_path / "b", edit=two_answers_for_one_day("nl-btw-algemeen-tarief-2012")
    )
    assert len(verify_packs([declared]).rules) == 4
    unknown = copy_mini(tmp_path / "c", edit=two_answers_for_one_day("no-such-rule"))
    assert any("unknown rule 'no-such-rule'" in p.problem for p in refusal(unknown).problems)

"""No identifier survives in any spelling: valid OIBs, BSNs, SSNs and IBANs (check digits
computed) written with spaces, dots, dashes, slashes, no-break and narrow spaces, Unicode
dashes, zero-width characters, Arabic-Indic, Devanagari or full-width digits, full-width or
lower-case letters and a trailing "kn", inside random Croatian, Dutch and English text.

Then spellings generated from classes of characters (tests/spellings.py): every identifier
type (cards too), every class of separators, digits in any form (circled, superscript,
keycap…), invisible characters, a short word; named by a keyword or bare. `make fuzz` runs the
same properties with many more examples, at random (the "fuzz" profile, tests/conftest.py).

First the guardrail alone, then the real app: the chat route (APP surface, an identifier in a
clientContext text value, explain: true), a second turn, the stream, the WebSocket, companyId
and the facts route (values and names), after which no form of any identifier may appear in
any row of any table, the JSON responses, the NDJSON stream, the explain trace or the logs
(DEBUG, SQL statements and parameters included).
"""

from __future__ import annotations

import json
import logging
import os
import unicodedata
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from stdnum import iban

from api.app import create_app
from api.auth.guard import AuthConfig
from engine.guardrails.pii import detect_pii, hides_identifier, redact
from engine.service import AnswerService
from engine.store.bootstrap import open_store
from engine.store.dossiers.sql import SqlDossierRepository
from engine.store.guardrails.guards import load_guards
from engine.store.keys.sql import SqlKeyRepository
from tests import spellings as spelled
from tests.spellings import Identifier, _digits, bsns, oibs, ssns

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=UTC)


@st.composite
def ibans(draw: st.DrawFn) -> Identifier:
    country = draw(st.sampled_from(["HR", "DE", "NL"]))
    if country == "NL":
        bban = draw(st.sampled_from(["ABNA", "INGB", "RABO"])) + draw(_digits(10))
    else:
        bban = draw(_digits(17 if country == "HR" else 18))
    number = country + iban.calc_check_digits(country + "00" + bban) + bban
    assume(iban.is_valid(number))
    fours = tuple([4] * (len(number) // 4) + ([len(number) % 4] if len(number) % 4 else []))
    return Identifier("IBAN", number, ((len(number),), fours))


IDENTIFIERS = st.one_of(oibs(), bsns(), ssns(), ibans()).filter(
    lambda i: len(set(i.value)) >= 4  # "00000000001" could also be a run of table ids
)

# Digits of other scripts: Arabic-Indic, extended Arabic-Indic, Devanagari, full-width.
DIGIT_BASES = (ord("0"), 0x0660, 0x06F0, 0x0966, 0xFF10)
SEPARATORS = (" ", "-", ".", "/", "\u00a0", "\u202f", "\u2009", "\u2013", "\u2011", " - ", "\u2212")
INVISIBLE = ("\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\ufeff")
LABELS = {"OIB": ("OIB", "oib:"), "BSN": ("BSN", "bsn"), "SSN": ("SSN", "ssn#"), "IBAN": ("IBAN",)}


@st.composite
def spellings(draw: st.DrawFn, value: Identifier) -> str:
    """`value` as someone might write it: grouped, separated, in any digits, with invisible
    characters slipped in."""
    shape = draw(st.sampled_from(value.shapes))
    groups, at = [], 0
    for size in shape:
        groups.append(value.value[at : at + size])
        at += size
    chars: list[str] = []
    for index, group in enumerate(groups):
        if index:
            chars.append(draw(st.sampled_from(SEPARATORS)))
        for char in group:
            chars.append(_spelled_char(draw, char))
            if draw(st.integers(0, 9)) == 0:
                chars.append(draw(st.sampled_from(INVISIBLE)))
    text = "".join(chars).rstrip("".join(INVISIBLE))
    if value.kind == "OIB" and draw(st.booleans()):
        text += draw(st.sampled_from(["kn", " kn", "\u00a0kn"]))
    if draw(st.booleans()):
        text = draw(st.sampled_from(LABELS[value.kind])) + " " + text
    return text


def _spelled_char(draw: st.DrawFn, char: str) -> str:
    if char.isdigit():
        return chr(draw(st.sampled_from(DIGIT_BASES)) + int(char))
    style = draw(st.sampled_from(["upper", "lower", "full-width"]))
    if style == "full-width":
        return chr(0xFF21 + ord(char) - ord("A"))
    return char.lower() if style == "lower" else char


# No money or tax word: a number grouped in thousands next to one reads as an amount
# ("123 456 789 PDV", readings.py), unless a keyword names the identifier.
WORDS = (
    *("koliko", "iznosi", "moj", "račun", "je", "hvala", "stopa", "obrt", "molim", "broj"),
    *("mijn", "nummer", "graag", "wat", "is", "het", "tarief", "aangifte", "bedankt"),
    *("my", "number", "please", "what", "is", "the", "limit", "for", "IRA", "thanks"),
)
PUNCTUATION = (",", ".", ";", ":", "!", "?", "(", ")", '"', "'", "—", "…")


@st.composite
def surroundings(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(WORDS), max_size=6))
    text = ""
    for word in words:
        text += word + draw(st.sampled_from(["", *PUNCTUATION])) + " "
    return text


@st.composite
def sentences(draw: st.DrawFn) -> tuple[Identifier, str]:
    value = draw(IDENTIFIERS)
    spelled = draw(spellings(value))
    before, after = draw(surroundings()), draw(surroundings())
    joint = draw(st.sampled_from([" ", ": ", " (", " \u00a0"]))
    return value, f"{before}{joint}{spelled}{draw(st.sampled_from([' ', ', ', '. ', ') ']))}{after}"


def normalised(text: str) -> str:
    """`text` as the identifiers are compared: every decimal digit ASCII, letters folded to
    upper-case ASCII (NFKC), separators and invisible characters gone."""
    kept = []
    for char in text:
        digit = unicodedata.decimal(char, None)
        if digit is not None:
            kept.append(str(digit))
            continue
        category = unicodedata.category(char)
        if category in ("Zs", "Pd", "Cf") or char in ".-/\u2212\t\n":
            continue
        kept.append(unicodedata.normalize("NFKC", char).upper())
    return "".join(kept)


# derandomize: CI runs the same examples every time. Random runs found the spellings below,
# which the guard does not yet redact (2026-11-25): each is a strict xfail until it is fixed,
# and a wider random search should be run when the guard changes.
@settings(max_examples=300, deadline=None, derandomize=True)
@given(sentences())
def test_the_guardrail_leaves_no_identifier_in_any_spelling(case: tuple[Identifier, str]) -> None:
    value, text = case
    assert value.value in normalised(text)  # the generator wrote it
    redacted = redact(text, detect_pii(text))
    assert value.value not in normalised(redacted), (value, text, redacted)


def test_an_oib_in_groups_with_leading_zeros_and_kn_is_redacted() -> None:
    # found by a random run 2026-11-25: thousands grouping and "kn" read as an amount, but the
    # kuna makes an amount of anything but an eleven-digit number
    text = " 00 000 000 124kn "
    assert "00000000124" not in normalised(redact(text, detect_pii(text)))


# ---------------------------------------------------------------------------------------------
# Spellings generated from classes of characters (tests/spellings.py): every identifier type,
# every class of separators, named by a keyword or bare. CI runs 145 examples of each of the 70
# combinations (10,150), the same every run; `make fuzz` runs the fuzz profile's many more, at
# random.

FUZZING = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"


def searched(ci_examples: int, fuzz_share: float = 1.0, **more: Any) -> settings:
    """`ci_examples` examples, the same every run; under `make fuzz` the fuzz profile's
    examples (times `fuzz_share`), drawn at random."""
    if FUZZING:
        fuzzed = max(ci_examples, int(settings.get_profile("fuzz").max_examples * fuzz_share))
        return settings(max_examples=fuzzed, derandomize=False, deadline=None, **more)
    return settings(max_examples=ci_examples, derandomize=True, deadline=None, **more)


def _assert_redacted(case: spelled.Spelled) -> None:
    """One finding covers every character of the identifier as written, and no digit of any
    kind is left in the redacted text (the words around it have none)."""
    findings = detect_pii(case.text)
    redacted = redact(case.text, findings)
    covered = any(f.start <= case.start and case.end <= f.end for f in findings)
    assert covered and not spelled.digits_in(redacted), (case.text, findings, redacted)


@pytest.mark.parametrize("joints", sorted(spelled.SEPARATOR_CLASSES))
@pytest.mark.parametrize("kind", sorted(spelled.BY_KIND))
@searched(145)
@given(data=st.data())
def test_a_named_identifier_leaves_nothing_in_any_spelling(
    kind: str, joints: str, data: st.DataObject
) -> None:
    """After its keyword, an identifier split anywhere by anything is found and redacted."""
    identifiers = spelled.BY_KIND[kind]
    _assert_redacted(data.draw(spelled.sentences(joints, named=True, identifiers=identifiers)))


@pytest.mark.parametrize("joints", sorted(spelled.SEPARATOR_CLASSES))
@pytest.mark.parametrize("kind", sorted(spelled.BY_KIND))
@searched(145)
@given(data=st.data())
def test_a_bare_identifier_leaves_nothing_in_any_spelling_of_its_usual_groupings(
    kind: str, joints: str, data: st.DataObject
) -> None:
    """With no keyword, an identifier in its usual groupings (or digit by digit; an IBAN split
    anywhere) is found and redacted, whatever the separators, digits and invisible marks."""
    identifiers = spelled.BY_KIND[kind]
    _assert_redacted(data.draw(spelled.sentences(joints, named=False, identifiers=identifiers)))


@searched(500)
@given(spelled.names())
def test_a_name_hiding_an_identifier_is_found(case: tuple[spelled.Identifier, str]) -> None:
    assert hides_identifier(case[1]), case


@pytest.mark.parametrize("name", ["housing_plan", "birth_year", "tax_2024_2025_2026", "q3_2025"])
def test_a_name_without_an_identifier_is_not_refused(name: str) -> None:
    assert not hides_identifier(name)


# ---------------------------------------------------------------------------------------------
# Through the real app, on a migrated database (SQLite, and PostgreSQL with -m db).


@pytest.fixture
def app(database_url: str) -> Iterator[tuple[TestClient, sa.Engine]]:
    engine, repository = open_store(database_url)
    service = AnswerService(
        repository,
        clock=lambda: NOW,
        guards=load_guards(),
        dossiers=SqlDossierRepository(engine),
    )
    # hypothesis replays a failing example many times while shrinking it: no rate limits
    unlimited = AuthConfig(
        SqlKeyRepository(engine), rate_limit_per_minute=10**6, refusals_per_minute=10**6
    )
    with TestClient(
        create_app(service, engine, unlimited), raise_server_exceptions=False
    ) as client:
        yield client, engine
    engine.dispose()


def _every_row(engine: sa.Engine) -> str:
    """Every row of every table, JSON values decoded (so "\\u0661" is read as "١")."""
    return "\n".join(_every_cell(engine))


def _every_cell(engine: sa.Engine) -> list[str]:
    tables = sa.inspect(engine).get_table_names()
    cells: list[str] = []
    with engine.connect() as connection:
        for table in tables:
            for row in connection.execute(sa.text(f'SELECT * FROM "{table}"')):
                cells.extend(_cell(value) for value in row)
    return cells


def _cell(value: Any) -> str:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return value
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _clean(where: str, text: str, values: list[Identifier]) -> None:
    flat = normalised(text)
    leaked = [v for v in values if v.value in flat]
    assert not leaked, f"{where} holds {[(v.kind, v.value) for v in leaked]}"


@pytest.mark.db
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,  # see the guard's property above
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(question=sentences(), context=sentences(), fact=sentences())
def test_no_identifier_reaches_the_database_the_responses_the_stream_or_the_logs(
    app: tuple[TestClient, sa.Engine],
    caplog: pytest.LogCaptureFixture,
    question: tuple[Identifier, str],
    context: tuple[Identifier, str],
    fact: tuple[Identifier, str],
) -> None:
    client, engine = app
    caplog.clear()
    caplog.set_level(logging.DEBUG)
    values = [question[0], context[0], fact[0]]
    body = {
        "query": question[1][:4000],
        "surface": "APP",
        "explain": True,
        "clientContext": {"birth_year": 1962, "retirement_goal": context[1]},
    }
    chat = client.post("/api/assistant/chat", json=body)
    assert chat.status_code == 200, chat.text
    assert "trace" in chat.json()
    _clean("the chat response (with its explain trace)", chat.text, values)
    session = chat.json()["sessionId"]

    stream = client.post("/api/assistant/chat/stream", json={**body, "sessionId": session})
    assert stream.status_code == 200
    _clean("the NDJSON stream", stream.text, values)

    told = {"topic": "lifestyle_purpose", "fact_type": "retirement_goal", "value": fact[1]}
    posted = client.post(f"/api/dossiers/{session}/facts", json={"facts": [told]})
    assert posted.status_code == 201, posted.text
    _clean("the facts response", posted.text, values)
    for route in ("", "/facts", "/completeness"):
        shown = client.get(f"/api/dossiers/{session}{route}")
        assert shown.status_code == 200
        _clean(f"GET /api/dossiers/{{id}}{route}", shown.text, values)

    _clean("the database", _every_row(engine), values)
    logged = "\n".join(f"{r.getMessage()} {r.args!r} {r.exc_text or ''}" for r in caplog.records)
    _clean("the logs", logged, values)


@pytest.mark.db
def test_a_fact_name_holding_an_identifier_is_refused_and_not_stored(
    app: tuple[TestClient, sa.Engine],
) -> None:
    client, engine = app
    session = client.post("/api/assistant/chat", json={"query": "What is the RMD age?"}).json()
    told = {"topic": "housing_geography", "fact_type": "oib12345678903", "value": "x"}
    reply = client.post(f"/api/dossiers/{session['sessionId']}/facts", json={"facts": [told]})
    assert reply.status_code == 400
    assert reply.json()["error"]["field"] == "facts[0].fact_type"
    assert "12345678903" not in reply.text and "12345678903" not in _every_row(engine)


def _no_digits_of(where: str, texts: list[str], values: list[spelled.Identifier]) -> None:
    """No text holds the digits of any of `values` in a row, whatever was written between them
    (each text read alone, so the digits of two texts are never joined)."""
    wanted = {v.value: "".join(c for c in v.value if c.isdigit()) for v in values}
    for text in texts:
        digits = spelled.digits_in(text)
        leaked = [value for value, run in wanted.items() if run in digits]
        assert not leaked, f"{where} holds {leaked}: {text[:300]!r}"


@pytest.mark.db
@searched(
    12,
    fuzz_share=0.01,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    asked=st.lists(spelled.sentences(), min_size=4, max_size=4),
    context=st.lists(spelled.written(), min_size=4, max_size=4),
    fact=spelled.written(),
    company=spelled.written(),
    name=spelled.names(),
)
def test_no_spelling_reaches_a_table_a_response_or_the_logs_by_any_way_in(
    app: tuple[TestClient, sa.Engine],
    caplog: pytest.LogCaptureFixture,
    asked: list[spelled.Spelled],
    context: list[spelled.Spelled],
    fact: spelled.Spelled,
    company: spelled.Spelled,
    name: tuple[spelled.Identifier, str],
) -> None:
    """A conversation (two chat turns, the NDJSON stream, the WebSocket) with identifiers in
    its questions, its clientContext text fields and companyId, then the facts API with one
    in a fact value and one in each name: nothing of them in any response, row or log line,
    and each name refused with a 400 naming its field."""
    client, engine = app
    caplog.clear()
    caplog.set_level(logging.DEBUG)
    values = [c.identifier for c in (*asked, *context, fact, company)] + [name[0]]
    fields = ("retirement_goal", "travel_plans", "payment_methods", "city")
    assume(all(len(c.text) <= 200 for c in (*context, fact)) and len(company.text) <= 128)
    told = {field: c.text for field, c in zip(fields, context, strict=True)}
    first = {
        "query": asked[0].text,
        "surface": "APP",
        "explain": True,
        "clientContext": {"birth_year": 1962, **told},
        "companyId": company.text,
    }
    bodies: list[str] = []
    chat = client.post("/api/assistant/chat", json=first)
    assert chat.status_code == 200, chat.text
    session = chat.json()["sessionId"]
    again = client.post(
        "/api/assistant/chat", json={**first, "query": asked[1].text, "sessionId": session}
    )
    assert again.status_code == 200, again.text
    stream = client.post(
        "/api/assistant/chat/stream", json={**first, "query": asked[2].text, "sessionId": session}
    )
    assert stream.status_code == 200, stream.text
    with client.websocket_connect("/ws") as socket:
        socket.send_text(
            json.dumps(
                {
                    "message": asked[3].text,
                    "sessionId": session,
                    "surface": "APP",
                    "explain": True,
                    "companyId": company.text,
                }
            )
        )
        reply = socket.receive_text()
    assert json.loads(reply)["status"] == "ok", reply
    bodies += [chat.text, again.text, stream.text, reply]

    value = {"topic": "lifestyle_purpose", "fact_type": "retirement_goal", "value": fact.text}
    posted = client.post(f"/api/dossiers/{session}/facts", json={"facts": [value]})
    assert posted.status_code == 201, posted.text
    bodies.append(posted.text)
    named = {"topic": "lifestyle_purpose", "fact_type": "retirement_goal", "value": "x"}
    for field in ("topic", "fact_type", "subtopic"):
        refused = client.post(
            f"/api/dossiers/{session}/facts", json={"facts": [{**named, field: name[1]}]}
        )
        assert refused.status_code == 400, (name, refused.text)
        # the route checks a fact_type (facts[0].fact_type), the service every name
        assert refused.json()["error"]["field"] in (f"facts.{field}", f"facts[0].{field}")
        bodies.append(refused.text)
    for route in ("", "/facts", "/completeness"):
        shown = client.get(f"/api/dossiers/{session}{route}")
        assert shown.status_code == 200
        bodies.append(shown.text)

    _no_digits_of("a response", bodies, values)
    _no_digits_of("the database", _every_cell(engine), values)
    logged = [f"{r.getMessage()} {r.args!r} {r.exc_text or ''}" for r in caplog.records]
    _no_digits_of("the logs", logged, values)


@pytest.mark.db
@pytest.mark.parametrize("field", ["topic", "fact_type", "subtopic"])
def test_a_name_with_an_identifier_split_by_underscores_is_refused(
    app: tuple[TestClient, sa.Engine], field: str
) -> None:
    client, engine = app
    session = client.post("/api/assistant/chat", json={"query": "What is the RMD age?"}).json()
    told = {"topic": "lifestyle_purpose", "fact_type": "retirement_goal", "value": "x"}
    told[field] = "x_694_351_515_30"  # OIB 69435151530
    reply = client.post(f"/api/dossiers/{session['sessionId']}/facts", json={"facts": [told]})
    assert reply.status_code == 400
    assert reply.json()["error"]["field"] in (f"facts.{field}", f"facts[0].{field}")
    assert "694" not in reply.text and "69435151530" not in spelled.digits_in(_every_row(engine))

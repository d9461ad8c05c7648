"""fold and normalise_quote: the two normal forms every text comparison goes through."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.text.normalize import as_written, fold, normalise_quote


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Čačak ćevapi", "cacak cevapi"),
        ("Šuma Žuta", "suma zuta"),
        ("Đakovo đak", "dakovo dak"),
        ("ĐURO", "duro"),
        ("Ëen café über", "een cafe uber"),
        ("Straße", "strasse"),
        ("PDV-a", "pdv-a"),
        ("€ 20.000", "€ 20.000"),
        ("60.000,00 eura", "60.000,00 eura"),
        ("$7,000", "$7,000"),
        ("25 % — „x“", "25 % — „x“"),
        ("  many   spaces\n\tand\nlines  ", "many spaces and lines"),
        ("a\u00a0b", "a b"),
        ("ﬁscal", "fiscal"),  # NFKC splits the ligature
        ("Ｐｄｖ", "pdv"),  # full-width letters
        ("x²", "x2"),
        ("", ""),
    ],
)
def test_fold(text: str, expected: str) -> None:
    assert fold(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("25\u00a0%", "25 %"),
        ("1\u202f134", "1 134"),
        ("1\u2007134", "1 134"),
        ("a\u2009b", "a b"),
        ("PDV\u00ad-a", "PDV-a"),
        ("stopa\u00adpo\u00adreza", "stopaporeza"),
        ("‘x’ ‚y‛", "'x' 'y'"),
        ("“x” „y‟", '"x" "y"'),
        ("«x» »y«", '"x" "y"'),
        ("line one\nline two\r\n  three", "line one line two three"),
        ("  Opća Stopa  ", "Opća Stopa"),
        ("Case KEPT", "Case KEPT"),
        ("čćšžđ", "čćšžđ"),
    ],
)
def test_normalise_quote(text: str, expected: str) -> None:
    assert normalise_quote(text) == expected


def test_normalise_quote_matches_quote_inside_evidence() -> None:
    evidence = "Opća stopa PDV-a iznosi\u00a025\u00a0%\nod\u00a0porezne osnovice."
    assert normalise_quote("stopa PDV-a iznosi 25 % od") in normalise_quote(evidence)


@given(st.text())
def test_fold_is_idempotent(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@given(st.text())
def test_normalise_quote_is_idempotent(text: str) -> None:
    assert normalise_quote(normalise_quote(text)) == normalise_quote(text)


@given(st.text(alphabet=st.characters(categories=["Nd", "P", "Sc", "Zs"])))
def test_fold_changes_only_letters_and_spacing(text: str) -> None:
    composed = unicodedata.normalize("NFKC", text)
    assume(not any(char.isalpha() for char in composed))  # NFKC may spell symbols with letters
    assert fold(text) == " ".join(composed.split())


@pytest.mark.parametrize(
    ("text", "folded", "written"),
    [
        ("Koliko iznosi PDV na većinu proizvoda?", "vecinu", "većinu"),
        ("Moram li plaćati PDV ako zarađujem 15.000 EUR?", "15.000 eur", "15.000 EUR"),
        ("Is a 401(k) loan taxed?", "401k", "401(k)"),
        ("(Größe) matters", "grosse", "Größe"),
        ("nothing like it", "vecinu", "vecinu"),  # not found: the folded words themselves
    ],
)
def test_words_are_shown_as_the_asker_wrote_them(text: str, folded: str, written: str) -> None:
    assert as_written(text, [folded]) == [written]

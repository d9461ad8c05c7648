"""Values written the way each language writes them: 60.000,00 EUR, € 20.000, $7,000."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation

from engine.text.dates import EN_MONTHS, NL_MONTHS
from engine.types import Language, Rule, ValueType

_HR_MONTHS_GENITIVE_WORDS = (
    "siječnja veljače ožujka travnja svibnja lipnja "
    "srpnja kolovoza rujna listopada studenoga prosinca"
)
_HR_MONTHS_GENITIVE = tuple(_HR_MONTHS_GENITIVE_WORDS.split())
_TRUE_WORDS = frozenset({"true", "yes", "1", "da", "ja"})
_YES_NO: dict[Language, tuple[str, str]] = {
    "hr": ("da", "ne"),
    "nl": ("ja", "nee"),
    "en": ("yes", "no"),
}
_CURRENCY_SYMBOL = {"currency_eur": "€", "currency_usd": "$"}
_CURRENCY_CODE = {"currency_eur": "EUR", "currency_usd": "USD"}


def _decimals_of(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) and exponent < 0 else 0


def format_number(value: Decimal, language: Language, decimals: int | None = None) -> str:
    """`value` grouped by thousands in the language's notation (hr/nl 60.000,00; en 60,000.00).

    Without `decimals` the value keeps the decimal places it was written with.
    """
    places = _decimals_of(value) if decimals is None else decimals
    english = f"{value:,.{places}f}"
    if language == "en":
        return english
    return english.translate(str.maketrans(",.", ".,"))


def _is_whole(value: Decimal) -> bool:
    return value == value.to_integral_value()


def _format_currency(amount: Decimal, value_type: ValueType, language: Language) -> str:
    if language == "hr":  # Croatian practice: always cents, code after the amount
        return f"{format_number(amount, language, 2)} {_CURRENCY_CODE[value_type]}"
    number = format_number(amount, language, 0 if _is_whole(amount) else 2)
    symbol = _CURRENCY_SYMBOL[value_type]
    return f"{symbol} {number}" if language == "nl" else f"{symbol}{number}"


def _croatian_years_word(amount: Decimal) -> str:
    """Croatian agrees the noun with the number: 1 godina, 2-4 godine, 5-20 godina, 21 godina."""
    if not _is_whole(amount):
        return "godine"  # a fraction takes the genitive singular: 1,5 godine
    whole = int(amount)
    if whole % 10 in (2, 3, 4) and whole % 100 not in (12, 13, 14):
        return "godine"
    return "godina"  # nominative singular (1, 21, 31) and genitive plural share the form


def _format_years(amount: Decimal, language: Language) -> str:
    number = format_number(amount, language)
    if language == "hr":
        return f"{number} {_croatian_years_word(amount)}"
    if language == "nl":
        return f"{number} jaar"
    return f"{number} {'year' if amount == 1 else 'years'}"


def format_date(d: date, language: Language) -> str:
    """hr "1. siječnja 2025.", nl "1 januari 2025", en "January 1, 2025"."""
    if language == "hr":
        return f"{d.day}. {_HR_MONTHS_GENITIVE[d.month - 1]} {d.year}."
    if language == "nl":
        return f"{d.day} {NL_MONTHS[d.month - 1]} {d.year}"
    return f"{EN_MONTHS[d.month - 1].capitalize()} {d.day}, {d.year}"


def _format_numeric(amount: Decimal, value_type: ValueType, unit: str, language: Language) -> str:
    if value_type == "percentage":
        number = format_number(amount, language)
        return f"{number} %" if language == "hr" else f"{number}%"
    if value_type in _CURRENCY_CODE:
        return _format_currency(amount, value_type, language)
    if value_type == "years":
        return _format_years(amount, language)
    number = format_number(amount, language)
    worded = _worded_unit(amount, number, unit, language)
    if worded is not None:
        return worded
    return f"{number} {unit}" if unit.strip() else number


# Units packs write in their source's language ("dana po isteku kalendarske godine"), each
# worded per language so an answer stays in the reader's language. A pack may only use these
# (engine/store/knowledge/pack_checks.py); `{n}` is the number, `{noun}` its noun agreed with it.
_UNIT_OF: dict[str, str] = {
    "dana": "day", "dan": "day", "days": "day", "dagen": "day",
    "dan u mjesecu": "day_of_month",
    "dana po isteku kalendarske godine": "days_after_year_end",
    "months": "month", "mjeseci": "month", "maanden": "month",
    "uren": "hour", "uur": "hour", "hours": "hour", "sati": "hour",
    "godine": "year", "godina": "year", "jaar": "year", "years": "year",
    "kn": "kuna",
}  # fmt: skip
KNOWN_UNITS = frozenset(_UNIT_OF)
_NOUNS: dict[str, dict[Language, tuple[str, str, str]]] = {
    # (one, few, many): Croatian agrees 2-4 apart from 5-20; the others have one plural
    "day": {"hr": ("dan", "dana", "dana"), "nl": ("dag", "dagen", "dagen"),
            "en": ("day", "days", "days")},
    "month": {"hr": ("mjesec", "mjeseca", "mjeseci"), "nl": ("maand", "maanden", "maanden"),
              "en": ("month", "months", "months")},
    "hour": {"hr": ("sat", "sata", "sati"), "nl": ("uur", "uur", "uur"),
             "en": ("hour", "hours", "hours")},
}  # fmt: skip
_PHRASES: dict[str, dict[Language, str]] = {
    "day_of_month": {"hr": "{n}. dan u mjesecu", "nl": "dag {n} van de maand",
                     "en": "day {n} of the month"},
    "days_after_year_end": {"hr": "{n} {noun} po isteku kalendarske godine",
                            "nl": "{n} {noun} na afloop van het kalenderjaar",
                            "en": "{n} {noun} after the end of the calendar year"},
    "kuna": {"hr": "{n} kn", "nl": "{n} kn", "en": "{n} kn"},
}  # fmt: skip


def _worded_unit(amount: Decimal, number: str, unit: str, language: Language) -> str | None:
    kind = _UNIT_OF.get(unit.strip())
    if kind is None:
        return None
    if kind == "year":
        return _format_years(amount, language)
    forms = _NOUNS.get("day" if kind == "days_after_year_end" else kind)
    noun = _noun(forms, amount, language) if forms else ""
    if kind in _PHRASES:
        return _PHRASES[kind][language].format(n=number, noun=noun)
    return f"{number} {noun}"


def _noun(forms: dict[Language, tuple[str, str, str]], amount: Decimal, language: Language) -> str:
    one, few, many = forms[language]
    if not _is_whole(amount):
        return few if language == "hr" else many
    whole = int(amount)
    if language != "hr":
        return one if whole == 1 else many
    if whole % 10 == 1 and whole % 100 != 11:
        return one
    if whole % 10 in (2, 3, 4) and whole % 100 not in (12, 13, 14):
        return few
    return many


def rule_value(rule: Rule, language: Language) -> str:
    """A rule's value as an answer in `language` shows it: a text value in that language's
    wording when the pack gives one (the quote keeps the source's own words)."""
    worded = rule.value_label.get(language)
    return worded or format_value(rule.value, rule.value_type, rule.unit, language)


def format_value(value: str, value_type: ValueType, unit: str, language: Language) -> str:
    """A rule's plain-string `value` as an answer shows it in `language`.

    Values that do not parse as their type are shown as written rather than hidden.
    """
    if value_type == "text":
        return value
    if value_type == "boolean":
        yes, no = _YES_NO[language]
        return yes if value.strip().lower() in _TRUE_WORDS else no
    if value_type == "date":
        try:
            return format_date(date.fromisoformat(value.strip()), language)
        except ValueError:
            return value
    try:
        amount = Decimal(value.strip())
    except InvalidOperation:
        return value
    return _format_numeric(amount, value_type, unit, language) if amount.is_finite() else value

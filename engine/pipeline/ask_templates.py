"""The sentences of an answer to several asks (engine/pipeline/joint.py), per language."""

from __future__ import annotations

from collections.abc import Mapping

from engine.types import Language

T = Mapping[Language, str]

# An ask for one year of a fact: "Minimalna plaća (bruto) (2024.)".
FOR_YEAR: T = {"hr": "{label} ({year}.)", "nl": "{label} ({year})", "en": "{label} ({year})"}
YEAR: T = {"hr": "{year}.", "nl": "{year}", "en": "{year}"}
LINE: T = {"hr": "{what}: {values}", "nl": "{what}: {values}", "en": "{what}: {values}"}
NOT_IN_FORCE: T = {
    "hr": "{what}: nemam propis koji mogu citirati za taj datum",
    "nl": "{what}: geen regel die ik voor die datum kan citeren",
    "en": "{what}: no rule I can cite for that date",
}
NOT_UNDERSTOOD: T = {
    "hr": "„{words}”: na to ne mogu odgovoriti iz izvora koje imam",
    "nl": "‘{words}’: daarop kan ik niet antwoorden met de bronnen die ik heb",
    "en": "“{words}”: I cannot answer that from the sources I hold",
}
NEEDS_DATA: T = {
    "hr": "{what}: ovisi o podatku {fields}",
    "nl": "{what}: hangt af van {fields}",
    "en": "{what}: depends on {fields}",
}
CHANGE: T = {
    "hr": "Promjena od {first} do {last}: {delta} ({old} → {new})",
    "nl": "Verandering van {first} tot {last}: {delta} ({old} → {new})",
    "en": "Change from {first} to {last}: {delta} ({old} → {new})",
}
NO_CHANGE: T = {
    "hr": "Bez promjene od {first} do {last}: {value}",
    "nl": "Geen verandering van {first} tot {last}: {value}",
    "en": "No change from {first} to {last}: {value}",
}
# The understood line's list of asks: "Razumio sam 3 pitanja: …".
ASKS: T = {
    "hr": "{count} pitanja: {asks}",
    "nl": "{count} vragen: {asks}",
    "en": "{count} questions: {asks}",
}
AND: T = {"hr": " i ", "nl": " en ", "en": " and "}
POINTS: T = {"hr": " postotnih bodova", "nl": " procentpunt", "en": " percentage points"}

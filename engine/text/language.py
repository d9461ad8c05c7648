"""Language of a (often very short) question, from scored word evidence; no model download.

Evidence per language: function and question words, domain vocabulary (pdv, btw, rmd),
Croatian letters (č ć š ž đ) and Dutch spelling (ij). Ties go to the caller's default.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache

from engine.text.normalize import fold
from engine.types import LANGUAGES, Language

# Words that nearly always mean one language, even alone ("koliko", "hoeveel", "which").
_HR_QUESTION = """koja koji koje koju koliko koliki kolika kolike kolki kolko kolka sto sta kada
gdje kako zasto tko moram mogu moze trebam treba molim reci recite hvala jesam jesu li nije kakav
kakva kakvo"""
_NL_QUESTION = """wat wie waar wanneer hoe hoeveel welk welke waarom moet mag kun kunt hebben heeft
wordt worden graag bedankt vertel mijn"""
_EN_QUESTION = """what whats who where when how which why does did must should could would please
tell my the"""
# Function words; some are shared ("je", "u", "is", "in"), so each scores for every owner.
_HR_FUNCTION = "je su sam smo ste za od do na iz sa se ili da ne u i a ima bio bila"
_NL_FUNCTION = "het de een en van is zijn voor met op aan bij niet geen ook ik je u er ben heb woon"
_EN_FUNCTION = "is are was a an and of for with on at to it this that i do you in can there"
_QUESTION_WORDS: Mapping[Language, frozenset[str]] = {
    "hr": frozenset(_HR_QUESTION.split()),
    "nl": frozenset(_NL_QUESTION.split()),
    "en": frozenset(_EN_QUESTION.split()),
}
_FUNCTION_WORDS: Mapping[Language, frozenset[str]] = {
    "hr": frozenset(_HR_FUNCTION.split()),
    "nl": frozenset(_NL_FUNCTION.split()),
    "en": frozenset(_EN_FUNCTION.split()),
}
# Domain vocabulary, folded. Stems of four letters or more also cover longer words ("porezu",
# "omzetbelasting"); shorter ones (pdv, btw, rmd) must match whole words, so "korak" is not "kor".
_HR_DOMAIN = "pdv porez doprinos pausal mirovin obrt fiskaliz dohod prirez"
_NL_DOMAIN = "btw belasting omzet heffingskorting kor aow toeslag ondernem"
_EN_DOMAIN = "rmd rmds ira iras irs social security 401k roth retire tax taxes taxable vat"
_EN_DOMAIN_MORE = "pension withdrawal"
_DOMAIN_STEMS: Mapping[Language, tuple[str, ...]] = {
    "hr": tuple(_HR_DOMAIN.split()),
    "nl": tuple(_NL_DOMAIN.split()),
    "en": tuple(f"{_EN_DOMAIN} {_EN_DOMAIN_MORE}".split()),
}
_SHORTEST_PREFIX_STEM = 4
_WEIGHTS = {"question": 2.0, "function": 1.0, "domain": 3.0, "letters": 2.0, "dutch_ij": 1.0}
_CROATIAN_LETTERS = frozenset("čćšžđ")
_WORD = re.compile(r"[^\W_]+")


def _is_domain_word(word: str, stem: str) -> bool:
    return word == stem or (len(stem) >= _SHORTEST_PREFIX_STEM and word.startswith(stem))


@lru_cache(maxsize=65536)  # the same words come back in question after question
def _word_score(word: str) -> tuple[float, ...]:
    """What one word says for each language, in LANGUAGES order."""
    return tuple(
        (_WEIGHTS["question"] if word in _QUESTION_WORDS[language] else 0.0)
        + (_WEIGHTS["function"] if word in _FUNCTION_WORDS[language] else 0.0)
        + (
            _WEIGHTS["domain"]
            if any(_is_domain_word(word, stem) for stem in _DOMAIN_STEMS[language])
            else 0.0
        )
        for language in LANGUAGES
    )


def _word_scores(words: list[str]) -> dict[Language, float]:
    scores: dict[Language, float] = dict.fromkeys(LANGUAGES, 0.0)
    for word in words:
        for language, score in zip(LANGUAGES, _word_score(word), strict=True):
            scores[language] += score
    return scores


def _evidence(text: str, folded: str | None) -> dict[Language, float]:
    if folded is not None and text.isascii():
        # ASCII text folds to its lowercase, spaces aside: the folded text has the same words,
        # and no Croatian letter
        words = _WORD.findall(folded.replace("'", ""))
        scores = _word_scores(words)
    else:
        lowered = unicodedata.normalize("NFKC", text).lower()
        words = _WORD.findall(fold(lowered.replace("'", "").replace("’", "")))
        scores = _word_scores(words)
        if _CROATIAN_LETTERS & set(lowered):
            scores["hr"] += _WEIGHTS["letters"]
    if any("ij" in word for word in words):
        scores["nl"] += _WEIGHTS["dutch_ij"]
    return scores


def detect_language(
    text: str, default: Language = "en", folded: str | None = None
) -> tuple[Language, float]:
    """The language `text` is written in and a confidence in 0..1 (0 when there is no evidence).
    `folded`, when given, is `fold(text)`, which the caller has made already."""
    scores = _evidence(text, folded)
    best = max(scores.values())
    if best == 0:
        return default, 0.0
    leaders = [language for language in LANGUAGES if scores[language] == best]
    chosen = default if default in leaders else leaders[0]
    share = best / sum(scores.values())
    strength = best / (best + 1.0)  # a single weak hint should not look certain
    return chosen, round(share * strength, 3)


# Languages Navod does not read, by words that nearly always mean them (folded) and are not
# Croatian, Dutch or English: a German or Slovenian question is refused, never read as Dutch
# or Croatian.
_FOREIGN: Mapping[str, frozenset[str]] = {
    "de": frozenset(
        """ist und der das nicht ich welche welcher welches fur uber muss mussen sind wird auch
        oder kann konnen ein eine einer einem gilt wieviel wie viel hoch steuer steuern
        mehrwertsteuer umsatzsteuer einkommensteuer rente kroatien niederlanden gibt bitte
        mein meine unsere zahlen betragt""".split()
    ),
    "sl": frozenset(
        """koliksna koliksen koliksno kaksna kaksen kaksno kdaj lahko znasa davek davka davcn
        davcna davcni ddv stopnja dohodnina hrvaskem hrvaska zavezanec prispevki pokojnina
        moji moja kje zakaj""".split()
    ),
    "fr": frozenset(
        """quel quelle quels quelles est les des du pour taux impot impots tva combien dois
        retraite croatie que qui une avec sur dans mon ma mes""".split()
    ),
    "it": frozenset(
        """qual quale il gli della dello degli per aliquota imposta iva quanto quanta devo
        croazia paesi bassi pensione sono che come mio mia nel""".split()
    ),
    "es": frozenset(
        """cual el los las del para tasa impuesto cuanto cuanta debo croacia jubilacion es
        que como mi mis""".split()
    ),
}


def foreign_language(text: str, folded: str | None = None) -> str | None:
    """The language (de, sl, fr, it, es) of a question Navod cannot read, or None: at least
    two of its own words, and more of them than of Croatian, Dutch or English words."""
    words = _WORD.findall((folded if folded is not None else fold(text)).replace("'", " "))
    own = sum(
        1
        for word in set(words)
        if any(word in _QUESTION_WORDS[lang] or word in _FUNCTION_WORDS[lang] for lang in LANGUAGES)
    )
    counts = {code: len(vocabulary & set(words)) for code, vocabulary in _FOREIGN.items()}
    code, hits = max(counts.items(), key=lambda item: item[1])
    return code if hits >= 2 and hits > own else None

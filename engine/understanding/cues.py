"""The asked attribute: what kind of answer the question wants, from its question words.

Cue phrases are folded word sequences per language; the longest phrase at a position wins
("koliko dugo" is a duration, "koliko" alone a magnitude). When several cues are present the
most specific attribute wins (PRECEDENCE), so "when must I take my first RMD" asks a date
rather than a yes/no obligation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from engine.types import Language
from engine.understanding.frame import Attribute
from engine.understanding.words import Word

_CUES: Mapping[Language, Mapping[Attribute, str]] = {
    "hr": {
        "since": "od kada | odkad | otkad | od kad | od kojeg datuma | od koje godine | "
        "od kojeg dana",
        "until": "do kada vrijedi | do kad vrijedi | do koje godine | koliko dugo vrijedi",
        "deadline": "rok | roka | roku | rokovi | rokove | rokova | do kada | do kad | "
        "do kojeg datuma | do kojeg dana | dospijeva | dospijece | dospijeća",
        "date": "kada | kad | koji datum | kojeg datuma | datum | datuma | koje godine | "
        "koji dan | kojeg dana | stupa na snagu | stupio na snagu | stupila na snagu | "
        "stupilo na snagu | stupiti na snagu | stupaju na snagu",
        "age": "dob | dobi | koliko godina moram imati | s koliko godina | sa koliko godina | "
        "u kojoj dobi | s kojom dobi | starosna granica | starosne granice | godina starosti",
        "duration": "koliko dugo | koliko traje | trajanje | trajanja | koliko mjeseci | "
        "koliko unaprijed | koliko ranije | koliko dana | koliko tjedana | koliko godina | "
        "na koliko godina | koliko je godina",
        "rate": "stopa | stope | stopu | stopom | stopi | stopama | postotak | postotka | posto | "
        "postotke | postotcima",
        "amount": "iznos | iznosa | prag | praga | pragu | limit | limita | granica | granice | "
        "granicu | maksimum | maksimalno | maksimalni | najvise | kojeg dohotka | kojeg prometa | "
        "kojeg prihoda | kojih primitaka | koje place | koje osnovice | osnovica | osnovice | "
        "kojeg godisnjeg prihoda | kojeg godisnjeg prometa | kojeg mjesecnog iznosa | "
        "osnovicu | do koliko | pragovi | pragove | pragova | limiti | limite",
        "magnitude": "koliko | koliki | kolika | kolike | koliku | kolko | kolki | kolka | "
        "kolku | kolike su | visina | visinu",
        "obligation": "moram li | moramo li | trebam li | trebamo li | da li moram | jel moram | "
        "je li obavezno | je li obvezno | jesam li obvezan | jesam li obavezan | "
        "jesam li duzan | je li potrebno | mora li | moraju li | treba li | obvezni | obvezan | "
        "obavezan | obavezno | obvezno | duzan | moram | moras | mora | moramo | morate | moraju | "
        "morao | morala | morali | morale | moralo",
        "who": "tko | koga | za koga | kome | koji obveznici | tko sve | koje proizvode | "
        "koji proizvodi | koja dobra | koje usluge | na sto | na koje proizvode",
        "how": "kako | na koji nacin | postupak | procedura | proceduru | "
        # where to find instructions, or what happens when, is a question of how things go,
        # not of a deadline or an amount
        "gdje mogu naci | gdje mogu pronaci | gdje naci | gdje pronaci | sto se dogada | "
        "sto se desava | sto se dogodi | sto biva",
        "why": "zasto | zbog cega",
    },
    "nl": {
        "since": "sinds wanneer | vanaf wanneer | sinds welke datum | vanaf welke datum | "
        "sinds welk jaar | vanaf welk jaar",
        "until": "tot wanneer | tot welke datum | tot welk jaar | hoe lang geldt",
        "deadline": "deadline | uiterlijk | termijn | termijnen | wanneer moet | voor wanneer | "
        "tot wanneer moet | tot wanneer kan | tot wanneer heb | tot wanneer mag | "
        "uiterste datum",
        "date": "wanneer | welke datum | datum | in welk jaar | welke dag | op welke dag",
        "age": "leeftijd | hoe oud | op welke leeftijd | vanaf welke leeftijd | welke leeftijd",
        "duration": "hoe lang | hoelang | duur | periode | hoeveel maanden | hoeveel jaar | "
        "hoe ver van tevoren | hoeveel weken | hoeveel dagen",
        "rate": "tarief | tarieven | percentage | procent",
        "amount": "bedrag | bedragen | drempel | drempels | grens | grenzen | maximum | maximaal | "
        "limiet | plafond | inkomensgrens | inkomensgrenzen | welk inkomen | welke omzet | "
        "welk loon | welke winst | waar eindigt | "
        "tot hoeveel | tot welk bedrag | "
        "eindigt | einde | loopt tot",
        "magnitude": "hoeveel | hoe hoog | hoe veel | hoogte",
        "obligation": "moet ik | moeten wij | moeten we | moet je | ben ik verplicht | "
        "is het verplicht | verplicht | hoef ik | moet mijn",
        "who": "wie | voor wie | welke producten | welke goederen | welke diensten",
        "how": "hoe moet | hoe kan | hoe werkt | hoe doe | hoe vraag | hoe werd | hoe wordt | "
        "waar vind ik | waar kan ik vinden | wat gebeurt | wat gebeurt er | "
        "hoe bereken | hoe berekent | procedure",
        "why": "waarom",
    },
    "en": {
        "since": "since when | from when | from what date | since what date | starting when | "
        "effective from when | from which date | since which year | effective date",
        "until": "until when | till when | how long is | how long does it apply | "
        "until what date | expire | expires",
        "deadline": "deadline | deadlines | due | by when | due date | no later than",
        "date": "when | what date | which date | date | what year | which year | what day | "
        "which day | how early | "
        "how soon | how late",
        "age": "age | ages | how old | what age | which age | at what age",
        "duration": "how long | how many months | how many years | duration | period | "
        "how far in advance | how many weeks | how many days",
        "rate": "rate | rates | percentage | percent | per cent",
        "amount": "amount | amounts | limit | limits | threshold | thresholds | cap | caps | "
        "maximum | max | ceiling | exclusion | exemption | what income | which income | "
        "what turnover | what revenue | what salary | what receipts",
        "magnitude": "how much | how many | how high | how big | what is the size",
        "obligation": "do i have to | do i need to | do we have to | do we need to | "
        "must i | must we | am i required | are we required | is it mandatory | "
        "is it required | is it compulsory | required to | mandatory | obliged | "
        "have to | need to",
        "who": "who | whom | for whom | which goods | which products | which services | "
        "what goods | what products | what items",
        "how": "how do | how can | how to | how should | how does | how is | how was | how are | "
        "where can i find | where do i find | what happens | what happens if | "
        "how were | procedure",
        "why": "why",
    },
}

# Most specific first: a date cue beats the modal of "when must I", a rate beats "how much".
PRECEDENCE: tuple[Attribute, ...] = (
    "since",
    "until",
    "deadline",
    "date",
    "age",
    "duration",
    "rate",
    "amount",
    "magnitude",
    "who",
    "how",
    "why",
    "obligation",
)

# Words that ask for several values: plural nouns and "which are / all".
_PLURAL: Mapping[Language, str] = {
    "hr": "stope | pragovi | pragove | rokovi | rokove | razredi | razrede | "
    "granice | limiti | limite | sve | svi | koje su | koji su | popis | postoje li | ima li",
    "nl": "tarieven | drempels | bedragen | termijnen | schijven | grenzen | kortingen | "
    "limieten | vrijstellingen | "
    "welke zijn | wat zijn | alle | lijst | zijn er | overzicht",
    "en": "rates | thresholds | amounts | limits | deadlines | brackets | ages | credits | "
    "exclusions | which are | what are | all | list | are there | overview",
}


_TAX_WORDS = frozenset({"tax", "taxes", "belasting", "porez", "poreza", "porezu"})

# Compounds that end in a plural noun ask for several values too; the word stays the subject.
_PLURAL_ENDINGS: Mapping[Language, tuple[str, ...]] = {
    "hr": (),
    "nl": ("grenzen", "tarieven", "drempels", "bedragen", "limieten", "kortingen", "termijnen"),
    "en": (),
}

# Question words: a cue right after one is what is asked ("tot welk bedrag geldt het lage
# tarief" asks an amount; "tarief" there only names the subject).
_WH: Mapping[Language, frozenset[str]] = {
    "hr": frozenset("koji koja koje kojeg kojem kojoj koju kojim koliko koliki kolika kolike "
                    "koliku kada kad".split()),
    "nl": frozenset("welk welke hoeveel hoe wat wanneer".split()),
    "en": frozenset("what which how when".split()),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Asked:
    attribute: Attribute
    plural: bool
    words: tuple[Word, ...]  # the words of the cues found
    attributes: frozenset[Attribute] = frozenset()  # every attribute asked, the main one too
    asked: frozenset[Attribute] = frozenset()  # those a question word asks ("tot welk bedrag")


def read_attribute(words: tuple[Word, ...], language: Language) -> Asked:
    """The attribute a question asks for, whether it wants several values, and the cue words."""
    cues, longest = _phrases(language)
    found: set[str] = set()
    asked: set[str] = set()
    cue_words: list[Word] = []
    texts = [w.text for w in words]
    position = 0
    while position < len(words):
        size, labels = _longest_at(texts, position, cues, longest)
        if not labels:
            position += 1
            continue
        after = texts[position + size] if position + size < len(texts) else ""
        if after in _TAX_WORDS and labels & {"amount", "magnitude"}:
            position += 1  # "what income tax rate": "income" names the tax, asks no amount
            continue
        if _specifies(words, position, language):  # "factors for ages 72-75": which rows
            cue_words.extend(words[position : position + size])
            position += size
            continue
        found |= labels
        if size > 1 or texts[position] in _WH[language] or _after_wh(texts, position, language):
            asked |= labels
        cue_words.extend(words[position : position + size])
        position += size
    if "plural" not in found and any(w.text.endswith(_PLURAL_ENDINGS[language]) for w in words):
        found.add("plural")  # "schijfgrenzen": a compound whose last part is plural
    first = asked & set(PRECEDENCE) or found
    attribute: Attribute = next((a for a in PRECEDENCE if a in first), "any")
    every = frozenset(a for a in PRECEDENCE if a in found) or frozenset({attribute})
    questioned = frozenset(a for a in PRECEDENCE if a in asked)
    return Asked(attribute, "plural" in found, tuple(cue_words), every, questioned)


# A cue right after one of these specifies rows rather than asking ("for ages", "po stopi"),
# or, after a possessive, refers to the asker's own situation ("catch-up for someone my age",
# "zbog moje dobi", "op mijn leeftijd"): what is asked is elsewhere.
_SPECIFIER: Mapping[Language, frozenset[str]] = {
    "hr": frozenset(
        "po za sa s na iznad ispod moje mojoj moju moja mog mojih svoje svojoj svoju".split()
    ),
    "nl": frozenset("voor bij per tegen boven onder mijn onze ons".split()),
    "en": frozenset("for at per by above over below under beyond my our his her their".split()),
}
_ARTICLES = frozenset({"the", "a", "an", "de", "het", "een"})


def _specifies(words: tuple[Word, ...], position: int, language: Language) -> bool:
    """The cue follows a specifier word directly, or across an article ("the rate above the
    exemption"), and not across words a fact took away."""
    chain = [words[position]]
    if chain[0].text in _WH[language]:  # "at what income": a question word asks
        return False
    back = position - 1
    if back > 0 and words[back].text in _ARTICLES:
        chain.append(words[back])
        back -= 1
    if back < 0 or words[back].text not in _SPECIFIER[language]:
        return False
    chain.append(words[back])
    return all(later.start - earlier.end <= 2 for later, earlier in pairwise(chain))


def _after_wh(texts: list[str], position: int, language: Language) -> bool:
    return any(t in _WH[language] for t in texts[max(0, position - 2) : position])


def _longest_at(
    texts: list[str], position: int, cues: Mapping[tuple[str, ...], frozenset[str]], longest: int
) -> tuple[int, frozenset[str]]:
    for size in range(min(longest, len(texts) - position), 0, -1):
        labels = cues.get(tuple(texts[position : position + size]))
        if labels is not None:
            return size, labels
    return 0, frozenset()


@cache
def _phrases(language: Language) -> tuple[dict[tuple[str, ...], frozenset[str]], int]:
    """Cue phrase (folded words) -> its labels (attributes, and "plural"); the longest size."""
    table: dict[tuple[str, ...], set[str]] = {}
    rows = [("plural", _PLURAL[language]), *_CUES[language].items()]
    for label, phrases in rows:
        for phrase in phrases.split("|"):
            if phrase.strip():
                table.setdefault(tuple(phrase.split()), set()).add(label)
    return {k: frozenset(v) for k, v in table.items()}, max(len(phrase) for phrase in table)

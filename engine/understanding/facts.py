"""Facts the asker states about themselves: age, birth year or date, amounts with their role
(turnover, receipts, revenue, income, profit) and period, pension pillar and municipality.

Each fact keeps the span it came from, so its words (and its numbers) are accounted for and a
birth date or a "last year" that belongs to a turnover never becomes the as-of date. Patterns
run once over the folded text; every one is anchored so that it stays linear in its length.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from itertools import islice

from engine.bounds import usable
from engine.text.dates import MONTH_NUMBERS, find_dates
from engine.text.numbers import dot_groups_thousands, parse_number
from engine.text.quantities import MAX_NUMBERS, currency_code
from engine.types import Language
from engine.understanding.claims import Claim, find_claims, overlaps_claim
from engine.understanding.frame import Fact, FactName, Quantity
from engine.understanding.words import Word

Span = tuple[int, int]

_AGE = re.compile(
    r"\b(?:i'?m|i am|im|i was|we are|we're|he is|she is|he was|she was|"
    r"(?:father|mother|dad|mom|mum|parent|client) (?:is|was)|age is|aged?|"
    r"ik was|hij is|zij is|hij was|zij was|both|allebei|"
    r"oboje|obojica|"
    r"age of|turning|turn|turned|will be|i'll be|hit|hits|reach|reached|reaching|"
    r"(?:retired|retire|retiring|stopped working) at|"
    r"ik ben|ik word|ben ik|wordt|leeftijd van|"
    r"leeftijd|navrsio sam|navrsila sam|navrsavam|navrsit cu|imam|ima|imamo|s|sa)"
    r"\s+(?P<age>\d{2,3})(?!\d|[.,]\d)(?!\s*(?:%|posto|percent|procent|eur|euro|usd|kn|k\b|000|"
    r"tisuc|duizend|thousand|dolar|dollar|\$|€))(?:\s*(?:years?|yrs?|jaar|godin[aeu]?))?"
    r"(?:\s*(?:old|oud|starosti|star[a-z]*|zivota))?"
    r"|(?P<age2>\d{2,3})\s*-?\s*(?:years?[ -]old|yrs? old|y/?o\b|jaar oud|-?jarige\b|"
    r"godisnja[kc]\w*|godisnj\w*|godina star\w*|godine star\w*)"
)
_BIRTH = re.compile(
    r"\b(?:born|birth ?year|year of birth|date of birth|dob|b\.|rodjen\w*|roden\w*|godiste|"
    r"godista|geboren|geboortejaar|geboortedatum)\b"
)
_YEAR_AFTER_BIRTH = re.compile(r"[^\d]{0,24}?(?<!\d)((?:19|20)\d\d)(?!\d)\.?")
# "1955. godište", "die in 1944 geboren is", "ik ben van 1960", "class of 1958"
_YEAR_BEFORE_GODISTE = re.compile(
    r"(?<!\d)((?:19|20)\d\d)\.?\s*(?:godiste|godista|geboren|born|rodjen\w*|roden\w*)\b"
    r"|\b(?:ik ben|is|was) van ((?:19|20)\d\d)\b|\bja sam iz ((?:19|20)\d\d)\.?"
)
_NUMBER = re.compile(
    # not the exponent of "1e30"
    r"(?<![\d.,])(?<!\de)"
    r"(?:\d{1,3}(?:(?P<g>[., ])\d{3})(?:(?P=g)\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)?)"
    r"(?![\d])"
)
_MULTIPLIER = re.compile(
    r"\s?(?P<m>k|tis\.?|tisuc\w*|hiljad\w*|duizend|thousand|grand|mil\.?|milijun\w*|"
    r"miljoen\w*|millions?|mln)(?![a-z])"
)
_CURRENCY_AFTER = re.compile(
    r"\s?(?P<c>€|\$|eur\w*|usd|dollars?|dolar\w*|kun[ae]?|kn|hrk)(?![a-z])"
)
_CURRENCY_BEFORE = re.compile(r"(?P<c>€|\$|eur|usd|hrk|kn)\.?\s?$")
_PERCENT_AFTER = re.compile(r"\s?(?:%|posto|postot|percent|procent)")
_PERCENT = re.compile(r"(?<![\d.,])\d+(?:[.,]\d+)?\s?(?:%|posto\b|postot\w*|percent\b|procent\b)")
_SCALE = {"k": 1_000, "t": 1_000, "h": 1_000, "d": 1_000, "g": 1_000, "m": 1_000_000}
_PERIOD = re.compile(
    r"(?P<year>godisnj\w*|godisnje|na godinu|po godini|u godini|yearly|annual\w*|per year|a year|"
    r"per jaar|jaarlijks|op jaarbasis|per annum)|(?P<month>mjesecn\w*|na mjesec|po mjesecu|"
    r"monthly|per month|a month|per maand|maandelijks)"
)
# Words naming what an amount is; stems, matched at a word's start.
_ROLES: tuple[tuple[FactName, tuple[str, ...]], ...] = (
    ("receipts", ("primit", "primic", "primanj", "ontvangst", "receipt", "takings")),
    ("turnover", ("promet", "omzet", "turnover", "sales", "verkop", "fakturir", "gefactureerd")),
    ("revenue", ("prihod", "revenue", "opbrengst", "inkomst")),
    ("profit", ("dobit", "winst", "profit")),
    ("home_value", ("woz", "woningwaarde", "huiswaarde")),
    ("income", ("dohod", "plac", "zarad", "income", "inkomen", "salaris", "loon", "salary",
                "wage", "earn", "verdien", "zaradi", "mirovin", "pension")),
)  # fmt: skip
_ROLE_REACH_BEFORE, _ROLE_REACH_AFTER = 6, 3
_ROLE_STEMS = tuple(stem for _, stems in _ROLES for stem in stems)


def is_role_word(text: str) -> bool:
    """Whether a folded word names what an amount is ("promet", "omzet", "income")."""
    return text.startswith(_ROLE_STEMS)


_CLAUSE_END = re.compile(r"[,;:!?]|\.\s")  # a role word beyond one names another amount
# Said to be over the amount: "prijeći ću 60 tisuća", "more than $7,000", "meer dan 20.000".
_OVER = re.compile(
    r"\b(?:prijec\w*|prijeci|preci|predem|prijedem|preko|vise od|iznad|exceed\w*|over|above|"
    r"more than|meer dan|boven|overschrijd\w*|ruim)\b(?:\s+\S+){0,2}\s*$"
)
_OVER_VERB = re.compile(r"prijec|prijeci|preci|predem|prijedem|exceed|overschrijd")
_LAST_YEAR = re.compile(
    r"\b(?:prosle|prosloj|prethodne|prethodnoj) godin\w*|\blani\b|\blast year\b|"
    r"\bprevious year\b|\bvorig(?:e)? jaar\b|\bafgelopen jaar\b"
)
# Membership, not a question about the pillar: "u drugom stupu", "član obveznog mirovinskog
# fonda", "in the second pillar", "in de tweede pijler" (not "koliko ide u drugi stup").
_PILLAR_YES = re.compile(
    r"\bu\s+(?:drugom|drugi)\s+(?:sam\s+|smo\s+|je\s+)?(?:mirovinskom\s+)?stupu\b|"
    r"\bclan\w*\s+(?:sam\s+)?(?:i\s+)?"
    r"(?:obveznog\s+mirovinskog\s+fonda|drugog\s+(?:mirovinskog\s+)?stupa)"
    r"(?:\s*\(\s*drugi\s+stup\s*\))?|"
    r"\bin (?:the )?second(?:[- ]pension)? pillar|\bsecond[- ]pillar member|"
    r"\bmember of (?:the |a )?(?:mandatory )?(?:second|2nd) (?:pension )?pillar|"
    r"\b(?:pay|contribute|paying|contributing) (?:in)?to (?:the )?(?:second|2nd) pillar|"
    r"\bimam drugi stup|\buplacujem u drugi stup|"
    r"\bin de tweede pijler|\bdeelnemer (?:aan|in) de tweede pijler|"
    r"\blid van de tweede pijler"
)
_PILLAR_NO = re.compile(
    r"\b(?:nisam|nije|nismo|bez)\s+(?:u\s+)?(?:drugom|drugog|drugi)\s*(?:mirovinskom\s+)?stup\w*|"
    r"\bsamo\s+(?:u\s+)?(?:prvom|prvi)\s*(?:mirovinskom\s+)?stup\w*|"
    r"\bonly (?:in )?(?:the )?first(?:[- ]pension)? pillar|"
    r"\bnot in (?:the )?(?:second|2nd)(?:[- ]pension)? pillar|"
    r"\bnot (?:a )?member of (?:the |a )?(?:second|2nd) (?:pension )?pillar|"
    r"\bno second pillar|\bnemam drugi stup|\bnisam clan\w* drugog stupa|"
    r"\bniet in de tweede pijler|\balleen (?:in )?de eerste pijler|\bgeen tweede pijler"
)
# Outside or inside the VAT system, told as the asker's status: "nisam u PDV-u", "nije u
# sustavu PDV-a", "sam izvan sustava PDV-a", "niet btw-plichtig", "not VAT-registered" (not
# "eRačun izvan sustava PDV-a" or "oni koji nisu u PDV-u", which name the rule's group).
_VAT_NO = re.compile(
    r"\b(?:nisam|nije|nismo)\s+(?:u\s+)?(?:sustav\w*\s+)?pdv\w*|"
    r"\b(?:sam|smo|je|su)\s+(?:izvan|van)\s+sustava\s+pdv\w*|"
    r"\bnisam\s+(?:obveznik|obveznica)\s+pdv\w*|"
    r"\bniet\s+btw[- ]?plichtig\w*|\bnot\s+(?:registered\s+for\s+vat|vat[- ]registered)"
)
_VAT_YES = re.compile(
    r"\b(?:u\s+sustavu\s+pdv\w*|(?:sam|smo)\s+(?:u\s+)?(?:sustavu\s+)?pdv\w*\s+obveznik\w*)|"
    r"\bben\s+(?:ik\s+)?btw[- ]?plichtig|\b(?:i am|i'm|we are)\s+vat[- ]registered"
)
# A (fiscal) partner the asker has, or says they have not: it doubles box 3 allowances.
# A spouse who died or left is no partner: "sinds mijn man is overleden" says single. The
# "alleenstaande-ouderenkorting" is a name, not the asker's status.
_PARTNER_NO = re.compile(
    r"\b(?:geen|zonder) (?:fiscale |fiscaal )?partner\b|\balleenstaand\w*+(?![- ]?ouderen)|"
    r"\b(?:no|without a?) (?:tax |fiscal )?partner\b|\bsingle filer\b|"
    r"\bweduw\w*|\boverleden\b|\bgescheiden\b|\bwidow\w*|\bpassed away\b|\bdivorced\b|"
    r"\budovic\w*|\budovac\w*|\bpreminu\w*|\brazveden\w*"
)
_PARTNER_YES = re.compile(
    r"\bfiscale? partners?\b|\bfiscaal partners?\b|\btoeslagpartner\w*|"
    r"\b(?:mijn|m'n|onze?) (?:fiscale )?(?:partner|vrouw|man|echtgeno\w*)\b|"
    r"\bwe zijn (?:fiscale |fiscaal )?partners\b|\b(?:getrouwd|gehuwd|samenwonend)\b|"
    r"\b(?:my|our) (?:tax |fiscal )?(?:partner|wife|husband|spouse)\b|\bmarried\b|"
    r"\b(?:supruga|suprug|supruznik\w*|bracn\w* drug\w*)\b|\b(?:moj muz|moja zena)\b"
)
# Hours a partner works in the business ("mijn vrouw werkt 900 uur per jaar mee").
_HOURS = re.compile(r"(?<![\d.,])(\d{2,4})\s?(?:uur|uren|hours|sati)\b")
_PARTNER_WORD = re.compile(
    r"\b(?:partner|vrouw|echtgeno\w*|meewerk\w*|werkt\w* mee|wife|husband|spouse|supruga|suprug)"
)
# How often the asker already used a deduction: "al één keer gebruikt", "used it twice".
_TIMES = {"een": 1, "één": 1, "eenmaal": 1, "twee": 2, "tweemaal": 2, "drie": 3, "once": 1,
          "twice": 2, "jednom": 1, "dvaput": 2, "dvaputa": 2, "triput": 3}  # fmt: skip
_PRIOR_USES = re.compile(
    r"\b(?:al |already |vec )?(?P<n>(?:een|eenmaal|twee|tweemaal|drie|[1-3])(?: keer| maal)?|"
    r"once|twice|[1-3] times|jednom|dvaput[a]?|triput|[1-3] puta)\s+"
    r"(?:eerder |before |prije )?(?P<verb>gebruikt|toegepast|benut|gehad|used|claimed|taken|"
    r"koristio|koristila|iskoristio|iskoristila)\b"
    r"|\b(?:used|claimed|taken|took) (?:it |that |the deduction )?(?P<n2>once|twice|[1-3] times)\b"
)
_ZAGREB = re.compile(r"\b(?:grad\w* )?zagreb\w*")
_OPCINA = re.compile(r"\bopcin\w*|\bmunicipalit\w*|\bgemeente\b")
_CITIES = (
    "split", "rijeka", "osijek", "zadar", "pula", "slavonski brod", "karlovac", "varazdin",
    "sibenik", "sisak", "dubrovnik", "velika gorica", "koprivnica", "bjelovar", "vukovar",
    "cakovec", "pozega", "samobor", "virovitica", "vinkovci", "makarska", "porec", "rovinj",
)  # fmt: skip
_CITY = re.compile(r"\b(?:u|in|grad|gradu)\s+(" + "|".join(_CITIES) + r")\w*\b")
_ENTITY = (
    ("pausalni_obrt", re.compile(r"\bpausal\w*|\bflat[- ]rate (?:tax|obrt|business|craft)")),
    ("doo", re.compile(r"\bj?\.?d\. ?o\. ?o\.?|\bj?doo\b")),
    ("obrt", re.compile(r"\bobrt\w*")),
    ("freelancer", re.compile(r"\bzzp\w*|\bfreelanc\w*|\beenmanszaak|\bself[- ]employed|"
                              r"\bsole (?:proprietor|trader)\w*")),
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class StatedFacts:
    facts: tuple[Fact, ...]
    spans: tuple[Span, ...]  # where they were written: not dates, not unexplained numbers
    amounts: tuple[Fact, ...]  # amounts with a currency but no role ("ako imam 45.000 eura")
    percentages: tuple[Quantity, ...]  # percentages ("25 %"): a value asked about
    # Where a status was stated ("niet in de tweede pijler", "nisam u PDV-u"): its words say
    # what the asker is, and name no fact to answer ("tweede pijler" is not the pillar asked)
    status_spans: tuple[Span, ...] = ()
    # Numbers stated as facts but outside their domain (engine/bounds.py): "18446744073709551616
    # eura prometa" is kept as written and used as no fact
    unusable: tuple[Fact, ...] = ()
    claims: tuple[Claim, ...] = ()  # what the asker says a rule states (claims.py)


_STATUS: frozenset[str] = frozenset({"pension_second_pillar", "vat_registered"})


def read_facts(
    folded: str, words: tuple[Word, ...], language: Language, today: date | None = None
) -> StatedFacts:
    text = folded.replace("’", "'")
    digits = any(w.text[0].isdigit() for w in words)  # years, ages, amounts need one
    facts: list[Fact] = []
    spans: list[Span] = []
    planned = _retirement(text, today) if today is not None else []
    numbered = (*planned, *_births(text, language), *_ages(text)) if digits else tuple(planned)
    status: list[Span] = []
    extra = (*(_savings(text, language) if digits else ()), *_plans(text))
    for found, span in (*numbered, *_others(text), *extra):
        facts.append(found)
        spans.append(span)
        if found.name in _STATUS:
            status.append(span)
    roled, loose, amount_spans = _amounts(text, words, language, spans) if digits else ([], [], [])
    for value, span in _millions(text, [*spans, *amount_spans]):
        role = _role(text, words, [w.start for w in words], *span)
        if role is not None:  # "s prihodom manjim od milijun eura": the role word is the fact's
            amount_spans.append((role[1].start, role[1].end))
        currency = _CURRENCY_AFTER.match(text, span[1])
        unit = currency_code(currency.group("c")) if currency else ""
        million = Fact(role[0] if role else "amount", value, text[span[0] : span[1]], unit)
        (roled if role else loose).append(million)
        amount_spans.append(span)
    entity = _entity(text)
    if entity is not None:
        facts.append(entity)
    percents = [
        m
        for m in islice(_PERCENT.finditer(text), MAX_NUMBERS if digits else 0)
        if not any(a <= m.start() < b for a, b in spans)
    ]
    claims = find_claims(text, language) if digits else ()
    if claims:  # what a rule is said to state is no fact about the asker
        facts, roled, loose = (_outside(text, claims, group) for group in (facts, roled, loose))
    stated = [*facts, *roled, *loose]
    return StatedFacts(
        tuple(f for f in facts + roled if usable(f.name, f.value)),
        tuple(spans + amount_spans + [m.span() for m in percents] + [c.span for c in claims]),
        tuple(f for f in loose if usable(f.name, f.value)),
        tuple(Quantity(m.group(), _percent_value(m.group(), language)) for m in percents),
        tuple(status),
        tuple(f for f in stated if not usable(f.name, f.value)),
        claims,
    )


def _outside(text: str, claims: tuple[Claim, ...], facts: list[Fact]) -> list[Fact]:
    kept = []
    for fact in facts:
        start = text.find(fact.words)
        if start < 0 or not overlaps_claim(claims, start, start + len(fact.words)):
            kept.append(fact)
    return kept


def _births(text: str, language: Language) -> list[tuple[Fact, Span]]:
    found: list[tuple[Fact, Span]] = []
    dates = find_dates(text, language)[:MAX_NUMBERS]
    for cue in islice(_BIRTH.finditer(text), MAX_NUMBERS):
        after = next((d for d in dates if 0 <= d.start - cue.end() <= 24), None)
        if after is not None:
            words = text[cue.start() : after.end]
            span = (cue.start(), after.end)
            found.append((Fact("birth_date", after.value, words), span))
            found.append((Fact("birth_year", after.value.year, words), span))
            return found
        year = _YEAR_AFTER_BIRTH.match(text, cue.end())
        if year is not None:
            span = (cue.start(), year.end())
            found.append((Fact("birth_year", int(year.group(1)), text[span[0] : span[1]]), span))
            return found
    year = _YEAR_BEFORE_GODISTE.search(text)
    if year is not None:
        span = (year.start(), year.end())
        value = int(next(group for group in year.groups() if group))
        found.append((Fact("birth_year", value, text[span[0] : span[1]]), span))
    return found


# When the asker plans to stop working: a goal, not the date asked about ("we want to retire
# next May", "ik stop in 2028 met werken", "u mirovinu idem 2027.").
_MONTHS = "|".join(sorted(MONTH_NUMBERS, key=len, reverse=True))
_WHEN = (
    r"(?:(?P<next>next|volgend\w*|sljedec\w*|iduc\w*) )?(?P<month>" + _MONTHS + r")\b\.?"
    r"(?:\s*(?P<year>(?:19|20)\d\d))?|(?P<year2>(?:19|20)\d\d)\b|"
    r"(?P<nextyear>next year|volgend jaar|sljedece godine|iduce godine)"
)
_RETIRING = (
    r"(?:retire|retiring|stop working|met pensioen|stoppen met werken|stop met werken|"
    r"u mirovinu|umirovljenj\w*)"
)
_RETIRE = re.compile(
    r"\b" + _RETIRING + r"\b[^.?!\d]{0,24}?\b(?:" + _WHEN + r")|"
    r"\b(?:in |u |per )?(?:" + _WHEN.replace("?P<", "?P<b_") + r")[^.?!\d]{0,16}?\b" + _RETIRING
)


def _retirement(text: str, today: date) -> list[tuple[Fact, Span]]:
    """The month (YYYY-MM) or year (YYYY) the asker plans to retire, when stated."""
    for match in islice(_RETIRE.finditer(text), MAX_NUMBERS):
        part = {k.removeprefix("b_"): v for k, v in match.groupdict().items() if v}
        month = MONTH_NUMBERS.get(part.get("month", ""))
        written = part.get("year") or part.get("year2")
        year = int(written) if written else None
        if year is None and (part.get("nextyear") or (month and part.get("next"))):
            year = today.year + 1
        if year is None and month is not None:
            year = today.year if month > today.month else today.year + 1
        if year is None:
            continue
        value = f"{year:04d}-{month:02d}" if month else f"{year:04d}"
        return [(Fact("retirement_date", value, match.group()), match.span())]
    return []


# Retirement savings by kind: "$500k in my IRA", "300.000 dollar op mijn 401(k)".
_ASSET = re.compile(
    r"(?P<amount>\$\s?\d[\d,.]*+\s?(?:k|m|million|thousand)?|(?<![\d.,])\d[\d,.]*+\s?(?:k|m|million|"
    r"thousand)?\s?(?:dollars?|dolara|dolar|usd|\$))\s+(?:saved\s+)?(?:in|on|op|u|na)\s+(?:my|our|"
    r"mijn|onze|mom|moj|mojem|mojoj)?\s*(?P<kind>ira|iras|401k|401\(k\)|403b|savings|spaargeld)"
    r"(?!\w)"
)
_ASSET_FIELDS: dict[str, FactName] = {"ira": "assets_ira_usd", "iras": "assets_ira_usd",
                 "401k": "assets_401k_usd",
                 "401(k)": "assets_401k_usd", "403b": "assets_401k_usd", "savings": "savings_usd",
                 "spaargeld": "savings_usd"}  # fmt: skip
# Health coverage, and whether the asker is on Medicare already.
_COVERAGE = (
    (
        "medicare",
        re.compile(
            r"\b(?:(?:i'?m|i am|we are|we're|already) (?:on|enrolled in|in) medicare|"
            r"(?:ik zit|wij zitten|we zitten) (?:al )?in medicare|ik heb (?:al )?medicare|"
            r"(?:vec )?sam (?:vec )?(?:na|u) medicare\w*|imam medicare)\b"
        ),
    ),
    (
        "employer",
        re.compile(
            r"\b(?:health (?:insurance|coverage|plan) (?:through|from|via) "
            r"(?:my|our) (?:employer|job|work)|employer(?:'s)? health (?:plan|"
            r"insurance|coverage)|zorgverzekering via (?:mijn|de) werkgever|"
            r"osiguranj\w*(?: \w+)? (?:preko|kod|od) poslodavc\w*)\b"
        ),
    ),
    ("marketplace", re.compile(r"\b(?:aca|obamacare|marketplace) (?:plan|insurance|coverage)\b")),
    ("none", re.compile(r"\b(?:no|without) health (?:insurance|coverage)\b")),
)
# Where the asker lives or plans to live, and what they plan for their home.
_HOUSING = (
    (
        "move",
        re.compile(
            r"\b(?:(?:plan|want|going|hope|thinking) to (?:move|relocate)|"
            r"(?:willen|gaan|wil|ga) (?:\w+ )?verhuizen|preseli\w*|selimo)\b"
        ),
    ),
    ("downsize", re.compile(r"\b(?:downsiz\w*|kleiner (?:gaan )?wonen|manj\w* (?:stan|kuc\w*))\b")),
    (
        "stay",
        re.compile(
            r"\b(?:stay in (?:our|my) (?:home|house)|age in place|blijven wonen|"
            r"ostati u (?:svojoj|nasoj|mojoj) kuci)\b"
        ),
    ),
)


def _savings(text: str, language: Language) -> list[tuple[Fact, Span]]:
    """Savings by kind, each amount read as every amount is (`parse_number`, `_MULTIPLIER`)."""
    found: list[tuple[Fact, Span]] = []
    for match in islice(_ASSET.finditer(text), MAX_NUMBERS):
        number = _NUMBER.search(match.group("amount"))
        if number is None:
            continue
        value = parse_number(number.group(), dot_groups_thousands(language))
        multiplier = _MULTIPLIER.match(match.group("amount"), number.end())
        if multiplier is not None:
            value *= _SCALE[multiplier.group("m")[0]]
        name = _ASSET_FIELDS[match.group("kind")]
        found.append((Fact(name, value, match.group(), unit="USD"), match.span()))
    return found


def _plans(text: str) -> list[tuple[Fact, Span]]:
    found: list[tuple[Fact, Span]] = []
    for value, pattern in _COVERAGE:
        match = pattern.search(text)
        if match is not None:
            found.append((Fact("health_coverage", value, match.group()), match.span()))
            if value == "medicare":
                found.append((Fact("medicare_enrolled", True, match.group()), match.span()))
            break
    for value, pattern in _HOUSING:
        match = pattern.search(text)
        if match is not None:
            found.append((Fact("housing_plan", value, match.group()), match.span()))
            break
    state = _US_STATE.search(text)
    if state is not None and _LIVES.search(text[max(0, state.start() - 30) : state.start()]):
        name = _STATE_STEMS[state.group(1)]
        found.append((Fact("state_of_residence", name, state.group()), state.span()))
    return found


_ONE_WORD_STATES = """alabama alaska arizona arkansas california colorado connecticut delaware
florida georgia hawaii idaho illinois indiana iowa kansas kentucky louisiana maine maryland
massachusetts michigan minnesota mississippi missouri montana nebraska nevada ohio oklahoma oregon
pennsylvania tennessee texas utah vermont virginia washington wisconsin wyoming"""
US_STATES = (
    *_ONE_WORD_STATES.split(),
    *("new hampshire", "new jersey", "new mexico", "new york", "north carolina", "north dakota"),
    *("rhode island", "south carolina", "south dakota", "west virginia"),
)
# A state's name, also in a Croatian case ("u Floridi", "u Texasu", "na Havajima" aside).
_STATE_STEMS = {name[:-1] if name.endswith("a") else name: name for name in US_STATES}
_US_STATE = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, _STATE_STEMS), key=len, reverse=True)) + r")"
    r"(?:a|i|u|e|om)?\b"
)
_LIVES = re.compile(
    r"\b(?:live|living|reside|based|move|moving|relocate|relocating|wonen|woon|woont|"
    r"verhuizen|zivim|zivimo|zivi|preseliti|preselimo|selimo)\b[^.?!]*$"
)


# A spouse's age is the spouse's, not the asker's: "I'm 64 and my wife is 58".
_SPOUSE_AGE = re.compile(
    r"\b(?:my|our) (?:wife|husband|spouse|partner)(?:'s age)? (?:is|turns|will be) (\d{2,3})\b|"
    r"\b(?:mijn|m'n) (?:vrouw|man|echtgeno\w*|partner) is (\d{2,3})\b|"
    r"\b(?:supruga|suprug|zena|muz) (?:mi )?ima (\d{2,3})\b"
)


def _ages(text: str) -> list[tuple[Fact, Span]]:
    found: list[tuple[Fact, Span]] = []
    spouse = _SPOUSE_AGE.search(text)
    taken = spouse.span() if spouse is not None else (0, 0)
    if spouse is not None:
        value = int(next(group for group in spouse.groups() if group))
        if 14 <= value <= 120:
            found.append((Fact("spouse_age", value, spouse.group()), spouse.span()))
    for match in islice(_AGE.finditer(text), MAX_NUMBERS):
        if taken[0] <= match.start() < taken[1]:
            continue
        value = int(match.group("age") or match.group("age2"))
        if 14 <= value <= 120:
            span = (match.start(), match.end())
            return [*found, (Fact("age", value, text[span[0] : span[1]]), span)]
    return found


def _others(text: str) -> list[tuple[Fact, Span]]:
    found: list[tuple[Fact, Span]] = []
    no, yes = _PILLAR_NO.search(text), _PILLAR_YES.search(text)
    if no is not None or yes is not None:
        match = no or yes
        assert match is not None
        found.append(
            (Fact("pension_second_pillar", no is None, match.group()), (match.start(), match.end()))
        )
    vat_no, vat_yes = _VAT_NO.search(text), _VAT_YES.search(text)
    if vat_no is not None or vat_yes is not None:
        status = vat_no or vat_yes
        assert status is not None
        found.append((Fact("vat_registered", vat_no is None, status.group()), status.span()))
    found += _household(text)
    zagreb, opcina, city = _affirmed(_ZAGREB, text), _OPCINA.search(text), _CITY.search(text)
    if zagreb is not None:
        found.append((Fact("municipality_type", "grad_zagreb", zagreb.group()), zagreb.span()))
    elif opcina is not None:
        found.append((Fact("municipality_type", "opcina", opcina.group()), opcina.span()))
    elif city is not None:
        found.append((Fact("municipality_type", "grad", city.group()), city.span()))
        found.append((Fact("city", city.group(1), city.group()), city.span()))
    return found


def _household(text: str) -> list[tuple[Fact, Span]]:
    """A (fiscal) partner, the partner's hours in the business, and how often the asker
    already used a deduction: facts Dutch rules' rows are decided by."""
    found: list[tuple[Fact, Span]] = []
    partner_no, partner_yes = _PARTNER_NO.search(text), _PARTNER_YES.search(text)
    partner = partner_no or partner_yes
    if partner is not None:
        found.append((Fact("partner", partner_no is None, partner.group()), partner.span()))
    hours = _HOURS.search(text)
    if hours is not None and _PARTNER_WORD.search(text):
        found.append((Fact("partner_hours", int(hours.group(1)), hours.group()), hours.span()))
    uses = _PRIOR_USES.search(text)
    if uses is not None:
        times = (uses.group("n") or uses.group("n2") or "").split()[0]
        count = int(times) if times.isdigit() else _TIMES.get(times, 0)
        if count:
            found.append((Fact("prior_uses", count, uses.group()), uses.span()))
    return found


# "u općinama (ne Zagreb)", "outside Zagreb": the place is excluded, not the asker's
_EXCLUDED = re.compile(r"\b(?:ne|not|niet|osim|except|excluding|buiten|izvan|outside)\W*$")


def _affirmed(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The first match of `pattern` that the words just before it do not exclude."""
    for match in pattern.finditer(text):
        if not _EXCLUDED.search(text, max(0, match.start() - 12), match.start()):
            return match
    return None


def _entity(text: str) -> Fact | None:
    """The kind of business the asker names. Its words stay to be read as a party qualifier:
    a question about paušalisti is not answered by the general income-tax rates."""
    for value, pattern in _ENTITY:
        entity = pattern.search(text)
        if entity is not None:
            return Fact("entity_type", value, entity.group())
    return None


def _amounts(
    text: str, words: tuple[Word, ...], language: Language, taken: list[Span]
) -> tuple[list[Fact], list[Fact], list[Span]]:
    """Amounts of money with the role the words around them give, and the spans they cover."""
    roled: list[Fact] = []
    loose: list[Fact] = []
    spans: list[Span] = []
    starts = [w.start for w in words]
    for number in islice(_NUMBER.finditer(text), MAX_NUMBERS):
        start, end = number.span()
        if any(a <= start < b for a, b in taken) or _PERCENT_AFTER.match(text, end):
            continue
        value = parse_number(number.group(), dot_groups_thousands(language))
        multiplier = _MULTIPLIER.match(text, end)
        if multiplier is not None:
            value *= _SCALE[multiplier.group("m")[0]]
            end = multiplier.end()
        after = _CURRENCY_AFTER.match(text, end)
        before = _CURRENCY_BEFORE.search(text[max(0, start - 6) : start])
        marker = after or before
        currency = currency_code(marker.group("c")) if marker is not None else ""
        if after is not None:
            end = after.end()
        if before is not None:
            start -= len(text[max(0, start - 6) : start]) - before.start()
        if not currency and multiplier is None and value < 1000:
            continue  # a small bare number: a year of age, a day, an article, not money
        found = _role(text, words, starts, start, end)
        if multiplier is None and _looks_like_a_year(number.group()) and not (currency and found):
            continue  # a year ("porez na dobit 2020.", "prag 2018 kuna"), not an amount
        role = found[0] if found is not None else None
        if found is not None:  # the role word is part of the fact
            spans.append((found[1].start, found[1].end))
        period = _PERIOD.search(text, end, min(len(text), end + 24)) or _PERIOD.search(
            text, max(0, start - 24), start
        )  # "75.000 eur godišnje", "godišnji dohodak od 40.000"
        period_name = "" if period is None else ("year" if period.group("year") else "month")
        if period is not None:  # "75.000 eur godišnje": the period belongs to the amount
            spans.append(period.span())
        when = _LAST_YEAR.search(text, max(0, start - 32), min(len(text), end + 24))
        if role is not None and when is not None:  # "turnover last year was 52k": the fact's year
            period_name = "last_year"
            spans.append(when.span())
        if role is None and not currency:
            continue
        over = _OVER.search(text, max(0, start - 24), start)
        bound = "" if over is None else "above"
        if over is not None and _OVER_VERB.match(over.group()):
            spans.append((over.start(), start))  # "prijeći ću …": the verb is the fact's
        fact = Fact(role or "amount", value, text[start:end].strip(), currency, period_name, bound)
        (roled if role else loose).append(fact)
        spans.append((start, end))
    return roled, loose, spans


def _percent_value(text: str, language: Language) -> Decimal | None:
    number = _NUMBER.search(text)
    return parse_number(number.group(), dot_groups_thousands(language)) if number else None


# "ispod milijun eura", "a million dollars": the word is the number.
_MILLION = re.compile(r"\b(?:jedan |one |een |a )?(?:milijun|million|miljoen)\b")


def _millions(text: str, taken: list[Span]) -> list[tuple[Decimal, Span]]:
    return [
        (Decimal(1_000_000), m.span())
        for m in islice(_MILLION.finditer(text), MAX_NUMBERS)
        if not any(a <= m.start() < b for a, b in taken)
    ]


def _looks_like_a_year(token: str) -> bool:
    return token.isdigit() and len(token) == 4 and 1990 <= int(token) <= 2035


def _role(
    text: str, words: tuple[Word, ...], starts: list[int], start: int, end: int
) -> tuple[FactName, Word] | None:
    """What the amount is, from the nearest role word around it in the same clause ("45.000
    eura prometa", "promet od 45.000"; not "prihod 300 tisuća eura, dobit 80 tisuća"), and
    that word; after the amount wins a tie. `starts` are the words' start offsets, so the
    neighbours are found by bisection, not by a scan."""
    first_after = bisect_left(starts, end)
    before = [w for w in words[max(0, first_after - _ROLE_REACH_BEFORE - 2) : first_after]]
    before = [w for w in before if w.end <= start and not _CLAUSE_END.search(text, w.end, start)][
        -_ROLE_REACH_BEFORE:
    ]
    after = [
        w
        for w in words[first_after : first_after + _ROLE_REACH_AFTER]
        if not _CLAUSE_END.search(text, end, w.start)
    ]
    nearby = sorted(
        [(distance, 0, w) for distance, w in enumerate(after)]
        + [(distance, 1, w) for distance, w in enumerate(reversed(before))],
        key=lambda item: (item[0], item[1]),
    )
    for _, _, word in nearby:
        for name, stems in _ROLES:
            if word.text.startswith(stems):
                return name, word
    return None


def birth_years(facts: tuple[Fact, ...]) -> frozenset[int]:
    return frozenset(f.value for f in facts if f.name == "birth_year" and isinstance(f.value, int))


def as_decimal(fact: Fact) -> Decimal | None:
    return fact.value if isinstance(fact.value, Decimal) else None


def fact_date(fact: Fact) -> date | None:
    return fact.value if isinstance(fact.value, date) else None

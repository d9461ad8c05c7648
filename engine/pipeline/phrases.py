"""The words Navod uses to say what it understood and what it computed, per language.

Kept beside templates.py (every other sentence): compose and the refusal renderer fill these.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.types import Language

T = Mapping[Language, str]

UNDERSTOOD: T = {
    "hr": "Razumio sam: {parts}",
    "nl": "Begrepen: {parts}",
    "en": "Understood: {parts}",
}
AS_OF: T = {"hr": "na dan {date}", "nl": "per {date}", "en": "as of {date}"}
ABOUT: T = {"hr": "odnosi se na: {words}", "nl": "betreft: {words}", "en": "about: {words}"}
NOT_UNDERSTOOD: T = {
    "hr": "nisam razumio: {words}",
    "nl": "niet begrepen: {words}",
    "en": "not understood: {words}",
}
# A number stated as a fact outside its domain (engine/bounds.py): named, never used.
UNUSABLE: T = {
    "hr": "nije upotrijebljeno, broj izvan raspona: {words}",
    "nl": "niet gebruikt, getal buiten bereik: {words}",
    "en": "not used, number out of range: {words}",
}
# What the asker says a rule states (engine/understanding/claims.py), set beside the source.
CLAIM: Mapping[str, T] = {
    "differs": {
        "hr": "vaša tvrdnja „{words}” ne odgovara izvoru",
        "nl": "uw bewering „{words}” klopt niet met de bron",
        "en": "your claim “{words}” differs from the source",
    },
    "agrees": {
        "hr": "vaša tvrdnja „{words}” odgovara izvoru",
        "nl": "uw bewering „{words}” klopt met de bron",
        "en": "your claim “{words}” agrees with the source",
    },
    "unchecked": {
        "hr": "tvrdnja „{words}” nije upotrijebljena kao činjenica",
        "nl": "bewering „{words}” niet als feit gebruikt",
        "en": "claim “{words}” not used as a fact",
    },
}
NOTHING: T = {"hr": "nijedan poznati pojam", "nl": "geen bekend begrip", "en": "no known concept"}
ATTRIBUTES: Mapping[str, T] = {
    "rate": {"hr": "stopa", "nl": "tarief", "en": "rate"},
    "amount": {"hr": "iznos", "nl": "bedrag", "en": "amount"},
    "date": {"hr": "datum", "nl": "datum", "en": "date"},
    "since": {"hr": "od kada vrijedi", "nl": "sinds wanneer", "en": "since when"},
    "until": {"hr": "do kada vrijedi", "nl": "tot wanneer", "en": "until when"},
    "deadline": {"hr": "rok", "nl": "termijn", "en": "deadline"},
    "age": {"hr": "dob", "nl": "leeftijd", "en": "age"},
    "duration": {"hr": "trajanje", "nl": "duur", "en": "duration"},
    "obligation": {
        "hr": "postoji li obveza",
        "nl": "of er een verplichting is",
        "en": "whether you must",
    },
    "who": {"hr": "tko", "nl": "wie", "en": "who"},
    "how": {"hr": "kako", "nl": "hoe", "en": "how"},
    "why": {"hr": "zašto", "nl": "waarom", "en": "why"},
}
FACTS: Mapping[str, T] = {
    "age": {"hr": "vaša dob {value}", "nl": "uw leeftijd {value}", "en": "your age {value}"},
    "birth_year": {
        "hr": "godina rođenja {value}",
        "nl": "geboortejaar {value}",
        "en": "born in {value}",
    },
    "birth_date": {"hr": "rođeni {value}", "nl": "geboren op {value}", "en": "born on {value}"},
    "turnover": {
        "hr": "vaš promet {value}",
        "nl": "uw omzet {value}",
        "en": "your turnover {value}",
    },
    "receipts": {
        "hr": "vaši primici {value}",
        "nl": "uw ontvangsten {value}",
        "en": "your receipts {value}",
    },
    "revenue": {
        "hr": "vaš prihod {value}",
        "nl": "uw opbrengst {value}",
        "en": "your revenue {value}",
    },
    "income": {
        "hr": "vaš dohodak {value}",
        "nl": "uw inkomen {value}",
        "en": "your income {value}",
    },
    "profit": {"hr": "vaša dobit {value}", "nl": "uw winst {value}", "en": "your profit {value}"},
    "amount": {"hr": "vaš iznos {value}", "nl": "uw bedrag {value}", "en": "your amount {value}"},
    "entity_type": {"hr": "oblik: {value}", "nl": "vorm: {value}", "en": "business: {value}"},
    "pension_second_pillar": {
        "hr": "drugi mirovinski stup: {value}",
        "nl": "tweede pensioenpijler: {value}",
        "en": "second pension pillar: {value}",
    },
    "municipality_type": {
        "hr": "mjesto: {value}",
        "nl": "gemeente: {value}",
        "en": "place: {value}",
    },
    "city": {"hr": "grad {value}", "nl": "stad {value}", "en": "city {value}"},
    "vat_registered": {
        "hr": "u sustavu PDV-a: {value}",
        "nl": "btw-plichtig: {value}",
        "en": "VAT-registered: {value}",
    },
    "residence": {"hr": "boravište {value}", "nl": "woonplaats {value}", "en": "residence {value}"},
    "home_value": {
        "hr": "vrijednost vašeg doma {value}",
        "nl": "WOZ-waarde van uw woning {value}",
        "en": "your home's value {value}",
    },
    "partner": {
        "hr": "porezni partner: {value}",
        "nl": "fiscale partner: {value}",
        "en": "tax partner: {value}",
    },
    "prior_uses": {
        "hr": "već iskorišteno puta: {value}",
        "nl": "al gebruikt: {value} keer",
        "en": "already used: {value} times",
    },
    "retirement_date": {
        "hr": "planirana mirovina {value}",
        "nl": "gepland pensioen {value}",
        "en": "planned retirement {value}",
    },
    "assets_ira_usd": {
        "hr": "na IRA računima {value}",
        "nl": "in IRA's {value}",
        "en": "in IRAs {value}",
    },
    "assets_401k_usd": {
        "hr": "u 401(k) {value}",
        "nl": "in 401(k) {value}",
        "en": "in 401(k) {value}",
    },
    "savings_usd": {"hr": "ušteđevina {value}", "nl": "spaargeld {value}", "en": "savings {value}"},
    "health_coverage": {
        "hr": "zdravstveno osiguranje: {value}",
        "nl": "zorgverzekering: {value}",
        "en": "health coverage: {value}",
    },
    "medicare_enrolled": {
        "hr": "u Medicareu: {value}",
        "nl": "in Medicare: {value}",
        "en": "on Medicare: {value}",
    },
    "housing_plan": {
        "hr": "plan za dom: {value}",
        "nl": "woonplan: {value}",
        "en": "home plan: {value}",
    },
    "state_of_residence": {
        "hr": "savezna država {value}",
        "nl": "staat {value}",
        "en": "state {value}",
    },
    "spouse_age": {
        "hr": "dob supružnika {value}",
        "nl": "leeftijd van uw partner {value}",
        "en": "your spouse's age {value}",
    },
    "partner_hours": {
        "hr": "sati rada partnera {value}",
        "nl": "uren van uw partner {value}",
        "en": "your partner's hours {value}",
    },
}
FACT_NOUNS: Mapping[str, T] = {
    "turnover": {"hr": "promet", "nl": "omzet", "en": "turnover"},
    "receipts": {"hr": "primici", "nl": "ontvangsten", "en": "receipts"},
    "revenue": {"hr": "prihod", "nl": "opbrengst", "en": "revenue"},
    "income": {"hr": "dohodak", "nl": "inkomen", "en": "income"},
    "profit": {"hr": "dobit", "nl": "winst", "en": "profit"},
}
ENTITIES: Mapping[str, T] = {
    "pausalni_obrt": {"hr": "paušalni obrt", "nl": "forfaitair belaste onderneming (paušal)",
                      "en": "flat-rate (paušal) business"},
    "doo": {"hr": "d.o.o.", "nl": "bv (d.o.o.)", "en": "limited company (d.o.o.)"},
    "obrt": {"hr": "obrt", "nl": "eenmanszaak (obrt)", "en": "sole trade (obrt)"},
    "freelancer": {"hr": "samostalna djelatnost", "nl": "zzp'er", "en": "self-employed"},
}  # fmt: skip
PLACES: Mapping[str, T] = {
    "grad_zagreb": {"hr": "Grad Zagreb", "nl": "stad Zagreb", "en": "City of Zagreb"},
    "opcina": {"hr": "općina", "nl": "gemeente", "en": "municipality"},
    "grad": {"hr": "grad", "nl": "stad", "en": "town"},
}
YES_NO: Mapping[bool, T] = {
    True: {"hr": "da", "nl": "ja", "en": "yes"},
    False: {"hr": "ne", "nl": "nee", "en": "no"},
}
LAST_YEAR: T = {"hr": "prošle godine", "nl": "vorig jaar", "en": "last year"}

THRESHOLD: Mapping[bool, T] = {
    True: {
        "hr": "Vaš {fact} od {amount} prelazi {label} od {limit}.",
        "nl": "Uw {fact} van {amount} ligt boven de grens: {label} is {limit}.",
        "en": "Your {fact} of {amount} is above the {label} of {limit}.",
    },
    False: {
        "hr": "Vaš {fact} od {amount} ne prelazi {label} od {limit}.",
        "nl": "Uw {fact} van {amount} ligt niet boven de grens: {label} is {limit}.",
        "en": "Your {fact} of {amount} is not above the {label} of {limit}.",
    },
}
OUTCOME: Mapping[str, T] = {
    "OBLIGATION": {
        "hr": "Prema tom pragu obveza postoji.",
        "nl": "Volgens die grens geldt de verplichting.",
        "en": "By that threshold the obligation applies.",
    },
    "NO_OBLIGATION": {
        "hr": "Prema tom pragu obveze nema.",
        "nl": "Volgens die grens geldt de verplichting niet.",
        "en": "By that threshold there is no obligation.",
    },
}
DECIDED: T = {
    "hr": "Stoga se primjenjuje: {decided}, {value}.",
    "nl": "Daarom geldt: {decided}, {value}.",
    "en": "So the {decided} applies: {value}.",
}
DATE_FROM_AGE: T = {
    "hr": "{label}: {date} (godina rođenja {year}; {age_label}: {age}).",
    "nl": "{label}: {date} (geboortejaar {year}; {age_label}: {age}).",
    "en": "{label}: {date} (born in {year}; {age_label}: {age}).",
}
DATE_FROM_AGE_EITHER: T = {
    "hr": "{label}: {date} ili {late}, ovisno o datumu rođenja (dob {now}; {age_label}: {age}).",
    "nl": "{label}: {date} of {late}, afhankelijk van uw verjaardag (leeftijd {now}; "
    "{age_label}: {age}).",
    "en": "{label}: {date} or {late}, depending on your birthday (age {now}; {age_label}: {age}).",
}
SINCE: T = {
    "hr": "{label} iznosi {value} od {start}",
    "nl": "{label} is {value} sinds {start}",
    "en": "{label} has been {value} since {start}",
}
UNTIL: T = {
    "hr": "{label} iznosila je {value} do {end}",
    "nl": "{label} was {value} tot en met {end}",
    "en": "{label} was {value} until {end}",
}
NO_END: T = {
    "hr": "{label} iznosi {value} od {start}; datum prestanka nije poznat",
    "nl": "{label} is {value} sinds {start}; een einddatum is niet bekend",
    "en": "{label} has been {value} since {start}; no end date is known",
}
NOT_THIS_ATTRIBUTE: T = {
    "hr": "Za to pitanje ({attribute}) nemam pravilo. Znam: {known}.",
    "nl": "Voor die vraag ({attribute}) heb ik geen regel. Ik ken wel: {known}.",
    "en": "I have no rule for that question ({attribute}). I do know: {known}.",
}
UNCOVERED: T = {
    "hr": "Nemam pravilo za: {words}. Znam: {known}.",
    "nl": "Ik heb geen regel voor: {words}. Ik ken wel: {known}.",
    "en": "I have no rule for: {words}. I do know: {known}.",
}
# Words for the values of stated plans and coverage, in each language.
PLAN_WORDS: Mapping[str, T] = {
    "medicare": {"hr": "Medicare", "nl": "Medicare", "en": "Medicare"},
    "employer": {"hr": "preko poslodavca", "nl": "via de werkgever", "en": "through an employer"},
    "marketplace": {"hr": "ACA tržište", "nl": "ACA-marktplaats", "en": "ACA marketplace"},
    "none": {"hr": "nema", "nl": "geen", "en": "none"},
    "move": {"hr": "preseljenje", "nl": "verhuizen", "en": "move"},
    "downsize": {"hr": "manji dom", "nl": "kleiner wonen", "en": "downsize"},
    "stay": {"hr": "ostati u domu", "nl": "blijven wonen", "en": "stay at home"},
}
# A fact the question states that differs from what the asker said earlier: which was used.
CORRECTED: T = {
    "hr": "koristim {value} (ranije ste rekli {was})",
    "nl": "ik gebruik {value} (eerder zei u {was})",
    "en": "using {value} (you said {was} earlier)",
}
# A fact supposed or told of someone else: used for this question, not kept as the asker's.
SUPPOSED: T = {
    "hr": "pretpostavka, ne pamtim je kao vaš podatak",
    "nl": "verondersteld, niet bewaard als uw gegeven",
    "en": "supposed, not kept as yours",
}

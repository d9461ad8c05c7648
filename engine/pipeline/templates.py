"""Every sentence Navod writes, per language. Compose fills them; nothing else writes prose.

Templates that end in a date carry no final full stop: a Croatian date already ends in one
("1. siječnja 2025."), so `render.sentence` adds the stop only where it is missing.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.types import Language

T = Mapping[Language, str]

ANSWER_NUMERIC: T = {
    "hr": "{label} iznosi {value}.",
    "nl": "{label}: {value}.",
    "en": "{label} is {value}.",
}
ANSWER_OTHER: T = {"hr": "{label}: {value}.", "nl": "{label}: {value}.", "en": "{label}: {value}."}
IN_FORCE_OPEN: T = {
    "hr": "Na snazi od {start}",
    "nl": "Geldt sinds {start}",
    "en": "In force since {start}",
}
IN_FORCE_UNTIL: T = {
    "hr": "Na snazi od {start} do {end}",
    "nl": "Geldt van {start} tot en met {end}",
    "en": "In force from {start} to {end}",
}
IN_FORCE_ENDED: T = {
    "hr": "Vrijedilo od {start} do {end}",
    "nl": "Gold van {start} tot en met {end}",
    "en": "Applied from {start} to {end}",
}
SOURCE: T = {"hr": "Izvor: {reference}", "nl": "Bron: {reference}", "en": "Source: {reference}"}
AS_OF: T = {"hr": "Stanje na dan {date}", "nl": "Stand per {date}", "en": "As of {date}"}
RESOLVED: T = {
    "hr": "Izvori se ne slažu; prednost ima {winner} ({how}).",
    "nl": "De bronnen verschillen; {winner} gaat voor ({how}).",
    "en": "Sources disagree; {winner} prevails ({how}).",
}
HOW: Mapping[str, T] = {
    "authority": {
        "hr": "viši pravni autoritet",
        "nl": "hogere rechtsbron",
        "en": "higher authority",
    },
    "later_effective_from": {"hr": "noviji propis", "nl": "latere regel", "en": "later rule"},
    "more_specific": {
        "hr": "specifičnije pravilo",
        "nl": "specifiekere regel",
        "en": "more specific rule",
    },
}
MISSING_CONTEXT: T = {
    "hr": "{count} pravila nisu primijenjena jer nedostaju podaci: {fields}.",
    "nl": "{count} regel(s) niet toegepast: gegevens ontbreken ({fields}).",
    "en": "{count} rule(s) left out because client data is missing: {fields}.",
}
RELATED: T = {"hr": "{label}?", "nl": "{label}?", "en": "{label}?"}
# a related question whose bare label reads as another language ("Meewerkaftrek?")
RELATED_FRAMED: T = {"hr": "Što je {label}?", "nl": "Wat is {label}?", "en": "What is {label}?"}
DISCLAIMER_SHORT: T = {
    "hr": "Informativni sažetak propisa, nije porezni savjet.",
    "nl": "Informatieve samenvatting van de regels, geen belastingadvies.",
    "en": "An informational summary of the rules, not tax advice.",
}
DISCLAIMER_EXPANDED: T = {
    "hr": "Odgovor se temelji isključivo na citiranim izvorima za navedeni datum. "
    "Provjerite izvor i svoju situaciju prije odluke.",
    "nl": "Het antwoord steunt alleen op de geciteerde bronnen voor de genoemde datum. "
    "Controleer de bron en uw situatie voordat u beslist.",
    "en": "The answer rests only on the cited sources for the date shown. "
    "Check the source and your own situation before you decide.",
}
PRACTICE_ONLY: T = {
    "hr": "Temelji se samo na sekundarnom izvoru (stručna publikacija), ne na službenom tekstu.",
    "nl": "Steunt alleen op een secundaire bron (vakpublicatie), niet op officiële tekst.",
    "en": "Rests only on a secondary source (a professional publication), not official text.",
}
HIGH_RISK: T = {
    "hr": "Pogreška ovdje može dovesti do kazne: provjerite sa savjetnikom.",
    "nl": "Een fout hier kan tot een boete leiden: overleg met een adviseur.",
    "en": "A mistake here can lead to penalties: check with an adviser.",
}
OBLIGATION_BADGE: Mapping[str, T] = {
    "OBLIGATION": {"hr": "Obveza", "nl": "Verplichting", "en": "Obligation"},
    "NO_OBLIGATION": {"hr": "Nema obveze", "nl": "Geen verplichting", "en": "No obligation"},
    "CONDITIONAL": {"hr": "Ovisi o uvjetima", "nl": "Voorwaardelijk", "en": "Conditional"},
    "INFORMATIONAL": {"hr": "Informacija", "nl": "Informatie", "en": "Information"},
}

REFUSAL_HEADLINE: Mapping[str, T] = {
    "NO_CITABLE_RULES": {
        "hr": "Nemam propis koji mogu citirati za ovo pitanje",
        "nl": "Geen regel die ik kan citeren voor deze vraag",
        "en": "No rule I can cite for this question",
    },
    "OUT_OF_SCOPE": {
        "hr": "Ovo pitanje nije o propisima koje Navod pokriva",
        "nl": "Deze vraag valt buiten de regels die Navod kent",
        "en": "This question is outside the rules Navod covers",
    },
    "MISSING_CLIENT_DATA": {
        "hr": "Za odgovor trebam vaše podatke",
        "nl": "Voor een antwoord heb ik uw gegevens nodig",
        "en": "I need your data to answer this",
    },
    "UNRESOLVED_CONFLICT": {
        "hr": "Izvori se ne slažu, a nijedno pravilo prednosti to ne rješava",
        "nl": "De bronnen spreken elkaar tegen en geen voorrangsregel beslist",
        "en": "The sources disagree and no precedence rule settles it",
    },
    "NEEDS_CLARIFICATION": {
        "hr": "Pitanje može značiti više stvari: pojasnite, molim",
        "nl": "De vraag kan meerdere dingen betekenen: verduidelijk, alstublieft",
        "en": "The question could mean several things: please clarify",
    },
    "UNSUPPORTED_JURISDICTION": {
        "hr": "Navod ne pokriva tu državu",
        "nl": "Navod dekt dat land niet",
        "en": "Navod does not cover that country",
    },
}
REFUSAL_MESSAGE: Mapping[str, T] = {
    "NO_CITABLE_RULES": {
        "hr": "Nijedno objavljeno pravilo s provjerenim citatom ne vrijedi na dan {date}",
        "nl": "Geen gepubliceerde regel met gecontroleerd citaat geldt op {date}",
        "en": "No published rule with a verified quote is in force on {date}",
    },
    "OUT_OF_SCOPE": {
        "hr": "Navod odgovara samo na pitanja o poreznim i drugim propisima koje pokriva.",
        "nl": "Navod beantwoordt alleen vragen over de belasting- en andere regels die het kent.",
        "en": "Navod answers only questions about the tax and other rules it covers.",
    },
    "MISSING_CLIENT_DATA": {
        "hr": "Pravilo ovisi o podacima koje nisam dobio: {fields}.",
        "nl": "De regel hangt af van gegevens die ontbreken: {fields}.",
        "en": "The rule depends on data I was not given: {fields}.",
    },
    "UNRESOLVED_CONFLICT": {
        "hr": "Za {label} izvori navode različite vrijednosti, a nijedan viši izvor nije "
        "jednako nov; obje strane su citirane.",
        "nl": "Voor {label} geven de bronnen verschillende waarden en geen hogere bron is even "
        "recent; beide kanten zijn geciteerd.",
        "en": "For {label}, the sources give different values and no higher-ranked source is as "
        "recent; both sides are cited.",
    },
    "NEEDS_CLARIFICATION": {
        "hr": "Mislite li na: {options}?",
        "nl": "Bedoelt u: {options}?",
        "en": "Do you mean: {options}?",
    },
    "UNSUPPORTED_JURISDICTION": {
        "hr": "Pitanje se odnosi na: {country}. Navod pokriva: {covered}.",
        "nl": "De vraag gaat over: {country}. Navod dekt: {covered}.",
        "en": "The question is about {country}. Navod covers: {covered}.",
    },
}
NOT_FOR_STATED: T = {
    "hr": "{label} vrijedi samo uz uvjet: {condition}; to ne odgovara onome što ste naveli",
    "nl": "{label} geldt alleen als: {condition}; dat past niet bij wat u opgaf",
    "en": "{label} applies only when {condition}, which is not what the question states",
}
CONFIRMED_BY: T = {
    "hr": "Potvrđuje: {sources}; najnoviji tekst {date}",
    "nl": "Bevestigd door: {sources}; nieuwste tekst {date}",
    "en": "Confirmed by: {sources}; newest text {date}",
}
# A fact Navod holds for other dates than the one asked: which dates, the nearest value, and
# what to ask (engine/pipeline/held.py says the periods).
KNOWN_HELD: T = {
    "hr": "{label}: Navod ima vrijednost samo {periods}, a ne za traženi datum; najbliža je "
    "{value} ({source})",
    "nl": "{label}: Navod kent een waarde alleen {periods}, niet voor de gevraagde datum; de "
    "dichtstbijzijnde is {value} ({source})",
    "en": "{label}: Navod holds a value only {periods}, not for the date asked; the nearest is "
    "{value} ({source})",
}
KNOWN_UNTIL: T = {
    "hr": "{label}: posljednja vrijednost koju Navod ima je {value}, a izvor ({source}) je "
    "potvrđuje samo do {date}; noviju potvrdu Navod nema",
    "nl": "{label}: de laatste waarde die Navod kent is {value}; de bron ({source}) bevestigt "
    "die alleen tot {date}, een nieuwere bevestiging heeft Navod niet",
    "en": "{label}: the last value Navod holds is {value}, and its source ({source}) confirms "
    "it only up to {date}; Navod has no newer confirmation",
}
ASK_HELD: Mapping[str, T] = {
    "one": {
        "hr": "Pitajte za datum iz tog razdoblja.",
        "nl": "Vraag naar een datum in die periode.",
        "en": "Ask for a date in that period.",
    },
    "several": {
        "hr": "Pitajte za datum iz jednog od tih razdoblja.",
        "nl": "Vraag naar een datum in een van die periodes.",
        "en": "Ask for a date in one of those periods.",
    },
    "until": {
        "hr": "Pitajte za datum do {date}",
        "nl": "Vraag naar een datum tot en met {date}",
        "en": "Ask for a date up to {date}",
    },
}
# A fact Navod lacks on every date: said plainly, with no date (another one would not help).
LACKS_VALUE: T = {
    "hr": "{label}: Navod nema vrijednost s provjerenim izvorom ni za jedan datum",
    "nl": "{label}: Navod kent voor geen enkele datum een waarde met een gecontroleerde bron",
    "en": "{label}: Navod holds no value with a verified source, for any date",
}
LACKS_ALL: T = {
    "hr": "Navod nema propis o tome: pitanje ne odgovara nijednom pojmu u bazi znanja.",
    "nl": "Navod kent hierover geen regel: de vraag past bij geen enkel begrip in de kennisbank.",
    "en": "Navod holds no rule on this: the question matches no concept in its knowledge base.",
}
COVERED_NAMES: Mapping[str, T] = {
    "HR": {"hr": "Hrvatska", "nl": "Kroatië", "en": "Croatia"},
    "NL": {"hr": "Nizozemska", "nl": "Nederland", "en": "the Netherlands"},
    "US": {"hr": "SAD", "nl": "Verenigde Staten", "en": "the United States"},
    "EU": {"hr": "EU", "nl": "EU", "en": "the EU"},
}
REDIRECT_KNOWLEDGE: T = {
    "hr": "Što Navod zna",
    "nl": "Wat Navod weet",
    "en": "What Navod knows",
}
REDIRECT_DOCS: T = {"hr": "API dokumentacija", "nl": "API-documentatie", "en": "API documentation"}
INTERNAL_ERROR: T = {
    "hr": "Došlo je do interne pogreške; pokušajte ponovno.",
    "nl": "Er ging intern iets mis; probeer het opnieuw.",
    "en": "Something went wrong inside Navod; please try again.",
}
# The database is unreachable: a technical outcome, said as such, never "the law has no answer".
UNAVAILABLE_HEADLINE: T = {
    "hr": "Navod trenutačno ne može doći do svoje baze podataka",
    "nl": "Navod kan zijn database nu niet bereiken",
    "en": "Navod cannot reach its database right now",
}
UNAVAILABLE: T = {
    "hr": "Baza podataka trenutačno nije dostupna, pa ovaj razgovor nije moguće nastaviti. "
    "Ništa nije izgubljeno; pokušajte ponovno za nekoliko sekundi.",
    "nl": "De database is nu niet bereikbaar, dus dit gesprek kan niet verder. "
    "Er is niets verloren; probeer het over enkele seconden opnieuw.",
    "en": "The database is unreachable right now, so this conversation cannot go on. "
    "Nothing was lost; please try again in a few seconds.",
}
FETCHED_AGO: T = {
    "hr": "Tekst izvora preuzet je prije {days} dana",
    "nl": "De brontekst is {days} dagen geleden opgehaald",
    "en": "The source text was fetched {days} days ago",
}
VERIFIED_UNTIL: T = {
    "hr": "Izvor potvrđuje vrijednost do {date}; kasnija promjena nije isključena",
    "nl": "De bron bevestigt de waarde tot {date}; een latere wijziging is niet uitgesloten",
    "en": "The source confirms the value up to {date}; a later change is not ruled out",
}
CONDITIONAL_VALUES_HEADLINE: T = {
    "hr": "{label}: {values}, ovisno o podatku {fields}",
    "nl": "{label}: {values}, afhankelijk van {fields}",
    "en": "{label}: {values}, depending on {fields}",
}
CONDITIONAL_HEADLINE: T = {
    "hr": "{label}: ovisi o podatku {fields}",
    "nl": "{label}: hangt af van {fields}",
    "en": "{label}: depends on {fields}",
}
PROVIDE: T = {
    "hr": "Za točan odgovor navedite: {fields}",
    "nl": "Geef voor een precies antwoord op: {fields}",
    "en": "For an exact answer, provide: {fields}",
}
FIELD_LABELS: Mapping[str, T] = {
    "birth_year": {"hr": "godina rođenja", "nl": "geboortejaar", "en": "year of birth"},
    "entity_type": {"hr": "oblik djelatnosti", "nl": "ondernemingsvorm", "en": "type of business"},
    "age": {"hr": "dob", "nl": "leeftijd", "en": "age"},
    "municipality_type": {
        "hr": "vrsta mjesta",
        "nl": "soort gemeente",
        "en": "type of municipality",
    },
    "pension_second_pillar": {
        "hr": "članstvo u drugom stupu",
        "nl": "deelname aan de tweede pijler",
        "en": "second-pillar membership",
    },
    "annual_receipts_eur": {
        "hr": "godišnji primici (EUR)",
        "nl": "jaarlijkse ontvangsten (EUR)",
        "en": "annual receipts (EUR)",
    },
    "annual_receipts_hrk": {
        "hr": "godišnji primici (kn)",
        "nl": "jaarlijkse ontvangsten (HRK)",
        "en": "annual receipts (HRK)",
    },
    "city": {"hr": "grad", "nl": "stad", "en": "city"},
    "eigenwoningwaarde": {
        "hr": "vrijednost doma (WOZ, EUR)",
        "nl": "WOZ-waarde (EUR)",
        "en": "home value (WOZ, EUR)",
    },
    "heeft_partner": {"hr": "porezni partner", "nl": "fiscale partner", "en": "tax partner"},
    "partner_uren": {
        "hr": "sati rada partnera",
        "nl": "uren van de partner",
        "en": "partner's hours",
    },
    "startersaftrek_ao_eerdere_jaren": {
        "hr": "ranije iskorištene godine odbitka",
        "nl": "eerdere jaren startersaftrek",
        "en": "earlier years of the deduction",
    },
}
CONNECTIVES: Mapping[str, T] = {
    "and": {"hr": " i ", "nl": " en ", "en": " and "},
    "or": {"hr": " ili ", "nl": " of ", "en": " or "},
    "not": {"hr": "nije ", "nl": "niet ", "en": "not "},
    "exists": {"hr": "naveden", "nl": "opgegeven", "en": "given"},
}
ADVICE: T = {
    "hr": "Navod navodi propise s izvorom; osobni savjet (što se više isplati) ne daje.",
    "nl": "Navod noemt regels met hun bron; persoonlijk advies geeft het niet.",
    "en": "Navod states rules with their source; it does not give personal advice.",
}
BLOCKED_INJECTION: T = {
    "hr": "Poruka pokušava promijeniti pravila rada Navoda; na takve upute Navod ne odgovara.",
    "nl": "Het bericht probeert Navods werkregels te veranderen; daarop antwoordt Navod niet.",
    "en": "The message tries to change how Navod works; Navod does not follow such instructions.",
}
BLOCKED_ABUSE: T = {
    "hr": "Na ovakvu poruku Navod ne odgovara. Postavite pitanje o propisima.",
    "nl": "Op dit bericht antwoordt Navod niet. Stel een vraag over de regels.",
    "en": "Navod does not answer this message. Please ask a question about the rules.",
}
REDACTED: T = {
    "hr": "Prije odgovora iz pitanja su uklonjeni osobni podaci: {types}.",
    "nl": "Vóór het antwoord zijn persoonsgegevens uit de vraag verwijderd: {types}.",
    "en": "Personal data was removed from the question before answering: {types}.",
}
REMOVED_SOURCES: T = {
    "hr": "Odgovor bi dao izvor koji ste uklonili iz razgovora: {titles}; "
    "vratite ga da ga koristim",
    "nl": "Een bron die u uit het gesprek hebt verwijderd zou dit beantwoorden: {titles}; "
    "zet die terug om hem te gebruiken",
    "en": "A source you removed from this conversation would answer this: {titles}; "
    "restore it to use it",
}
SOURCES_HEADLINE: T = {
    "hr": "Izvori razgovora su promijenjeni",
    "nl": "De bronnen van het gesprek zijn aangepast",
    "en": "The conversation's sources have changed",
}
SOURCES_UNCLEAR: T = {
    "hr": "Koji izvor mislite? Navedite redni broj ili naziv",
    "nl": "Welke bron bedoelt u? Noem het nummer of de naam",
    "en": "Which source do you mean? Name its number or title",
}
SOURCES_CHANGED: Mapping[str, T] = {
    "unselect": {
        "hr": "Uklonjeno: {names}. Odabrano izvora: {selected}, uklonjeno: {removed}.",
        "nl": "Verwijderd: {names}. Geselecteerde bronnen: {selected}, verwijderd: {removed}.",
        "en": "Removed: {names}. Sources selected: {selected}, removed: {removed}.",
    },
    "restore": {
        "hr": "Vraćeno: {names}. Odabrano izvora: {selected}, uklonjeno: {removed}.",
        "nl": "Teruggezet: {names}. Geselecteerde bronnen: {selected}, verwijderd: {removed}.",
        "en": "Restored: {names}. Sources selected: {selected}, removed: {removed}.",
    },
    "only": {
        "hr": "Koristim samo: {names}. Odabrano izvora: {selected}, uklonjeno: {removed}.",
        "nl": "Alleen nog: {names}. Geselecteerde bronnen: {selected}, verwijderd: {removed}.",
        "en": "Using only: {names}. Sources selected: {selected}, removed: {removed}.",
    },
}
RECALL_NONE: T = {
    "hr": "U ovom razgovoru nisam našao taj odgovor",
    "nl": "Dat antwoord vind ik niet in dit gesprek",
    "en": "I found no such answer in this conversation",
}
# A message that tells about the asker and asks nothing (engine/dossier/steps.py told_step).
NOTED_HEADLINE: T = {"hr": "Zabilježeno", "nl": "Genoteerd", "en": "Noted"}
NOTED: T = {
    "hr": "Zabilježio sam: {facts}. Koristit ću to u odgovorima u ovom razgovoru.",
    "nl": "Genoteerd: {facts}. Ik gebruik dit bij de antwoorden in dit gesprek.",
    "en": "Noted: {facts}. I will use this in my answers in this conversation.",
}
# A message stating only numbers Navod does not use (engine/bounds.py): nothing is noted.
NOT_NOTED_HEADLINE: T = {"hr": "Nije zabilježeno", "nl": "Niet genoteerd", "en": "Not noted"}
NOT_NOTED: T = {
    "hr": "Nisam zabilježio broj koji ste naveli: izvan je raspona koji Navod koristi, pa ga ne "
    "koristim u odgovorima. Napišite ga ponovno ako ste mislili na drugi iznos.",
    "nl": "Het getal dat u noemde heb ik niet genoteerd: het ligt buiten het bereik dat Navod "
    "gebruikt, dus ik gebruik het niet. Schrijf het opnieuw als u een ander bedrag bedoelde.",
    "en": "I did not note the number you gave: it is outside the range Navod uses, so I will "
    "not use it in my answers. Write it again if you meant another figure.",
}
UNREAD_HEADLINE: T = {
    "hr": "Navod ne čita pitanja na tom jeziku",
    "nl": "Navod leest geen vragen in die taal",
    "en": "Navod does not read questions in that language",
}
UNREAD: T = {
    "hr": "Pitanje je, čini se, na {language}. Navod čita pitanja na hrvatskom, nizozemskom i "
    "engleskom: postavite ga na jednom od njih.",
    "nl": "De vraag lijkt in het {language} te zijn. Navod leest vragen in het Kroatisch, "
    "Nederlands en Engels: stel hem in een van die talen.",
    "en": "The question seems to be in {language}. Navod reads questions in Croatian, Dutch and "
    "English: ask it in one of them.",
}
LANGUAGE_NAMES: Mapping[str, T] = {
    "de": {"hr": "njemačkom", "nl": "Duits", "en": "German"},
    "sl": {"hr": "slovenskom", "nl": "Sloveens", "en": "Slovenian"},
    "fr": {"hr": "francuskom", "nl": "Frans", "en": "French"},
    "it": {"hr": "talijanskom", "nl": "Italiaans", "en": "Italian"},
    "es": {"hr": "španjolskom", "nl": "Spaans", "en": "Spanish"},
}

# The confidence block's rationale, factor by factor (engine/pipeline/confidence.py)
AUTHORITY_WORDS: Mapping[str, T] = {
    "LAW": {"hr": "zakon", "nl": "wet", "en": "statute"},
    "REGULATION": {"hr": "propis", "nl": "regeling", "en": "regulation"},
    "GUIDANCE": {"hr": "službene upute", "nl": "officiële toelichting", "en": "official guidance"},
    "PRACTICE": {"hr": "stručni izvor", "nl": "vakpublicatie", "en": "professional publisher"},
    "PROCEDURE": {"hr": "postupak", "nl": "procedure", "en": "procedure"},
}
CONFIDENCE_STATED_BY: T = {
    "hr": "Vrijednost navodi {authority}",
    "nl": "Waarde uit {authority}",
    "en": "Value stated by {authority}",
}
CONFIDENCE_PUBLISHERS: T = {
    "hr": "neovisnih izdavača: {count}",
    "nl": "onafhankelijke uitgevers: {count}",
    "en": "independent publishers: {count}",
}
CONFIDENCE_NO_OFFICIAL: T = {
    "hr": "bez službenog teksta",
    "nl": "geen officiële tekst",
    "en": "no official text",
}
CONFIDENCE_PAST: T = {
    "hr": "izvor ne potvrđuje traženi datum",
    "nl": "bron bevestigt de gevraagde datum niet",
    "en": "the source does not confirm the date asked",
}
CONFIDENCE_CAPPED: T = {
    "hr": "ne sigurnije od današnje vrijednosti",
    "nl": "niet zekerder dan de huidige waarde",
    "en": "no surer than today's value",
}
CONFIDENCE_DECIDED: T = {
    "hr": "izvori su se razilazili",
    "nl": "bronnen verschilden",
    "en": "sources disagreed",
}

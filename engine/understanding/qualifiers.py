"""Words that narrow the fact asked about: variants, categories of goods and services, parties
and aspects of a tax. Matched on folded words; an entry ending in "*" matches a word's start.

A qualifier the answering concept does not explain is what tells "btw-tarief voor een kapper"
from "btw-tarief": the match stage refuses rather than answer the broader fact.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache

from engine.understanding.frame import Qualifier, QualifierKind
from engine.understanding.words import Word

_VARIANTS: Mapping[str, str] = {
    "general": "opca opci opce opcu opcom opcoj redovna redovne redovnu standardn* osnovn* puna "
    "pune algemeen algemene algemeen normaal normale gewone gewoon standaard standaardtarief "
    "general standard regular normal",
    "reduced": "snizen* snižen* verlaagd* verlaagde reduced reduction povlasten*",
    "lower": "niza nize nizu nizi nizoj nizom najniz* manja manje manju manji manjoj najmanj* "
    "lower lowest lage lager lagere laagste laag low",
    "higher": "visa visu visi visoj visom najvis* veca vece vecu veci vecoj najvec* higher "
    "highest hoger hogere hoogste hoog hoge high top toptarief",
    "zero": "nulta nultu nulte nultarief nul zero",
    "first": "prva prvi prvu prvog prvoj prve eerste first 1st",
    "second": "druga drugi drugu drugog drugoj druge tweede second 2nd",
    "third": "treca treci trecu treceg derde third 3rd",
    "super": "super",
    "earliest": "earliest najranij* vroegst* vroegste",
    "full": "full volledig volledige volle",
    # a catch-up on top of a limit: "how much extra can I put in an HSA" is not the HSA limit
    "additional": "extra dodatn* dodatak additional aanvullend* bijkomend*",
    # employer IRAs with their own limits: "SIMPLE IRA limit" is not the IRA limit
    "simple": "simple",
    "sep": "sep",
    # a Roth account has no RMD for its owner and other limits: no rule here speaks of one
    "roth": "roth",
}
_CATEGORIES: Mapping[str, str] = {
    "food": "hrana hrane hranu hrani namirnic* prehramben* prehrana jelo jela voedsel "
    "voedingsmiddel* levensmiddel* eten boodschappen food foods groceries foodstuff*",
    "bread": "kruh kruha kruhu pekar* pekarn* brood bakker* bakery bakeries bread",
    "milk": "mlijek* melk zuivel milk dairy",
    "books": "knjiga knjige knjigu knjigama knjizi udzbenik* boek boeken e-book ebook* book books "
    "textbook*",
    "newspapers": "novine novina novinama casopis* krant* tijdschrift* newspaper* magazine*",
    "medicines": "lijek* lijekov* medicin* geneesmiddel* medicijn* apotek* ljekarn* pharmac* drugs",
    "accommodation": "smjestaj* hotel* apartman* nocenj* kamp* camping* logies overnacht* "
    "accommodation* lodging airbnb vakantiewoning*",
    "restaurant": "restoran* ugostitelj* catering horeca restaurant* kafic* cafe* meals maaltijd*",
    "hairdresser": "frizer* brijac* kapper* kappers kapsalon* kapster* hairdress* barber* "
    "haircut* kapsel*",
    "water": "voda vode vodu water",
    "energy": "struja struje struju plin plina elektricn* electricity energie stroom gas "
    "grijanj* ogrjev* drva drvo pelet* briket* energent* verwarming* stadsverwarming brandhout "
    "heating firewood pellet*",
    "oils": "ulje ulja uljima jestiv* mast masti maslac* margarin* olie olien boter margarine "
    "oil oils butter fats",
    "meat": "meso mesa mesu mesn* kobasic* vlees worst worsten meat sausage*",
    "fish": "riba ribe ribu ribom rakov* vis schaaldier* fish seafood crustacean*",
    "vegetables": "povrc* krumpir* groente* groenten aardappel* vegetable* potato*",
    "fruit": "voce voca vocu fruit",
    "eggs": "jaja jaje eieren egg eggs",
    "solar": "solarn* fotonapon* zonnepane* zonnecel* solar photovoltaic*",
    "footwear": "obuc* cipel* tenisic* cizm* schoen* laars* shoe* footwear boots sneakers",
    "clothing": "odjec* odjeca tekstil* kleding* textiel* clothes clothing garment*",
    "furniture": "namjestaj* namjestaja meubel* meubels furniture",
    "phones": "mobitel* telefon* smartphone* telefoon* mobiteli",
    "children": "djecj* djeca pelen* baby babies luier* kinderen children diapers nappies",
    "bicycle": "bicikl* fiets* bicycle* bike*",
    "repair": "popravak popravka popravci reparatie* repair*",
    "art": "umjetn* kunst* art artwork* kunstwerk*",
    "sport": "sport* teretan* fitness sportschool",
    "transport": "prijevoz* taksi taxi vervoer personenvervoer transport*",
    "culture": "koncert* kino kina kazalist* muzej* concert* cinema* bioscoop* theater* theatre* "
    "museum* festival*",
    "flowers": "cvijec* bilj* bloem* plant* flower*",
    "disability aids": "invalidsk* kolica rolstoel* invalidenwagen* hulpmiddel* wheelchair* "
    "mobility",
    "dressings": "zavoj* flaster* higijensk* verband* verbandmiddel* pleister* bandage* "
    "dressings tampon* sanitary",
    "agriculture": "poljopriv* landbouw* agricultur* farming",
    "cleaning": "ciscenj* schoonmaak* cleaning",
    "renovation": "renovacij* renovatie* schilderwerk* isolatie* renovation* painting",
    "alcohol": "alkohol* alcohol* pivo piva vino vina wijn bier beer wine spirits",
    "tobacco": "duhan* cigaret* tabak* tobacco sigaret*",
    "vehicles": "automobil* vozil* auto autos car cars vehicle*",
    "software": "softver* software informatick* it-usluge consultancy consulting",
    "education": "obrazovanj* edukacij* tecaj* onderwijs cursus* education course* tuition",
    "crypto": "kripto* crypto* bitcoin* cryptovalut* kriptovalut*",
    "healthcare": "zdravstven* lijecnick* stomatolog* zorg tandarts* huisarts* healthcare "
    "dentist* doctor*",
}
_PARTIES: Mapping[str, str] = {
    "pausalist": "pausal* flat-rate",
    "obrt": "obrt obrta obrtu obrtom obrti obrtnik* samostaln* craft craftsman",
    "company": "doo jdoo tvrtk* firm* poduzec* drustv* kompanij* company companies corporation* "
    "corp llc bv nv vennootschap vennootschappen",
    "freelancer": "freelanc* zzp* zzper zelfstandig zelfstandige zelfstandigen eenmanszaak "
    "self-employed selfemployed "
    "sole proprietor* contractor*",
    "employer": "poslodav* werkgever* employer*",
    "employee": "zaposlenik* zaposlen* radnik* radnic* werknemer* employee* worker*",
    "retiree": "umirovljenik* umirovljen* penzioner* gepensioneerd* aow-er aower retiree* "
    "pensioner*",
    "nonresident": "nerezident* non-resident* nonresident* niet-ingezetene*",
    "student": "student* studenti studenata",
    "widow": "udovic* udovac* udovci widow* widower* weduw* nabestaande*",
    "farmer": "poljoprivrednik* farmer* boer boeren",
    "landlord": "iznajmljivac* verhuurder* landlord* najmodav*",
    "liberal_profession": "slobodn* zanimanj*",
    "trader": "trgovac trgovca trgovci trgovce trgovcima handelaar* trader traders merchant*",
}
_ASPECTS: Mapping[str, str] = {
    "filing": "prijav* obrazac obrasca obrascu aangifte* return returns filing file submit "
    "podnijeti podnosenje predati predaja predaje indienen salje saljem saljemo slati poslati",
    "payment": "placanj* platiti platim placam uplat* uplatiti betal* betaal* pay paying "
    "payment* paid payable",
    "registration": "upis* registracij* registrir* sustav sustavu inschrijv* aanmeld* "
    "registreren registratie register* registration system systeem",
    "invoicing": "racun racuna racune racunu racuni eracun* faktur* factu* invoic*",
    "penalty": "kazn* globa boete* boetes penalt* fine fines",
    "refund": "povrat* teruggaaf* refund*",
    "calculation": "izracun* obracun* racunati racuna bereken* calculat* compute",
    "inheritance": "inherit* beneficiar* erfgena* geerfd* nasljed* naslijed* nasljedn*",
    "records": "evidencij* knjigovodstv* administratie boekhouding bookkeeping records",
}
_KINDS: tuple[tuple[QualifierKind, Mapping[str, str]], ...] = (
    ("variant", _VARIANTS),
    ("category", _CATEGORIES),
    ("party", _PARTIES),
    ("aspect", _ASPECTS),
)


def read_qualifiers(words: tuple[Word, ...], skip: frozenset[int]) -> tuple[Qualifier, ...]:
    """Every qualifier among `words` (by position; positions in `skip` belong to facts, dates
    or cues and are not read again)."""
    found: list[Qualifier] = []
    for index, word in enumerate(words):
        if index in skip or word.key is None:
            continue
        hit = qualifier_of(word.text)
        if hit is not None:
            found.append(Qualifier(hit[0], hit[1], word.text, word.key))
    return tuple(found)


@lru_cache(maxsize=1 << 16)  # words recur from question to question
def qualifier_of(text: str) -> tuple[QualifierKind, str] | None:
    """The (kind, canonical value) a folded word names, or None."""
    exact, prefixes = _table()
    if text in exact:
        return exact[text]
    for stem, entry in prefixes.get(text[:3], ()):
        if text.startswith(stem):
            return entry
    return None


Entry = tuple[QualifierKind, str]


@cache
def _table() -> tuple[dict[str, Entry], dict[str, tuple[tuple[str, Entry], ...]]]:
    """Exact words, and stems bucketed by their first three letters (longest stem first)."""
    exact: dict[str, Entry] = {}
    stems: dict[str, list[tuple[str, Entry]]] = {}
    for kind, table in _KINDS:
        for value, entries in table.items():
            for entry in entries.split():
                if entry.endswith("*"):
                    stem = entry[:-1]
                    stems.setdefault(stem[:3], []).append((stem, (kind, value)))
                else:
                    exact.setdefault(entry, (kind, value))
    return exact, {
        head: tuple(sorted(group, key=lambda item: -len(item[0]))) for head, group in stems.items()
    }

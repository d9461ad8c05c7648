"""Word lists the classifier reads: folded (lowercase, no diacritics) stems and words.

Country stems are matched as token prefixes, so each is long enough not to hit ordinary words
("ukupni", "usavrsavanje", "poljoprivrednike" and "rimski" must stay unflagged): short names
are listed as whole tokens instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.types import Jurisdiction, Language

# Names of the jurisdictions Navod may cover, by code: (prefix stems, whole tokens).
COUNTRY_NAMES: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "HR": (("hrvatsk", "croatia", "kroatie", "kroatisch"), ("rh",)),
    "NL": (("nizozemsk", "netherland", "nederland", "holland", "dutch"), ("nl",)),
    "US": (
        ("americ", "amerik", "sjedinjen", "verenigde staten"),
        ("usa", "irs", "ssa", "vs", "sad-u", "sad-a", "sad-om"),  # "in de VS", "u SAD-u"
    ),
    "EU": (("europsk", "europe", "europes"), ("eu", "eur-lex")),
}

# Countries no pack covers: (display name, prefix stems, whole tokens).
UNSUPPORTED_COUNTRIES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("Germany", ("njemack", "nijemc", "german", "deutschland", "duitsland", "duits"), ()),
    ("Czechia", ("cesk", "czech", "tsjech"), ()),
    ("Spain", ("spanjolsk", "spain", "spanish", "spanje", "spaans", "espana"), ()),
    ("Hungary", ("madarsk", "madjarsk", "hungar", "hongarij"), ()),
    ("Austria", ("austrij", "austria", "oostenrijk", "osterreich"), ()),
    ("Italy", ("talijansk", "italij", "italy", "italian", "italie"), ()),
    ("France", ("francusk", "france", "french", "frankrijk", "frans"), ()),
    ("Belgium", ("belgij", "belgium", "belgian", "belgie"), ()),
    ("Slovenia", ("slovenij", "slovenia", "slovenie"), ()),
    ("Serbia", ("srbij", "serbia", "servie"), ()),
    ("Bosnia and Herzegovina", ("bosn", "hercegovin", "herzegovin"), ("bih",)),
    ("Poland", ("poljsk", "poland", "polish", "polen"), ()),
    ("Slovakia", ("slovack", "slovakia", "slowakij"), ()),
    ("Romania", ("rumunjsk", "romania", "roemenie"), ()),
    ("Bulgaria", ("bugarsk", "bulgaria", "bulgarij"), ()),
    ("Greece", ("grck", "greece", "griekenland"), ()),
    ("Portugal", ("portugal",), ()),
    ("Ireland", ("irsk", "ireland", "ierland"), ()),
    (
        "United Kingdom",
        (
            "britanij",
            "britain",
            "british",
            "engleska",
            "england",
            "engeland",
            "verenigd koninkrijk",
            "united kingdom",
            "ujedinjen",
        ),
        ("uk",),
    ),
    ("Sweden", ("svedsk", "sweden", "zweden"), ()),
    ("Denmark", ("dansk", "denmark", "denemarken"), ()),
    ("Norway", ("norvesk", "norway", "noorwegen"), ()),
    ("Finland", ("finsk", "finland"), ()),
    ("Switzerland", ("svicarsk", "switzerland", "swiss", "zwitserland"), ()),
    ("Luxembourg", ("luksemburg", "luxembourg", "luxemburg"), ()),
    ("Canada", ("kanad", "canada", "canadian"), ()),
    ("Australia", ("australij", "australia"), ()),
    ("Russia", ("rusij", "russia"), ()),
    ("Ukraine", ("ukrajin", "ukraine", "oekraine"), ()),
    ("Montenegro", ("crnogorsk", "crna gora", "montenegro"), ()),
    ("Turkey", ("turska", "turskoj", "turkey", "turkije"), ()),
    ("China", ("china", "chinese"), ("kina", "kini", "kine")),
    ("Japan", ("japan",), ()),
    ("India", ("indij",), ("india",)),
    ("United Kingdom", (), ("hmrc",)),
)

# The countries above as a Croatian and a Dutch reader name them (the display name is English):
# a refusal names the country in the response's language.
COUNTRY_NAMES_IN: Mapping[str, tuple[str, str]] = {
    "Germany": ("Njemačka", "Duitsland"), "Czechia": ("Češka", "Tsjechië"),
    "Spain": ("Španjolska", "Spanje"), "Hungary": ("Mađarska", "Hongarije"),
    "Austria": ("Austrija", "Oostenrijk"), "Italy": ("Italija", "Italië"),
    "France": ("Francuska", "Frankrijk"), "Belgium": ("Belgija", "België"),
    "Slovenia": ("Slovenija", "Slovenië"), "Serbia": ("Srbija", "Servië"),
    "Bosnia and Herzegovina": ("Bosna i Hercegovina", "Bosnië en Herzegovina"),
    "Poland": ("Poljska", "Polen"), "Slovakia": ("Slovačka", "Slowakije"),
    "Romania": ("Rumunjska", "Roemenië"), "Bulgaria": ("Bugarska", "Bulgarije"),
    "Greece": ("Grčka", "Griekenland"), "Portugal": ("Portugal", "Portugal"),
    "Ireland": ("Irska", "Ierland"),
    "United Kingdom": ("Ujedinjeno Kraljevstvo", "Verenigd Koninkrijk"),
    "Sweden": ("Švedska", "Zweden"), "Denmark": ("Danska", "Denemarken"),
    "Norway": ("Norveška", "Noorwegen"), "Finland": ("Finska", "Finland"),
    "Switzerland": ("Švicarska", "Zwitserland"), "Luxembourg": ("Luksemburg", "Luxemburg"),
    "Canada": ("Kanada", "Canada"), "Australia": ("Australija", "Australië"),
    "Russia": ("Rusija", "Rusland"), "Ukraine": ("Ukrajina", "Oekraïne"),
    "Montenegro": ("Crna Gora", "Montenegro"), "Turkey": ("Turska", "Turkije"),
    "China": ("Kina", "China"), "Japan": ("Japan", "Japan"), "India": ("Indija", "India"),
    "Croatia": ("Hrvatska", "Kroatië"), "the Netherlands": ("Nizozemska", "Nederland"),
    "the United States": ("SAD", "Verenigde Staten"), "the European Union": ("EU", "de EU"),
}  # fmt: skip


def country_name(name: str, language: Language) -> str:
    """A country's display name in `language` (as written when Navod has no word for it)."""
    croatian, dutch = COUNTRY_NAMES_IN.get(name, (name, name))
    return {"hr": croatian, "nl": dutch}.get(language, name)


# Cues of a regulatory question beyond what the knowledge base's own aliases already cover.
REGULATORY_CUES: frozenset[str] = frozenset(
    """
    porez poreza porezu porezni porezna porezno pdv stopa stope prag doprinos doprinosi
    odbitak pausal pausalist pausalac obrt obrtnik dohodak dobit fiskalizacija racun eracun
    rok rokovi prijava joppd zakon pravilnik narodne novine obveznik uplata placanje
    mirovina mirovinsko btw belasting belastingdienst tarief omzet omzetbelasting kor
    heffingskorting inkomstenbelasting aangifte wet ondernemer drempel vrijstelling tax
    taxes vat rate threshold allowance deduction contribution law rule deadline filing
    return rmd ira roth 401k hsa medicare social security retirement pension irs ssa
    distribution penalty limit exemption income estate gift steuer mehrwertsteuer
    umsatzsteuer mwst einkommensteuer impot tva iva
    """.split()
)

# Parts of words that only tax words have: "vennootschapsbelasting", "Einkommensteuer".
# Parts of compound tax words ("zelfstandigenaftrek", "hypotheekrenteaftrek", "toeslagen").
REGULATORY_FRAGMENTS: tuple[str, ...] = (
    "belasting", "steuer", "porez", "heffing", "tax", "aftrek", "toeslag", "premie", "doprinos",
    "olaksic", "trosarin",
)  # fmt: skip

# Asking what to do rather than what the rule is: Navod states rules, it does not advise.
ADVICE_CUES: frozenset[str] = frozenset(
    """
    isplati isplativije savjetujes preporucujes bolje najbolje invest investirati ulagati
    should recommend advise worth beter aanraden adviseer trebam trebao trebala
    """.split()
)

# Questions about Navod itself.
PRODUCT_CUES: frozenset[str] = frozenset(
    """
    navod navoda navodu cijena cjenik pretplata pretplate licenca pricing price subscription
    plan plans trial abonnement prijs kosten feature features integracija integration api
    demo proba probno besplatno free proefperiode gratis licence license
    """.split()
)

# Trouble with the service or the asker's account.
SUPPORT_CUES: frozenset[str] = frozenset(
    """
    lozinka lozinku lozinke login logiranje registracija password reset resetirati resetiram
    account accounta
    wachtwoord inloggen bug greska gresku greske error crash crashing crashes support podrska
    helpdesk prijaviti prijavim ulogirati aplikacija aplikaciju aplikacije app email mail
    emailadres korisnicki korisnickom korisnicko foutmelding storing log logged signin
    """.split()
)

# Everyday topics with no regulatory reading.
OFFTOPIC_CUES: frozenset[str] = frozenset(
    """
    sati sat vrijeme vremenska prognoza kisa sunce recept kuhati utakmica nogomet film vic
    weather forecast time clock recipe football soccer movie joke song music hello weer tijd
    recept voetbal grap film muziek laat sarma sarmu kolac torta appeltaart cake restaurant
    vakantie odmor holiday putovanje reis travel
    """.split()
)

# Towns whose name implies the jurisdiction when the question names no country.
TOWNS: Mapping[str, Jurisdiction] = {
    **dict.fromkeys(
        """zagreb zagrebu split splitu rijeka rijeci osijek osijeku zadar zadru pula puli
        dubrovnik dubrovniku varazdin varazdinu sibenik sibeniku karlovac karlovcu sisak
        sisku slavonski vukovar vukovaru cakovec cakovcu koprivnica koprivnici bjelovar
        bjelovaru samobor samoboru makarska makarskoj porec porecu rovinj rovinju trogir
        trogiru""".split(),
        "HR",
    ),
    **dict.fromkeys(
        """amsterdam rotterdam utrecht eindhoven groningen tilburg almere breda nijmegen
        arnhem haarlem leiden delft zwolle maastricht amersfoort apeldoorn enschede dordrecht
        zoetermeer leeuwarden den haag haag schiedam hilversum""".split(),
        "NL",
    ),
}
# Words that refer back to a place named before ("Koliki je tamo porez?").
THERE: frozenset[str] = frozenset("tamo ondje onamo there daar ginds aldaar".split())

SUPPORTED_NAME_OF: Mapping[Jurisdiction, str] = {
    "HR": "Croatia",
    "NL": "the Netherlands",
    "US": "the United States",
    "EU": "the European Union",
}

"""Known filler: words that carry no fact in a regulatory question ("quick question", "my
accountant says", "ik heb een vraag"). Everything else in a question must be explained by the
answer's concept or the frame; these words need not be. Folded; "*" matches a word's start.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache

from engine.types import Language

_FILLER: Mapping[Language, str] = {
    "hr": """
    pitanje pitanja pitam pitao pitala pitati zanima zanimalo zanimaju molim molio molila
    pozdrav pozdravi pozdravljam hvala unaprijed lijep lijepa lijepo dobar dobra dobro dan
    postovani postovana postovanje bok hej ok okej dakle znaci naime inace uopce tocno tocan
    tocna tocni stvarno zapravo upravo vec jos sad sada onda zatim takoder isto samo ali nego
    ili jer pa te vrijedi vrijede vrijedila vrijedilo vazi vaze vazeci vazeca vazece aktualn*
    primjenjuje primjenjuju primjenjivati primjenjiva primijeniti koristiti koristim vrijediti
    biti bude budem imati imam imamo ima imaju imao imala mogu moze mozemo moci netko nesto
    ista ikakv* nekakv* neki neka neko mali mala malo malu malog male veliki velika novi nova
    novo novu sluzben* informacij* info podatak podatke podaci savjet kolega kolegica kolege
    knjigovod* racunovod* klijent* supruga suprug muz zena obitelj sin kci reci kazite recite
    otac oca ocu majka majke majci mama tata djed djeda djedu baka bake baki brat brata sestra
    sestre roditelj* punac punica svekar svekrva
    objasni objasnite objasniti pojasni pojasnite pojasniti provjeri provjeriti provjera
    potvrditi potvrdite vezano vezan glede oko vezi odnosu trebati htio htjela htjeli zelim
    zeljela zelio znam znati ne znam vidio vidjela cuo cula procitao procitala negdje internet
    stranici stranica opcenito generalno trenutni trenutna trenutno sadasnj* ukupno iznosi
    iznositi iznosila iznosio radim radimo raditi radi posao poslovanje poslujem poslujemo
    otvorio otvorila otvoriti otvaram pokrenuo pokrenula pokrenuti planiram planiramo
    namjeravam firmu firma posla djelatnost djelatnosti bavim bavi usluge uslugu usluga
    proizvod* prodajem prodajemo prodaja kupac kupci godinu godine godina godini mjesec
    mjeseca mjesecu danas hrvatskoj hrvatska rh propis propisi propisima zakon zakonu zakona
    pravilo pravila prema nasem nas nasa vas vasa vasem vama koliko kako kada gdje gdje
    odgovor odgovorite trebao trebala euro eura eur eure eurima kuna kune kunama kn hrk
    ide idu iznad ispod preko manje vise više oko otprilike cca tek vec upravo jos uvijek
    plus kao kako sto sta sve svi svaki svaka svako svakog jedan jedna jedno jednog jedne jednu
    dva dvije tri par nekoliko puno malo dosta jako vrlo stvarno zaista tocno bas ba
    tamo ovdje sada onda tada prije poslije kasnije ranije nedavno uskoro danas jucer sutra
    moze mogu mozemo morao morala morali morati moramo moraju mora trebao trebala trebali
    trebam trebamo trebaju zelim zelimo htio htjela znam znamo vidim vidio vidjela cujem
    procitao procitala kaze kazu rekao rekla pita pitala pitali citao citam gledam gledao
    radim radimo radi radio radila rade dobio dobila dobili dobivam dobivamo imao imala
    imali usao usla usli ulazim izasao otvorio otvorila zatvorio planiram planiramo
    namjeravam razmisljam mislim mislio mislila nisam nije nismo niste nisu jesam jesmo
    prijatelj prijateljica kolegi kolegica sestra brat mama tata otac majka muz zena
    suprug supruga djeca dijete obitelj klijent klijenta klijentu klijentica klijenti
    knjigovoda knjigovodja racunovoda racunovodja savjetnik savjetnica porezni porezna
    porezne poreznu poreznom poreznoj usluge usluga uslugu usluzne proizvod proizvodi roba
    robe robu robom stvar stvari nacin situacija slucaj primjer npr odnosno tj itd
    prvi put prvu vez vezi vezano vezan glede pogledu odnosu smislu inace uopce zapravo
    godisnje godisnji godisnja mjesecno mjesecni mjesecna tjedno dnevno mjesec mjeseci
    bruto neto iznose visoka visok visoko niska nisko veci veca manji manja najveci
    posao poslu firma firmi firmu tvrtka tvrtki privatn* drzavn* radnik radnici zaposlen
    platna platnu platnoj listi listu lista obracun obracuna obracunavam obracunava
    placa place placi placu plata plate godisnj* mjesecn* razdobl* postoje postoji postojati
    odnosi odnose odnosila odnosio odnosilo pravo prava pravu imaju ima imati
    vecin* najvecih najvecem najvise uglavnom vecinom
    oib iban
    """,
    "nl": """
    vraag vraagje vragen graag bedankt alvast dank groet groeten hallo hoi beste goedemiddag
    goedemorgen goedenavond weet weten iemand wij onze ons zaak bedrijf bedrijfje werk werken
    werkt gestart starten begonnen beginnen plan plannen wil willen kan kunnen zou gelden geldt
    gold golden toepassing toegepast toepassen huidig huidige actueel actuele tegenwoordig
    momenteel precies eigenlijk echt even nog ook klant klanten boekhouder accountant partner
    vrouw man echtgenote echtgenoot collega info informatie uitleg uitleggen vertel vertellen
    vader moeder opa oma broer zus ouders schoonvader schoonmoeder
    check checken klopt kloppen correct juist officieel officiele gelezen gehoord gezien
    internet site website nederland nederlandse belastingdienst regel regels wet wetgeving
    hebben heb heeft had hadden doen doe zijn ben bent was waren worden wordt werd klein
    plus kleine nieuw nieuwe jaar maand vandaag ondernemer ondernemers onderneming verkoop verkoopt
    verkopen product producten dienst diensten lever leveren levert betreft over rond omtrent
    zitten zit situatie geval welke wat hoeveel bedraagt bedragen hoog euro eur
    per boven onder over meer minder ongeveer circa ruim bijna net pas al nog steeds weer
    keer elke elk ieder iedere een twee drie paar aantal veel weinig erg heel echt zeker
    daar hier toen dan nu straks eerder later vroeger onlangs binnenkort gisteren morgen
    gaat ga gaan ging gingen komt komen kwam krijg krijgt krijgen kreeg hoorde hoor hoort
    zie zag denk denkt dacht weet wist zoek zoekt zocht lees las bedoel bedoelt mag mocht
    moest moesten kon konden wilde wilden zal zullen zou zouden laat laten blijf blijft
    blijven staat stond loopt liep valt viel geldt golden hoort hoorde begint begon
    vriend vriendin moeder vader broer zus kind kinderen familie buurman buurvrouw
    klant klanten opdrachtgever boekhouder adviseur accountant werkgever baas collega
    eigen mijzelf mezelf zelf zelfs samen alleen ook alsof terwijl omdat want dus toch
    manier situatie voorbeeld bijvoorbeeld namelijk oftewel enzovoort met zonder tussen
    binnen buiten tijdens sinds volgens vanwege
    jaarlijks maandelijks wekelijks bruto netto hoge lage groot grote klein kleine
    jaren maanden weken dagen dag week vandaag nieuwe oude oud nieuw
    diensten dienst goederen producten product levering leveringen verkoop
    meeste merendeel meerderheid grootste
    bsn iban
    """,
    "en": """
    question questions quick hi hello hey thanks thank please wondering wonder wondered know
    want wanted trying try figure find out tell explain confirm check correct right exact
    exactly current actual actually official officially really just still already also too
    someone anyone friend colleague client clients customer customers wife husband partner
    son daughter family advisor adviser accountant bookkeeper planner financial apply applies
    father mother dad mom mum parent parents grandfather grandmother grandpa grandma brother
    sister uncle aunt spouse in-laws level levels
    applied applicable valid rule rules regulation regulations law laws info information
    details detail online website read heard saw seen see look looking plan planning going
    get got make made work working run running own small big new start started starting open
    opened business businesses firm shop store sell selling sells sold product products
    service services year years month months anything something general generally overall
    total basically guess assume think thought correct amount is are would could should can
    may might will shall say says said told hear heard advice mean means meaning regarding
    concerning about re us u.s united states america american irs government federal official
    plus exactly approximately roughly around approx currently presently euro euros eur dollar
    dollars usd kuna per each every over above below under more less than most least about
    around nearly almost just only even still again already yet soon later earlier ago
    then there here now today tomorrow yesterday once twice one two three couple few many
    much lot lots very really quite pretty sure surely certainly definitely actually
    maybe perhaps probably anyway though although because since while whereas so thus
    get gets got getting go goes going went come comes came take takes took taking put
    puts putting give gives gave keep keeps kept let lets say says said see sees saw
    hear hears heard think thinks thought want wants wanted need needs needed know knows
    knew try tries tried ask asks asked tell tells told mean means meant help helps
    helping helped use uses used using pay pays paid work works worked working live lives
    lived living move moving moved turn turns turned turning claim claiming claimed
    collect collecting wait waited waiting plan plans planned thinking wondering hoping
    friend friends mom dad mother father wife husband son daughter kid kids child children
    parent parents brother sister neighbor neighbour family spouse partner colleague boss
    client clients customer customers accountant advisor adviser planner preparer cpa
    job jobs company employer work office payroll payslip paycheck salary wage wages
    annual annually yearly monthly weekly daily gross net high low big bigger small smaller
    extra additional normal regular usual standard basic new old current previous
    services service goods products product sale sales business businesses self myself
    yourself ourselves own way case example instance thing things stuff kind sort type
    ssn iban
    """,
}


# Units of time, "per", "applies" and the particles of English phrasal verbs ("max out", "start
# collecting") are generic even where a concept's name uses them ("RMDs after the first year",
# "po godini", "welk tarief geldt"): they never name another fact.
_GENERIC = frozenset(
    """
    year years yearly jaar jaren jaarlijks godina godine godini godinu godinama dan dana danu
    day days dag dagen month months maand maanden mjesec mjeseca mjesecu week weeks tjedan per
    old older oude oud vorige previous former earlier ranije prije stari stara staru staroj
    starog prijasnji prijasnja prethodni prethodna prethodno prethodnog prethodnom
    geldt gelden gold golden geldend geldende vrijedi vrijede vrijedio vrijedila vrijedilo
    vazi vaze apply applies applied applicable
    start starts started starting begin begins began beginning out up max drop dropped
    collect collecting collected because ligt liggen lag starten begin beginnen begint
    woon wonen woont live lives living lived zivim zivi zivimo zive
    ontvangen ontvang ontvangt
    """.split()
)


def is_generic(text: str) -> bool:
    return text in _GENERIC


@cache
def _table(language: Language) -> tuple[frozenset[str], tuple[str, ...]]:
    entries = _FILLER[language].split()
    return (
        frozenset(e for e in entries if not e.endswith("*")),
        tuple(e[:-1] for e in entries if e.endswith("*")),
    )


@lru_cache(maxsize=1 << 16)
def is_filler(text: str, language: Language) -> bool:
    """Whether the folded word is known filler in `language`."""
    exact, stems = _table(language)
    return text in exact or text.startswith(stems) if stems else text in exact

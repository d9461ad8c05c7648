"""Function words and question filler per language, folded (no diacritics, lowercase).

Country and place names are deliberately absent: "Hrvatska" or "Nederland" tell concepts apart.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.types import Language

_CROATIAN = """
a ako ali bas bi bih bila bile bili bilo bio biti bok bude budu ce cemo cete ciji cija cije cu
cemu da dakle do gdje ga hvala i ih ili im ima imam imamo imaju imas imate iz iza izmedu ja jer
je jesam jesi jest jeste jesu jos joj ju kad kada kako kakav kakva kakve kakvi kakvo kazi kazite
kod koja koje koji kojeg kojega kojem kojemu kojih kojim kojima kojoj koju kolika kolike koliki
koliko koliku kolka kolke kolki kolko kolku kroz li lijepo me medu meni mene mi mogu moj moja moje
moji moze mozes mozete molim moram moramo moras morate mora mu na nad nakon nam nama nas ne nego
nesto neki nekoj ni nije nisam nisu njega njemu njen njena njezin njih njihov njima njoj nju no o
od odnosno ona one oni ono onaj ova ovaj ove ovi ovo pa po pod pozdrav pri prije pa recite reci sa
sad sada sam sama samo se sebe si smo sta ste sto su sva sve svi svih svoj svoja svoje s ta taj
tako te tebe tebi ti tj to toga tome tko trebam treba trebati trenutno trenutacno u uz vam vama vas
vec vi vrlo za zanima zanimaju zasto zbog znam zna znati npr itd
"""

_DUTCH = """
bijv iets haar zich mezelf jezelf
aan al alle alles als alstublieft alsjeblieft aub ben bent bij bedankt daar dan dank dat de deze
die dit door dus een eigenlijk en er even geen graag had hallo heb hebben hebt heeft het hier hij
hoe hoeveel hoelang hoi hun ik in is ja je jij jou jouw jullie kan kun kunnen kunt maar mag me
hem hen mij mijn moet moeten mogen na naar nee niet nog nu of om ons onze ook op over precies
te tot u uit uw van vertel vertellen voor vraag waar waarom wanneer wat we weet weten welk
welke wel werd wie wij wil willen word wordt worden ze zal zeg zij zijn zo zou zullen
"""

_ENGLISH = """
eg ie etc because before
a about all also am an and any are as at be been being by can could currently current d did do does
for from get give had has have he hello her hers hey hi him his how i if in into is it its just
know let ll m me mine much many must my need no not now of on or our please re s shall she should so
some still t tell thank thanks than that the their them then there these they this those to today
us ve was we were what whats when where which who whom whose why will with would you your
"""

STOPWORDS: Mapping[Language, frozenset[str]] = {
    "hr": frozenset(_CROATIAN.split()),
    "nl": frozenset(_DUTCH.split()),
    "en": frozenset(_ENGLISH.split()),
}

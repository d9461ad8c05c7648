"""Names of the jurisdictions Navod covers, as words: they say where, not what, so a question's
"u Hrvatskoj" or "in the Netherlands" needs no concept to explain it."""

from __future__ import annotations

from functools import lru_cache

_PLACE_STEMS = (
    "hrvatsk", "croatia", "kroati", "nizozemsk", "netherland", "nederland", "holland", "dutch",
    "americ", "amerik", "sjedinjen",
)  # fmt: skip
# The EU is not among them: "EU-KOR" names a Dutch scheme for EU businesses.
_PLACE_WORDS = frozenset({"rh", "nl", "usa", "us", "hr", "state", "states", "united"})


@lru_cache(maxsize=1 << 12)
def is_place(text: str) -> bool:
    return text in _PLACE_WORDS or text.startswith(_PLACE_STEMS)

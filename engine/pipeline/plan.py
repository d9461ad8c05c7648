"""Stage: the plan of asks. A question may ask several things — several facts named together,
one fact for several years, a change between two dates — and each becomes an ask of its own,
answered on its own date (engine/pipeline/runner.py) and composed into one response
(engine/pipeline/joint.py).

The reading says where a coordination joins two parts and which years are asked
(engine/understanding/asks.py); the knowledge base says whether each part names a fact.
A part that names nothing on its own is completed by its neighbour the way an elliptic
follow-up is ("opća i snižena stopa" → "opća stopa" and "snižena stopa"; "the 401k limit and
the catch-up" → "the 401k catch-up"). The parts become asks only when each names a fact of its
own (a coordination inside one fact's name, "kruh i mlijeko", stays one ask), together they
name at least what the whole question did, and none is a repeat; when the whole question
named nothing answerable, the parts that do are answered and the others are named as not
understood. Deterministic; reads no clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from engine.pipeline.state import Ask, Matching, Plan, StageResult, State
from engine.types import Question
from engine.understanding.asks import YearsAsked, mentions_year
from engine.understanding.qualifiers import qualifier_of

# Refusals of the whole question that its parts may still answer: a word the whole did not
# explain, or several meanings, may belong to one part only.
_PARTS_MAY_ANSWER = frozenset({"NO_CITABLE_RULES", "NEEDS_CLARIFICATION"})
MAX_ASKS = 8  # asks of one question: a longer coordination is read whole; years × parts are cut
MAX_TIED = 3  # a part naming a small tie ("snižena": the 13 % and the 5 % rate) asks them all
Read = Callable[[Question], State]  # the reading stages, up to the match, of another text


def plan_asks(state: State, read: Read) -> StageResult:
    """The asks of the question, or no plan when it asks one thing (the usual case)."""
    analysis, matching = state.analysis, state.matching
    if analysis is None or analysis.reading is None or matching is None or state.as_of is None:
        return StageResult({}, "one ask")
    reading = analysis.reading
    question = state.question
    if state.refusal is not None and state.refusal.reason not in _PARTS_MAY_ANSWER:
        return StageResult({}, "one ask")  # advice, another country: refused whatever the parts
    parts = None
    if reading.conjuncts and not question.pinned_concepts:
        parts = _parts(state, read)
    years = reading.years
    if parts is None and years is None:
        return StageResult({}, "one ask")
    whole = Ask("", matching, state.as_of, state.as_of_origin, None, state.refusal)
    asks = parts or (whole,)
    if years is not None and all(a.refusal is None for a in asks):
        asks = tuple(_for_year(a, year, state.question.today) for a in asks for year in years.years)
    asks = asks[:MAX_ASKS]
    if len(asks) < 2:
        return StageResult({}, "one ask")
    change = years is not None and years.change and len(parts or ()) < 2
    plan = Plan(asks, change)
    answerable = [a for a in asks if a.refusal is None]
    changes: dict[str, object] = {"plan": plan}
    if answerable:  # each ask is answered or refused on its own from here
        changes["refusal"] = None
        changes["matching"] = _joint(matching, answerable)
    return StageResult(
        changes,
        f"{len(asks)} asks: "
        + "; ".join(_describe(a) for a in asks)
        + (" (and the change)" if change else ""),
    )


def _describe(ask: Ask) -> str:
    named = ", ".join(m.concept for m in ask.matching.chosen) or "nothing"
    when = f" in {ask.year}" if ask.year is not None else ""
    return f"{ask.words or named}{when} → {named}" + (" (refused)" if ask.refusal else "")


def _joint(matching: Matching, asks: list[Ask]) -> Matching:
    """The whole question's matching: every concept an ask names, in the asks' order."""
    chosen = {m.concept: m for a in asks for m in a.matching.chosen}
    return replace(matching, chosen=tuple(chosen.values()), candidates=())


def _for_year(ask: Ask, year: int, today: date) -> Ask:
    """The ask for one year: the day the year's rules are read on, as a question naming that
    year alone would have it (today in the current year, else 1 January)."""
    day = today if year == today.year else date(year, 1, 1)
    return replace(ask, as_of=day, as_of_origin="question_year", year=year)


# ---- Conjuncts


def _parts(state: State, read: Read) -> tuple[Ask, ...] | None:
    """The conjuncts as asks, when the knowledge base says each names a fact (see above)."""
    assert state.analysis is not None and state.analysis.reading is not None
    reading = state.analysis.reading
    if len(reading.conjuncts) > MAX_ASKS:
        # a pasted list of dozens of figures is no set of asks; each part would be read and
        # matched again (four times when completed), so it is read whole, as asked
        return None
    folded = state.analysis.folded
    texts = [folded[c.start : c.end].strip(" ,;:") for c in reading.conjuncts]
    alone = [read(_question(state, text)) for text in texts]
    readings = [_named(found) for found in alone]
    for index, found in enumerate(readings):
        if found is not None:
            continue
        tries = [
            _rest(texts[other], alone[index], alone[other], without_cues)
            for other in (index + 1, index - 1)
            if 0 <= other < len(texts)
            for without_cues in (False, True)
        ]
        for rest in dict.fromkeys(tries):
            completed = _named(read(_question(state, f"{texts[index]} {rest}")))
            if completed is not None:
                readings[index] = completed
                break
    named = [r for r in readings if r is not None]
    if len(named) < len(readings) or len(named) < 2:
        return None  # a part that names nothing: the question is read whole, as asked
    concept_sets = [frozenset(m.concept for m in r.matching.chosen) for r in named if r.matching]
    if len(set(concept_sets)) < len(concept_sets):
        return None  # two parts naming the same facts: one thing, said twice
    whole = frozenset(m.concept for m in (state.matching.chosen if state.matching else ()))
    union = frozenset().union(*concept_sets)
    if state.refusal is None and whole != union and not (len(whole) > 1 and whole < union):
        # answered whole: the parts may only say how it divides ("the 401k limit and the
        # catch-up"), not read a fact into it the whole did not name ("stopa PDV-a na smještaj"
        # is not also the general rate; "For each year I wait past full retirement age, how
        # much …" asks no retirement age); when the whole already read several facts, a part
        # it dropped is one more fact asked ("opća stopa PDV-a, prag, minimalna plaća i …")
        return None
    asks: list[Ask] = []
    for text, found in zip(texts, named, strict=True):
        as_of, origin = (
            (found.as_of, found.as_of_origin)
            if mentions_year(text) and found.as_of is not None
            else (_as_of(state), state.as_of_origin)
        )
        assert found.matching is not None
        asks.append(Ask(text, found.matching, as_of, origin))
    return tuple(asks)


def _as_of(state: State) -> date:
    assert state.as_of is not None
    return state.as_of


def _question(state: State, text: str) -> Question:
    """A part of the question as a question of its own: the whole's language, date and facts."""
    question = state.question
    as_of = question.as_of if mentions_year(text) else (question.as_of or state.as_of)
    language = state.analysis.language if state.analysis is not None else question.language
    return replace(question, text=text, as_of=as_of, language=language)


def _named(found: State) -> State | None:
    """The part's reading when it names a fact (or a small tie of one family), else None."""
    matching = found.matching
    if matching is None or not matching.chosen:
        return None
    if found.refusal is None:
        return found
    if found.refusal.reason != "NEEDS_CLARIFICATION":
        return None
    tied = (matching.chosen[0], *matching.candidates)
    families = {found.snapshot.concepts[m.concept].family for m in tied}
    if len(tied) > MAX_TIED or len(families) != 1 or families == {""}:
        return None
    return replace(found, refusal=None, matching=replace(matching, chosen=tied, candidates=()))


def _rest(text: str, part: State, neighbour: State, without_cues: bool) -> str:
    """`text` (the neighbouring part) without what the elliptic part says for itself: the
    neighbour's qualifiers of the kinds the part names ("snižena" when the part says "opća")
    and, when the part asks a thing of its own (a cue: "prag"), the neighbour's cues
    ("stopa"); `without_cues`: the neighbour's cues whatever the part asks ("schijfgrens en
    tarieven": the part names its own thing)."""
    reading = part.analysis.reading if part.analysis is not None else None
    other = neighbour.analysis.reading if neighbour.analysis is not None else None
    kinds = {q.kind for q in reading.qualifiers} if reading is not None else set()
    own_cue = reading is not None and reading.attribute not in ("any", "magnitude")
    cues = (
        {w for cue in other.cue_words for w in cue.split()}
        if (own_cue or without_cues) and other is not None
        else set()
    )
    kept = []
    for word in text.split():
        plain = word.strip(".,;:?!()")
        found = qualifier_of(plain)
        if plain not in cues and (found is None or found[0] not in kinds):
            kept.append(word)
    return " ".join(kept)


__all__ = ["MAX_ASKS", "YearsAsked", "plan_asks"]

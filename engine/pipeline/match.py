"""Stage 3: match the question to concepts, and answer only when the whole question is
accounted for.

Candidates are the concepts with an alias that clears the scoring threshold (scoring.py) and
the concepts whose names explain every knowledge-base word of the question. Only those whose
value answers the asked attribute compete (engine/understanding/compatibility.py); the reading
that leaves the fewest words unexplained wins, then the one explaining most of the question.
Several that explain the same words are one family answered together ("snižene stope
PDV-a"), or unrelated meanings that need a clarification ("pdv"). A plural question about a
family answers every member. Finally every content word must be accounted for
(engine/understanding/account.py), else the answer is withheld: an understood qualifier no
rule covers is NO_CITABLE_RULES, an unknown word NEEDS_CLARIFICATION, both naming the words and
what Navod does know.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from functools import partial
from heapq import nsmallest

from engine.contract import RefusalReason
from engine.evolve import evolve
from engine.pipeline import lexicon
from engine.pipeline.scoring import CANDIDATE_FLOOR, MAX_OFFERED, THRESHOLD, rank, score_aliases
from engine.pipeline.state import ConceptMatch, Decision, Matching, StageResult, State
from engine.snapshot import Snapshot
from engine.text.normalize import fold, refold
from engine.text.tokens import is_verb
from engine.types import Concept
from engine.understanding.account import (
    Account,
    Subject,
    account,
    aspect_is_context,
    conditional,
    joint_subject,
)
from engine.understanding.advice import asks_for_advice
from engine.understanding.compatibility import answers
from engine.understanding.frame import Attribute, Frame, Qualifier, Reading
from engine.understanding.words import Word

EXACT = 0.95  # an alias matched word for word, a corrected typo ("stopa pvd-a") included
MARGIN = 0.1  # how far a rival on the same words must trail the top concept
# The country a Croatian or Dutch question is about when it names none; English names none.
HOME: dict[str, str] = {"hr": "HR", "nl": "NL"}  # the country a language asks about
MAX_CONCEPTS = 4  # concepts answered at once (a family, or two facts asked together)
_WORDS = re.compile(r"[^\W_]+")
_BOX = re.compile(r"\bbox\s?([123])\b")
_RANGE = re.compile(
    r"(?<![\d.,])(\d{1,3})\s*(?:-|–|to|through|until|tot en met|t/m|tot|do)\s*"
    r"(\d{1,3})(?![\d.,])"
)
MAX_RANGE = 50  # a longer run of numbers is no list of table rows
_PROSE: frozenset[str] = frozenset({"how", "text"})  # answers that explain rather than state
_DATES: frozenset[str] = frozenset({"date", "deadline"})  # answers that are a day
RERANKED = 6  # candidates whose readings are accounted for before choosing
MAX_READINGS = 256  # more concepts than this sharing the question's words: no one reading


@dataclass(frozen=True, slots=True)
class Question:
    """What the choice reads: the question's reading, words and keys, and the knowledge."""

    reading: Reading
    words: tuple[Word, ...]
    content: frozenset[str]  # keys nothing but a concept can explain
    corrections: dict[str, str]
    snapshot: Snapshot
    language: str
    named: frozenset[str]  # the covered jurisdictions the question names or implies
    as_of: date | None = None
    text: str = ""  # the question's words, folded, one space apart (see _plain)
    boxes: frozenset[str] = frozenset()  # the Dutch income-tax boxes it names ("box 2")
    numbers_between: frozenset[str] = frozenset()  # every number of a range ("ages 72-75")
    # accounts already made, by (concepts, strict): ranking and the final check share them
    accounts: dict[tuple[tuple[str, ...], bool], Account] = field(default_factory=dict)
    sentence_keys: dict[frozenset[int], frozenset[str]] = field(default_factory=dict)

    def outside_box(self, slug: str) -> bool:
        """A concept of another box than the one named ("box 2 rates": not box 1's)."""
        boxes = self.snapshot.concept_boxes.get(slug)
        return bool(self.boxes and boxes and not boxes & self.boxes)

    def in_force(self, slug: str) -> bool:
        """Whether a published rule of the concept is in force on the as-of date."""
        day = self.as_of
        return day is None or any(
            r.status == "PUBLISHED" and r.in_force_on(day)
            for r in self.snapshot.rules_by_concept.get(slug, ())
        )

    def asking_keys(self, situation_too: bool = False) -> frozenset[str]:
        """The content keys of the sentences that ask (of every sentence when those name no
        fact: "(…) the deadline for this year's RMD. When is it due?"); without categories
        and parties (which say who asks, not what) unless `situation_too`."""
        reading = self.reading
        situation = {q.key for q in reading.qualifiers if q.kind in ("category", "party")}
        asked = self.keys_in(reading.question_sentences)
        named = (asked - reading.cue_keys) & self.snapshot.concepts_by_key.keys()
        if reading.question_sentences and not named:  # "By what percentage per year?"
            asked = self.keys_in(frozenset())
        return asked if situation_too else asked - situation

    def keys_in(self, sentences: frozenset[int]) -> frozenset[str]:
        """The content keys of `sentences` (of every sentence when empty); asked several times
        per question, read once."""
        found = self.sentence_keys.get(sentences)
        if found is None:
            found = self.sentence_keys[sentences] = self._read_keys(sentences)
        return found

    def _read_keys(self, sentences: frozenset[int]) -> frozenset[str]:
        starts = self.reading.sentences
        keys = {
            self.corrections.get(w.key, w.key)
            for w in self.words
            if w.key is not None
            # a number counts as a name ("box 3", "60-63"), not as a value ("73 or 75")
            and (not w.key.isdigit() or w.key in self.snapshot.concepts_by_key)
            and (not sentences or bisect_right(starts, w.start) in sentences)
        }
        return frozenset(keys & self.content)

    def conditional_keys(self) -> frozenset[str]:
        """The keys of a condition the asker states ("if I'm in the top bracket")."""
        words = conditional(self.words, self.reading.sentences)
        return frozenset(self.corrections.get(w.key, w.key) for w in words if w.key is not None)

    def subject(self, slugs: list[str], strict: bool = False) -> Subject:
        # each concept's part is in the snapshot; the question adds its typos and strictness
        found = joint_subject([self.snapshot.subjects[s] for s in slugs])
        corrected = frozenset(typo for typo, key in self.corrections.items() if key in found.keys)
        if corrected or strict:
            found = evolve(found, keys=found.keys | corrected, strict=strict)
        return found

    def account(self, slugs: list[str], strict: bool = False) -> Account:
        # A word names another fact when it is the head of some concept's names; a word an
        # alias merely contains ("how to join the kor") names nothing on its own.
        found = self.accounts.get((tuple(slugs), strict))
        if found is None:
            known = self.snapshot.head_keys.__contains__
            subject = self.subject(slugs, strict)
            found = account(
                self.words,
                self.reading,
                subject,
                known,
                self._sibling(slugs),
                partial(is_verb, language=self.language),
            )
            self.accounts[(tuple(slugs), strict)] = found
        return found

    def _sibling(self, slugs: list[str]) -> Callable[[Qualifier], bool]:
        """Whether another concept of the same country names a party or category the question
        states, and every head word the question says of `slugs`, and answers what is asked:
        then the qualifier picks that concept ("doprinosi za paušaliste, do kojeg dana": the
        paušalist's deadline, not the one for contributions on a salary)."""
        snapshot = self.snapshot
        mine = frozenset(slugs)
        heads = frozenset().union(*(snapshot.concept_heads.get(s, frozenset()) for s in slugs))
        said = [k for k in self.keys_in(frozenset()) if k in heads]
        asked = _specific(self.reading)
        kins = {_kin(snapshot.concepts[s]) for s in slugs}
        by_key, named = snapshot.concepts_by_key, snapshot.concept_qualifiers

        def names(qualifier: Qualifier) -> bool:
            if not said:
                return False
            others = by_key.get(qualifier.key, frozenset())
            for key in said:
                others = others & by_key.get(key, frozenset())
            wanted = (qualifier.kind, qualifier.value)
            return any(
                other not in mine
                and wanted in named.get(other, frozenset())
                and _kin(snapshot.concepts[other]) in kins
                and answers(snapshot.answer_kinds.get(other, frozenset()), asked)
                for other in others
            )

        return names


def _kin(concept: Concept) -> tuple[str, str]:
    """Concepts of one country and family (or domain, outside a family) are kin."""
    return concept.jurisdiction, concept.family or concept.domain


def match_concepts(state: State) -> StageResult:
    analysis, classification = state.analysis, state.classification
    assert analysis is not None and classification is not None
    assert analysis.reading is not None
    snapshot, reading = state.snapshot, analysis.reading
    pinned = tuple(c for c in state.question.pinned_concepts if c in snapshot.concepts)
    if pinned:
        chosen = tuple(ConceptMatch(c, 1.0, "pinned", frozenset()) for c in pinned)
        frame = _frame(reading, pinned, None, snapshot, classification.named)
        return StageResult(
            {"matching": Matching(chosen=chosen, candidates=(), frame=frame)},
            "pinned " + ", ".join(pinned),
            {"scores": [{"concept": c, "score": 1.0, "alias": "pinned"} for c in pinned]},
        )
    if asks_for_advice(analysis.folded, analysis.language):
        # "Je li pametnije ostati u drugom stupu?": a rule's value would not answer it
        frame = _frame(reading, (), None, snapshot, classification.named)
        return StageResult(
            {
                "matching": Matching((), (), frame),
                "refusal": Decision("OUT_OF_SCOPE", {"advice": True}),
            },
            "asks for advice",
        )
    corrections = state.corrections
    keys = {corrections.get(k, k): (0.9 if k in corrections else 1.0) for k in analysis.keywords}
    scored = score_aliases(keys, snapshot, classification.named)
    question = Question(
        reading,
        analysis.words,
        frozenset(keys) - (reading.explained - reading.cue_keys),
        dict(corrections),
        snapshot,
        analysis.language,
        frozenset(classification.named),
        state.as_of,
        " ".join(_WORDS.findall(refold(analysis.folded))),  # as _plain, the fold made once
        frozenset(_BOX.findall(analysis.folded)),
        _numbers_between(analysis.folded),
    )
    candidates = [
        m
        for m in _with_full_cover(scored, question, classification.named)
        if not question.outside_box(m.concept)
    ]
    decision, chosen, rivals, family = _choose(candidates, question)
    frame = _frame(
        reading, tuple(m.concept for m in chosen), family, snapshot, classification.named
    )
    if decision is None and chosen:
        decision, frame = _accounted(question, chosen, frame)
    if decision is None and not chosen:
        decision = _nothing_chosen(analysis.tokens, scored, question)
    unknown = _unknown_words(question)
    if decision is not None and decision.reason == "NEEDS_CLARIFICATION" and unknown:
        # "porez na nasljedstvo", "zelfstandigenaftrek": a fact no pack holds, not a vague one
        offered = [m.concept for m in (*chosen, *rivals)] or decision.detail.get("candidates", [])
        decision = Decision("NO_CITABLE_RULES", {"uncovered": unknown, "known": offered})
        chosen, rivals = (), ()
    changes: dict[str, object] = {"matching": Matching(chosen, rivals, frame)}
    if decision is not None:
        changes["refusal"] = decision
    return StageResult(
        changes,
        "chose "
        + (", ".join(m.concept for m in chosen) or "nothing")
        + (f" (family {family})" if family else "")
        + (f"; tied with {', '.join(m.concept for m in rivals)}" if rivals else "")
        + (f"; unexplained {list(frame.unexplained)}" if frame.unexplained else "")
        + (f"; uncovered {[q.words for q in frame.uncovered]}" if frame.uncovered else ""),
        {
            "scores": [
                {"concept": m.concept, "score": round(m.score, 3), "alias": m.alias}
                for m in candidates[:5]
            ],
        },
    )


def _with_full_cover(
    scored: list[ConceptMatch], question: Question, named: frozenset[str]
) -> list[ConceptMatch]:
    """The scored aliases, plus every concept whose names explain all the knowledge-base words
    of the question: a reading of the whole question, even in words no single alias has."""
    snapshot = question.snapshot
    asking = question.asking_keys()
    words, found = _named_by_all(asking, snapshot)
    cues = asking & question.reading.cue_keys
    if not found and cues and asking - cues:
        # "Hoe hoog is de S&O-aftrek?": a word saying what is asked need not be in the names
        words, found = _named_by_all(asking - cues, snapshot)
    if (
        not found or len(found) > MAX_READINGS
    ):  # "limit": a word in thousands of names reads as none
        return scored
    strong = {m.concept for m in scored if m.score >= THRESHOLD}
    said = frozenset(words)
    # The words name a concept when they hold its head word ("Part B premium" is not the
    # late-enrolment penalty), or when exactly the members of one family have them all ("de
    # tarieven in box 1": the three bracket rates, whose heads are "schijf")
    families = {snapshot.concepts[slug].family for slug in found}
    (family, *_) = families
    one_family = (
        len(found) > 1
        and len(families) == 1
        and found == set(snapshot.families.get(family, ()) if family else ())
    )
    extra = [
        ConceptMatch(slug, THRESHOLD, "", said)
        for slug in sorted(found - strong)
        if (not named or snapshot.concepts[slug].jurisdiction in named)
        and (one_family or snapshot.concept_heads.get(slug, frozenset()) & said)
    ]
    weak = [m for m in scored if m.concept not in found or m.concept in strong]
    return sorted([*weak, *extra], key=rank)


def _named_by_all(keys: frozenset[str], snapshot: Snapshot) -> tuple[list[str], frozenset[str]]:
    """The knowledge-base words among `keys`, and the concepts whose names hold them all."""
    words = sorted(
        (k for k in keys if k in snapshot.concepts_by_key),
        key=lambda k: len(snapshot.concepts_by_key[k]),
    )
    if not words:
        return words, frozenset()
    found = snapshot.concepts_by_key[words[0]]  # intersected, never copied whole
    for key in words[1:]:
        found = found & snapshot.concepts_by_key[key]
        if not found:
            break
    return words, found


def _choose(
    scored: list[ConceptMatch], question: Question
) -> tuple[Decision | None, tuple[ConceptMatch, ...], tuple[ConceptMatch, ...], str | None]:
    """(a refusal, the concepts answered, rivals offered, the family answered as a whole)."""
    snapshot, reading, content = question.snapshot, question.reading, question.content
    strong = [m for m in scored if m.score >= THRESHOLD]
    asked = _specific(reading)
    named = content - frozenset(
        q.key for q in reading.qualifiers if q.kind in ("category", "party")
    )
    # a word the knowledge base does not know tells no two readings apart ("this yr")
    said = named & snapshot.concepts_by_key.keys()
    # a lone name answers when a figure is asked ("hoeveel is de arbeidskorting") or the
    # question says nothing else ("toptarief 2027"); not "de regels voor de KOR, wat zijn ze?"
    figure = reading.attribute != "any" or said == named
    if not _any_exact(strong, said, question.text, figure):
        offered = _indistinct(question, asked)
        if offered:  # "pdv", "koji je rok", "What's the catch-up limit?", "VAT rate?"
            detail = {"candidates": [m.concept for m in offered]}
            return Decision("NEEDS_CLARIFICATION", detail), (), tuple(offered), None
    if not strong:
        return None, (), (), None
    kinds = snapshot.answer_kinds
    compatible = [m for m in strong if answers(kinds.get(m.concept, frozenset()), asked)]
    home = HOME.get(question.language)
    if not question.named and home is not None:
        # "Tarief vennootschapsbelasting" asked in Dutch, no country named: Dutch law; another
        # country's concept only when an alias of it is in the question ("IRA-limiet 2025")
        at_home = [m for m in compatible if snapshot.concepts[m.concept].jurisdiction == home]
        compatible = at_home or [m for m in compatible if not _by_names_only(m)]
    if not compatible:  # "Tko plaća porez na dobit?": known, but not who
        known = [m.concept for m in strong][:MAX_OFFERED]
        return (
            Decision("NO_CITABLE_RULES", {"attribute": reading.attribute, "known": known}),
            (),
            (),
            None,
        )
    names = snapshot.concept_keys
    # the asking sentences weigh first; what the other sentences tell ("Dosad smo plaćali
    # nižu stopu.") picks no reading
    asking = question.asking_keys(situation_too=True)
    covered = {m.concept: asking & names.get(m.concept, frozenset()) for m in compatible}
    stated = question.conditional_keys()  # "… als je in de hoogste schijf zit"
    asks = {m.concept: len(covered[m.concept] - stated) for m in compatible}
    whole = question.keys_in(frozenset()) - stated
    ranked = sorted(
        compatible, key=lambda m: (-asks[m.concept], -len(covered[m.concept]), *rank(m))
    )
    blocking = {  # one candidate needs no ranking; _accounted still accounts for it
        m.concept: question.account([m.concept], _by_names_only(m)).blocking if ranked[1:] else 0
        for m in ranked[:RERANKED]
    }
    # "45.000 eura prometa, moram li u PDV?": the threshold the amount is compared with; not
    # when a rate or a date is asked ("prešli smo milijun prihoda, kolika je viša stopa?")
    measured = (
        _measures_stated_amount(reading, snapshot)
        if reading.attribute in ("obligation", "any", "amount", "magnitude")
        else frozenset()
    )
    head = sorted(
        ranked[:RERANKED],
        key=lambda m: (
            not asks[m.concept],  # named only in a condition or a sentence that does not ask
            blocking[m.concept],
            m.concept not in measured,
            # "od kada postoji fiskalizacija gotovinskih računa": a fact that is a date answers
            # "since when" itself; another fact answers it only with the day it took effect
            reading.attribute == "since" and not kinds.get(m.concept, frozenset()) & _DATES,
            -asks[m.concept],
            -len(covered[m.concept]),
            # "Jedini sam član uprave. Koja je najniža plaća?": what the other sentences say
            # picks between readings the asking sentence leaves tied
            -len(whole & names.get(m.concept, frozenset())),
            *rank(m),
        ),
    )
    ranked = head + ranked[RERANKED:]
    top = ranked[0]
    same = [
        m
        for m in ranked
        if covered[m.concept] >= covered[top.concept]
        and blocking.get(m.concept, 0) <= blocking[top.concept]
        and m.score >= top.score - MARGIN
    ]
    if _unnamed(covered[top.concept], reading):
        offered = _one_per_family(_owners(covered[top.concept], scored, snapshot), snapshot)
        detail = {"candidates": [m.concept for m in offered]}
        return Decision("NEEDS_CLARIFICATION", detail), (), tuple(offered), None
    if top.concept in measured and (alone := _measured_alone(same, measured, question)):
        # "Prihod 1.000.000 eura, porez na dobit?": the threshold the stated amount decides,
        # or, unless the threshold itself is asked, the family it splits (compute picks one)
        threshold = snapshot.concepts[alone.concept].threshold
        sides = [threshold.at_or_below, threshold.above] if threshold else []
        if reading.attribute != "amount" and sides and all(s in snapshot.concepts for s in sides):
            split = tuple(ConceptMatch(s, alone.score, alone.alias, alone.matched) for s in sides)
            return None, split, (), snapshot.concepts[sides[0]].family
        return None, (alone,), (), None
    asking = question.asking_keys()
    variants = {q.value for q in reading.qualifiers if q.kind == "variant" and q.key in asking}
    # "Koje su stope…?", and "nižu ili višu stopu?": several members of one family are asked
    # "wat is het maximum, vanaf welk inkomen en met welk percentage?": two attributes asked
    # of one family are its members that answer them
    several = len(reading.asked - {"magnitude", "any", "obligation"}) > 1
    if (reading.plural or len(variants) > 1 or several) and top.concept in snapshot.concepts:
        members = _consistent_members(top.concept, reading, snapshot, asking)
        if several and not reading.plural:
            members = tuple(m for m in members if answers(kinds.get(m, frozenset()), reading.asked))
        members = _numbered(members, question)
        if not members:
            return _no_row(question, top), (), (), None
        if len(members) > 1:
            chosen = tuple(ConceptMatch(c, top.score, top.alias, top.matched) for c in members)
            return None, chosen[: MAX_CONCEPTS * 2], (), snapshot.concepts[top.concept].family
    situation = frozenset(q.key for q in reading.qualifiers)
    if len(same) == 1 or _exact(top, named, same, question.text, figure):
        chosen = (top, *_others(ranked, top, covered, situation | stated, question))
        return None, chosen[:MAX_CONCEPTS], (), None
    family = _family_of(same, snapshot)
    if family is not None:
        # "Arhitektica sam, slobodno zanimanje. Koji je faktor za osnovicu doprinosa?": of
        # members told apart by party, the one for the party the asker says they are
        same = _for_the_party(same, reading, snapshot)
        rows = set(_numbered(tuple(m.concept for m in same), question))
        if not rows:  # "the RMD divisor at age 80": the table rows held are 72 to 75
            return _no_row(question, top), (), (), None
        same = [m for m in same if m.concept in rows]
        return None, tuple(same[: MAX_CONCEPTS * 2]), (), family if len(same) > 1 else None
    # "delayed retirement credits per month": a name matched in more of the question's
    # words than a rival's is the more specific reading, and the rival is no other meaning
    dominant = [m for m in same if not any(m.matched < o.matched for o in same)]
    if top not in dominant and len(dominant) == 1 and dominant[0].score >= top.score:
        top = dominant[0]
    rivals = tuple(
        m for m in same if m is not top and m in dominant and m.score >= top.score - MARGIN
    )
    if not _unsaid_kind(top.concept, question):
        rivals = tuple(m for m in rivals if not _unsaid_kind(m.concept, question))
    if not rivals:
        others = _others(ranked, top, covered, situation | stated, question)
        return None, (top, *others)[:MAX_CONCEPTS], (), None
    detail = {"candidates": [top.concept, *(m.concept for m in rivals)][:MAX_OFFERED]}
    return Decision("NEEDS_CLARIFICATION", detail), (top,), rivals, None


def _unknown_words(question: Question) -> list[str]:
    """The asking words (as written) that no concept of the question's country uses, after
    typo correction: they name something the packs do not hold there ("porez na nasljedstvo u
    Hrvatskoj", known only as a name of the US estate tax; "tarief vennootschapsbelasting",
    a Dutch tax Navod knows only as the name of the Croatian one)."""
    snapshot, asking = question.snapshot, question.asking_keys()
    home = HOME.get(question.language)
    countries = question.named or (frozenset({home}) if home else frozenset())
    # an aspect the reading understood and that does not change what is asked ("hoeveel
    # belasting betaal je": how much, not when to pay) is read, not unknown
    reading = question.reading
    read = {q.key for q in reading.qualifiers if aspect_is_context(q, reading.attribute)}

    def known(key: str) -> bool:
        owners = snapshot.concepts_by_key.get(key, ())
        if not countries:
            return bool(owners)
        return any(snapshot.concepts[o].jurisdiction in countries for o in owners)

    return list(
        dict.fromkeys(
            w.text
            for w in question.words
            if w.key is not None
            and w.key in asking
            and w.key not in read
            and not known(question.corrections.get(w.key, w.key))
        )
    )


def _measured_alone(
    same: list[ConceptMatch], measured: frozenset[str], question: Question
) -> ConceptMatch | None:
    """The threshold the stated amount is compared with: its names hold every head word of
    the question ("paušalni obrt s prihodom…, koliki je porez?" names the paušal, which the
    profit-tax threshold does not), and more of its words, the amount's included ("prihod"),
    than any other threshold's names."""
    snapshot = question.snapshot
    heads = question.asking_keys(situation_too=True) & snapshot.head_keys
    fitting = [
        m
        for m in same
        if m.concept in measured and heads <= snapshot.concept_keys.get(m.concept, frozenset())
    ]
    said = frozenset(w.key for w in question.words if w.key is not None)  # the amount's too
    reach = {
        m.concept: len(said & snapshot.concept_keys.get(m.concept, frozenset())) for m in fitting
    }
    most = max(reach.values(), default=0)
    best = [m for m in fitting if reach[m.concept] == most]
    return best[0] if len(best) == 1 else None


def _measures_stated_amount(reading: Reading, snapshot: Snapshot) -> frozenset[str]:
    """Threshold concepts the asker's stated amount can be compared with."""
    stated = {fact.name for fact in reading.facts} | ({"amount"} if reading.amounts else set())
    return frozenset().union(*(snapshot.measures.get(name, frozenset()) for name in stated))


def _by_names_only(match: ConceptMatch) -> bool:
    """Found because its names hold every word of the question, not by an alias."""
    return match.alias == ""


def _specific(reading: Reading) -> frozenset[Attribute]:
    """The attributes that decide compatibility: the specific ones a cue named ("rate",
    "deadline"), else the generic one ("how much", or nothing said)."""
    generic: frozenset[Attribute] = frozenset({"magnitude", "any", "obligation"})
    if reading.attribute in reading.asked and reading.attribute not in generic:
        return frozenset({reading.attribute})  # "tot welk bedrag geldt het lage tarief"
    if reading.attribute in reading.asked:
        # "How much does it go up … past full retirement age?": what the question word asks,
        # not a cue word inside a name
        return reading.asked
    specific = reading.attributes - generic
    return specific or reading.attributes or frozenset({reading.attribute})


def _others(
    ranked: list[ConceptMatch],
    top: ConceptMatch,
    covered: dict[str, frozenset[str]],
    situation: frozenset[str],
    question: Question,
) -> list[ConceptMatch]:
    """Concepts that a question names as well, by their own alias and head word, in words the
    first one does not explain ("stope PDV-a i prag"): both facts were asked. A word that only
    tells the asker's situation (a party, a category, an aspect) names no second fact, nor does
    a sentence that does not ask ("Čujem da se sve mijenja s Fiskalizacijom 2.0.") or a
    condition ("… als je in de hoogste schijf zit")."""
    heads_of = question.snapshot.concept_heads
    asking = question.asking_keys(situation_too=True)
    chosen = [top]
    for match in ranked[1:]:
        if _by_names_only(match) or len(chosen) >= MAX_CONCEPTS:
            continue
        explained = frozenset().union(*(covered[c.concept] for c in chosen))
        heads = heads_of.get(match.concept, frozenset())
        if (covered[match.concept] & asking - explained - situation) & match.matched & heads:
            chosen.append(match)
    return chosen[1:]


def _any_exact(
    strong: list[ConceptMatch], content: frozenset[str], text: str, figure: bool
) -> bool:
    """Whether some alias names the question exactly (`_exact`), in one pass: a question
    whose one word is in thousands of names ("limit") costs no more than one that is not."""
    high = [m for m in strong if m.score >= EXACT]
    alike = Counter(m.matched for m in high)
    return any(
        m.matched >= content and _whole(m, text, content, figure) and alike[m.matched] == 1
        for m in high
    )


def _exact(
    match: ConceptMatch,
    content: frozenset[str],
    same: list[ConceptMatch],
    text: str,
    figure: bool,
) -> bool:
    """The question names this concept exactly: its alias is the question's content (who asks
    aside: "Paušalistica, paušalni dohodak?"), and no other concept has that name ("snižena
    stopa PDV-a" is the 13 % and the 5 % rate)."""
    alike = [m for m in same if m.score >= EXACT and m.matched == match.matched]
    return (
        match.score >= EXACT
        and match.matched >= content
        and _whole(match, text, content, figure)
        and len(alike) == 1
    )


def _whole(match: ConceptMatch, text: str, content: frozenset[str], figure: bool) -> bool:
    """An alias of several words, or a one-word alias the whole question is ("toptarief",
    "kor") or, in a question asking for a figure, the only word of the knowledge base it says
    ("hoeveel is de arbeidskorting", not "wat zijn de regels van de KOR?"): a pack that lists a
    bare word as a name says the word alone means that concept; "pdv", which only longer names
    contain, stays open."""
    alias = _plain(match.alias)
    alone = figure and " " not in alias and match.matched == content
    return len(match.matched) > 1 or alias == text or alone


def _plain(text: str) -> str:
    return " ".join(_WORDS.findall(fold(text)))


_PLAN_VARIANTS = frozenset({"simple", "sep"})  # employer plans with limits of their own


def _a_category(slug: str, snapshot: Snapshot) -> bool:
    """Whether the concept is one category's row of a family that varies by category (the
    rate of bread among the VAT rates), not one of the family's general values."""
    return "category" in snapshot.concepts[slug].varies_by and any(
        kind == "category" for kind, _ in snapshot.concept_qualifiers.get(slug, ())
    )


def _unsaid_kind(slug: str, question: Question) -> bool:
    """Whether the concept is of a kind the question does not say: a category of goods ("the
    rate of books" for "btw in 2011") or an employer plan ("SIMPLE IRA" for "IRA catch-up")."""
    said = {(q.kind, q.value) for q in question.reading.qualifiers}
    return any(
        (kind, value) not in said
        for kind, value in question.snapshot.concept_qualifiers.get(slug, ())
        if kind == "category" or (kind == "variant" and value in _PLAN_VARIANTS)
    )


def _indistinct(question: Question, asked: frozenset[Attribute]) -> list[ConceptMatch]:
    """The readings of a question whose words do not tell them apart: every concept (able to
    answer what is asked, in the question's own country unless it names another) whose names
    hold all the question's knowledge-base words, when they belong to several families. Empty
    when the words pick one family."""
    snapshot = question.snapshot
    keys = [k for k in question.asking_keys(situation_too=True) if k in snapshot.concepts_by_key]
    if not keys:
        return []
    owners = frozenset.intersection(*(snapshot.concepts_by_key[k] for k in keys))
    if len(owners) > MAX_READINGS:  # "limit": vague whatever the filters below would keep
        # the 64 first by name, without sorting the thousands that share a word like "limit"
        matches = [ConceptMatch(o, 0.0, "", frozenset(keys)) for o in nsmallest(64, owners)]
        return _one_per_family(matches, snapshot)
    kinds = snapshot.answer_kinds
    fitting = [
        o
        for o in sorted(owners)
        if answers(kinds.get(o, frozenset()), asked) and not question.outside_box(o)
    ]
    if question.named:
        fitting = [o for o in fitting if snapshot.concepts[o].jurisdiction in question.named]
    home = HOME.get(question.language)
    if not question.named and home is not None:
        # "moet ik aangifte doen?" asked in Dutch: not a choice of Croatian deadlines
        fitting = [o for o in fitting if snapshot.concepts[o].jurisdiction == home]
    fitting = _narrowed_by_values(fitting, question) or fitting
    # "stope poreza na dohodak": not the paušal rate, whose head word ("paušalni") is unsaid
    said = frozenset(keys) - question.reading.cue_keys  # "tarief" alone names no tax
    heads = snapshot.concept_heads
    if len(said) > 1:  # a named subject, not one word ("btw?", which stays open)
        # "income tax rate": the readings whose head words the question says most of (not the
        # corporate rate, whose head "dobit" it does not say)
        overlap = {o: len(heads.get(o, frozenset()) & said) for o in fitting}
        most = max(overlap.values(), default=0)
        fitting = [o for o in fitting if most and overlap[o] == most] or fitting
        # "stopa poreza na dohodak" asked by nobody in particular: not the paušalist's rate
        parties = {q.value for q in question.reading.qualifiers if q.kind == "party"}
        qualifiers = snapshot.concept_qualifiers
        general = [
            o
            for o in fitting
            if all(k != "party" or v in parties for k, v in qualifiers.get(o, ()))
        ]
        fitting = general or fitting
    # "Hoeveel btw was het in 2011?" names no category: not the rate of books or hairdressers;
    # "ira catch-up limit" names no employer plan: not the SIMPLE IRA's
    fitting = [o for o in fitting if not _unsaid_kind(o, question)] or fitting
    if len({snapshot.concepts[o].domain for o in fitting}) == 1:
        # "kor 2018": of one scheme's facts, only those with a rule in force then are meant
        # (not across domains: "welk tarief per 1-1-2025" stays open whatever is held then)
        fitting = [o for o in fitting if question.in_force(o)] or fitting
    if question.reading.attribute == "magnitude":  # "koliki je pdv": how high, a rate
        fitting = [o for o in fitting if "rate" in kinds.get(o, frozenset())] or fitting
    if question.reading.attribute == "any":  # "kor 2018": its figure, not how it is computed
        fitting = [o for o in fitting if kinds.get(o, frozenset()) - _PROSE] or fitting
    if len({snapshot.concepts[o].family or o for o in fitting}) > 1:
        fitting = _narrowed_by_context(fitting, question, frozenset(keys))
    if len({snapshot.concepts[o].family or o for o in fitting}) < 2:
        return []
    matches = [ConceptMatch(o, 0.0, "", frozenset(keys)) for o in fitting]
    return _one_per_family(matches, snapshot)


def _narrowed_by_context(slugs: list[str], question: Question, asking: frozenset[str]) -> list[str]:
    """The readings the sentences around the question point to, when they point to one family
    ("Ik heb gehoord over de kleineondernemersregeling. Wat is precies de omzetgrens?")."""
    if not question.reading.question_sentences:
        return slugs
    snapshot = question.snapshot
    context = question.keys_in(frozenset()) - asking
    near = [o for o in slugs if snapshot.concept_keys.get(o, frozenset()) & context]
    return near if len({snapshot.concepts[o].family or o for o in near}) == 1 else slugs


def _narrowed_by_values(slugs: list[str], question: Question) -> list[str]:
    """The readings a number in the question picks: a value one of them states ("sinds wanneer
    21% btw"), or an amount a threshold of them is compared with ("35.000 omzet, btw?")."""
    reading, snapshot = question.reading, question.snapshot
    stated = {q.value for q in (*reading.percentages, *reading.numbers) if q.value is not None}
    values = snapshot.concept_values
    if any(all(v not in values.get(slug, ()) for slug in slugs) for v in stated):
        return []  # "9% of 21,5%?": a value no reading states picks none of them
    stated |= {f.value for f in reading.amounts if isinstance(f.value, Decimal)}
    measured = _measures_stated_amount(reading, snapshot)
    return [
        slug
        for slug in slugs
        if slug in measured or stated & snapshot.concept_values.get(slug, frozenset())
    ]


def _unnamed(covered: frozenset[str], reading: Reading) -> bool:
    """ "What's the filing deadline?": only an aspect of some tax is named, not which tax."""
    aspects = {q.key for q in reading.qualifiers if q.kind == "aspect"}
    return bool(covered) and covered <= aspects


def _owners(
    keys: frozenset[str], scored: list[ConceptMatch], snapshot: Snapshot
) -> list[ConceptMatch]:
    """Every concept whose names hold all of `keys`, the scored ones first."""
    found = {m.concept: m for m in scored}
    for slug, names in snapshot.concept_keys.items():
        if keys <= names and slug not in found:
            found[slug] = ConceptMatch(slug, 0.0, "", keys)
    return sorted(found.values(), key=rank)


def _one_per_family(ranked: list[ConceptMatch], snapshot: Snapshot) -> list[ConceptMatch]:
    seen: set[str] = set()
    offered: list[ConceptMatch] = []
    for match in ranked:
        family = snapshot.concepts[match.concept].family or match.concept
        if family not in seen and len(offered) < MAX_OFFERED:
            seen.add(family)
            offered.append(match)
    return offered


def _numbered(members: tuple[str, ...], question: Question) -> tuple[str, ...]:
    """Of a family whose members are told apart by one number each in their names (the Uniform
    Lifetime Table's rows for ages 72, 73, …), the rows the asker's age, numbers or range
    name; every member when the names carry no such numbers or the question states none."""
    snapshot, reading = question.snapshot, question.reading
    named = [snapshot.concept_numbers.get(m, frozenset()) for m in members]
    shared = frozenset.intersection(*named) if named else frozenset()  # the "401" of 401(k)
    numbers = [held - shared for held in named]
    if len(members) < 2 or any(len(n) != 1 for n in numbers) or len(set(numbers)) < len(members):
        return members
    stated = {str(f.value) for f in reading.facts if f.name == "age"} | {
        str(q.value) for q in reading.numbers if q.value is not None
    }
    stated |= question.numbers_between
    stated |= {key for key in question.content if key.isdigit()}  # "ages 72, 73, 74 and 75"
    if not stated:
        # a table too long to answer whole ("uniform lifetime table"): which row is asked?
        return members if len(members) <= MAX_CONCEPTS * 2 else ()
    return tuple(m for m, held in zip(members, numbers, strict=True) if held & stated)


def _numbers_between(folded: str) -> frozenset[str]:
    """Every whole number of a short range the question names ("72 tot en met 75", "72-75")."""
    found: set[str] = set()
    for match in _RANGE.finditer(folded):
        low, high = int(match.group(1)), int(match.group(2))
        if low < high <= low + MAX_RANGE:
            found.update(str(n) for n in range(low, high + 1))
    return frozenset(found)


def _no_row(question: Question, top: ConceptMatch) -> Decision:
    """No row of the family is for the age or number stated: say which rows Navod holds; when
    the question states none, ask which row is meant."""
    reading, snapshot = question.reading, question.snapshot
    ages = [f.words for f in reading.facts if f.name == "age"]
    numbers = [q.words for q in reading.numbers] or sorted(
        k for k in question.content if k.isdigit()
    )
    words = ages or numbers
    family = snapshot.concepts[top.concept].family
    held = snapshot.families.get(family, ()) if family else ()
    rows = sorted(held, key=lambda slug: _row_number(snapshot, slug)) or [top.concept]
    if not words:  # no row named at all: ask which
        return Decision("NEEDS_CLARIFICATION", {"candidates": rows[:MAX_OFFERED]})
    return Decision("NO_CITABLE_RULES", {"uncovered": words, "known": rows})


def _row_number(snapshot: Snapshot, slug: str) -> tuple[int, str]:
    """Rows in the order of the number their names carry (age 72 before age 100)."""
    digits = [int(n) for n in snapshot.concept_numbers.get(slug, ()) if n.isdigit()]
    return (min(digits) if digits else 0, slug)


def _for_the_party(
    same: list[ConceptMatch], reading: Reading, snapshot: Snapshot
) -> list[ConceptMatch]:
    """The members naming a party the question states, when every other member names
    another party (a member for no party in particular is no row of a party table)."""
    named = snapshot.concept_qualifiers
    stated = {(q.kind, q.value) for q in reading.qualifiers if q.kind == "party"}
    theirs = [m for m in same if stated & named.get(m.concept, frozenset())]
    others = [m for m in same if m not in theirs]
    parties_only = all(
        any(kind == "party" for kind, _ in named.get(m.concept, frozenset())) for m in others
    )
    return theirs if theirs and parties_only else same


def _family_of(matches: list[ConceptMatch], snapshot: Snapshot) -> str | None:
    families = {snapshot.concepts[m.concept].family for m in matches}
    if len(families) == 1:
        (family,) = families
        return family or None
    return None


def _consistent_members(
    slug: str, reading: Reading, snapshot: Snapshot, asking: frozenset[str]
) -> tuple[str, ...]:
    """The members of `slug`'s family the question asks for: all of them, or those named by
    the variant or category it says ("snižene stope PDV-a": the reduced ones; "btw-tarieven
    voor boeken": the books rate). Other words do not split a family ("corporate income tax
    rates" are both rates whatever each one's name says), unless one thing is asked of
    members that all carry the variants said: then its own words pick it."""
    family = snapshot.concepts[slug].family
    members = snapshot.families.get(family, ()) if family else ()
    if len(members) < 2:
        return (slug,)
    wanted = {(q.kind, q.value) for q in reading.qualifiers if q.kind in ("variant", "category")}
    if not any(kind == "category" for kind, _ in wanted):
        # "koje sve (snižene) stope PDV-a postoje": the rates, not the rate of each category of
        # goods (bread, solar panels), which only a question naming the category asks for
        members = tuple(m for m in members if not _a_category(m, snapshot)) or members
    if not wanted:
        return members
    named = snapshot.concept_qualifiers
    every = tuple(m for m in members if wanted <= named.get(m, frozenset()))
    if every and not reading.plural:
        return _told_apart(every, asking, snapshot)
    return every or tuple(m for m in members if wanted & named.get(m, frozenset()))


def _told_apart(
    members: tuple[str, ...], asking: frozenset[str], snapshot: Snapshot
) -> tuple[str, ...]:
    """Of family members, those whose own head words (not shared by all of them) the
    question says, when it says some: "the SECURE 2.0 higher SIMPLE limit" is the higher
    limit, not also the higher catch-up, though both are "higher"."""
    if len(members) < 2:
        return members
    heads = [snapshot.concept_heads.get(m, frozenset()) for m in members]
    shared = frozenset.intersection(*heads)
    said = tuple(m for m, own in zip(members, heads, strict=True) if (own - shared) & asking)
    return said or members


def _accounted(
    question: Question, chosen: tuple[ConceptMatch, ...], frame: Frame
) -> tuple[Decision | None, Frame]:
    """Withhold the answer when a word of the question is left unexplained."""
    slugs = [m.concept for m in chosen]
    found = question.account(slugs, all(_by_names_only(m) for m in chosen))
    frame = replace(frame, unexplained=found.unexplained, uncovered=found.uncovered)
    if found.uncovered and not found.unexplained:
        detail = {"uncovered": [q.words for q in found.uncovered], "known": slugs}
        return Decision("NO_CITABLE_RULES", detail), frame
    if found.unexplained or found.uncovered:
        # "osobni odbitak za prvo dijete", "Roth IRA income limits": a narrower fact than the
        # one Navod holds, not a vague question; the refusal names the words and what it knows
        words = [*found.unexplained, *(q.words for q in found.uncovered)]
        return Decision("NO_CITABLE_RULES", {"uncovered": words, "known": slugs}), frame
    return None, frame


def _frame(
    reading: Reading,
    subject: tuple[str, ...],
    family: str | None,
    snapshot: Snapshot,
    named: frozenset[str],
) -> Frame:
    if len(named) == 1:
        (jurisdiction,) = named
    elif subject:
        jurisdiction = snapshot.concepts[subject[0]].jurisdiction
    else:
        jurisdiction = None
    return Frame(reading, subject, family, jurisdiction, ())


def _nothing_chosen(
    tokens: tuple[str, ...], scored: list[ConceptMatch], question: Question
) -> Decision:
    if any(token in lexicon.ADVICE_CUES for token in tokens):
        # "što mi se više isplati, obrt ili d.o.o.?" names no rule: advice is not Navod's job
        return Decision("OUT_OF_SCOPE", {"advice": True})
    kinds, asked = question.snapshot.answer_kinds, _specific(question.reading)
    # "When is the Dutch income tax return due?": the rates are near, but answer no "when"
    home = HOME.get(question.language)
    snapshot = question.snapshot
    offered = tuple(
        m
        for m in scored
        if m.score >= CANDIDATE_FLOOR
        and answers(kinds.get(m.concept, frozenset()), asked)
        # "Wat is de AOW-leeftijd?" asks about Dutch law: a US age is no reading of it
        and (question.named or home is None or snapshot.concepts[m.concept].jurisdiction == home)
    )[:MAX_OFFERED]
    reason: RefusalReason = "NEEDS_CLARIFICATION" if offered else "NO_CITABLE_RULES"
    return Decision(reason, {"candidates": [m.concept for m in offered]})

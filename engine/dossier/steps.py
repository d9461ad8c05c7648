"""The conversation's steps in the turn flow (engine/flow/runner.py).

`conversation_step` settles a turn that talks about the conversation itself: a source
instruction ("remove the guidance") or a question about what was said ("what did you answer
about the RMD age?"). `followup_step` completes an elliptic question from the previous turn.
Both only read the dossier as loaded before the turn; the service writes the result back as a
patch.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from engine.dossier.followup import reply_to_choice, reply_to_missing_data, resolve_followup
from engine.dossier.instructions import Instruction, parse_instruction
from engine.dossier.memory import MemoryQuery, answered_turns, parse_memory_query, recall
from engine.dossier.model import (
    Dossier,
    Event,
    Selection,
    SourceRecord,
    change_selection,
    selection,
)
from engine.dossier.profile import next_question
from engine.flow.reading import answer_question, read_message, reading_of
from engine.flow.turn import (
    Settings,
    StepResult,
    Turn,
    question_of,
    small_talk,
    support_answer,
)
from engine.pipeline import phrases
from engine.pipeline import templates as tpl
from engine.pipeline.state import State
from engine.pipeline.understood import fact_text, statement_block
from engine.text.language import detect_language
from engine.text.normalize import fold
from engine.types import ChecklistItem, Language, PlanningTopic, Question
from engine.understanding.context import home_of, in_scope
from engine.understanding.frame import Reading
from engine.understanding.told import only_tells

TITLE_CHARS = 60  # a source title as a reply lists it


def conversation_step(turn: Turn, settings: Settings) -> StepResult:
    dossier = turn.dossier
    if dossier is None or not dossier.events:
        return StepResult({}, "conversation: NONE")
    current = selection(dossier)
    instruction = parse_instruction(turn.redacted, current) or _reply_to_unclear(
        turn.redacted, dossier, current
    )
    if instruction is not None:
        language = _language(turn, dossier)
        after = preview(dossier, instruction)
        response = _instruction_reply(turn, dossier, instruction, after, language)
        return StepResult(
            {"route": "dossier", "early": True, "response": response, "instruction": instruction},
            f"conversation: SOURCES {instruction.verb} {len(instruction.targets)}",
        )
    query = parse_memory_query(turn.redacted)
    if query is None:
        return StepResult({}, "conversation: NONE")
    return _recall(turn, settings, dossier, query)


def followup_step(turn: Turn, settings: Settings) -> StepResult:
    dossier = turn.dossier
    turns = answered_turns(dossier) if dossier is not None else ()
    previous = turns[-1][1] if turns else None
    if previous is None:
        return StepResult({}, "followup: NONE")
    if small_talk(turn, settings) is not None:
        return StepResult({}, "followup: NONE (small talk)")  # "hvala!" continues nothing
    chosen = reply_to_choice(turn.redacted, previous, settings.snapshot)
    if chosen is not None:
        # "2" after "Do you mean: A / B / C?": the earlier question, about B
        changes: dict[str, Any] = {
            "redacted": previous.question,
            "pinned_concepts": (chosen,),
            "language": previous.language,
            "carried": ("choice",),
        }
        return StepResult(_reread(turn, settings, changes), f"followup: CHOSE {chosen}")
    completed = reply_to_missing_data(turn.redacted, previous, turn.today)
    if completed is not None:
        # "1959" after "In which year were you born?": the previous question, now answerable
        changes = {"redacted": completed, "language": previous.language, "carried": ("question",)}
        return StepResult(_reread(turn, settings, changes), "followup: ANSWERED NAVOD'S QUESTION")
    if _asked_next(turn, settings) is not None and reply_value(turn.redacted) is not None:
        return StepResult({}, "followup: NONE (a reply to Navod's question)")
    anchor = next((t for _, t in reversed(turns) if not t.carried), None)
    followup = resolve_followup(reading_of(turn, settings), previous, anchor)
    if followup is None:
        return StepResult({}, "followup: NEW QUESTION")
    question = followup.question
    return StepResult(
        {
            "pinned_concepts": question.pinned_concepts,
            "as_of": question.as_of,
            "language": question.language,
            "carried": followup.carried,
            "reading": read_message(question, settings.snapshot),  # what is asked now
        },
        "followup: CARRIED " + "; ".join(followup.carried),
    )


def _reread(turn: Turn, settings: Settings, changes: dict[str, Any]) -> dict[str, Any]:
    """`changes` to the turn, with the reading of the question they make."""
    question = question_of(replace(turn, **changes))
    return {**changes, "reading": read_message(question, settings.snapshot)}


def preview(dossier: Dossier, instruction: Instruction) -> Selection:
    """The selection once the instruction's changes are applied (they are not stored here)."""
    records = instruction_records(dossier, instruction)
    at = dossier.updated_at
    events = tuple(Event(len(dossier.events) + i, at, r) for i, r in enumerate(records))
    return selection(replace(dossier, events=(*dossier.events, *events)))


def instruction_records(dossier: Dossier, instruction: Instruction) -> tuple[SourceRecord, ...]:
    """The selection events an instruction makes, against the dossier as it is now."""
    records: list[SourceRecord] = []
    for action, ids in instruction.changes:
        patch = change_selection(dossier, action, ids)
        records.extend(r for r in patch.records if isinstance(r, SourceRecord))
    return tuple(records)


def _recall(turn: Turn, settings: Settings, dossier: Dossier, query: MemoryQuery) -> StepResult:
    language = _language(turn, dossier)
    concepts = _topic_concepts(query, language, settings) if query.topic else ()
    found = recall(query, dossier, concepts, language)
    if found is None:
        response = support_answer(turn, language, tpl.RECALL_NONE[language], _asked_so_far(dossier))
        return StepResult(
            {"route": "dossier", "early": True, "response": response},
            "conversation: RECALL NOTHING",
        )
    number, past = found
    # The past answer is answered again from today's knowledge base at the date it was about,
    # through the whole pipeline: re-validated and re-cited, and compared with what was said.
    question = Question(
        text=past.question,
        surface=turn.surface,
        today=turn.today,
        as_of=date.fromisoformat(past.as_of),
        client_context=turn.client_context,
        language=past.language,
        pinned_concepts=past.concepts,
        excluded_evidence=turn.excluded_evidence,
        remembered=turn.remembered,
    )
    state = answer_question(question, settings.snapshot)
    # Whether the rules changed is a question about the knowledge base, not about which
    # sources the asker set aside since: compare with every source in play.
    everything = replace(question, excluded_evidence=frozenset())
    now = (
        _values(state)
        if not turn.excluded_evidence
        else _values(answer_question(everything, settings.snapshot))
    )
    superseded = bool(past.values) and set(now) != set(past.values)
    memory = {
        "turn": number,
        "question": past.question,
        "answeredThen": past.headline,
        "asOfDate": past.as_of,
        "superseded": superseded,
    }
    assert state.response is not None
    response = {**state.response, "memory": memory}
    return StepResult(
        {
            "route": "dossier",
            "early": True,
            "state": replace(state, response=response),
            "response": response,
            "recalled": found,
        },
        f"conversation: RECALL turn {number}" + (" (superseded)" if superseded else ""),
    )


def _values(state: State) -> tuple[tuple[str, str], ...]:
    return tuple((r.winner.id, r.winner.value) for r in state.resolutions if r.winner is not None)


def _topic_concepts(query: MemoryQuery, language: Language, settings: Settings) -> tuple[str, ...]:
    """The concepts the asked-about words name ("the RMD age", "pragu"), if any."""
    question = Question(text=query.topic, surface="MARKETING", today=date.min, language=language)
    matching = read_message(question, settings.snapshot, despite_refusal=True).matched.matching
    if matching is None:
        return ()
    return tuple(m.concept for m in (*matching.chosen, *matching.candidates))


def _language(turn: Turn, dossier: Dossier) -> Language:
    if turn.language is not None:
        return turn.language
    detected, confidence = detect_language(turn.redacted)
    return detected if confidence >= 0.5 or not dossier.turns else dossier.language


def _instruction_reply(
    turn: Turn,
    dossier: Dossier,
    instruction: Instruction,
    after: Selection,
    language: Language,
) -> dict[str, Any]:
    if not instruction.targets:
        listed = "; ".join(f"{n}. {_title(ref.title)}" for n, ref in enumerate(after.all, start=1))
        return support_answer(turn, language, tpl.SOURCES_UNCLEAR[language], listed)
    moved = {r.evidence_id for r in instruction_records(dossier, instruction)}
    named = [ref for ref in instruction.targets if ref.evidence_id in moved]
    names = "; ".join(_title(ref.title) for ref in named or instruction.targets)
    template = tpl.SOURCES_CHANGED[instruction.verb][language]
    text = template.format(names=names, selected=len(after.selected), removed=len(after.unselected))
    return support_answer(turn, language, tpl.SOURCES_HEADLINE[language], text)


def _asked_so_far(dossier: Dossier) -> str:
    return "; ".join(f"{n}. {t.question}" for n, t in answered_turns(dossier))


def _title(title: str) -> str:
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1].rstrip() + "…"


def turn_values(state: State | None) -> tuple[tuple[str, str], ...]:
    return _values(state) if state is not None else ()


def told_step(turn: Turn, settings: Settings) -> StepResult:
    """A message in a conversation that tells about the asker and asks nothing ("I'm 64 and
    my wife is 58.", "Imam paušalni obrt u Zagrebu.") is noted, not refused as off-topic: the
    facts join the dossier (when the turn is stored) and the reply says what was understood.
    A message naming anything Navod knows ("Pausalni prag", "full retirement age if I was born
    in 1950") is a question, question mark or not (engine/understanding/told.py); facts
    supposed or told of someone else, or of another country's rules, are not the asker's."""
    if turn.dossier is None:
        return StepResult({}, "told: NONE")
    replied = _reply_to_next_step(turn, settings)
    if replied is not None:
        return replied
    if "?" in turn.redacted:
        return StepResult({}, "told: NONE")
    state = reading_of(turn, settings).triaged
    analysis = state.analysis
    reading = analysis.reading if analysis is not None else None
    if analysis is None or reading is None:
        return StepResult({}, "told: NONE")
    language = analysis.language
    names = settings.snapshot.concepts_by_key.__contains__
    if not only_tells(analysis.folded, reading, analysis.words, language, names):
        return StepResult({}, "told: NONE (it asks)")
    where = {*(state.classification.named if state.classification else ()), home_of(language)}
    mine = replace(
        reading,
        facts=tuple(f for f in reading.facts if f.own and in_scope(f.name, where)),
        amounts=tuple(f for f in reading.amounts if f.own),
    )
    if not mine.facts and not mine.amounts:
        if any(f.own for f in reading.unusable):
            return _not_noted(turn, state, reading, language)
        return StepResult({}, "told: NONE (nothing of the asker's)")
    said = "; ".join(fact_text(f, language) for f in (*mine.facts, *mine.amounts))
    text = tpl.NOTED[language].format(facts=said)
    response = {
        **support_answer(turn, language, tpl.NOTED_HEADLINE[language], text),
        "understood": statement_block(mine, turn.as_of or turn.today, language),
    }
    noted = sorted(f.name for f in (*mine.facts, *mine.amounts))
    return StepResult(
        {"state": state, "response": response, "route": "dossier", "early": True},
        f"told: NOTED {', '.join(noted)}",
    )


def _not_noted(turn: Turn, state: State, reading: Reading, language: Language) -> StepResult:
    """A message stating only numbers outside their domain ("Promet mi je
    18446744073709551616 eura."): nothing is kept, and the reply says so."""
    text = tpl.NOT_NOTED[language]
    response = {
        **support_answer(turn, language, tpl.NOT_NOTED_HEADLINE[language], text),
        "understood": statement_block(reading, turn.as_of or turn.today, language),
    }
    return StepResult(
        {"state": state, "response": response, "route": "dossier", "early": True},
        "told: NOT NOTED (numbers out of range)",
    )


_YES = frozenset({"yes", "yep", "yeah", "ja", "jazeker", "da", "naravno"})
_NO = frozenset({"no", "nope", "nee", "ne"})
MOST_DIGITS = 9  # a reply that is a number: an age, a year, an amount


def reply_value(text: str) -> bool | int | None:
    """A bare yes or no (in any of the languages) or a whole number, or None."""
    folded = fold(text).strip(" .!,")
    if folded in _YES:
        return True
    if folded in _NO:
        return False
    plain = folded.replace(".", "").replace(",", "").replace(" ", "")
    return int(plain) if plain.isdigit() and len(plain) <= MOST_DIGITS else None


def _reply_to_next_step(turn: Turn, settings: Settings) -> StepResult | None:
    """ "yes", "no" or a number right after Navod asked a checklist question (its `nextStep`)
    answers that question: the fact is noted under its topic."""
    dossier = turn.dossier
    value = reply_value(turn.redacted)
    if dossier is None or not dossier.turns or value is None:
        return None
    wanted = _asked_next(turn, settings)
    if wanted is None:
        return None
    _topic, item = wanted
    language = dossier.language
    shown = phrases.YES_NO[value][language] if isinstance(value, bool) else str(value)
    text = tpl.NOTED[language].format(facts=f"{item.question[language]} {shown}")
    response = {
        **support_answer(turn, language, tpl.NOTED_HEADLINE[language], text),
        "understood": {
            "text": text,
            "subject": [],
            "attribute": "any",
            "asOfDate": (turn.as_of or turn.today).isoformat(),
            "facts": [{"name": item.fact, "value": value, "words": turn.redacted}],
        },
    }
    return StepResult(
        {"response": response, "route": "dossier", "early": True, "replied": {item.fact: value}},
        f"told: REPLIED {item.fact}",
    )


def _asked_next(turn: Turn, settings: Settings) -> tuple[PlanningTopic, ChecklistItem] | None:
    """The checklist question Navod's last answer asked as its next step, if any."""
    if turn.dossier is None or not turn.dossier.turns:
        return None
    snapshot = settings.snapshot
    return next_question(turn.dossier, snapshot.topics, snapshot.concepts)


def _reply_to_unclear(text: str, dossier: Dossier, current: Selection) -> Instruction | None:
    """After "remove a source" that named none (Navod listed them), a number or a title picks
    the source: the earlier instruction, now with its target."""
    previous = dossier.turns[-1] if dossier.turns else None
    if previous is None or previous.route != "dossier":
        return None
    earlier = parse_instruction(previous.question, current)
    if earlier is None or earlier.targets:
        return None
    completed = parse_instruction(f"{previous.question} {text}", current)
    return completed if completed is not None and completed.targets else None

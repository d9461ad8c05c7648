"""Render a refusal decided by any stage: headline, message and the helpful extras per reason."""

from __future__ import annotations

from datetime import date
from typing import Any

from engine.pipeline import lexicon, phrases
from engine.pipeline import templates as tpl
from engine.pipeline.conditional import condition_of, describe, field_label
from engine.pipeline.held import answers_for, held_periods, say_period, say_periods
from engine.pipeline.publishers import publisher_name
from engine.pipeline.render import base_fields, concept_label, sentence
from engine.pipeline.state import State
from engine.text.formatting import format_date, rule_value
from engine.text.normalize import as_written
from engine.topics import topic_of, topics_of_domains
from engine.types import Language


def compose_refusal(state: State) -> dict[str, Any]:
    assert state.refusal is not None
    reason, detail = state.refusal.reason, state.refusal.detail
    response = base_fields(state)
    language: Language = response["language"]
    refusal: dict[str, Any] = {"message": _message(state, language)}
    unread = detail.get("language")
    response.update(
        kind="REFUSAL",
        refusalReason=reason,
        headline=tpl.UNREAD_HEADLINE[language]
        if unread
        else tpl.REFUSAL_HEADLINE[reason][language],
        directAnswer="",
        refusal=refusal,
    )
    if detail.get("language"):
        # the language the question was written in, which Navod does not read: a client keeps
        # its interface language rather than follow this answer's
        response["unreadLanguage"] = str(detail["language"])
    if reason == "OUT_OF_SCOPE":
        refusal["redirectOptions"] = [
            {"label": tpl.REDIRECT_KNOWLEDGE[language], "href": "/api/kb/concepts", "type": "DOCS"},
            {"label": tpl.REDIRECT_DOCS[language], "href": "/docs", "type": "DOCS"},
        ]
    elif reason == "NEEDS_CLARIFICATION":
        candidates = [c for c in detail.get("candidates", []) if c in state.snapshot.concepts]
        if len(candidates) == 1:
            candidates = _with_family(state, candidates)
        labels = [_label(state, c, language) for c in candidates]
        refusal["relatedTopics"] = labels
    elif reason == "MISSING_CLIENT_DATA":
        refusal["missingData"] = [
            {"label": field_label(field, language), "impact": "required", "field": field}
            | _to_ask(state, field, language)
            for field in detail.get("fields", [])
        ]
        first = refusal["missingData"][0] if refusal["missingData"] else {}
        if "question" in first:
            response["nextStep"] = first["question"][:100]
    elif reason == "UNRESOLVED_CONFLICT":
        cards = list(state.cards)
        refusal["conflictingSources"] = cards
        response["citations"] = {"primary": cards[0], "supporting": cards[1:4]}
        response["conflict"] = {
            "status": "UNRESOLVED",
            "description": refusal["message"][:240],
            "sources": cards,
        }
    return response


def _with_family(state: State, slugs: list[str]) -> list[str]:
    """Each choice and, when one word left a family member unexplained, its siblings: the
    choices offered are facts Navod can answer when asked as they are."""
    found = list(dict.fromkeys(slugs))
    for slug in slugs:
        family = state.snapshot.concepts[slug].family
        found += [m for m in state.snapshot.families.get(family, ()) if m not in found]
    return found[:4]


def _label(state: State, slug: str, language: Language) -> str:
    return concept_label(state, slug, language)


def _known(state: State, slug: str, span: dict[str, str], language: Language) -> str:
    """What Navod does hold about a concept it cannot answer for the date asked: the dates it
    answers for (and, when its evidence is older, until when the source confirms the value),
    the nearest value, its source, and to ask for one of those dates; never a bare "try
    another date"."""
    label = _label(state, slug, language)
    rule = state.snapshot.rules.get(span.get("rule", ""))
    periods = held_periods(state.snapshot, slug)
    if rule is None or not periods:
        return sentence(tpl.LACKS_VALUE[language].format(label=label))
    value = rule_value(rule, language)
    source = publisher_name(state.snapshot, rule, language)
    if span.get("verified"):
        verified = format_date(date.fromisoformat(span["verified"]), language)
        known = tpl.KNOWN_UNTIL[language].format(
            label=label, value=value, source=source, date=verified
        )
        last = periods[-1][1]  # the horizon of the newest evidence: answered, with a warning
        if last is None:
            return sentence(known)
        ask = tpl.ASK_HELD["until"][language].format(date=format_date(last, language))
        return f"{sentence(known)} {sentence(ask)}"
    asked = state.as_of or state.question.as_of or state.question.today
    own = answers_for(rule)  # the nearest value's own period, when it is not all Navod holds
    when = "" if periods == (own,) else f", {say_period(own, language)}"
    known = tpl.KNOWN_HELD[language].format(
        label=label,
        periods=say_periods(periods, asked, language),
        value=value + when,
        source=source,
    )
    return f"{sentence(known)} {tpl.ASK_HELD['one' if len(periods) == 1 else 'several'][language]}"


def _not_understood(state: State, language: Language) -> str:
    """What the match could not account for, and the nearest facts Navod does know."""
    assert state.refusal is not None
    detail = state.refusal.detail
    known_slugs = [s for s in detail.get("known", detail.get("candidates", [])) if s]
    known = ", ".join(_label(state, slug, language) for slug in known_slugs[:4]) or "—"
    if detail.get("uncovered") and state.refusal.reason == "NO_CITABLE_RULES":
        words = ", ".join(as_written(state.question.text, [str(w) for w in detail["uncovered"]]))
        return phrases.UNCOVERED[language].format(words=words, known=known)
    if detail.get("attribute"):
        attribute = phrases.ATTRIBUTES.get(detail["attribute"], {}).get(language, "?")
        return phrases.NOT_THIS_ATTRIBUTE[language].format(attribute=attribute, known=known)
    return ""


def _message(state: State, language: Language) -> str:
    assert state.refusal is not None
    reason, detail = state.refusal.reason, state.refusal.detail
    template = tpl.REFUSAL_MESSAGE[reason][language]
    if reason == "OUT_OF_SCOPE" and detail.get("advice"):
        return tpl.ADVICE[language]
    understood = _not_understood(state, language)
    if understood:
        return understood
    if reason == "NO_CITABLE_RULES" and detail.get("excluded_by"):
        rules = [
            state.snapshot.rules[r] for r in detail["excluded_by"] if r in state.snapshot.rules
        ]
        said = (
            sentence(
                tpl.NOT_FOR_STATED[language].format(
                    label=_label(state, rule.concept, language),
                    condition=describe(condition_of(state, rule), language),
                )
            )
            for rule in rules
        )
        return " ".join(list(dict.fromkeys(said))[:3])
    if reason == "NO_CITABLE_RULES":
        return _not_held(state, language)
    if reason == "MISSING_CLIENT_DATA":
        fields = detail.get("fields", [])
        message = template.format(fields=", ".join(field_label(f, language) for f in fields))
        asked = [_to_ask(state, f, language).get("question") for f in fields]
        return " ".join([message, *(q for q in asked if q)][:2])
    if reason == "UNRESOLVED_CONFLICT":
        return template.format(label=_label(state, str(detail.get("concept")), language))
    if reason == "NEEDS_CLARIFICATION":
        candidates = [c for c in detail.get("candidates", []) if c in state.snapshot.concepts]
        options = " / ".join(_label(state, c, language) for c in candidates)
        return template.format(options=options or "?")
    if reason == "UNSUPPORTED_JURISDICTION" and detail.get("language"):
        name = tpl.LANGUAGE_NAMES.get(str(detail["language"]), {}).get(language, "?")
        return tpl.UNREAD[language].format(language=name)
    if reason == "UNSUPPORTED_JURISDICTION":
        covered = ", ".join(
            tpl.COVERED_NAMES[code][language] for code in sorted(state.snapshot.jurisdictions)
        )
        country = lexicon.country_name(str(detail.get("country", "?")), language)
        return template.format(country=country, covered=covered)
    return template


def _not_held(state: State, language: Language) -> str:
    """Why nothing answers for the date asked: a source the asker removed, or the dates Navod
    does hold each concept for. A fact Navod lacks on every date is said plainly, without the
    date asked: asking for another one would not help."""
    assert state.refusal is not None
    detail = state.refusal.detail
    removed = [state.snapshot.source_of(e) for e in detail.get("removed", [])]
    titles = list(dict.fromkeys(source.title for source in removed if source is not None))
    nearest: dict[str, dict[str, str]] = detail.get("nearest") or {}
    chosen = [m.concept for m in state.matching.chosen] if state.matching is not None else []
    lacking = [
        sentence(tpl.LACKS_VALUE[language].format(label=_label(state, slug, language)))
        for slug in dict.fromkeys(chosen)
        if slug not in nearest and not titles
    ]
    if not titles and not nearest:
        return " ".join(lacking) or tpl.LACKS_ALL[language]
    as_of = state.as_of or state.question.as_of or state.question.today
    in_force = tpl.REFUSAL_MESSAGE["NO_CITABLE_RULES"][language]
    said = [sentence(in_force.format(date=format_date(as_of, language)))]
    if titles:
        said.append(sentence(tpl.REMOVED_SOURCES[language].format(titles="; ".join(titles))))
    said += [_known(state, slug, span, language) for slug, span in sorted(nearest.items())]
    return " ".join([*said, *lacking])


def _to_ask(state: State, field: str, language: Language) -> dict[str, str]:
    """The question that asks for a missing fact and the planning topic it completes, from
    the packs' checklists (the topics of the concepts asked about first)."""
    chosen = state.matching.chosen if state.matching is not None else ()
    concepts = state.snapshot.concepts
    prefer = topics_of_domains(concepts[m.concept].domain for m in chosen if m.concept in concepts)
    found = topic_of(field, state.snapshot.topics, prefer)
    if found is None:
        return {}
    topic, item = found
    return {"question": item.question[language], "topic": topic.id}

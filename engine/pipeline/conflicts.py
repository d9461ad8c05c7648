"""Stage 5: detect and resolve conflicts between rules in force for the same concept.

Rules that state the same value (numerically: "25" equals "25.0") agree and support each other.
Different values are settled first by a maintainer's resolution on the record (a pack's
`resolutions:` naming two rules in force, issue 25), then by authority rank (only when the
higher source speaks for the period at least as recently as the lower one), then the later
effective_from, then the more specific condition; the response says how. What none of these
settles is refused with UNRESOLVED_CONFLICT citing both sides. Never a silent pick.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal, InvalidOperation

from engine.conditions import Any_, Exists, Not, fields_of
from engine.pipeline.state import ConceptRules, Decision, Resolution, StageResult, State
from engine.snapshot import Snapshot
from engine.types import AUTHORITY_RANK, ConflictResolution, Rule, Source


def resolve_conflicts(state: State) -> StageResult:
    resolutions = tuple(
        settle(selection, state.snapshot)
        for selection in state.selections
        if selection.in_force or selection.missing_context
    )
    changes: dict[str, object] = {"resolutions": resolutions}
    unresolved = [r for r in resolutions if r.unresolved]
    if unresolved:
        changes["refusal"] = Decision(
            "UNRESOLVED_CONFLICT",
            {"concept": unresolved[0].concept, "rules": [r.id for r in unresolved[0].unresolved]},
        )
    return StageResult(
        changes,
        "; ".join(_describe(r) for r in resolutions) or "nothing to resolve",
    )


def same_value(left: Rule, right: Rule) -> bool:
    """Values compared as numbers where both are numeric, else as trimmed text."""
    a, b = _numeric(left.value), _numeric(right.value)
    if a is not None and b is not None:
        return a == b
    return left.value.strip().casefold() == right.value.strip().casefold()


def settle(selection: ConceptRules, snapshot: Snapshot) -> Resolution:
    """The rule that answers, or, when only rules under unstated conditions are in force, the
    rows each of them answers under its condition."""
    if selection.in_force:
        return resolve(selection, snapshot)
    return _conditional(selection, snapshot)


def resolve(selection: ConceptRules, snapshot: Snapshot) -> Resolution:
    rules = selection.in_force
    if not rules:
        return Resolution(selection.concept, None, (), (), None)
    groups: list[list[Rule]] = []
    for rule in rules:
        for group in groups:
            if same_value(group[0], rule):
                group.append(rule)
                break
        else:
            groups.append([rule])
    if len(groups) == 1:
        winner, *same = sorted(groups[0], key=_preference)
        return Resolution(selection.concept, winner, tuple(same), (), None)
    recorded = _recorded(selection.concept, groups, snapshot)
    if recorded is not None:
        return recorded
    leaders = [sorted(group, key=_preference)[0] for group in groups]
    if not _authority_speaks_last(leaders) or _contradicts_its_instrument(leaders, snapshot):
        # the higher source states the value from an earlier day than a lower one states
        # another ("IRA limit 2026": the IRS page since 2024, $7,000; two publishers quoting
        # Notice 2025-67 from 2026, $7,500): rank cannot tell which is current
        return Resolution(selection.concept, None, (), (), None, unresolved=tuple(leaders))
    for how, key in (
        ("authority", lambda r: AUTHORITY_RANK[r.authority]),
        ("later_effective_from", lambda r: r.effective_from.toordinal()),
        ("more_specific", lambda r: _specificity(r, snapshot)),
    ):
        best = max(key(rule) for rule in leaders)
        top = [rule for rule in leaders if key(rule) == best]
        if len(top) == 1:
            winning_group = next(g for g in groups if top[0] in g)
            agreeing = tuple(r for r in winning_group if r is not top[0])
            losers = tuple(r for g in groups if g is not winning_group for r in g)
            return Resolution(selection.concept, top[0], agreeing, losers, how)
        leaders = top
    return Resolution(selection.concept, None, (), (), None, unresolved=tuple(leaders))


def _recorded(concept: str, groups: list[list[Rule]], snapshot: Snapshot) -> Resolution | None:
    """The conflict as the maintainers settled it on the record: each resolution naming two
    rules in force with different values beats the loser's value; settled when exactly one
    value stands and a resolution's winner states it. Otherwise None: precedence decides."""
    group_of = {rule.id: index for index, group in enumerate(groups) for rule in group}
    applied: list[ConflictResolution] = []
    for record in snapshot.resolutions.values():
        sides = {group_of.get(rule_id) for rule_id in record.conflict}
        if None not in sides and len(sides) == 2:
            applied.append(record)
    beaten = {group_of[record.loser] for record in applied}
    standing = [index for index in range(len(groups)) if index not in beaten]
    if len(standing) != 1:
        return None
    settling = next((r for r in applied if group_of[r.winner] == standing[0]), None)
    if settling is None:
        return None
    winning = groups[standing[0]]
    winner = next(rule for rule in winning if rule.id == settling.winner)
    agreeing = tuple(sorted((r for r in winning if r is not winner), key=_preference))
    losers = tuple(
        rule for index, group in enumerate(groups) if index != standing[0] for rule in group
    )
    return Resolution(concept, winner, agreeing, losers, "record", record=settling)


def _authority_speaks_last(leaders: list[Rule]) -> bool:
    """Authority may settle a conflict only when the highest-ranked side speaks for the period
    at least as recently as every other side (its value takes effect no earlier)."""
    rank = max(AUTHORITY_RANK[rule.authority] for rule in leaders)
    highest = [rule for rule in leaders if AUTHORITY_RANK[rule.authority] == rank]
    if len(highest) != 1:
        return True  # authority does not decide; the later or more specific rule may
    latest = max(rule.effective_from for rule in leaders)
    return highest[0].effective_from >= latest


def _contradicts_its_instrument(leaders: list[Rule], snapshot: Snapshot) -> bool:
    """Whether the highest-ranked side restates an instrument that a lower side quotes as its
    act (the IRS table reflects Notice 2025-67; two publishers quote the notice): a page that
    disagrees with the instrument it reflects cannot settle the conflict by rank."""
    rank = max(AUTHORITY_RANK[rule.authority] for rule in leaders)
    highest = [rule for rule in leaders if AUTHORITY_RANK[rule.authority] == rank]
    if len(highest) != 1:
        return False
    reflected = {item for source in _sources(highest[0], snapshot) for item in source.reflects}
    return bool(reflected) and any(
        reflected & {part.strip() for part in source.act_id.split(";")}
        for rule in leaders
        if rule is not highest[0]
        for source in _sources(rule, snapshot)
    )


def _sources(rule: Rule, snapshot: Snapshot) -> list[Source]:
    found = (snapshot.source_of(pointer.evidence_id) for pointer in rule.pointers)
    return [source for source in found if source is not None]


def _conditional(selection: ConceptRules, snapshot: Snapshot) -> Resolution:
    """Rules that apply under conditions the asker did not state. Rules under the same
    condition that disagree are a conflict like any other (the IRS table against a publisher
    for the same age group): settled by precedence, else unresolved."""
    groups: dict[str, list[Rule]] = {}
    for rule in selection.missing_context:
        groups.setdefault(repr(rule.applies_when), []).append(rule)
    rows: list[Rule] = []
    for rules in groups.values():
        settled = resolve(replace(selection, in_force=tuple(rules)), snapshot)
        if settled.unresolved:
            return replace(settled, conditional=())
        assert settled.winner is not None
        rows.append(settled.winner)
    defaults = frozenset(r.id for r in rows if _default_row(snapshot.conditions.get(r.id)))
    return Resolution(selection.concept, None, (), (), None, conditional=_by_value(rows, defaults))


def _default_row(condition: object) -> bool:
    """A row that held when the asker's data was not given ("not given, or 1951–1959")."""
    return isinstance(condition, Any_) and any(
        isinstance(p, Not) and isinstance(p.part, Exists) for p in condition.parts
    )


def _by_value(rules: list[Rule], defaults: frozenset[str] = frozenset()) -> tuple[Rule, ...]:
    """One row per distinct value and condition (the best-sourced of each): the row that holds
    for most askers (the one a pack gives when the data is not known) first, then highest
    value first."""
    best: dict[tuple[str, str], Rule] = {}
    for rule in sorted(rules, key=_preference):
        numeric = _numeric(rule.value)
        value = str(numeric.normalize()) if numeric is not None else rule.value.strip().casefold()
        best.setdefault((value, repr(rule.applies_when)), rule)
    return tuple(
        sorted(
            best.values(),
            key=lambda r: (
                r.id not in defaults,
                _numeric(r.value) is None,
                -(_numeric(r.value) or 0),
                r.id,
            ),
        )
    )


def _preference(rule: Rule) -> tuple[int, int, float, str]:
    """Citation order: higher authority, newer effective_from, higher confidence, then id."""
    return (
        -AUTHORITY_RANK[rule.authority],
        -rule.effective_from.toordinal(),
        -rule.confidence,
        rule.id,
    )


def _specificity(rule: Rule, snapshot: Snapshot) -> int:
    condition = snapshot.conditions.get(rule.id)
    return len(fields_of(condition)) if condition is not None else -1


def _numeric(value: str) -> Decimal | None:
    try:
        return Decimal(value.strip())
    except InvalidOperation:
        return None


def _describe(resolution: Resolution) -> str:
    if resolution.conditional:
        waiting = [r.id for r in resolution.conditional]
        return f"{resolution.concept}: conditional on client data {waiting}"
    if resolution.unresolved:
        return f"{resolution.concept}: UNRESOLVED between {[r.id for r in resolution.unresolved]}"
    assert resolution.winner is not None
    text = f"{resolution.concept}: {resolution.winner.id}"
    if resolution.losers:
        text += f" over {[r.id for r in resolution.losers]} by {resolution.how}"
    if resolution.record is not None:
        text += f" {resolution.record.id} ({resolution.record.strategy})"
    return text

"""A frozen dataclass with some fields changed, without running `__init__` again.

`dataclasses.replace` rebuilds through `__init__` and costs ~10 µs on the pipeline's State;
the runner and the guardrail flow fold ~20 results per answer, so the generic path was a tenth
of an answer's time. The value is the same: every field copied, the given ones changed, and
a name that is not a field is refused as `replace` refuses it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


class _Layout:
    """A dataclass's fields, read once: their names, a getter of all their values at once
    and a setter for each (the slot's own, which a frozen class's `__setattr__` does not
    guard). Copying through these costs about a third less than by name, field by field."""

    __slots__ = ("names", "setters", "values")

    def __init__(self, cls: type) -> None:
        names = tuple(f.name for f in fields(cls))
        self.names = frozenset(names)
        getter = attrgetter(*names)
        # attrgetter of one name returns the value, not a 1-tuple
        self.values: Callable[[Any], tuple[Any, ...]] = (
            getter if len(names) > 1 else (lambda obj: (getter(obj),))
        )
        self.setters: tuple[Callable[[Any, Any], None], ...] = tuple(
            _setter(cls, name) for name in names
        )


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    slot = cls.__dict__.get(name)
    if slot is not None and hasattr(slot, "__set__"):  # a slotted field: its descriptor
        setter: Callable[[Any, Any], None] = slot.__set__
        return setter
    return lambda obj, value: object.__setattr__(obj, name, value)


_LAYOUTS: dict[type, _Layout] = {}


def evolve(obj: T, **changes: Any) -> T:
    cls = type(obj)
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS.setdefault(cls, _Layout(cls))
    if not changes.keys() <= layout.names:
        unknown = changes.keys() - layout.names
        raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(unknown))}")
    new: T = object.__new__(cls)
    for set_field, value in zip(layout.setters, layout.values(obj), strict=True):
        set_field(new, value)
    for name, value in changes.items():
        object.__setattr__(new, name, value)
    return new

"""Which requirements were written to, so that a save need not compare all of them.

Every assignment to a requirement's field (its status, text, confidence, ...) is logged here
by `Requirement.__setattr__`; the journal asks what was written since its last save and
compares only those, where it compared the field values of every requirement at every save
(~1 ms at 1,000 requirements, two or three saves a turn). In-place changes of a requirement's
list fields (restated_turns.append) bypass __setattr__: the journal compares those lists
itself, whole, which costs a C-level pass.

The log is bounded: past `MAX_WRITES` entries it starts a new epoch, and a journal holding a
position of an older epoch compares everything once, as before.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from .tracked_lists import list_method_then

MAX_WRITES = 20_000
_log: list[weakref.ref[Any]] = []
_epoch = 0
Position = tuple[int, int]


def note_write(item: Any) -> None:
    global _epoch
    if len(_log) >= MAX_WRITES:
        _log.clear()
        _epoch += 1
    _log.append(weakref.ref(item))


def position() -> Position:
    """Where the log stands now: take it before reading the items it covers."""
    return _epoch, len(_log)


def written_since(start: Position) -> list[Any] | None:
    """The items written since `start` (still alive, repeats possible); None when the log
    cannot tell (a new epoch began): then every item must be compared."""
    epoch, at = start
    if epoch != _epoch or at > len(_log):
        return None
    return [item for ref in _log[at:] if (item := ref()) is not None]


class NotedList(list[Any]):
    """A list that logs itself when changed in place (a requirement's list fields)."""

    def _noted(name: str) -> Any:  # type: ignore[misc]
        return list_method_then(name, note_write)

    append = _noted("append")
    extend = _noted("extend")
    insert = _noted("insert")
    remove = _noted("remove")
    pop = _noted("pop")
    clear = _noted("clear")
    sort = _noted("sort")
    reverse = _noted("reverse")
    __setitem__ = _noted("__setitem__")
    __delitem__ = _noted("__delitem__")
    __iadd__ = _noted("__iadd__")
    __imul__ = _noted("__imul__")
    del _noted


def noted_lists(item: Any, names: tuple[str, ...]) -> list[NotedList]:
    """The item's list fields `names`, made NotedLists where they are plain lists (a list set
    by model_copy(update=...) or by construction)."""
    found: list[NotedList] = []
    values = item.__dict__
    for name in names:
        value = values.get(name)
        if isinstance(value, list):
            if not isinstance(value, NotedList):
                value = values[name] = NotedList(value)
            found.append(value)
    return found


def positions_of(
    items: list[Any], names: tuple[str, ...], start: int = 0, into: dict[int, int] | None = None
) -> dict[int, int]:
    """id -> index of each item and of each of its list fields `names` (NotedLists: a list
    changed in place logs itself, and leads to its item through this)."""
    where = {} if into is None else into
    for index, item in enumerate(items, start):
        where[id(item)] = index
        for value in noted_lists(item, names):
            where[id(value)] = index
    return where


def holds(item: Any, written: Any, names: tuple[str, ...]) -> bool:
    """Is `written` (from the log) this item or one of its list fields?"""
    return item is written or any(item.__dict__.get(name) is written for name in names)


class _Follows(Protocol):
    requirements: list[Any]


Followed = TypeVar("Followed", bound=_Follows)


def followed_entry(
    cache: list[Followed],
    requirements: list[Any],
    still_holds: Callable[[Followed], bool],
    build: Callable[[], Followed],
    size: int,
) -> Followed:
    """The cache entry that follows this very list of requirements, or a new one (at the
    front, the oldest dropped past `size`) when there is none or it no longer holds."""
    entry = next((e for e in cache if e.requirements is requirements), None)
    if entry is None or not still_holds(entry):
        if entry is not None:
            cache.remove(entry)
        entry = build()
        cache.insert(0, entry)
        del cache[size:]
    return entry

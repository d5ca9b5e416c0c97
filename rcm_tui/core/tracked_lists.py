"""Session lists that tell a reader what changed in them since it last looked.

The lists that grow with a session (messages, call records, quality records, requirements …)
are read again and again by work that only needs what is new: the journal's save, the
snapshot's requirement items, the indexes that follow the ledger and the history. Each of those
proved "the items I saw are still there, in the same places" with a pass over the whole list
(a copy and an identity check per item, in C): cheap at 20 turns, ~0.3 ms a save and more a
turn at 1,000, for lists that almost only ever grow.

A `TrackedList` counts its changes instead. Appending (append, extend, +=) is free: a reader
that remembers the length knows what is new. Replacing one item (`items[i] = x`, what pruning a
call record's text does) logs the index. Anything else (insert, remove, pop, del, a slice
assignment, sort, reverse, clear, *=) may move items, and bumps a counter that sends every
reader back to its full comparison. A reader keeps a `Seen` (the list, its length and both
counters) and asks `replaced_since`.

The session document assigns these to its tracked fields when it is built or a list is set
(`models.Session`, `models.Metrics`); a plain list there (set through `model_copy(update=…)`)
is simply read the old way.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, SupportsIndex, TypeVar

T = TypeVar("T")
# Past this many replacements logged, the log starts again and readers compare once in full.
MAX_REPLACED = 4096
# (the list, its length, times rearranged, replacements logged) when a reader last looked.
Seen = tuple[list[Any], int, int, int]


def list_method_then(name: str, after: Callable[[Any], None]) -> Any:
    """`list.<name>`, then `after(the list)`: how a list subclass hears of its own changes."""
    method = getattr(list, name)

    def changed(self: list[Any], *args: Any, **kwargs: Any) -> Any:
        result = method(self, *args, **kwargs)
        after(self)
        return result

    changed.__name__ = name
    return changed


def _rearranged(items: TrackedList[Any]) -> None:
    items.rearranged += 1


class TrackedList(list[T]):
    """A list that counts its changes: appends are free, a replaced item is logged by index,
    anything that may move items bumps `rearranged`."""

    def __init__(self, items: Any = ()) -> None:
        super().__init__(items)
        self.rearranged = 0
        self.replaced: list[int] = []

    def _moved(name: str) -> Any:  # type: ignore[misc]
        return list_method_then(name, _rearranged)

    insert = _moved("insert")
    remove = _moved("remove")
    pop = _moved("pop")
    clear = _moved("clear")
    sort = _moved("sort")
    reverse = _moved("reverse")
    __delitem__ = _moved("__delitem__")
    __imul__ = _moved("__imul__")
    del _moved

    def __setitem__(self, index: Any, value: Any) -> None:
        list.__setitem__(self, index, value)
        if isinstance(index, slice) or len(self.replaced) >= MAX_REPLACED:
            self.rearranged += 1
            self.replaced.clear()
            return
        at = operator.index(index)
        self.replaced.append(at + len(self) if at < 0 else at)

    def __iadd__(self, other: Any) -> TrackedList[T]:  # type: ignore[override,misc]
        self.extend(other)  # appends: nothing moves
        return self

    def __copy__(self) -> TrackedList[T]:
        return TrackedList(self)

    def __reduce__(self) -> Any:
        # A copy (deepcopy, pickle) is a new list: its counters start again.
        return TrackedList, (list(self),)

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        return self.__reduce__()


def seen(items: list[Any]) -> Seen | None:
    """What a reader remembers of `items` now (None when it is not a TrackedList: the reader
    then compares in full every time). Take it before reading the items: a change made while
    they are read is then seen next time."""
    if not isinstance(items, TrackedList):
        return None
    return items, len(items), items.rearranged, len(items.replaced)


def replaced_since(items: list[Any], before: Seen | None) -> list[int] | None:
    """The indices below the remembered length whose item was replaced since `before` (the
    other items there are the same objects, in the same places; [] when the list only grew);
    None when it cannot tell: another list, not tracked, rearranged, or shorter."""
    if before is None or not isinstance(items, TrackedList):
        return None
    source, length, rearranged, logged = before
    if source is not items or items.rearranged != rearranged or len(items) < length:
        return None
    return [at for at in items.replaced[logged:] if at < length]


def kept_prefix(items: list[Any], before: Seen | None, held: list[Any]) -> bool:
    """Does `items` start with the very objects of `held` (a reader's copy, taken when it
    remembered `before`)? O(1) when the tracked list only grew since; a pass in C otherwise."""
    if before is not None and before[1] == len(held) and replaced_since(items, before) == []:
        return True
    return len(items) >= len(held) and all(map(operator.is_, items, held))

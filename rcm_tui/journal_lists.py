"""What changed in one of a session's growing lists since the journal last wrote it.

Three kinds of list (journal.TRACKED says which is which):
- by turn (messages, calls, ...: items carry a `turn`): items older than `WINDOW_TURNS` turns
  are taken as unchanged unless the list itself was rearranged or an item replaced; the
  pipeline changes only recent items in place, and replaces a call record when it prunes its
  text, `CALL_TEXT_TURNS` (30) turns on. The window's snapshots are taken and compared as
  whole lists (comparisons in C), and its start moves on from where the last save found it;
- every item (the requirements: any of them may change at any turn): the items written to
  since the last save (the write log of `core/requirement_writes.py`) are compared field by
  field with what was last written;
- plain values (answer lengths, consolidation turns): compared by value.

The session's lists are TrackedLists (`core/tracked_lists.py`): when one is the list last
written and only grew, or had items replaced by index, since (the common case: every save of
a turn), what is new or replaced is known without a pass over the list. Otherwise (a rewind,
a plain list) the list is compared with the journal's own copy of it, item by item by
identity, as before. That copy is kept up to date in place (appends and replacements), not
copied at every save: a failed append drops the whole SessionJournal (the store then rewrites
the document), so a half-updated copy is never read again.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, get_origin

from pydantic import BaseModel

from .core.models import REQUIREMENT_LISTS
from .core.requirement_writes import Position, holds, position, positions_of, written_since
from .core.tracked_lists import Seen, replaced_since, seen

# Items whose turn is this recent are compared field by field on every save; older ones are
# unchanged unless replaced (the pipeline replaces the call records whose text it prunes, 30
# turns on). Background work (a consolidation) may finish a few turns after its own turn.
WINDOW_TURNS = 12
BY_TURN, EVERY_ITEM, PLAIN = "turn", "item", "plain"
Delta = dict[str, Any]


@functools.cache
def _list_fields(model: type[BaseModel]) -> tuple[str, ...]:
    return tuple(
        name for name, info in model.model_fields.items() if get_origin(info.annotation) is list
    )


@dataclass
class ListState:
    # the journal's copy of the list as last written
    items: list[Any]
    # the snapshots of items[watched:] at the last write (items before `watched` are compared
    # by identity only)
    snapshots: list[tuple[Any, ...]] = field(default_factory=list)
    watched: int = 0
    turn: int = 0
    # every item: where the requirement write log stood before the snapshots were taken
    writes: Position | None = None
    # every item: id(item) and id(its list fields) -> its index, kept from save to save (the
    # items before the new ones are the same objects), not built again for each save
    where: dict[int, int] | None = None
    # the session's list as it was when written (None: not a TrackedList)
    seen: Seen | None = None

    def snapshot_at(self, index: int) -> tuple[Any, ...] | None:
        at = index - self.watched
        return self.snapshots[at] if 0 <= at < len(self.snapshots) else None


def _window_start(items: list[Any], horizon: int) -> int:
    start = len(items)
    while start > 0 and getattr(items[start - 1], "turn", horizon) >= horizon:
        start -= 1
    return start


def _first_difference(now: list[Any], before: list[Any], limit: int) -> int:
    """The first index below `limit` where the two lists hold different objects."""
    limit = min(limit, len(before))
    # One pointer comparison per item, in C (slicing both lists first copied them).
    return next(compress(range(limit), map(operator.is_not, now, before)), limit)


def _watched_from(items: list[Any], turn: int, kind: str, before: ListState | None) -> int:
    """The first index whose item is compared field by field at each write."""
    if kind != BY_TURN:
        return 0
    horizon = turn - WINDOW_TURNS
    if before is None or turn < before.turn or len(items) < len(before.items):
        return _window_start(items, horizon)
    # From where the last write started: the window moves by what crossed the horizon since,
    # not by a walk over every item of it. Stopping at the first recent item watches at least
    # what the walk from the end would.
    start = before.watched
    while start < len(items) and getattr(items[start], "turn", horizon) < horizon:
        start += 1
    return start


def _first_other_value(now: list[Any], before: list[Any]) -> int:
    shared = min(len(now), len(before))
    if now[:shared] == before[:shared]:  # appended to: one comparison in C
        return shared
    return next(i for i in range(shared) if now[i] != before[i])


def _snapshots(items: list[Any], kind: str) -> list[tuple[Any, ...]]:
    """Each item's field values, by reference: the pipeline reassigns a field to change it,
    and comparing references costs a pointer comparison per field where re-encoding cost a
    serialisation. One comprehension, no call per item: this runs at every save, over the
    window, and over every requirement (whose list fields are copied: the ledger grows some
    in place, restated_turns)."""
    if kind == EVERY_ITEM and items:
        model: type[BaseModel] = type(items[0])
        grown = _list_fields(model)
        return [
            (tuple(values.values()), item.__pydantic_extra__ and tuple(
                item.__pydantic_extra__.items()), tuple([tuple(values[f]) for f in grown]))
            for item in items
            for values in (item.__dict__,)
        ]
    return [
        (tuple(item.__dict__.values()), item.__pydantic_extra__ and tuple(
            item.__pydantic_extra__.items()))
        for item in items
    ]


def state_of(
    items: list[Any], turn: int, kind: str, before: ListState | None = None
) -> ListState:
    """The list as it is now, read in full (the first write, or when the list cannot tell what
    changed)."""
    now = seen(items)  # first: a change while the items are copied is seen next time
    if kind == PLAIN:
        return ListState(list(items), seen=now)
    if kind == EVERY_ITEM:
        writes = position()  # first: a write while the snapshots are taken is seen next time
        return ListState(list(items), _snapshots(items, kind), 0, turn, writes,
                         positions_of(items, REQUIREMENT_LISTS), now)
    start = _watched_from(items, turn, kind, before)
    return ListState(list(items), _snapshots(items[start:], kind), start, turn, seen=now)


def _caught_up(mirror: list[Any], items: list[Any], replaced: list[int]) -> list[int]:
    """Bring the journal's copy up to `items` (the same list, grown or with items replaced by
    index since); the indices whose object changed."""
    changed = sorted({at for at in replaced if items[at] is not mirror[at]})
    for at in changed:
        mirror[at] = items[at]
    mirror += items[len(mirror):]
    return changed


def _dumped(items: list[Any], indices: list[int] | range) -> dict[str, Any]:
    return {str(index): items[index].model_dump(mode="json") for index in indices}


def _delta(
    at: dict[str, Any], items: list[Any], shared: int, state: ListState
) -> tuple[Delta | None, ListState]:
    if not at and len(items) == shared:
        return None, state
    return {"len": len(items), "at": at}, state


def _plain_grown(
    before: ListState, items: list[Any], now: Seen | None
) -> tuple[Delta | None, ListState]:
    shared = len(before.items)
    mirror = before.items
    mirror += items[shared:]
    at = {str(i): items[i] for i in range(shared, len(items))}
    return _delta(at, items, shared, ListState(mirror, seen=now))


def _window_changed(before: ListState, snapshots: list[tuple[Any, ...]], start: int,
                    shared: int) -> list[int]:
    """The indices from `start` to `shared` whose snapshot is not the one last written (or
    was not taken then)."""
    offset = start - before.watched
    if offset >= 0 and before.snapshots[offset:] == snapshots[: max(0, shared - start)]:
        return []  # the common case: one comparison in C
    return [
        index for index in range(start, shared)
        if (last := before.snapshot_at(index)) is None or last != snapshots[index - start]
    ]


def _by_turn_followed(
    before: ListState, items: list[Any], turn: int, replaced: list[int], now: Seen | None
) -> tuple[Delta | None, ListState]:
    """A by-turn list that only grew or had items replaced since the last write: the replaced
    items, the window's changed items and the new ones, without a pass over the rest."""
    shared = len(before.items)
    start = _watched_from(items, turn, BY_TURN, before)
    snapshots = _snapshots(items[start:], BY_TURN)
    changed = set(_caught_up(before.items, items, replaced))
    changed.update(_window_changed(before, snapshots, start, shared))
    at = _dumped(items, [*sorted(changed), *range(shared, len(items))])
    return _delta(at, items, shared, ListState(before.items, snapshots, start, turn, seen=now))


def _by_comparison(
    before: ListState, items: list[Any], turn: int, kind: str
) -> tuple[Delta | None, ListState]:
    """Every item compared with the journal's copy (by identity) and the window's snapshots."""
    state = state_of(items, turn, kind, before)
    if kind == PLAIN:
        start = _first_other_value(items, before.items)
        return _delta({str(i): items[i] for i in range(start, len(items))}, items,
                      len(before.items), state)
    start = _first_difference(items, before.items, state.watched)
    at = {
        str(index): items[index].model_dump(mode="json")
        for index in range(start, len(items))
        if not (
            index < len(before.items)
            and items[index] is before.items[index]
            and (
                # before the window: unchanged unless replaced (a pruned call record)
                index < state.watched
                or (
                    (last := before.snapshot_at(index)) is not None
                    and last == state.snapshot_at(index)
                )
            )
        )
    }
    return _delta(at, items, len(before.items), state)


def _written_changes(
    before: ListState, items: list[Any], turn: int, replaced: list[int] | None,
    now: Seen | None,
) -> tuple[Delta | None, ListState] | None:
    """Every item's changes from the write log: the items written to since the last save, or
    replaced in the list, are compared (a list field changed in place logs itself: a
    NotedList), the others are not; None when the log cannot tell (then all are compared):
    the list was rearranged, a new epoch."""
    writes = position()
    shared = len(before.items)
    written = written_since(before.writes) if before.writes is not None else None
    if written is None or shared > len(items):
        return None
    if replaced is None:  # not a TrackedList that can tell: compare identities, in C
        if not all(map(operator.is_, items, before.items)):
            return None
        replaced = []
    where = before.where
    if where is None:
        where = positions_of(before.items, REQUIREMENT_LISTS)
    touched = {
        index for item in written
        if (index := where.get(id(item), shared)) < shared
        and holds(items[index], item, REQUIREMENT_LISTS)
    }
    touched.update(_caught_up(before.items, items, replaced))
    # Updated in place, like the copy of the list (see the module's docstring).
    snapshots = before.snapshots
    at: dict[str, Any] = {}
    ordered = sorted(touched)
    for index, last in zip(ordered, _snapshots([items[i] for i in ordered], EVERY_ITEM),
                           strict=True):
        if last != snapshots[index]:
            snapshots[index] = last
            at[str(index)] = items[index].model_dump(mode="json")
        # A list field assigned anew, or an item replaced: follow that one from now on.
        positions_of([items[index]], REQUIREMENT_LISTS, index, where)
    snapshots += _snapshots(items[shared:], EVERY_ITEM)
    at.update(_dumped(items, range(shared, len(items))))
    positions_of(items[shared:], REQUIREMENT_LISTS, shared, where)
    return _delta(at, items, shared, ListState(before.items, snapshots, 0, turn, writes, where,
                                                now))


def list_changes(
    before: ListState, items: list[Any], turn: int, kind: str
) -> tuple[Delta | None, ListState]:
    """The list's delta since `before` (None: nothing changed) and its state to keep."""
    now = seen(items)  # first: a change while the items are read is seen next time
    replaced = replaced_since(items, before.seen)
    if replaced is not None and before.seen is not None and before.seen[1] != len(before.items):
        replaced = None  # the copy and the mark were not taken together: compare in full
    if kind == EVERY_ITEM:
        quick = _written_changes(before, items, turn, replaced, now)
        if quick is not None:
            return quick
    elif replaced is not None and kind == BY_TURN:
        return _by_turn_followed(before, items, turn, replaced, now)
    elif replaced == [] and kind == PLAIN:
        return _plain_grown(before, items, now)
    return _by_comparison(before, items, turn, kind)

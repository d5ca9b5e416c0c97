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
from typing import Any

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

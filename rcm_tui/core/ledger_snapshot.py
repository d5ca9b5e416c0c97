"""The ledger at one moment: one typed, frozen snapshot, independent of the session.

Built from the session by `ledger.ledger_snapshot`; read by the analysers (heuristic and LLM),
by the prompt's ledger block and instructions, by the STATUS and SOLIDIFIED fallbacks, and by
the offline demo provider. Safe to share with work that runs beside the turn.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, count, repeat

from .models import Origin, RequirementStatus


@dataclass(frozen=True)
class RequirementItem:
    id: str
    text: str
    status: RequirementStatus = "pending"
    source_turn: int = 0
    # "user" when set by hand in the panel: a long ledger's block always shows those.
    origin: str = "heuristic"


@dataclass(frozen=True)
class RejectedItem:
    option: str
    reason: str = ""
    turn: int = 0
    origin: Origin = "heuristic"


@dataclass(frozen=True)
class LedgerSnapshot:
    # Every requirement, dropped ones too (an analyser reads them to tell a restatement).
    requirements: tuple[RequirementItem, ...] = ()
    # The rejections that stand (reopened ones are not here).
    rejected: tuple[RejectedItem, ...] = ()
    # Every option ever rejected, each once: what "let's reconsider X" may reopen.
    reopenable: tuple[str, ...] = ()
    solidified: str | None = None
    facts: tuple[str, ...] = ()
    trajectory: str = ""
    open_questions: tuple[str, ...] = ()
    recent_user_messages: tuple[str, ...] = ()
    last_assistant_message: str = ""
    # The few replies before it, oldest first: options proposed two turns ago are still on the
    # table when the user turns one down.
    earlier_assistant_messages: tuple[str, ...] = ()

    @property
    def active_rejections(self) -> list[str]:
        return [r.option for r in self.rejected]

    @property
    def live_requirements(self) -> list[RequirementItem]:
        """The requirements a prompt states: all but the dropped ones."""
        return list(self.live_items)

    @property
    def live_items(self) -> tuple[RequirementItem, ...]:
        """live_requirements as the tuple kept: a snapshot of only these (the demo's view of
        a block) filters them again at no cost."""
        return _with_status(self.requirements, "dropped", operator.ne)

    @property
    def pending(self) -> list[RequirementItem]:
        return list(_with_status(self.requirements, "pending", operator.eq))

    def has_items(self) -> bool:
        """Is there anything a ledger block would state?"""
        return bool(
            self.solidified or self.rejected or self.live_requirements or self.facts
            or self.trajectory
        )


# The filterings of the last few requirement tuples: a snapshot is taken several times a turn,
# its requirements tuple stays the same object while the ledger does not change, these lists
# are asked for ~10 times a turn, and a bounded block's shorter tuple is filtered in between.
_CACHED_FILTERINGS = 4
# A new tuple built from the last one (`ledger_index.requirement_items`): (new, old, the
# positions whose item changed); the new tuple's filterings are the old ones patched there.
_DERIVED = 4


@dataclass
class _Filtering:
    items: tuple[RequirementItem, ...]
    kept: tuple[RequirementItem, ...]
    # the positions in `items` of the kept ones, in order
    positions: list[int]


_filtered: dict[tuple[int, str], list[_Filtering]] = {}
_derived: list[tuple[tuple[RequirementItem, ...], tuple[RequirementItem, ...], list[int]]] = []


def note_derived(
    new: tuple[RequirementItem, ...], old: tuple[RequirementItem, ...], changed: list[int]
) -> None:
    """`new` is `old` with the items at `changed` replaced and items appended: its filterings
    follow from old's at those positions, not from a pass over every requirement (~0.15 ms
    each at 1,000 requirements, a few times a turn as the ledger changes)."""
    _derived.insert(0, (new, old, changed))
    del _derived[_DERIVED:]


def _with_status(
    items: tuple[RequirementItem, ...], status: str, compare: Callable[[str, str], bool]
) -> tuple[RequirementItem, ...]:
    held = _filtered.setdefault((id(compare), status), [])
    for entry in held:
        if entry.items is items:
            return entry.kept
        if entry.kept is items:  # filtered already: every item passes again
            held.insert(0, _Filtering(items, items, list(range(len(items)))))
            del held[_CACHED_FILTERINGS:]
            return items
    entry = _patched(held, items, status, compare) or _filtering(items, status, compare)
    held.insert(0, entry)
    del held[_CACHED_FILTERINGS:]
    return entry.kept


def _filtering(
    items: tuple[RequirementItem, ...], status: str, compare: Callable[[str, str], bool]
) -> _Filtering:
    keep = list(map(compare, map(_STATUS, items), repeat(status)))
    return _Filtering(items, tuple(compress(items, keep)), list(compress(count(), keep)))


def _patched(
    held: list[_Filtering], items: tuple[RequirementItem, ...], status: str,
    compare: Callable[[str, str], bool],
) -> _Filtering | None:
    """The filtering of `items` from that of the tuple it was built from, when both are known."""
    old, changed = next(((o, c) for new, o, c in _derived if new is items), ((), []))
    base = next((entry for entry in held if entry.items is old), None) if old else None
    if base is None:
        return None
    kept, positions = list(base.kept), list(base.positions)
    for at in changed:
        slot = bisect.bisect_left(positions, at)
        was = slot < len(positions) and positions[slot] == at
        now = compare(items[at].status, status)
        if was and now:
            kept[slot] = items[at]
        elif was:
            del kept[slot], positions[slot]
        elif now:
            kept.insert(slot, items[at])
            positions.insert(slot, at)
    for at in range(len(old), len(items)):
        if compare(items[at].status, status):
            kept.append(items[at])
            positions.append(at)
    return _Filtering(items, tuple(kept), positions)


_STATUS = operator.attrgetter("status")

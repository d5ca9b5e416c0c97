"""The ledger at one moment: one typed, frozen snapshot, independent of the session.

Built from the session by `ledger.ledger_snapshot`; read by the analysers (heuristic and LLM),
by the prompt's ledger block and instructions, by the STATUS and SOLIDIFIED fallbacks, and by
the offline demo provider. Safe to share with work that runs beside the turn.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, repeat

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
        return list(_with_status(self.requirements, "dropped", operator.ne))

    @property
    def pending(self) -> list[RequirementItem]:
        return list(_with_status(self.requirements, "pending", operator.eq))

    def has_items(self) -> bool:
        """Is there anything a ledger block would state?"""
        return bool(
            self.solidified or self.rejected or self.live_requirements or self.facts
            or self.trajectory
        )


# The last filterings, by the tuple they filtered: a snapshot is taken several times a turn and
# its requirements tuple stays the same object while the ledger does not change, and these
# lists are asked for ~10 times a turn (a pass over 1,000 requirements each time).
_filtered: dict[tuple[int, str], tuple[tuple[RequirementItem, ...], tuple[RequirementItem, ...]]]
_filtered = {}


def _with_status(
    items: tuple[RequirementItem, ...], status: str, compare: Callable[[str, str], bool]
) -> tuple[RequirementItem, ...]:
    key = (id(compare), status)
    held = _filtered.get(key)
    if held is not None and held[0] is items:
        return held[1]
    kept = tuple(compress(items, map(compare, map(_STATUS, items), repeat(status))))
    _filtered[key] = (items, kept)
    return kept


_STATUS = operator.attrgetter("status")

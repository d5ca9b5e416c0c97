"""The ledger at one moment: one typed, frozen snapshot, independent of the session.

Built from the session by `ledger.ledger_snapshot`; read by the analysers (heuristic and LLM),
by the prompt's ledger block and instructions, by the STATUS and SOLIDIFIED fallbacks, and by
the offline demo provider. Safe to share with work that runs beside the turn.
"""

from __future__ import annotations

from dataclasses import dataclass

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
        return [r for r in self.requirements if r.status != "dropped"]

    @property
    def pending(self) -> list[RequirementItem]:
        return [r for r in self.requirements if r.status == "pending"]

    def has_items(self) -> bool:
        """Is there anything a ledger block would state?"""
        return bool(
            self.solidified or self.rejected or self.live_requirements or self.facts
            or self.trajectory
        )

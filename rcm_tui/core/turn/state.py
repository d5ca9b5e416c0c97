"""The state of one running turn, passed whole to every step instead of a parameter list."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..call_context import CallContext
from ..context import AssembledPrompt
from ..ledger_snapshot import LedgerSnapshot
from ..models import QualityRecord, Session
from ..quality import Scores


@dataclass
class Turn:
    """One turn as it runs: the session, which turn, what the user wrote, and its prompt."""

    session: Session
    number: int
    user_text: str
    # Is the reply asked to open with a [STATUS] block (every `status_interval` turns)?
    status_requested: bool
    # The ledger once the heuristic analysis has read the message: what the prompt states.
    ledger: LedgerSnapshot = field(init=False)
    # The generation prompt, built once the heuristic analysis has updated the ledger and
    # built again when the backend refuses it as longer than its window.
    prompt: AssembledPrompt = field(init=False)
    # Attempts stopped while streaming, each with the rejected options it had proposed
    # (early_stop.py): failed attempts, never shown.
    stopped: dict[int, list[str]] = field(default_factory=dict)

    def context(self, *, draft: str = "", heuristic: Scores | None = None) -> CallContext:
        """What a call of this turn is about, for a provider without a model (the demo)."""
        return CallContext(
            turn=self.number,
            ledger=self.ledger,
            user_message=self.user_text,
            status_requested=self.status_requested,
            draft=draft,
            heuristic=heuristic,
        )


@dataclass
class Draft:
    attempt: int
    text: str
    scores: Scores
    # Cut off at a sentence proposing a rejected option: a failed attempt, never shown.
    stopped: bool = False


@dataclass
class BestDraft:
    draft: Draft
    record: QualityRecord


@dataclass
class TurnOutcome:
    turn: int
    ok: bool
    reply: str = ""
    quality: QualityRecord | None = None
    error: str | None = None
    error_kind: str | None = None

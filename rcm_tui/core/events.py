"""Typed events the pipeline emits while a turn runs.

The controller forwards them to whoever drives it: the TUI turns them into widget updates,
replay prints progress on stderr, bench counts them. They carry no UI types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .models import CallRecord, QualityRecord

Stage = Literal[
    "saving", "analysing", "generating", "evaluating", "refining", "consolidating",
    "solidifying", "done", "cancelled", "failed",
]


@dataclass(frozen=True)
class StageChanged:
    turn: int
    stage: Stage
    attempt: int = 1
    max_attempts: int = 1

    @property
    def label(self) -> str:
        if self.stage == "refining":
            return f"refining {self.attempt}/{self.max_attempts}"
        return self.stage


@dataclass(frozen=True)
class ReplyStarted:
    """A new draft begins streaming; the UI clears the previous draft's text."""

    turn: int
    attempt: int


@dataclass(frozen=True)
class ReplyDelta:
    turn: int
    attempt: int
    text: str


@dataclass(frozen=True)
class ReplyShown:
    """The reply that stays on screen for this turn (the best-scoring attempt)."""

    turn: int
    attempt: int
    text: str


@dataclass(frozen=True)
class LedgerChanged:
    """Requirements, rejections, facts, pivots or SOLIDIFIED changed: panels re-render."""

    turn: int
    reason: str


@dataclass(frozen=True)
class QualityScored:
    record: QualityRecord


@dataclass(frozen=True)
class CallFinished:
    call: CallRecord


@dataclass(frozen=True)
class Notice:
    """Something the user should know that is not an error (a fallback, a consolidation)."""

    text: str
    level: Literal["info", "warning"] = "info"


@dataclass(frozen=True)
class TurnFailed:
    turn: int
    message: str
    kind: str = "unknown"


@dataclass(frozen=True)
class TurnFinished:
    turn: int
    seconds: float


PipelineEvent = (
    StageChanged | ReplyStarted | ReplyDelta | ReplyShown | LedgerChanged | QualityScored
    | CallFinished | Notice | TurnFailed | TurnFinished
)

"""The STATUS and SOLIDIFIED blocks built from the ledger alone.

The pipeline falls back on them when the model fails or is not asked; `/status` shows the
first before any STATUS block was written.
"""

from __future__ import annotations

from .conclusion import current_conclusion
from .context import solidified_from_ledger, status_from_ledger
from .ledger import ledger_snapshot
from .models import Session, StatusBlock


def heuristic_status(session: Session, turn: int) -> StatusBlock:
    return status_from_ledger(ledger_snapshot(session), turn)


def heuristic_solidified(session: Session) -> str:
    """The SOLIDIFIED block built from the ledger alone (used when the model fails)."""
    conclusion = current_conclusion(session)
    return solidified_from_ledger(
        ledger_snapshot(session), conclusion=conclusion.text if conclusion else ""
    )

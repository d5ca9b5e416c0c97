"""The analysis and judge instructions of a turn, filled in from a ledger snapshot.

The pipeline and the bench's naive layer send the same words (prompts.py holds them); this is
the one place that fills them in.
"""

from __future__ import annotations

from . import prompts
from .ledger_bound import bounded_requirements
from .ledger_snapshot import LedgerSnapshot


def analysis_instruction(ledger: LedgerSnapshot, user_text: str, limit: int = 0) -> str:
    """Past `limit` requirements, those the message is about, pending or newest (see
    ledger_bound.py): the analyser names requirements the message confirms or drops."""
    shown, _rest = bounded_requirements(ledger.live_requirements, limit, user_text)
    return prompts.ANALYSIS_INSTRUCTION.format(
        requirements=prompts.format_requirements(shown),
        rejected=prompts.format_rejected(ledger.rejected),
        message=user_text,
    )


def judge_instruction(ledger: LedgerSnapshot, limit: int = 0) -> tuple[str, set[str]]:
    """The judge's instruction and the ids of the pending requirements it may mark addressed
    (past `limit` of them, the newest)."""
    pending, _rest = bounded_requirements(ledger.pending, limit)
    instruction = prompts.JUDGE_INSTRUCTION.format(
        requirements=prompts.format_requirements(pending),
        rejected=prompts.format_rejected(ledger.rejected),
    )
    return instruction, {r.id for r in pending}

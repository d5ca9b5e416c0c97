"""The analysis and judge instructions of a turn, filled in from a ledger snapshot.

The pipeline and the bench's naive layer send the same words (prompts.py holds them); this is
the one place that fills them in.
"""

from __future__ import annotations

from . import prompts
from .ledger_snapshot import LedgerSnapshot


def analysis_instruction(ledger: LedgerSnapshot, user_text: str) -> str:
    return prompts.ANALYSIS_INSTRUCTION.format(
        requirements=prompts.format_requirements(ledger.live_requirements),
        rejected=prompts.format_rejected(ledger.rejected),
        message=user_text,
    )


def judge_instruction(ledger: LedgerSnapshot) -> tuple[str, set[str]]:
    """The judge's instruction and the ids of the pending requirements it may mark addressed."""
    pending = ledger.pending
    instruction = prompts.JUDGE_INSTRUCTION.format(
        requirements=prompts.format_requirements(pending),
        rejected=prompts.format_rejected(ledger.rejected),
    )
    return instruction, {r.id for r in pending}

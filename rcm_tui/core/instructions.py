"""The analysis and judge instructions of a turn, filled in from the session's ledger.

The pipeline and the bench's naive layer send the same words (prompts.py holds them); this is
the one place that fills them in.
"""

from __future__ import annotations

from . import prompts
from .context import ledger_payload
from .models import Session


def analysis_instruction(session: Session, user_text: str) -> str:
    payload = ledger_payload(session)
    return prompts.ANALYSIS_INSTRUCTION.format(
        requirements=prompts.format_requirements(payload["requirements"]),
        rejected=prompts.format_rejected(payload["rejected"]),
        message=user_text,
    )


def judge_instruction(session: Session) -> tuple[str, set[str]]:
    """The judge's instruction and the ids of the pending requirements it may mark addressed."""
    payload = ledger_payload(session)
    pending = [r for r in payload["requirements"] if r["status"] == "pending"]
    instruction = prompts.JUDGE_INSTRUCTION.format(
        requirements=prompts.format_requirements(pending),
        rejected=prompts.format_rejected(payload["rejected"]),
    )
    return instruction, {r["id"] for r in pending}

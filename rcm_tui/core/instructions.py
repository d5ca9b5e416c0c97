"""The analysis and judge instructions of a turn, filled in from the session's ledger.

The pipeline and the bench's naive layer send the same words (prompts.py holds them); this is
the one place that fills them in.
"""

from __future__ import annotations

from . import prompts
from .context import ledger_payload
from .ledger_bound import bounded_requirements
from .models import Session


def analysis_instruction(session: Session, user_text: str, limit: int = 0) -> str:
    """Past `limit` requirements, those the message is about, pending or newest (see
    ledger_bound.py): the analyser names requirements the message confirms or drops."""
    payload = ledger_payload(session)
    shown, _rest = bounded_requirements(payload["requirements"], limit, user_text)
    return prompts.ANALYSIS_INSTRUCTION.format(
        requirements=prompts.format_requirements(shown),
        rejected=prompts.format_rejected(payload["rejected"]),
        message=user_text,
    )


def judge_instruction(session: Session, limit: int = 0) -> tuple[str, set[str]]:
    """The judge's instruction and the ids of the pending requirements it may mark addressed
    (past `limit` of them, the newest)."""
    payload = ledger_payload(session)
    pending = [r for r in payload["requirements"] if r["status"] == "pending"]
    pending, _rest = bounded_requirements(pending, limit)
    instruction = prompts.JUDGE_INSTRUCTION.format(
        requirements=prompts.format_requirements(pending),
        rejected=prompts.format_rejected(payload["rejected"]),
    )
    return instruction, {r["id"] for r in pending}

"""The recap shown when a session is resumed after being idle: where it stood."""

from __future__ import annotations

from . import prompts
from .conclusion import current_conclusion
from .models import Session


def recap_text(session: Session) -> str:
    lines = [prompts.RECAP_HEADER, f"Session: {session.title} · {session.turn} turn(s)."]
    if session.solidified:
        lines.append("SOLIDIFIED:\n" + session.solidified.text)
    conclusion = current_conclusion(session)
    if conclusion:
        lines.append(f"Current conclusion: {conclusion.text}")
    rejected = session.active_rejections()
    if rejected:
        lines.append("Rejected: " + "; ".join(
            f"{r.option}" + (f" ({r.reason})" if r.reason else "") + f", turn {r.turn}"
            for r in rejected))
    open_reqs = session.open_requirements()
    if open_reqs:
        lines.append("Open requirements: " + "; ".join(f"{r.id} {r.text}" for r in open_reqs))
    if session.memory.open_questions:
        lines.append("Open questions: " + "; ".join(session.memory.open_questions[-3:]))
    pending = session.pending_user_turn
    if pending is not None:
        lines.append(f"Unanswered message from turn {pending.turn}: {pending.content[:200]}")
    return "\n".join(lines)

"""The ledger block a generation prompt carries: the full ledger, or in the "as sent" layout
only what is at risk since the last full block; and where a block sits in its message."""

from __future__ import annotations

from dataclasses import replace

from . import prompts
from .ledger_bound import bounded_with_ranges
from .ledger_snapshot import LedgerSnapshot, RejectedItem
from .models import Message, Session


def with_ledger(ledger: str, text: str) -> str:
    if ledger.startswith(prompts.CHECKLIST_HEADER):
        # The small model's checklist follows the message: what it reads last, it answers.
        return f"{text}\n\n{ledger}"
    return f"{ledger}\n\n{text}" if ledger else text


def render_ledger(
    ledger: LedgerSnapshot, *, status_requested: bool, focus: str = "", limit: int = 0
) -> str:
    """The full ledger block; past `limit` requirements (0: no limit) the ones `focus` (the
    newest message) is not about and that are long answered are named by id, not repeated
    (ledger_bound.py)."""
    shown, rest, ranges = bounded_with_ranges(ledger.live_requirements, limit, focus)
    if not rest:
        return prompts.ledger_block(ledger, status_requested=status_requested)
    return prompts.ledger_block(
        replace(ledger, requirements=tuple(shown)),
        status_requested=status_requested,
        more_requirements=(rest, ranges),
    )


def ledger_update(
    session: Session,
    ledger: LedgerSnapshot,
    history: list[tuple[Message, Message]],
    turn: int,
    refresh_turns: int,
    *,
    status_requested: bool,
    remind_rejected: bool = True,
    focus: str = "",
    limit: int = 0,
) -> str:
    """The ledger block for the "as sent" layout: the full ledger, or only what is at risk.

    The history already carries the blocks sent with earlier messages. The full ledger is
    sent again when none of them is a full block, when the newest full block is
    `refresh_turns` old, or when something it stated no longer holds (an option reopened, a
    requirement dropped, a new SOLIDIFIED). Otherwise requirements and facts stated since
    are not repeated — the turns that stated them are verbatim in view, and the next full
    block restates them before those turns can be summarised away — while rejections are:
    new ones with their reasons (unless the reason is the newest message itself), and with
    `remind_rejected` the names of all of them (a few
    tokens; proposing a rejected option again is the failure that costs most). A small model
    echoes a name it is shown every turn (SmolLM2-135M brought a rejected option up again in
    10 of 16 turns with the reminder, 1 without), so the lean profile goes without it.
    Nothing at risk: no block at all.
    """
    sent = _blocks_since_last_full(history)
    if sent is None or sent[0] <= turn - refresh_turns or _retracted(session, sent[1]):
        if not (ledger.has_items() or status_requested):
            return ""
        return render_ledger(ledger, status_requested=status_requested, focus=focus, limit=limit)
    rejected = ledger.rejected
    shown = sent[1].splitlines()
    new_rejected = [
        # Rejected in the message right below: its reason is there, verbatim.
        replace(r, reason="") if r.turn == turn else r
        for r in rejected
        if not _rejection_shown(r.option, shown)
    ]
    names = [r.option for r in rejected] if remind_rejected else []
    if not (new_rejected or names or status_requested):
        return ""
    return prompts.ledger_update_block(
        new_rejected=new_rejected,
        rejected_names=names,
        since_turn=sent[0],
        status_requested=status_requested,
    )


def _blocks_since_last_full(history: list[tuple[Message, Message]]) -> tuple[int, str] | None:
    """(turn of the newest full block in the history, the text of it and every later block)."""
    blocks: list[str] = []
    for user, _reply in reversed(history):
        block = user.ledger_sent or ""
        blocks.append(block)
        if block.startswith(prompts.LEDGER_HEADER):
            return user.turn, "\n".join(reversed(blocks))
    return None


def _rejection_shown(option: str, lines: list[str]) -> bool:
    item = prompts.rejected_item(RejectedItem(option))
    return any(line == item or line.startswith(f"{item} (reason:") for line in lines)


def _retracted(session: Session, shown: str) -> bool:
    """Does a block still in view state something that no longer holds?"""
    active = {r.option for r in session.active_rejections()}
    reopened = [r for r in session.rejected if r.reopened_turn is not None]
    if any(f"- {r.option}" in shown and r.option not in active for r in reopened):
        return True
    dropped = [r for r in session.requirements if r.status == "dropped"]
    if any(prompts.requirement_item(r.id, r.text) in shown for r in dropped):
        return True
    return bool(session.solidified and session.solidified.text.strip() not in shown)

"""Forking a session at a turn: a new session with the history and the ledger as they stood
after that turn, so a rejected option can be explored without touching the main line.

The ledger is taken as it stood, not re-run through the analysers: items first recorded after
the fork turn are dropped, a rejection made later is not carried, an option reopened later is
rejected again, and a requirement whose status changed later goes back to pending (the
document keeps no status history, and pending is what it was when it was recorded). Edits
the user made by hand after the turn are taken back from their record (ledger_edits.py).
"""

from __future__ import annotations

from .ledger_edits import undo_edits_after
from .models import Memory, Message, Metrics, ParentRef, Requirement, Session, TokenTotals

FORK_TITLE_SUFFIX = " (fork)"


def fork_turns(session: Session) -> list[int]:
    """The turns a session can be forked at: every user turn."""
    return sorted({m.turn for m in session.messages if m.role == "user"})


def fork_session(session: Session, turn: int) -> Session:
    """A new session holding `session` up to and including `turn` (its reply included)."""
    turns = fork_turns(session)
    if turn not in turns:
        shown = f"1–{turns[-1]}" if turns else "none yet"
        raise ValueError(f"no turn {turn} to fork at (turns: {shown})")
    source = session.model_copy(deep=True)
    undo_edits_after(source, turn)  # what the user changed by hand later is not carried
    fork = Session(
        title=_fork_title(source.title),
        provider=source.provider,
        messages=[m for m in source.messages if m.turn <= turn],
        requirements=[_requirement_at(r, turn) for r in source.requirements
                      if r.source_turn <= turn],
        rejected=[r.model_copy(update={"reopened_turn": None})
                  if r.reopened_turn is not None and r.reopened_turn > turn else r
                  for r in source.rejected if r.turn <= turn],
        pivots=[p for p in source.pivots if p <= turn],
        solidified=source.solidified if source.solidified and source.solidified.turn <= turn
        else None,
        memory=_memory_at(source, turn),
        status_blocks=[b for b in source.status_blocks if b.turn <= turn],
        quality=[q for q in source.quality if q.turn <= turn],
        metrics=_metrics_at(source, turn),
        topics=[t for t in source.topics if t.turn <= turn],
        dialog_state=source.dialog_state,
        calls=[c for c in source.calls if c.turn <= turn],
        sent_ledgers=[s for s in source.sent_ledgers if s.turn <= turn],
        reliability=source.reliability,
        cancelled_replies=[c for c in source.cancelled_replies if c.turn <= turn],
        parent=ParentRef(id=session.id, turn=turn),
        ledger_edits=source.ledger_edits,
    )
    if source.consolidated_through_turn <= turn:
        # A summary of later turns would leak them into the branch; it is rebuilt instead.
        fork.consolidated_context = source.consolidated_context
        fork.consolidated_through_turn = source.consolidated_through_turn
    return fork


def _fork_title(title: str) -> str:
    return title if title.endswith(FORK_TITLE_SUFFIX) else title + FORK_TITLE_SUFFIX


def _requirement_at(req: Requirement, turn: int) -> Requirement:
    if req.updated_turn is None or req.updated_turn <= turn:
        return req
    return req.model_copy(update={
        "status": "pending", "updated_turn": None,
        "restated_turns": [t for t in req.restated_turns if t <= turn],
    })


def _memory_at(session: Session, turn: int) -> Memory:
    """Facts and open questions carry no turn, but each is grounded in what the user wrote:
    one that only a later message states was first recorded later. A direction set later is
    not carried either."""
    def said(later: bool) -> str:
        return " ".join(" ".join(m.content.split()) for m in session.messages
                        if m.role == "user" and (m.turn > turn) == later).casefold()

    before, after = said(False), said(True)
    memory = session.memory
    def kept(items: list[str]) -> list[str]:
        return [i for i in items if i.casefold() in before or i.casefold() not in after]

    update: dict[str, object] = {
        "facts": kept(memory.facts), "open_questions": kept(memory.open_questions)}
    if memory.trajectory_turn is not None and memory.trajectory_turn > turn:
        update |= {"trajectory": "", "trajectory_turn": None}
    return memory.model_copy(update=update)


def _metrics_at(session: Session, turn: int) -> Metrics:
    old = session.metrics
    answered = _answered_turns(session.messages, turn)
    lengths = old.answer_lengths[:answered]
    costs = [c for c in old.llm_calls if c.turn <= turn]
    first = old.first_answer_attempt_turn
    first_length = next((n for n in lengths if n > 0), None)
    return Metrics(
        answer_lengths=lengths,
        # The same ratio the quality step records (last ÷ first non-empty answer).
        bloat_ratio=round(lengths[-1] / first_length, 3) if first_length else None,
        first_answer_attempt_turn=first if first is not None and first <= turn else None,
        consolidation_turns=[t for t in old.consolidation_turns if t <= turn],
        status_turns=[t for t in old.status_turns if t <= turn],
        llm_calls=costs,
        tokens=TokenTotals(
            prompt=sum(c.prompt_tokens for c in costs),
            completion=sum(c.completion_tokens for c in costs),
            cached=sum(c.cached_tokens for c in costs),
        ),
        restated_requirements=[r for r in old.restated_requirements if r.turn <= turn],
        grounding_discarded=old.grounding_discarded,
        fallbacks=old.fallbacks,
    )


def _answered_turns(messages: list[Message], turn: int) -> int:
    # One answer length is recorded per answered turn, in order.
    return len({m.turn for m in messages if m.role == "assistant" and m.turn <= turn})

"""What the kept reply changes: the transcript, its quality record, the requirements it
addressed, the markers it wrote ([PIVOT], [REJECTED: ...], [STATUS]) and the questions it
answered."""

from __future__ import annotations

from .. import heuristics
from ..events import LedgerChanged, Notice, QualityScored
from ..ledger import mark_addressed, reject_option
from ..ledger_blocks import heuristic_status
from ..llm_analysis import rejection_grounded
from ..markers import ReplyMarkers, option_of, parse_markers
from ..models import Message, Session, StatusBlock
from ..quality import content_terms, overlap, update_length_metrics
from .engine import Engine
from .state import BestDraft, Turn


def finish_turn(engine: Engine, turn: Turn, best: BestDraft) -> None:
    session, number, draft = turn.session, turn.number, best.draft
    session.messages.append(
        Message(role="assistant", content=draft.text, turn=number, attempt=draft.attempt,
                provider=engine.generator.name, model=engine.generator.model)
    )
    if session.quality and session.quality[-1].turn == number:
        session.quality[-1] = best.record  # a regenerated reply: the newest record is replaced
    elif not session.quality or session.quality[-1].turn < number:
        session.quality.append(best.record)  # the usual case: no pass over every turn's record
    else:
        session.quality = [q for q in session.quality if q.turn != number] + [best.record]
    update_length_metrics(session, number, draft.text)
    changed = mark_addressed(session, draft.scores.addressed, number)
    changed += _apply_markers(engine, turn, draft.text)
    changed += _close_answered_questions(session, draft.text)
    engine.emit(QualityScored(best.record))
    if changed:
        engine.emit(LedgerChanged(number, "; ".join(changed)))


def _apply_markers(engine: Engine, turn: Turn, reply: str) -> list[str]:
    session, number = turn.session, turn.number
    markers = parse_markers(reply)
    changes: list[str] = []
    if markers.pivot and engine.settings.reliability and number not in session.pivots:
        session.pivots.append(number)
        changes.append("pivot marked by the model")
    proposed = [(o, "") for o in markers.rejected_markers]
    proposed += [option_of(item) for item in markers.rejected]
    users = [m.content for m in session.messages if m.role == "user"] if proposed else []
    for option, reason in proposed:
        # The model may only record a rejection the user actually voiced (grounding).
        already = any(
            heuristics.option_matches(option, r.option) for r in session.active_rejections()
        )
        voiced = any(rejection_grounded(option, text) for text in users)
        if option and not already and voiced:
            reject_option(session, option, reason, number, origin="model")
            changes.append(f"rejected {option} (marked by the model)")
    if engine.status_due(number):
        session.status_blocks.append(_status_block(engine, turn, markers))
        session.metrics.status_turns.append(number)
        changes.append("STATUS recorded")
    return changes


def _status_block(engine: Engine, turn: Turn, markers: ReplyMarkers) -> StatusBlock:
    if markers.status_found:
        return StatusBlock(
            turn=turn.number,
            conclusion=markers.conclusion,
            rejected=markers.rejected,
            open=markers.open,
        )
    # The model ignored the STATUS request: record the ledger's view, marked as such.
    turn.session.metrics.fallbacks += 1
    engine.emit(
        Notice("the reply had no [STATUS] block; the ledger's status was recorded", "warning")
    )
    return heuristic_status(turn.session, turn.number)


def _close_answered_questions(session: Session, reply: str) -> list[str]:
    """A question stays open until a reply covers most of what it asked about, or until the
    option it asks about is rejected (a question about MongoDB's backups is moot then)."""
    reply_terms = content_terms(reply)
    rejected = [r.option for r in session.active_rejections()]
    still_open = [
        q
        for q in session.memory.open_questions
        if overlap(q, reply_terms) < 0.5
        and not any(heuristics.option_matches(option, q) for option in rejected)
    ]
    closed = len(session.memory.open_questions) - len(still_open)
    session.memory.open_questions = still_open
    return [f"{closed} open question(s) answered"] if closed else []

"""The sessions list read by another process after a kill: what it shows of a session is what
the journal holds, its quality too (it showed "—" when the turn was saved before its quality)."""

from __future__ import annotations

from pathlib import Path

from rcm_tui.core.models import Message, QualityRecord
from rcm_tui.store import SessionStore


def quality(turn: int, overall: float) -> QualityRecord:
    return QualityRecord(
        turn=turn, clarity=0.8, completeness=0.7, assumptions=0.2, verbosity=0.3,
        premature_attempt=False, middle_turn_reference=0.6, requirement_tracking=0.9,
        overall=overall,
    )  # fmt: skip


def test_a_quality_scored_after_the_turn_was_saved_reaches_the_list(
    tmp_path: Path, make_session
) -> None:
    root = tmp_path / "sessions"
    writer = SessionStore(root)
    session = make_session(turns=1, quality=False)
    writer.save(session)  # the first save writes the document, later ones the journal
    session.messages.append(Message(role="user", content="And the eviction policy?", turn=2))
    writer.save(session)  # the user's message of turn 2, before any model call
    session.quality.append(quality(2, 0.9))
    writer.save(session)  # the turn's quality; then the process is killed (no flush)

    [entry] = SessionStore(root).list()  # another process, e.g. the next start's browser
    assert entry.turns == 2
    assert entry.average_quality == 0.9

"""Issue 14, engine side: the periodic STATUS block is not counted as answer bloat."""

from __future__ import annotations

from rcm_tui.core.models import Session
from rcm_tui.core.quality import update_length_metrics

BODY = "Use one primary and a synchronous replica; fail over by hand."
STATUS = (
    "[STATUS]\nCONCLUSION: PostgreSQL with SERIALIZABLE transfers\n"
    "REJECTED: MongoDB (fragile transactions)\nOPEN: none\n[/STATUS]\n\n"
)


def test_a_status_block_does_not_count_as_answer_length() -> None:
    session = Session()
    update_length_metrics(session, 1, BODY)
    update_length_metrics(session, 2, STATUS + BODY)
    assert session.metrics.answer_lengths == [len(BODY), len(BODY)]
    assert session.metrics.bloat_ratio == 1.0

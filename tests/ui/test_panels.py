"""What the side panels say for ledger states the scripted conversation does not reach."""

from __future__ import annotations

from rcm_tui.core.models import Memory, RejectedOption, Topic
from rcm_tui.ui.widgets.decisions import decision_log_text, solidified_caption
from rcm_tui.ui.widgets.quality import summary_text

from ..conftest import build_session


def test_decision_log_lists_reopened_options_topics_and_facts() -> None:
    session = build_session(solidified=True)
    session.rejected.append(
        RejectedOption(id="X2", option="DynamoDB", reason="lock-in", turn=1, reopened_turn=3)
    )
    session.topics = [
        Topic(turn=1, title="Cache keys", summary="per-tenant TTL"),
        Topic(turn=3, title="Invalidation"),
    ]
    session.memory = Memory(
        facts=["Redis 7 is already deployed"],
        trajectory="Redis with per-tenant TTL",
        open_questions=["How long may stale prices live?"],
    )
    text = decision_log_text(session)
    plain = text.plain

    assert "Current conclusion\nRedis with per-tenant TTL" in plain
    assert "✗ Memcached — no persistence  t2" in plain
    assert "↺ DynamoDB — reopened at turn 3 (rejected t1)" in plain
    assert "? How long may stale prices live?" in plain
    assert "• Redis 7 is already deployed" in plain
    assert "t1 Cache keys — per-tenant TTL" in plain and "t3 Invalidation" in plain
    styles = {str(span.style) for span in text.spans if "DynamoDB" in plain[span.start : span.end]}
    assert any("dim" in style and "strike" in style for style in styles)
    assert solidified_caption(session) == "SOLIDIFIED · turn 3"


def test_quality_summary_flags_premature_answers_and_readvocacy() -> None:
    session = build_session(turns=2)
    last = session.quality[-1]
    last.premature_attempt = True
    last.readvocated = ["Memcached"]
    last.readvocated_final = []
    last.readvocated_in = {"Memcached": [1]}
    last.attempts, last.shown_attempt = 3, 2
    session.metrics.bloat_ratio = 2.4
    plain = summary_text(session, 0.8).plain

    assert "YES — answered before the facts were in" in plain
    assert "caught Memcached (refined away)" in plain
    assert "attempt 2 of 3 shown" in plain
    assert "2.40× significant" in plain

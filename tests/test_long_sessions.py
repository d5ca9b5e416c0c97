"""Long sessions stay fast: a turn's work does not grow with the conversation, and a ledger of
many distinct needs keeps them apart."""

from __future__ import annotations

import pytest

from rcm_tui.core import context, heuristics
from rcm_tui.core.context import Budget, assemble
from rcm_tui.core.heuristics import requirement_similarity
from rcm_tui.core.ledger import apply_analysis, ledger_snapshot
from rcm_tui.core.models import Message, Session
from rcm_tui.eval.long_session import build_session, user_turn


# -- distinct needs stay distinct -------------------------------------------------------------
@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("We need the Kafka part to handle 101 requests per second",
         "We need the Celery part to handle 299 requests per second"),
        ("The Kafka part must handle 101 requests per second",
         "The Celery part must handle 101 requests per second"),
        ("Uploads from the mobile app are capped at 20 MB",
         "Uploads from the web app are capped at 50 MB"),
    ],
)
def test_needs_that_differ_in_subject_are_not_merged(a: str, b: str) -> None:
    assert requirement_similarity(a, b) < 0.6
    assert requirement_similarity(b, a) < 0.6


def test_a_changed_number_of_the_same_need_is_still_an_update() -> None:
    assert requirement_similarity(
        "Sessions expire after 30 minutes", "Sessions expire after 60 minutes"
    ) >= 0.6
    same = "Keep the Kafka part at 100 rps"
    assert requirement_similarity(same, same) == 1.0


def test_a_thousand_distinct_needs_make_a_thousand_requirements() -> None:
    session = Session()
    for turn in range(1, 1001):
        text = user_turn(turn)
        session.messages.append(Message(role="user", content=text, turn=turn))
        found = heuristics.analyse_message(text, turn, ledger_snapshot(session))
        apply_analysis(session, found, turn)
    assert len(session.live_requirements()) == 1000
    assert len({r.text for r in session.requirements}) == 1000


# -- the work of a turn does not grow with the session ----------------------------------------
def test_assembling_a_prompt_reads_each_old_turn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # The cut-point search used to re-summarise the whole history for every cut it tried.
    calls = 0
    original = context._summary_for

    def counted(*args: object) -> str:
        nonlocal calls
        calls += 1
        return original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(context, "_summary_for", counted)
    session = build_session(1000)
    session.requirements = session.requirements[-20:]  # the ledger is never cut: keep it small
    session.consolidated_through_turn = 0
    session.consolidated_context = ""
    prompt = assemble(session, user_turn(1001), 1001, Budget(6000, 768, 6))
    assert prompt.over_budget and prompt.tokens <= 6000 - 768
    assert calls <= 20  # it tried ~330 cut points of 3 turns each, from the first turn on

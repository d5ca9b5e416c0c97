"""Issue 12: one conclusion — SOLIDIFIED, the latest decision, STATUS and /status agree, the
Decisions panel shows one conclusion, and a decision closes the questions it answers."""

from __future__ import annotations

import asyncio

from rcm_tui.core.conclusion import current_conclusion
from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger import apply_analysis, ledger_snapshot
from rcm_tui.core.models import Message, Session, Solidified, StatusBlock
from rcm_tui.ui.widgets.decisions import decision_log_text


def _session() -> Session:
    session = Session()
    turns = [
        "We need to pick a message broker for our order pipeline.",
        "Which one has less operational overhead for a team of three?",
        "Decision: let's go with NATS JetStream.",
    ]
    for turn, text in enumerate(turns, start=1):
        apply_analysis(session, analyse_message(text, turn, ledger_snapshot(session)), turn)
        session.messages.append(Message(role="user", content=text, turn=turn))
        session.messages.append(Message(role="assistant", content="Noted.", turn=turn))
    session.status_blocks.append(StatusBlock(turn=2, conclusion="not settled yet"))
    return session


def test_the_decision_is_the_conclusion_and_closes_the_questions_it_answers() -> None:
    session = _session()
    conclusion = current_conclusion(session)
    assert conclusion is not None and "NATS JetStream" in conclusion.text
    assert conclusion.source == "decision" and conclusion.turn == 3
    assert session.memory.open_questions == []


def test_an_edited_solidified_and_the_panel_agree_on_one_conclusion() -> None:
    session = _session()
    session.solidified = Solidified(text="CONCLUSION: NATS JetStream", turn=3, edited=True)
    conclusion = current_conclusion(session)
    assert conclusion is not None and conclusion.text == "NATS JetStream"
    panel = decision_log_text(session).plain
    assert panel.count("Current conclusion") == 1
    assert "not settled" not in panel
    assert "let's go with" not in panel.lower()  # the older wording is not shown beside it


def test_a_newer_status_block_moves_the_conclusion_on() -> None:
    session = _session()
    session.status_blocks.append(StatusBlock(turn=5, conclusion="NATS JetStream with R2 replicas"))
    conclusion = current_conclusion(session)
    assert conclusion is not None and conclusion.source == "STATUS"


def test_status_command_reports_the_same_conclusion(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from rcm_tui.commands import dispatch

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    from rcm_tui.config import load_settings
    from rcm_tui.controller import Controller
    from rcm_tui.store import SessionStore

    controller = Controller(load_settings(flags={"provider": "offline"}), SessionStore())
    controller.session = _session()
    result = asyncio.run(dispatch(controller, "/status"))
    assert "Conclusion: Let's go with NATS JetStream (decision, turn 3)" in result.text

"""A fork (and an edit-and-resend, which rewinds through it) carries the open questions of the
turns it keeps, not those asked only later (issue 14, "Branch"; seen in tmux: a branch at turn
1 listed "What database fits?", asked at turn 2)."""

from __future__ import annotations

import asyncio

from rcm_tui.core.branch import fork_session
from rcm_tui.core.models import Session
from rcm_tui.core.rewind import rewind_before

from .ui.conftest import make_controller

ASKED_LATER = "What database fits?"


def asked_at_turn_two() -> Session:
    controller = make_controller()

    async def talk() -> None:
        await controller.send("We're building the payments ledger. Which queue suits us?")
        await controller.send("MongoDB is off the table: multi-document transactions are too "
                              f"fragile for money. {ASKED_LATER}")
        await controller.drain()

    asyncio.run(talk())
    controller.release()
    session = controller.session
    assert ASKED_LATER in session.memory.open_questions
    return session


def test_a_fork_leaves_out_the_questions_asked_after_its_turn() -> None:
    parent = asked_at_turn_two()
    branch = fork_session(parent, 1)
    assert ASKED_LATER not in branch.memory.open_questions
    assert branch.memory.open_questions == [
        q for q in parent.memory.open_questions if q != ASKED_LATER
    ]
    assert ASKED_LATER in parent.memory.open_questions


def test_rewinding_before_a_turn_drops_its_questions() -> None:
    session = asked_at_turn_two()
    assert ASKED_LATER not in rewind_before(session, 2).memory.open_questions

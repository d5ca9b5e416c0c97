"""Issue 14 snapshots of the states the earlier sets left out: reply captions naming the model
that wrote each reply, a cancelled reply's caption in full at 80×24, the fork dialog and the
branch it opens, the add-requirement dialog and the rejected-option editor.

Fixed like tests/ui/test_snapshots.py; regenerate with --snapshot-update and look at them."""

from __future__ import annotations

import asyncio
from typing import Any

from rcm_tui.core.models import CancelledReply, Message
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.screens.dialogs import TextDialog
from rcm_tui.ui.screens.ledger_edit import (
    RejectedOptionDialog,
    RejectedOptionsScreen,
    RequirementDialog,
)
from rcm_tui.ui.widgets.decisions import DecisionsPanel
from rcm_tui.ui.widgets.requirements import RequirementsTable

from .conftest import SESSION_ID, T0, converse, freeze, make_controller, wait_for
from .test_snapshots import MEDIUM, SMALL, app_with, settle


def two_models_and_a_cancelled_reply() -> RcmApp:
    """Turn 1 by gpt-4o, turn 2 by the embedded model, turn 3 cancelled while the embedded
    model wrote it (its partial reply kept)."""
    controller = make_controller()
    asyncio.run(converse(controller, 2))
    session = controller.session
    first, second = [m for m in session.messages if m.role == "assistant"]
    first.provider, first.model = "openai", "gpt-4o"
    second.provider, second.model = "local", "SmolLM2-135M-Instruct"
    session.messages.append(
        Message(role="user", content="Sketch the transfer procedure.", turn=3, created_at=T0)
    )
    session.cancelled_replies.append(
        CancelledReply(turn=3, content="1. Lock both accounts in id order.\n2. Check the",
                       created_at=T0, provider="local", model="SmolLM2-135M-Instruct")
    )
    freeze(session)
    return RcmApp(controller)


def test_captions_name_the_model_of_each_reply(snap_compare: Any) -> None:
    assert snap_compare(two_models_and_a_cancelled_reply(), terminal_size=MEDIUM,
                        run_before=settle)


def test_cancelled_caption_in_full_at_80_columns(snap_compare: Any) -> None:
    assert snap_compare(two_models_and_a_cancelled_reply(), terminal_size=SMALL,
                        run_before=settle)


def test_fork_dialog(snap_compare: Any) -> None:
    async def ask(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        await pilot.press("f5")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TextDialog))
        await settle(pilot)

    assert snap_compare(app_with(4), terminal_size=MEDIUM, run_before=ask)


def test_branch_opened_after_fork(snap_compare: Any) -> None:
    async def fork(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        await pilot.press("f5")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TextDialog))
        await pilot.press("ctrl+a", "ctrl+k", "2", "enter")
        await wait_for(pilot, lambda: pilot.app.controller.session.id != SESSION_ID)
        await settle(pilot)
        # The branch's id is new and random: the header shows the title, not the id; the
        # toast naming both ids is cleared so the picture repeats.
        pilot.app.clear_notifications()
        await settle(pilot)

    assert snap_compare(app_with(4), terminal_size=MEDIUM, run_before=fork)


def test_add_requirement_dialog(snap_compare: Any) -> None:
    async def add(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        pilot.app.main.query_one(RequirementsTable).focus()
        await pilot.pause()
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, RequirementDialog))
        await settle(pilot)

    assert snap_compare(app_with(3), terminal_size=MEDIUM, run_before=add)


def test_rejected_option_editor(snap_compare: Any) -> None:
    async def edit(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        pilot.app.main.query_one(DecisionsPanel).focus()
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, RejectedOptionsScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, RejectedOptionDialog))
        await settle(pilot)

    assert snap_compare(app_with(4), terminal_size=MEDIUM, run_before=edit)

"""Branching from the chat (issue 14): the fork key asks for a turn, /fork [turn] forks, the
app switches to the branch, and the sessions browser shows it under its parent."""

from __future__ import annotations

from rcm_tui.store import SessionStore
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.screens.dialogs import TextDialog

from .conftest import (
    SESSION_ID,
    converse,
    entry_texts,
    make_controller,
    notice_texts,
    send_message,
    wait_for,
)
from .test_sessions import browser_titles, open_browser


async def test_the_fork_key_branches_at_the_chosen_turn_and_opens_the_branch() -> None:
    controller = make_controller()
    await converse(controller, 6)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await pilot.press("f5")
        await wait_for(pilot, lambda: isinstance(app.screen, TextDialog))
        await pilot.press("ctrl+a", "ctrl+k", *"3", "enter")  # replace the proposed turn
        await wait_for(pilot, lambda: controller.session.id != SESSION_ID)
        await app.workers.wait_for_complete()
        await pilot.pause()
        branch = controller.session
        assert branch.parent is not None and branch.parent.id == SESSION_ID
        assert branch.parent.turn == 3
        assert len(entry_texts(app, "user")) == 3  # the transcript is the branch's
        assert branch.rejected == []  # MongoDB was rejected at turn 4
        assert app.main.query_one("#header").session_title.endswith("(fork)")  # type: ignore[attr-defined]
        assert any("Forked" in n.message for n in app._notifications)
        # The branch is saved, the parent is as it was.
        store = SessionStore()
        assert store.load(branch.id).parent == branch.parent
        assert store.load(SESSION_ID).turn == 6
        # A message in the branch goes to the branch only.
        await send_message(pilot, "Let us reconsider MongoDB for the ledger after all.")
        await wait_for(pilot, lambda: not app.main.busy)
        assert store.load(branch.id).turn == 4
        assert store.load(SESSION_ID).turn == 6


async def test_slash_fork_without_a_turn_forks_at_the_last_and_the_browser_nests_it() -> None:
    controller = make_controller()
    await converse(controller, 2)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/fork")
        await wait_for(pilot, lambda: controller.session.id != SESSION_ID)
        branch_id = controller.session.id
        assert controller.session.parent is not None and controller.session.parent.turn == 2
        await open_browser(pilot)
        titles = browser_titles(app)
        parent_row = next(i for i, t in enumerate(titles) if not t.startswith("↳"))
        assert titles[parent_row + 1].startswith("↳ fork @ turn 2 · ")
        assert app.screen.entries[parent_row + 1].id == branch_id  # type: ignore[attr-defined]
        # The branch is the open session, so the cursor starts on it: the status line names
        # its parent in full.
        await pilot.press("down", "down")
        status = str(app.screen.query_one("#sessions-status").render())
        assert f"fork of {titles[parent_row]} @ turn 2" in status


async def test_a_bad_fork_turn_is_refused_and_nothing_is_created() -> None:
    controller = make_controller()
    await converse(controller, 2)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/fork 9")
        assert any("no turn 9 to fork at" in t for t in notice_texts(app))
        assert controller.session.id == SESSION_ID
        assert [e.id for e in SessionStore().list()] == [SESSION_ID]
        await send_message(pilot, "/fork two")
        assert any("Usage: /fork [turn]" in t for t in notice_texts(app))
        assert controller.session.id == SESSION_ID

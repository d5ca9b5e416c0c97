"""Regenerate the last reply and edit-and-resend an earlier message from the chat (issue 14):
the key and the commands rewind the session, the transcript and the panels follow, and both
are refused while a turn runs."""

from __future__ import annotations

from textual.widgets import TextArea

from rcm_tui.store import SessionStore
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.screens.dialogs import EditDialog, TextDialog

from .conftest import (
    CONVERSATION,
    SESSION_ID,
    converse,
    entry_texts,
    make_controller,
    send_message,
    wait_for,
)


async def _idle(pilot, app: RcmApp) -> None:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: not app.main.busy)
    await app.workers.wait_for_complete()
    await pilot.pause()


async def test_the_regenerate_key_replaces_the_last_reply() -> None:
    controller = make_controller()
    await converse(controller, 3)
    scripted = CONVERSATION[2][1]
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        assert entry_texts(app, "assistant")[-1] == scripted
        await pilot.press("f8")
        await wait_for(pilot, lambda: controller.session.messages[-1].content != scripted)
        await _idle(pilot, app)
        session = controller.session
        assert session.turn == 3
        replies = entry_texts(app, "assistant")
        assert len(replies) == 3 and len(entry_texts(app, "user")) == 3
        assert replies[-1] != scripted and replies[-1] == session.messages[-1].content
        assert [q.turn for q in session.quality] == [1, 2, 3]
        assert SessionStore().load(SESSION_ID).messages[-1].content == replies[-1]


async def test_regenerate_is_refused_while_a_turn_runs_and_when_nothing_is_answered() -> None:
    controller = make_controller(flags={"providers.offline.token_ms": 150})
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await pilot.press("f8")
        await pilot.pause()
        assert any("Nothing to regenerate" in n.message for n in app._notifications)
        app.main.composer.load_text("We need a queue for payment events.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.main.busy)
        await pilot.press("f8")
        await pilot.pause()
        assert any("A turn is running" in n.message for n in app._notifications)
        app.main.composer.load_text("/regenerate")
        await pilot.press("enter")
        await pilot.pause()
        assert app.main.composer.text == "/regenerate"  # refused, kept to run later
        await pilot.press("escape")
        await _idle(pilot, app)
        assert [m.role for m in controller.session.messages] == ["user"]


async def test_editing_an_earlier_message_drops_the_later_turns_and_their_ledger() -> None:
    controller = make_controller()
    await converse(controller, 6)
    assert any("mongodb" in r.option.lower() for r in controller.session.rejected)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await pilot.press("f9")
        await wait_for(pilot, lambda: isinstance(app.screen, TextDialog))
        await pilot.press("ctrl+a", "ctrl+k", "4", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EditDialog))
        editor = app.screen.query_one(TextArea)
        assert editor.text == CONVERSATION[3][0]
        editor.load_text("Redis is off the table: we need durable storage.")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: controller.session.turn == 4)
        await _idle(pilot, app)
        session = controller.session
        assert session.turn == 4 and session.id == SESSION_ID
        users = entry_texts(app, "user")
        assert users[-1] == "Redis is off the table: we need durable storage."
        assert len(users) == 4 and len(entry_texts(app, "assistant")) == 4
        options = [r.option.lower() for r in session.rejected]
        assert not any("mongodb" in o for o in options)
        assert any("redis" in o for o in options)
        assert not any("audit" in r.text.lower() for r in session.requirements)
        stored = SessionStore().load(SESSION_ID)
        assert stored.turn == 4 and not any("mongodb" in r.option.lower()
                                            for r in stored.rejected)


async def test_edit_command_with_a_turn_opens_that_message_and_escape_changes_nothing() -> None:
    controller = make_controller()
    await converse(controller, 3)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await send_message(pilot, "/edit 2")
        await wait_for(pilot, lambda: isinstance(app.screen, EditDialog))
        assert app.screen.query_one(TextArea).text == CONVERSATION[1][0]
        await pilot.press("escape")
        await pilot.pause()
        assert controller.session.turn == 3 and len(entry_texts(app, "user")) == 3
        await send_message(pilot, "/edit 9")
        assert any("No turn “9”" in n.message for n in app._notifications)

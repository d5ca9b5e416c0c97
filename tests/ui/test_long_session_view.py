"""Resuming a long session shows its last turns at once; older turns appear as the user scrolls
up to them."""

from __future__ import annotations

from rcm_tui.eval.long_session import build_session, reply_turn, user_turn
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.widgets.chat import INITIAL_MESSAGES, OLDER_BATCH, EarlierMessages

from .conftest import entry_texts, make_controller, wait_for, write_session

TURNS = 300


async def test_a_long_session_opens_on_its_last_turns_and_reveals_older_ones() -> None:
    write_session(build_session(TURNS, "20250301-090000-0a0a0a"))
    controller = make_controller()
    controller.open_session("20250301-090000-0a0a0a")
    app = RcmApp(controller)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        chat = app.main.chat
        replies = entry_texts(app, "assistant")
        shown = len(replies) + len(entry_texts(app, "user"))
        # A screenful (the view scrolls), not the whole session.
        assert 2 <= shown <= INITIAL_MESSAGES and chat.max_scroll_y > 0
        assert replies[-1] == reply_turn(TURNS)
        [marker] = chat.query(EarlierMessages)
        hidden = 2 * TURNS - shown
        assert marker.count == hidden

        chat.scroll_home(animate=False)
        await wait_for(pilot, lambda: marker.count < hidden)
        users = entry_texts(app, "user")
        assert len(users) + len(entry_texts(app, "assistant")) == shown + OLDER_BATCH
        assert users[0] == user_turn(TURNS - len(users) + 1)  # in order, none skipped
        # The reader stays where they were: the batch went in above the view (so scrolling
        # up again reaches the next batch).
        await wait_for(pilot, lambda: chat.scroll_y > 0)
        assert marker.count == hidden - OLDER_BATCH

        chat.scroll_home(animate=False)
        await wait_for(pilot, lambda: marker.count == hidden - 2 * OLDER_BATCH)
        assert len(entry_texts(app, "user")) == len(users) + OLDER_BATCH // 2

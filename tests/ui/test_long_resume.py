"""Resuming shows a screenful at once, however the messages are shaped, and does not pay for
Pygments guessing the language of a code block."""

from __future__ import annotations

import pytest
import textual.highlight

from rcm_tui.core.models import Message, Session
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.widgets.chat import EarlierMessages

from .conftest import entry_texts, make_controller, wait_for, write_session

SESSION_ID = "20250301-090000-0b0b0b"


def session_of(replies: list[str]) -> Session:
    session = Session(id=SESSION_ID, title="Resume")
    for turn, reply in enumerate(replies, start=1):
        session.messages.append(Message(role="user", content=f"Question {turn}?", turn=turn))
        session.messages.append(Message(role="assistant", content=reply, turn=turn))
    return session


def open_app(session: Session) -> RcmApp:
    write_session(session)
    controller = make_controller()
    controller.open_session(SESSION_ID)
    return RcmApp(controller)


async def test_messages_shorter_than_they_look_still_fill_the_view() -> None:
    # Single line breaks inside a paragraph: each reply looks 16 lines long and shows as one.
    lines = "\n".join(f"word{n}" for n in range(15))
    app = open_app(session_of([f"Reply {turn}:\n{lines}" for turn in range(1, 41)]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        chat = app.main.chat
        [marker] = chat.query(EarlierMessages)


        def shown() -> int:
            return len(entry_texts(app, "user")) + len(entry_texts(app, "assistant"))

        # More than the first estimate, until the view scrolls: the reader can reach the rest.
        await wait_for(pilot, lambda: chat.max_scroll_y > 3 and marker.count + shown() == 80)
        assert shown() < 80
        assert entry_texts(app, "assistant")[-1].startswith("Reply 40:")


async def test_a_code_block_without_a_language_is_shown_without_a_guess(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    guesses: list[str] = []
    original = textual.highlight.guess_language

    def guess(code: str, path: str | None) -> str:
        guesses.append(code)
        return original(code, path)

    monkeypatch.setattr(textual.highlight, "guess_language", guess)
    app = open_app(session_of(["Run this:\n\n```\nSELECT count(*) FROM jobs;\n```\n", "Done."]))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await pilot.pause()
        shown = "\n".join(entry_texts(app, "assistant"))
        assert "SELECT count(*) FROM jobs;" in shown
        assert guesses == []

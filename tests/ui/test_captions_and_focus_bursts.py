"""Issue 14, the last defects: a reply's caption shows in full in a narrow chat and names the
model that wrote the reply; keys sent in one burst after a key that moves the focus within
the main screen land where the focus went, as they would typed a moment apart."""

from __future__ import annotations

from textual.geometry import Region
from textual.widgets import Input, Static

from rcm_tui.store import SessionStore
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.widgets.chat import ChatEntry, writer_caption
from rcm_tui.ui.widgets.requirements import RequirementsTable

from .conftest import converse, make_controller, wait_for, write_session
from .test_dialog_bursts import burst


def shown_caption(entry: ChatEntry) -> str:
    """The caption as the terminal shows it: the lines its region draws, joined."""
    meta = entry.query_one(".meta", Static)
    width, height = meta.size
    strips = meta.render_lines(Region(0, 0, width, height))
    return " ".join(" ".join(strip.text.split()) for strip in strips).strip()


def replies(app: RcmApp) -> list[ChatEntry]:
    return [e for e in app.main.chat.query(ChatEntry) if e.kind == "assistant"]


def draft_words(app: RcmApp) -> int:
    draft = app.main.chat.draft
    return len(draft.body.source.split()) if draft is not None else 0


async def test_the_cancelled_reply_caption_shows_in_full_at_80_columns() -> None:
    controller = make_controller(flags={"providers.offline.token_ms": 150})
    app = RcmApp(controller)
    async with app.run_test(size=(80, 24)) as pilot:
        app.main.composer.load_text("It must support strict ACID transactions across accounts.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: draft_words(app) >= 4)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.main.busy)
        await pilot.pause()
        [kept] = replies(app)
        assert kept.has_class("-cancelled")
        assert shown_caption(kept) == "offline-demo · turn 1 · cancelled · not an answer"


async def test_reply_captions_name_the_model_that_wrote_each_reply() -> None:
    controller = make_controller()
    session = await converse(controller, 3)
    first, second, third = [m for m in session.messages if m.role == "assistant"]
    first.provider, first.model = "openai", "gpt-4o"
    second.provider, second.model = "local", "SmolLM2-135M-Instruct"
    third.provider, third.model = None, None  # written before models were recorded
    controller.release()
    write_session(session)
    reopened = make_controller(session_id="20250301-090000-ffffff")
    reopened.open_session(session.id)
    app = RcmApp(reopened)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        captions = [shown_caption(e) for e in replies(app)]
        assert captions[0].startswith("gpt-4o · turn 1 · quality ")
        assert captions[1].startswith("SmolLM2-135M-Instruct · turn 2 · quality ")
        assert captions[2].startswith("assistant · turn 3 · quality ")
        # A reply written now is captioned with the model writing it, while it streams too.
        app.main.composer.load_text("What would the schema for accounts look like?")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(replies(app)) == 4)
        streaming = shown_caption(replies(app)[3])
        await wait_for(pilot, lambda: not app.main.busy)
        await pilot.pause()
        assert streaming.startswith("offline-demo · turn 4 · ")
        assert shown_caption(replies(app)[3]).startswith("offline-demo · turn 4 · quality ")
    assert SessionStore().load(session.id).messages[-1].model == "offline-demo"


def test_a_model_path_or_a_long_name_is_captioned_short() -> None:
    assert writer_caption("/models/qwen2.5-7b-instruct-q4_k_m.gguf") == "qwen2.5-7b-instruct-q4_k_m"
    assert writer_caption("llama3.2:3b") == "llama3.2:3b"
    long = writer_caption("a-very-long-fine-tuned-model-name-with-a-date-20250101")
    assert len(long) == 32 and long.endswith("…")
    assert writer_caption(None) == "assistant"


async def test_tab_then_letters_in_one_burst_go_where_tab_moved_the_focus() -> None:
    # Decided: a burst does what the same keys typed a moment apart do. Tab from the
    # composer focuses the Requirements panel, whose letters are its keys ('c' confirms the
    # requirement under the cursor); a letter the panel does not take goes back to the
    # composer, with the focus (issue 14, defect 3). Before, the composer typed 'cx'.
    controller = make_controller()
    await converse(controller, 3)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        table = app.main.query_one(RequirementsTable)
        second = controller.session.requirements[1]
        assert app.main.composer.has_focus and second.status != "confirmed"
        burst(app, ["tab", "down", "c", "x"])
        await wait_for(pilot, lambda: app.main.composer.text == "x")
        await pilot.pause()
        assert table.cursor_row == 1
        assert second.status == "confirmed" and second.status_set_by == "user"
        assert app.main.composer.has_focus


async def test_the_search_key_then_text_in_one_burst_searches_for_the_text() -> None:
    # Typed a moment apart, the text lands in the search bar; sent at once it was typed
    # into the composer (the bar took the focus only after the letters were read).
    controller = make_controller()
    await converse(controller, 3)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        burst(app, ["ctrl+f", *"ACID"])
        await wait_for(pilot, lambda: bool(app.main.query("#chat-search-input")))
        search = app.main.query_one("#chat-search-input", Input)
        await wait_for(pilot, lambda: search.value == "ACID")
        for _ in range(4):
            await pilot.pause()
        assert app.main.composer.text == ""
        assert search.has_focus


async def test_the_composers_editing_keys_run_in_order_in_a_burst() -> None:
    # tmux: 'BSpace Tab' sent at once left the letter in the composer (the backspace ran
    # once it reached the app, after Tab had moved the focus); 'abc BSpace Enter' sent 'abc'.
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        burst(app, [*"abc", "backspace", "enter"])
        await wait_for(pilot, lambda: bool(controller.session.messages))
        assert controller.session.messages[0].content == "ab"
        await app.workers.wait_for_complete()
        await pilot.pause()
        burst(app, ["x", "backspace", "tab"])
        await wait_for(pilot, lambda: not app.main.composer.has_focus)
        for _ in range(4):
            await pilot.pause()
        assert app.main.composer.text == ""

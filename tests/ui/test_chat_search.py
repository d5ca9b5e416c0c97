"""Search in the chat (issue 14): the search key opens a bar, typing highlights matches in the
transcript, Enter / shift+Enter (and down / up) jump between hits, the count says where,
escape closes and restores the transcript."""

from __future__ import annotations

from textual.widgets import Input, Static

from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.widgets.chat_search import CURRENT_STYLE, HIT_STYLE, ChatSearch

from .conftest import converse, make_controller, wait_for


def count_text(app: RcmApp) -> str:
    return str(app.main.query_one("#chat-search-count", Static).render())


def styled_spans(block) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(matched text, style) of every search highlight drawn in a block."""
    from textual.widgets import Label
    from textual.widgets.markdown import MarkdownFence

    shown = block.query_one("#code-content", Label).visual if isinstance(
        block, MarkdownFence) else block.visual
    return [
        (shown.plain[s.start:s.end], str(s.style))
        for s in shown.spans
        if str(s.style) in (HIT_STYLE, CURRENT_STYLE)
    ]


async def test_search_highlights_counts_and_jumps_between_hits_then_closes() -> None:
    controller = make_controller()
    await converse(controller, 6)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: bool(app.main.query(ChatSearch)))
        bar = app.main.query_one(ChatSearch)
        assert bar.query_one(Input).has_focus
        await pilot.press(*"postgresql")
        await pilot.pause()
        # "PostgreSQL" appears in the replies of turns 2, 3 and 4 (case-insensitive).
        texts = [m.content.lower().count("postgresql") for m in controller.session.messages]
        assert len(bar.hits) == sum(texts) == 3
        assert count_text(app) == "1/3"
        first = bar.hits[0].block
        assert styled_spans(first)[0] == ("PostgreSQL", CURRENT_STYLE)
        await pilot.press("enter")
        assert count_text(app) == "2/3"
        assert styled_spans(first)[0] == ("PostgreSQL", HIT_STYLE)
        assert ("PostgreSQL", CURRENT_STYLE) in styled_spans(bar.hits[1].block)
        await pilot.press("enter", "enter")
        assert count_text(app) == "1/3"  # wraps around
        await pilot.press("up")
        assert count_text(app) == "3/3"
        # The chat scrolled so that the current hit is on screen.
        current = bar.hits[2].block
        assert current.region.y >= app.main.chat.region.y
        assert current.region.bottom <= app.main.chat.region.bottom
        await pilot.press(*" nowhere")
        await pilot.pause()
        assert count_text(app) == "no match" and styled_spans(first) == []
        await pilot.press("escape")
        await pilot.pause()
        assert not app.main.query(ChatSearch)
        assert app.main.composer.has_focus
        assert not app.main.busy


async def test_search_finds_text_inside_a_code_block_and_escape_restores_it() -> None:
    controller = make_controller()
    await converse(controller, 5)
    app = RcmApp(controller)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await pilot.press("ctrl+f", *"bigserial")
        await pilot.pause()
        bar = app.main.query_one(ChatSearch)
        assert count_text(app) == "1/1"
        block = bar.hits[0].block
        assert styled_spans(block) == [("bigserial", CURRENT_STYLE)]
        await pilot.press("escape")
        await pilot.pause()
        assert styled_spans(block) == []

"""Issue 14: no crash, no hang, no lost keystroke. Each test failed before its fix."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual import events

from rcm_tui.controller import ProviderPair
from rcm_tui.core.llm import LLMRequest, StreamEvent
from rcm_tui.providers.offline import OfflineProvider, scripted_reply
from rcm_tui.ui import app as app_module
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.screens.dialogs import EditDialog
from rcm_tui.ui.screens.sessions import SessionsScreen
from rcm_tui.ui.widgets.decisions import DecisionsPanel
from rcm_tui.ui.widgets.requirements import RequirementsTable

from .conftest import (
    converse,
    entry_texts,
    make_controller,
    notice_texts,
    send_message,
    wait_for,
    write_broken,
)


async def test_resizing_a_session_with_requirements_in_any_direction_keeps_the_table() -> None:
    controller = make_controller()
    await converse(controller, 5)
    app = RcmApp(controller)
    async with app.run_test(size=(100, 30)) as pilot:
        for size in ((160, 45), (80, 24), (200, 60), (100, 30), (160, 45)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
            table = app.main.query_one(RequirementsTable)
            assert table.row_count == len(controller.session.requirements)
            assert len(table.get_row_at(0)) == len(table.columns)
    assert app.return_code in (None, 0)


async def test_a_crash_prints_one_line_and_keeps_user_content_off_the_terminal(
    capsys: pytest.CaptureFixture[str], isolated_env: Path
) -> None:
    controller = make_controller()
    await converse(controller, 2)
    secret = "the-secret-words-of-the-user"
    app = RcmApp(controller)
    with pytest.raises(ZeroDivisionError):
        async with app.run_test(size=(100, 30)) as pilot:
            message = secret  # a local the default traceback would print

            def explode() -> None:
                assert message
                _ = 1 / 0

            app.call_later(explode)
            await pilot.pause()
            await pilot.pause()
    err = capsys.readouterr().err
    assert secret not in err
    assert "ACID" not in err
    assert len(err.strip().splitlines()) == 1
    assert "ZeroDivisionError" in err and "Your session is saved" in err
    [report] = (isolated_env / ".local" / "state").rglob("crash-*.txt")
    assert "ZeroDivisionError" in report.read_text()
    assert report.stat().st_mode & 0o777 == 0o600


class StuckProvider(OfflineProvider):
    """The offline demo, except that consolidation (background work) never ends, and closing
    never ends either when `close_hangs`: a slow model that would keep the app on "closing…"."""

    def __init__(self, close_hangs: bool) -> None:
        super().__init__()
        self.consolidating = asyncio.Event()
        self.close_hangs = close_hangs

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        if request.purpose == "consolidation":
            self.consolidating.set()
            await asyncio.Event().wait()
        async for event in super().stream(request):
            yield event

    async def aclose(self) -> None:
        if self.close_hangs:
            await asyncio.Event().wait()


def stuck_app(close_hangs: bool = True) -> tuple[RcmApp, StuckProvider]:
    provider = StuckProvider(close_hangs)
    controller = make_controller(
        flags={"consolidation_interval": 1, "profile": "full"},
        providers=ProviderPair(provider, provider),
    )
    return RcmApp(controller), provider


async def start_stuck_turn(pilot: Any, app: RcmApp, provider: StuckProvider) -> None:
    app.main.composer.load_text("It must support strict ACID transactions.")
    await pilot.press("enter")
    await wait_for(pilot, provider.consolidating.is_set)


# These tests hold closing's bound (QUIT_WITHIN) far past their wait, so an exit proves what
# ended the app; no stopwatch to flake on a loaded machine. The first quit runs as a task: a
# key press would wait for the app to finish handling it.


async def test_quit_does_not_wait_for_background_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "QUIT_WITHIN", 60.0)
    app, provider = stuck_app(close_hangs=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_stuck_turn(pilot, app, provider)
        quitting = asyncio.create_task(app.run_action("quit"))
        await wait_for(pilot, lambda: app.return_code == 0)
        await quitting


async def test_a_hanging_close_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "QUIT_WITHIN", 0.2)
    app, provider = stuck_app(close_hangs=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_stuck_turn(pilot, app, provider)
        quitting = asyncio.create_task(app.run_action("quit"))
        await wait_for(pilot, lambda: app.return_code == 0)
        await quitting


@pytest.mark.parametrize("second_key", ["ctrl+q", "ctrl+c"])
async def test_a_second_quit_key_exits_at_once(
    second_key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "QUIT_WITHIN", 60.0)
    app, provider = stuck_app(close_hangs=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await start_stuck_turn(pilot, app, provider)
        quitting = asyncio.create_task(app.run_action("quit"))
        await wait_for(pilot, lambda: app.main.stage.detail == "closing…")
        await pilot.pause(0.1)
        assert app.return_code is None
        await pilot.press(second_key)
        await wait_for(pilot, lambda: app.return_code == 0)
        quitting.cancel()


async def test_hiding_the_focused_panel_puts_the_typing_in_the_composer() -> None:
    controller = make_controller()
    await converse(controller, 4)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        app.main.query_one(DecisionsPanel).focus()
        await pilot.pause()
        await pilot.press("ctrl+b")
        await pilot.press(*"hello")
        await pilot.pause()
        assert not isinstance(app.screen, EditDialog)
        assert app.main.composer.has_focus
        assert app.main.composer.text == "hello"


async def test_typing_after_new_session_from_the_chat_sends_the_message() -> None:
    controller = make_controller()
    await converse(controller, 2)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        app.main.chat.focus()
        await pilot.press("ctrl+n")
        await wait_for(pilot, lambda: controller.session.turn == 0)
        await pilot.pause()
        await pilot.press(*"hi there", "enter")
        await wait_for(pilot, lambda: controller.session.turn == 1 and not app.main.busy)
        assert entry_texts(app, "user") == ["hi there"]


async def test_printable_keys_on_the_chat_go_to_the_composer_but_panel_keys_still_work() -> None:
    controller = make_controller()
    await converse(controller, 4)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        app.main.chat.focus()
        await pilot.press(*"why")
        assert app.main.composer.has_focus and app.main.composer.text == "why"
        table = app.main.query_one(RequirementsTable)
        table.focus()
        await pilot.press("c")
        await pilot.pause()
        assert table.has_focus
        assert controller.session.requirements[0].status == "confirmed"
        assert app.main.composer.text == "why"


def burst(app: RcmApp, keys: list[str]) -> None:
    """Queue every key at once, the way a fast typist or a paste-like burst delivers them."""
    for key in keys:
        character = key if len(key) == 1 else ("\n" if key == "ctrl+j" else None)
        app.post_message(events.Key(key, character))


async def test_newlines_typed_in_a_burst_land_where_they_were_typed() -> None:
    app = RcmApp(make_controller())
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(3):
            app.main.composer.clear()
            burst(app, [*"aaa", "ctrl+j", *"bbb", "ctrl+j", *"ccc"])
            await pilot.pause()
            await pilot.pause()
            assert app.main.composer.text == "aaa\nbbb\nccc"


async def test_a_remapped_newline_key_also_lands_in_order() -> None:
    app = RcmApp(make_controller(flags={"keys.newline": "ctrl+l"}))
    async with app.run_test(size=(100, 30)) as pilot:
        burst(app, [*"aaa", "ctrl+l", *"bbb"])
        await pilot.pause()
        await pilot.pause()
        assert app.main.composer.text == "aaa\nbbb"



async def test_a_path_is_not_run_as_a_command_and_double_slash_sends_it() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        text = "/etc/nats/nats.conf sets max_age to 24h"
        await send_message(pilot, text)
        assert app.main.composer.text == text
        [notice] = notice_texts(app)
        assert "//" in notice
        assert controller.session.messages == []
        await pilot.press("up")
        assert app.main.composer.text == text  # the refused text never entered the history

        await send_message(pilot, "/" + text)
        assert entry_texts(app, "user") == [text]
        assert [m.content for m in controller.session.messages if m.role == "user"] == [text]
        assert app.main.composer.text == ""


async def test_a_mistyped_command_suggests_the_nearest_one_in_one_line() -> None:
    app = RcmApp(make_controller())
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/solidfy")
        [notice] = notice_texts(app)
        assert "Did you mean /solidify?" in notice
        assert app.main.composer.text == "/solidfy"
        assert entry_texts(app, "error") == []


async def test_help_names_the_escape_and_reject_usage_shows_its_argument() -> None:
    app = RcmApp(make_controller())
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/help")
        [help_text] = entry_texts(app, "note")
        assert "`//`" in help_text
        await send_message(pilot, "/reject")
        [usage] = notice_texts(app)
        assert "/reject <option> [: reason]" in usage
        assert entry_texts(app, "error") == []


async def test_unreject_with_a_partial_name_refuses_and_names_the_option() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/reject Redis Streams: no replay guarantees")
        await send_message(pilot, "/unreject redis")
        assert [r.option for r in controller.session.active_rejections()] == ["Redis Streams"]
        [notice] = notice_texts(app)
        assert "Redis Streams" in notice and "full name" in notice
        await send_message(pilot, "/unreject redis streams")
        assert controller.session.active_rejections() == []


async def test_a_command_refused_during_a_turn_stays_in_the_composer() -> None:
    controller = make_controller(flags={"providers.offline.latency_ms": 5000})
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        app.main.composer.load_text("It must support strict ACID transactions.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.main.stage.stage == "generating")
        app.main.composer.load_text("/new")
        await pilot.press("enter")
        await pilot.pause()
        assert app.main.composer.text == "/new"
        app.main.composer.load_text("and a second message")
        await pilot.press("enter")
        await pilot.pause()
        assert app.main.composer.text == "and a second message"
        assert app.main.composer.input_history == ["It must support strict ACID transactions."]
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.main.busy)
        app.main.composer.load_text("/new")
        await pilot.press("enter")
        await wait_for(pilot, lambda: controller.session.messages == [])


async def test_sessions_browser_cursor_follows_a_renamed_session_and_broken_files_go_last() -> (
    None
):
    from .test_sessions import open_browser, refresh_browser, saved_conversation

    await saved_conversation("20250301-090000-aaaaaa", "Oldest", 1)
    await saved_conversation("20250302-090000-bbbbbb", "Middle", 1)
    await saved_conversation("20250303-090000-cccccc", "Newest", 1)
    write_broken("20250302-100000-bad000")  # by its name and time, it sorts among the others
    app = RcmApp(make_controller(session_id="20250310-090000-dddddd"))
    async with app.run_test(size=(120, 36)) as pilot:
        await open_browser(pilot)
        browser = app.screen
        assert isinstance(browser, SessionsScreen)
        assert [bool(e.broken) for e in browser.entries] == [False, False, False, True]
        oldest = next(i for i, e in enumerate(browser.entries) if e.id.endswith("aaaaaa"))
        await pilot.press(*["down"] * (oldest + 1), "r")
        await pilot.pause()
        app.screen.query_one("#dialog-input").value = "Renamed"
        await pilot.press("enter")
        await refresh_browser(pilot)
        selected = browser.selected()
        assert selected is not None and selected.id == "20250301-090000-aaaaaa"
        assert selected.title == "Renamed"


# -- defect 8: details --------------------------------------------------------------------
STATUS_REPLY = (
    "[STATUS]\nCONCLUSION: PostgreSQL with SERIALIZABLE transfers\n"
    "REJECTED: MongoDB (fragile transactions)\nOPEN: none\n[/STATUS]\n\n"
    "Use one primary and a synchronous replica."
)


async def test_a_status_block_renders_as_a_block_without_raw_tags() -> None:
    controller = make_controller()
    await converse(controller, 1)
    with scripted_reply(STATUS_REPLY):
        outcome = await controller.send("And the replica?")
    assert outcome.ok
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)):
        reply = entry_texts(app, "assistant")[-1]
        assert "[STATUS]" not in reply and "[/STATUS]" not in reply
        assert "> **STATUS**" in reply
        assert "> - Conclusion: PostgreSQL with SERIALIZABLE transfers" in reply
        assert "> - Rejected: MongoDB (fragile transactions)" in reply


async def test_the_stage_line_stops_saying_streaming_once_evaluating() -> None:
    app = RcmApp(make_controller())
    async with app.run_test(size=(120, 36)) as pilot:
        stage = app.main.stage
        stage.begin(1)
        stage.update_stage(1, "generating", "generating")
        stage.detail = "streaming draft"
        stage.update_stage(1, "evaluating", "evaluating")
        await pilot.pause()
        assert "streaming" not in str(stage.render())


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 45), (200, 60)])
async def test_stage_hint_header_and_footer_fit_the_width(size: tuple[int, int]) -> None:
    from textual.widgets._footer import FooterKey

    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=size) as pilot:
        await send_message(pilot, "It must support strict ACID transactions across accounts.")
        stage = app.main.stage
        line = str(stage.render())
        assert "turn 1 done" in line
        assert len(line) <= stage.size.width - 2 and line.rstrip().endswith("/help")
        header = str(app.main.query_one("#header").render())
        assert len(header) <= app.main.query_one("#header").size.width
        assert " turn 1" in header
        footer = app.main.query_one("#footer")
        keys = list(footer.query(FooterKey))
        assert keys and all(k.region.right <= footer.region.right for k in keys)
        shown = {k.action for k in keys}
        assert {"app.quit", "app.help"} <= shown or {"quit", "help"} & shown


async def test_the_theme_chosen_is_kept_after_a_restart() -> None:
    app = RcmApp(make_controller())
    async with app.run_test(size=(100, 30)) as pilot:
        app.theme = "nord"
        await pilot.pause()
    again = RcmApp(make_controller())
    async with again.run_test(size=(100, 30)):
        assert again.theme == "nord"


async def test_a_screenshot_is_saved_when_there_is_no_downloads_folder(isolated_env: Path) -> None:
    assert not (isolated_env / "Downloads").exists()
    app = RcmApp(make_controller())
    async with app.run_test(size=(100, 30)) as pilot:
        app.action_screenshot()
        await pilot.pause(0.3)
    shots = list((isolated_env / ".local" / "share").rglob("*.svg"))
    assert len(shots) == 1


# -- defect 9: panels ----------------------------------------------------------------------
async def test_wide_panels_are_sized_by_their_content() -> None:
    from rcm_tui.core.models import Requirement

    controller = make_controller()
    await converse(controller, 4)
    session = controller.session
    for n in range(len(session.requirements) + 1, 11):
        session.requirements.append(Requirement(id=f"R{n}", text=f"Rule {n}", source_turn=4))
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.pause()
        await pilot.pause()
        table = app.main.query_one(RequirementsTable)
        assert table.row_count == 10
        # Every row is on screen, none scrolled away behind a panel that keeps empty space.
        assert table.size.height >= table.virtual_size.height


def column_heights(chart_text: str) -> list[int]:
    from rcm_tui.ui.widgets.quality import BLOCKS

    rows = [line[5:] for line in chart_text.splitlines()]
    columns = [c for c in range(len(rows[0])) if any(r[c].strip() for r in rows if c < len(r))]
    return [sum(BLOCKS.index(r[c]) if r[c] in BLOCKS else 0 for r in rows) for c in columns]


async def test_the_trend_chart_shows_the_difference_between_close_scores() -> None:
    from rcm_tui.ui.widgets.quality import TrendChart

    app = RcmApp(make_controller())
    async with app.run_test(size=(160, 45)) as pilot:
        chart = app.main.query_one(TrendChart)
        chart.scores = (0.85, 0.96)
        await pilot.pause()
        low, high = column_heights(str(chart.render()))
        assert high - low >= 6  # of 32 eighths: a visible step, not the same height


def test_lower_is_better_bars_say_a_full_bar_is_good() -> None:
    from rcm_tui.core.models import QualityRecord
    from rcm_tui.ui.widgets.quality import dimension_lines

    record = QualityRecord(
        turn=1, clarity=0.9, completeness=0.9, assumptions=0.1, verbosity=0.8,
        middle_turn_reference=1.0, requirement_tracking=1.0, overall=0.7,
        premature_attempt=False,
    )
    lines = dimension_lines(record, 0.8, bar=10).plain.splitlines()
    assumptions = next(line for line in lines if line.startswith("assumptions"))
    verbosity = next(line for line in lines if line.startswith("verbosity"))
    assert assumptions.count("█") == 9 and verbosity.count("█") == 2
    assert "full bar = good" in dimension_lines(record, 0.8, bar=10).plain


# -- cancel keeps the partial reply --------------------------------------------------------
def draft_source(app: RcmApp) -> str:
    draft = app.main.chat.draft
    return draft.body.source if draft is not None else ""


async def test_cancel_keeps_the_partial_reply_marked_and_not_counted() -> None:
    controller = make_controller(flags={"providers.offline.token_ms": 150})
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        app.main.composer.load_text("It must support strict ACID transactions across accounts.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: len(draft_source(app).split()) >= 4)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.main.busy)
        await pilot.pause()
        session = controller.session
        [kept] = session.cancelled_replies
        assert kept.turn == 1 and len(kept.content.split()) >= 3
        assert [m.role for m in session.messages] == ["user"]  # not an answer
        assert session.pending_user_turn is not None  # retry stays available
        assert session.metrics.answer_lengths == []
        [shown] = entry_texts(app, "assistant")
        assert shown == kept.content
        assert "kept above" in notice_texts(app)[-1]
    controller.release()
    reopened = RcmApp(make_controller(session_id="20250301-090000-ffffff"))
    async with reopened.run_test(size=(120, 36)) as pilot:
        reopened.controller.open_session(session.id)
        await reopened.main.show_session()
        await pilot.pause()
        assert entry_texts(reopened, "assistant") == [kept.content]


# -- copy ---------------------------------------------------------------------------------
async def test_copy_the_last_reply_and_its_code_block_to_the_clipboard() -> None:
    from .conftest import CONVERSATION

    controller = make_controller()
    await converse(controller, 5)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("f4")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        reply = CONVERSATION[4][1]
        assert app.clipboard == reply
        assert any("Copied the last reply" in n.message for n in app._notifications)
        await send_message(pilot, "/copy code")
        assert app.clipboard.startswith("CREATE TABLE ledger_entries (")
        assert app.clipboard.endswith(");")
        assert "```" not in app.clipboard
        assert entry_texts(app, "note") == []  # a confirmation, not a transcript entry

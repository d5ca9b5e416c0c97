"""The sessions browser, resuming, and `run_app` from the command line's point of view."""

from __future__ import annotations

from typing import Any

import pytest

from rcm_tui.config import data_dir
from rcm_tui.core.models import Message, Session
from rcm_tui.store import SessionStore
from rcm_tui.ui import app as app_module
from rcm_tui.ui.app import RcmApp, run_app
from rcm_tui.ui.screens.sessions import SessionsScreen, SessionsTable

from .conftest import (
    T0,
    converse,
    entry_texts,
    freeze,
    make_controller,
    notice_texts,
    offline_settings,
    wait_for,
    write_broken,
    write_session,
)


async def saved_conversation(session_id: str, title: str, turns: int) -> Session:
    """A conversation saved on disk under `session_id` (its controller lets go of it)."""
    controller = make_controller(session_id=session_id)
    session = await converse(controller, turns)
    session.title = title
    controller.release()
    write_session(freeze(session))
    return session


def browser_titles(app: RcmApp) -> list[str]:
    table = app.screen.query_one(SessionsTable)
    return [str(table.get_row_at(i)[0]) for i in range(table.row_count)]


async def open_browser(pilot: Any) -> None:
    await pilot.press("ctrl+o")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    assert isinstance(pilot.app.screen, SessionsScreen)


async def refresh_browser(pilot: Any) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_filter_and_resume_restore_every_panel() -> None:
    await saved_conversation("20250301-090000-aaaaaa", "Payments ledger database", 5)
    await saved_conversation("20250302-090000-bbbbbb", "Caching for the billing API", 2)
    app = RcmApp(make_controller(session_id="20250310-090000-cccccc"))
    async with app.run_test(size=(120, 36)) as pilot:
        await open_browser(pilot)
        assert len(browser_titles(app)) == 2

        await pilot.press(*"audit trail")  # only in the messages of the first session
        await refresh_browser(pilot)
        assert browser_titles(app) == ["Payments ledger database"]

        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.main
        assert app.controller.session.id == "20250301-090000-aaaaaa"
        assert len(entry_texts(app, "user")) == 5
        assert app.main.query_one("#header").session_title == "Payments ledger database"
        assert app.main.query_one("RequirementsTable").row_count == 3
        assert "MongoDB" in str(app.main.query_one("#decision-log").render())
        assert "turn 5" in str(app.main.query_one("QualityPanel #quality-summary").render())


async def test_rename_from_the_browser() -> None:
    await saved_conversation("20250301-090000-aaaaaa", "Payments ledger database", 1)
    app = RcmApp(make_controller(session_id="20250310-090000-cccccc"))
    async with app.run_test(size=(120, 36)) as pilot:
        await open_browser(pilot)
        await pilot.press("down", "r")
        await pilot.pause()
        dialog_input = app.screen.query_one("#dialog-input")
        dialog_input.value = "Ledger: Postgres or not"
        await pilot.press("enter")
        await refresh_browser(pilot)

        assert browser_titles(app) == ["Ledger: Postgres or not"]
        assert SessionStore().load("20250301-090000-aaaaaa").title == "Ledger: Postgres or not"


async def test_delete_asks_first() -> None:
    await saved_conversation("20250301-090000-aaaaaa", "Payments ledger database", 1)
    await saved_conversation("20250302-090000-bbbbbb", "Caching for the billing API", 1)
    app = RcmApp(make_controller(session_id="20250310-090000-cccccc"))
    async with app.run_test(size=(120, 36)) as pilot:
        await open_browser(pilot)
        await pilot.press("down", "d")
        await pilot.pause()
        assert "Delete the session “Caching for the billing API”" in str(
            app.screen.query_one(".question").render()
        )
        await pilot.press("n")
        await refresh_browser(pilot)
        assert len(SessionStore().list()) == 2

        await pilot.press("d")
        await pilot.pause()
        await pilot.press("y")
        await refresh_browser(pilot)
        assert browser_titles(app) == ["Payments ledger database"]
        assert [e.id for e in SessionStore().list()] == ["20250301-090000-aaaaaa"]


async def test_broken_file_is_listed_cannot_be_opened_and_can_be_deleted() -> None:
    await saved_conversation("20250301-090000-aaaaaa", "Payments ledger database", 1)
    write_broken("20250301-100000-bad000")
    app = RcmApp(make_controller(session_id="20250310-090000-cccccc"))
    async with app.run_test(size=(120, 36)) as pilot:
        await open_browser(pilot)
        titles = browser_titles(app)
        assert any(t.startswith("⚠ BROKEN: invalid JSON") for t in titles)
        broken_row = next(i for i, t in enumerate(titles) if "BROKEN" in t)

        await pilot.press("down")
        table = app.screen.query_one(SessionsTable)
        table.move_cursor(row=broken_row)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)  # still here: it cannot be opened
        assert app.controller.session.id == "20250310-090000-cccccc"

        await pilot.press("d")
        await pilot.pause()
        assert "broken file" in str(app.screen.query_one(".question").render())
        await pilot.press("y")
        await refresh_browser(pilot)
        assert not any("BROKEN" in t for t in browser_titles(app))
        assert [e.id for e in SessionStore().list()] == ["20250301-090000-aaaaaa"]


async def test_export_from_the_browser() -> None:
    await saved_conversation("20250301-090000-aaaaaa", "Payments ledger database", 2)
    app = RcmApp(make_controller(session_id="20250310-090000-cccccc"))
    async with app.run_test(size=(120, 36)) as pilot:
        await open_browser(pilot)
        await pilot.press("down", "x")
        await pilot.pause()
        await pilot.press("j")
        await pilot.pause()
        target = data_dir() / "exports" / "20250301-090000-aaaaaa.json"
        assert target.exists()
        assert '"schema_version": 1' in target.read_text(encoding="utf-8")


async def test_opening_an_interrupted_turn_offers_retry() -> None:
    session = Session(id="20250301-090000-dddddd", title="Interrupted", created_at=T0)
    session.messages.append(
        Message(role="user", content="It must support strict ACID transactions.", turn=1)
    )
    write_session(freeze(session))
    controller = make_controller(session_id="20250310-090000-cccccc")
    controller.open_session("20250301-090000-dddddd")
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        [error] = entry_texts(app, "error")
        assert "no answer yet" in error and "ctrl+r" in error
        await pilot.press("ctrl+r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert len(entry_texts(app, "assistant")) == 1
        assert controller.session.pending_user_turn is None


async def test_resume_after_a_long_idle_shows_a_recap_first() -> None:
    controller = make_controller(session_id="20250301-090000-aaaaaa")
    session = await converse(controller, 4)
    controller.release()
    write_session(session)  # updated_at is in 2025: idle far longer than 30 minutes
    resumed = make_controller(session_id="20250310-090000-cccccc")
    resumed.open_session("latest")
    recap = resumed.recap()
    assert recap is not None
    app = RcmApp(resumed, recap=recap)
    async with app.run_test(size=(120, 36)):
        [note] = entry_texts(app, "recap")
        assert "MongoDB" in note
        assert resumed.session.messages[-1].role == "assistant"  # the recap is not stored
        assert all("recap" not in m.content.lower()[:20] for m in resumed.session.messages)


def run_headless(monkeypatch: pytest.MonkeyPatch, script: Any) -> None:
    """Make `run_app` run its app headless with `script` as the user."""
    original = RcmApp.run

    def run(self: RcmApp, **_kwargs: Any) -> Any:
        return original(self, headless=True, size=(120, 36), auto_pilot=script)

    monkeypatch.setattr(app_module.RcmApp, "run", run)


def test_run_app_quits_with_ctrl_q_and_prints_the_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def user(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        pilot.app.main.composer.load_text("It must support strict ACID transactions.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(pilot.app.controller.session.quality))
        await pilot.app.workers.wait_for_complete()
        await pilot.press("ctrl+q")

    run_headless(monkeypatch, user)
    assert run_app(offline_settings()) == 0
    out = capsys.readouterr().out
    assert "rcm-tui session" in out
    assert "turns 1" in out
    assert "resume with: rcm-tui --resume" in out
    [entry] = SessionStore().list()
    assert entry.turns == 1


def test_run_app_prints_nothing_for_an_empty_session(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def user(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        await pilot.press("ctrl+q")

    run_headless(monkeypatch, user)
    assert run_app(offline_settings()) == 0
    assert capsys.readouterr().out == ""


def test_run_app_exit_command_quits_like_the_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def user(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        pilot.app.main.composer.load_text("It must support strict ACID transactions.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not pilot.app.main.busy)
        pilot.app.main.composer.load_text("/exit")
        await pilot.press("enter")

    run_headless(monkeypatch, user)
    assert run_app(offline_settings()) == 0
    assert "turns 1" in capsys.readouterr().out


def test_run_app_quit_during_a_turn_keeps_the_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    async def user(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        pilot.app.main.composer.load_text("It has to handle 2,000 writes per second.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: pilot.app.main.stage.stage == "generating")
        await pilot.press("ctrl+q")

    run_headless(monkeypatch, user)
    assert run_app(offline_settings(**{"providers.offline.latency_ms": 5000})) == 0
    [entry] = SessionStore().list()
    stored = SessionStore().load(entry.id)
    assert [m.role for m in stored.messages] == ["user"]
    assert "turns 1" in capsys.readouterr().out


def test_resume_of_a_locked_session_fails_before_the_app_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    asyncio.run(saved_conversation("20250301-090000-aaaaaa", "Payments ledger database", 1))
    started: list[bool] = []
    monkeypatch.setattr(app_module.RcmApp, "run", lambda self, **kw: started.append(True))
    holder = SessionStore().lock("20250301-090000-aaaaaa")
    try:
        assert run_app(offline_settings(), resume="latest") == 1
    finally:
        holder.release()
    err = capsys.readouterr().err
    assert err.startswith("rcm-tui: session 20250301-090000-aaaaaa is open in another rcm-tui")
    assert err.count("\n") == 1
    assert not started


def test_resume_of_an_unknown_session_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_app(offline_settings(), resume="nope") == 1
    err = capsys.readouterr().err
    assert err.startswith("rcm-tui: ") and err.count("\n") == 1


async def test_notices_reach_the_transcript() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        for user, _reply in [("a", ""), ("b", ""), ("c", "")]:
            app.main.composer.load_text(f"It must support feature {user}.")
            await pilot.press("enter")
            await pilot.pause()
            await app.workers.wait_for_complete()
        await controller.drain()
        await pilot.pause()
        assert any("consolidating turns 1–3" in n for n in notice_texts(app))

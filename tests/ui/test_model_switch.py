"""`/model` in the app (issue 14): the listing, a refused switch that keeps the header, a
switch from the palette, and a resumed session's model in the header. No network: the
openai provider is built (a fake key) but never called."""

from __future__ import annotations

from typing import Any

import pytest

from rcm_tui.config import load_settings
from rcm_tui.controller import Controller
from rcm_tui.providers.registry import ModelSpec
from rcm_tui.store import SessionStore
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.palette import RcmCommands

from .conftest import converse, entry_texts, make_controller, notice_texts, send_message, wait_for

FAKE_KEY = "sk-test-not-a-real-key-000"


def header_provider(app: RcmApp) -> str:
    return str(app.main.query_one("#header").provider)  # type: ignore[attr-defined]


async def test_model_alone_lists_the_current_model_and_what_is_available() -> None:
    controller = make_controller()
    await converse(controller, 1)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/model")
        [note] = [n for n in entry_texts(app, "note") if "## Model" in n]
        assert "Now: **offline · demo, no model**" in note
        assert "| anthropic | claude-sonnet-4-5 | anthropic has no API key |" in note
        assert "| offline | offline-demo | in use |" in note
        assert "- turn 1: offline · offline-demo" in note


async def test_a_refused_switch_says_why_and_the_header_keeps_the_model() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        before = header_provider(app)
        await send_message(pilot, "/model anthropic:claude-x")
        [notice] = [n for n in notice_texts(app) if n.startswith("/model:")]
        assert "anthropic has no API key" in notice and "still using offline" in notice
        assert not notice.startswith("/model: /model:")  # the command is named once
        await send_message(pilot, "/model nosuch:thing")
        assert any("unknown provider “nosuch”" in n for n in notice_texts(app))
        assert header_provider(app) == before
        assert controller.choice.name == "offline"


async def test_a_switch_from_the_palette_shows_in_the_header_and_records_the_session(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    controller = make_controller()
    await converse(controller, 1)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/model openai:gpt-4o")
        assert header_provider(app) == "openai · gpt-4o"
        assert "switched with /model" in str(app.main.query_one("#header").reason)  # type: ignore[attr-defined]
        assert SessionStore().load(controller.session.id).provider.name == "openai"
        # The palette offers every other provider that can run here, offline included.
        hits: list[Any] = [hit async for hit in RcmCommands(app.main).search("use offline")]
        assert hits and str(hits[0].text).startswith("Use offline")
        hits[0].command()  # run_command: starts the /model worker
        await wait_for(pilot, lambda: controller.choice.name == "offline")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert header_provider(app).startswith("offline")
        assert not any(FAKE_KEY in n for n in entry_texts(app, "note"))


async def test_a_resumed_session_shows_its_last_model_or_why_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    controller = make_controller()
    await converse(controller, 1)
    assert await controller.switch_model(ModelSpec("openai", "gpt-4o")) == "openai · gpt-4o"
    session_id = controller.session.id
    await controller.aclose()

    # No flag: the session's last model runs it.
    resumed = Controller(load_settings(None, {}), SessionStore())
    resumed.open_session(session_id)
    app = RcmApp(resumed)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        assert header_provider(app) == "openai · gpt-4o"
    resumed.release()

    # --provider offline on the command line wins, and the chat says so.
    flagged = make_controller(session_id="unused")
    flagged.open_session(session_id)
    app = RcmApp(flagged)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await pilot.pause()
        assert header_provider(app).startswith("offline")
        assert any("last used openai · gpt-4o" in n for n in notice_texts(app))
    flagged.release()


async def test_during_a_turn_model_lists_and_a_switch_waits_for_the_turn() -> None:
    # Slow tokens: the reply must still be streaming when the test gets to cancel it, even on a
    # loaded machine (at 40 ms a token it sometimes finished first).
    controller = make_controller(flags={"providers.offline.token_ms": 400})
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        app.main.composer.load_text("We need an API that serves 200 requests per second.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.main.busy)
        app.main.composer.load_text("/model")
        await pilot.press("enter")
        await wait_for(pilot, lambda: any("## Model" in n for n in entry_texts(app, "note")))
        app.main.composer.load_text("/model offline")
        await pilot.press("enter")
        await pilot.pause()
        assert app.main.busy
        assert any("/model cannot run during a turn" in n.message for n in app._notifications)
        assert app.main.composer.text == "/model offline"  # kept to run again
        await wait_for(pilot, lambda: "streaming" in app.main.stage.detail)
        await pilot.pause(0.3)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.main.busy)
        # The part kept of the cancelled reply says which model was writing it.
        assert [(c.provider, c.model) for c in controller.session.cancelled_replies] == [
            ("offline", "offline-demo")]

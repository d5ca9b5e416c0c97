"""Pictures of every screen and panel state worth seeing (pytest-textual-snapshot).

Everything in them is fixed: the offline provider, session ids, times, timings, the time
zone, the terminal size, and cursors that do not blink. Regenerate with
`pytest tests/ui/test_snapshots.py --snapshot-update` after a deliberate change, and look at
the pictures (the report pytest writes on failure shows old and new side by side).
"""

from __future__ import annotations

import asyncio
from typing import Any

from rcm_tui.controller import Controller, ProviderPair
from rcm_tui.core.models import Message, Session
from rcm_tui.ui.app import RcmApp

from .conftest import (
    SESSION_ID,
    T0,
    FlakyProvider,
    GatedProvider,
    converse,
    freeze,
    make_controller,
    wait_for,
    write_broken,
    write_session,
)

WIDE = (160, 45)
MEDIUM = (120, 36)
SMALL = (80, 24)


def app_with(turns: int = 0, *, solidify: bool = False, **kwargs: Any) -> RcmApp:
    controller = make_controller(**kwargs)
    if turns:
        asyncio.run(converse(controller, turns, solidify=solidify))
    return RcmApp(controller)


async def settle(pilot: Any) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def type_and_send(pilot: Any, text: str) -> None:
    await wait_for(pilot, lambda: pilot.app.main.ready)
    pilot.app.main.composer.load_text(text)
    await pilot.press("enter")
    await settle(pilot)


def saved_sessions() -> None:
    """Three sessions on disk with fixed times, written as files (no store stamping)."""
    for index, (turns, title) in enumerate(
        [
            (5, "Payments ledger: picking the primary database"),
            (2, "Caching strategy for the billing API"),
            (3, "Upload service: chunking and retries"),
        ]
    ):
        session_id = f"2025030{index + 1}-090000-a{index}b{index}c{index}"
        controller = make_controller(session_id=session_id)
        session = asyncio.run(converse(controller, turns))
        session.title = title
        controller.release()
        write_session(freeze(session, T0.replace(day=index + 1)))


def test_empty_session(snap_compare: Any) -> None:
    assert snap_compare(app_with(), terminal_size=MEDIUM)


def test_conversation_with_requirements_and_rejections(snap_compare: Any) -> None:
    assert snap_compare(app_with(5), terminal_size=WIDE)


def test_solidified_pinned(snap_compare: Any) -> None:
    assert snap_compare(app_with(5, solidify=True), terminal_size=WIDE)


def test_quality_trend_after_several_turns(snap_compare: Any) -> None:
    app = app_with(6)

    async def show_quality(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        pilot.app.main.query_one("QualityPanel").scroll_home(animate=False)

    assert snap_compare(app, terminal_size=(130, 48), run_before=show_quality)


def test_refinement_in_progress(snap_compare: Any) -> None:
    gated = GatedProvider(pause_at_refinement=2)
    controller = make_controller(providers=ProviderPair(gated, gated))
    asyncio.run(converse(controller, 3))
    controller.pipeline().settings.quality_threshold = 1.0  # every draft gets refined
    gated.armed = True
    app = RcmApp(controller)

    async def refine(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        pilot.app.main.composer.load_text(
            "MongoDB is off the table: multi-document transactions are too fragile for money."
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: gated.paused_text is not None)
        await wait_for(pilot, lambda: _draft_text(pilot.app) == (gated.paused_text or "").strip())
        await pilot.pause()
        assert pilot.app.main.stage.label == "refining 2/3"

    assert snap_compare(app, terminal_size=WIDE, run_before=refine)


def _draft_text(app: RcmApp) -> str:
    draft = app.main.chat.draft
    return "" if draft is None else draft.body.source.strip()


def test_small_terminal(snap_compare: Any) -> None:
    assert snap_compare(app_with(4, solidify=True), terminal_size=SMALL)


def test_small_terminal_decisions_tab(snap_compare: Any) -> None:
    app = app_with(4, solidify=True)

    async def decisions(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        pilot.app.main.query_one("#panel-tabs").active = "tab-decisions"
        await pilot.pause()

    assert snap_compare(app, terminal_size=SMALL, run_before=decisions)


def test_panels_hidden(snap_compare: Any) -> None:
    assert snap_compare(app_with(3), terminal_size=MEDIUM, press=["ctrl+b"])


def test_sessions_browser(snap_compare: Any) -> None:
    saved_sessions()

    async def browse(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        await pilot.press("ctrl+o")
        await settle(pilot)

    assert snap_compare(app_with(), terminal_size=(120, 30), run_before=browse)


def test_sessions_browser_filtered(snap_compare: Any) -> None:
    saved_sessions()

    async def browse(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.press(*"audit trail")  # in the messages of one session only
        await settle(pilot)

    assert snap_compare(app_with(), terminal_size=(120, 30), run_before=browse)


def test_broken_entry_and_delete_confirmation(snap_compare: Any) -> None:
    saved_sessions()
    write_broken("20250304-090000-bad000", b'{"schema_version": 1, "id": ')

    async def browse(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.press(*["down"] * 4, "d")  # broken entries are listed last
        await settle(pilot)

    assert snap_compare(app_with(), terminal_size=(120, 30), run_before=browse)


def test_broken_entry_listed(snap_compare: Any) -> None:
    saved_sessions()
    write_broken("20250304-090000-bad000", b"\x00\x01 not a session")

    async def browse(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.press(*["down"] * 4)  # broken entries are listed last

    assert snap_compare(app_with(), terminal_size=(120, 30), run_before=browse)


def test_provider_error(snap_compare: Any) -> None:
    flaky = FlakyProvider()
    app = app_with(providers=ProviderPair(flaky, flaky))

    async def fail(pilot: Any) -> None:
        await type_and_send(pilot, "It has to handle 2,000 writes per second at peak.")

    assert snap_compare(app, terminal_size=MEDIUM, run_before=fail)


def test_unknown_command(snap_compare: Any) -> None:
    async def command(pilot: Any) -> None:
        await type_and_send(pilot, "/solidfy")

    assert snap_compare(app_with(2), terminal_size=MEDIUM, run_before=command)


def test_help_screen(snap_compare: Any) -> None:
    assert snap_compare(app_with(), terminal_size=(120, 40), press=["f1"])


def test_stats_screen(snap_compare: Any) -> None:
    assert snap_compare(app_with(5, solidify=True), terminal_size=(120, 40), press=["f2"])


def test_inspector(snap_compare: Any) -> None:
    assert snap_compare(app_with(3), terminal_size=(140, 40), press=["f3"])


def test_resume_with_recap(snap_compare: Any) -> None:
    controller = make_controller(session_id="20250301-090000-f0f0f0")
    asyncio.run(converse(controller, 5, solidify=True))
    controller.release()
    write_session(controller.session)
    resumed: Controller = make_controller()
    resumed.open_session("20250301-090000-f0f0f0")
    assert snap_compare(RcmApp(resumed, recap=resumed.recap()), terminal_size=WIDE)


def test_interrupted_turn_offers_retry(snap_compare: Any) -> None:
    session = Session(id="20250301-090000-e1e1e1", title="Interrupted", created_at=T0)
    session.messages.append(
        Message(role="user", content="It must support strict ACID transactions.", turn=1)
    )
    write_session(freeze(session))
    controller = make_controller(session_id=SESSION_ID)
    controller.open_session("20250301-090000-e1e1e1")
    assert snap_compare(RcmApp(controller), terminal_size=MEDIUM)

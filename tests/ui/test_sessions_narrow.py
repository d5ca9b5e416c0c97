"""Issue 14 (tmux at 80×24): the sessions browser cut the last character of every id, the one
thing to type after `--resume`. The title column gives way instead."""

from __future__ import annotations

import pytest
from textual.geometry import Region

from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.screens.sessions import SessionsScreen, SessionsTable

from .conftest import make_controller, wait_for
from .test_snapshots import saved_sessions


def shown_lines(table: SessionsTable) -> list[str]:
    width, height = table.size
    return [strip.text for strip in table.render_lines(Region(0, 0, width, height))]


@pytest.fixture
def three_sessions() -> None:
    saved_sessions()  # runs its own event loop: before the test's


@pytest.mark.usefixtures("three_sessions")
async def test_at_80_columns_the_browser_shows_every_id_whole() -> None:
    app = RcmApp(make_controller())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: isinstance(app.screen, SessionsScreen))
        table = app.screen.query_one(SessionsTable)
        await wait_for(pilot, lambda: table.row_count == 3)
        await pilot.pause()
        lines = "\n".join(shown_lines(table))
        for day in (1, 2, 3):
            session_id = f"2025030{day}-090000-a{day - 1}b{day - 1}c{day - 1}"
            assert session_id in lines, lines

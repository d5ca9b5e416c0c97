"""Issue 14 snapshots for branching: the sessions browser with a fork under its parent.

Fixed like tests/ui/test_snapshots.py; regenerate with --snapshot-update and look at them."""

from __future__ import annotations

from typing import Any

from rcm_tui.core.branch import fork_session
from rcm_tui.store import SessionStore

from .conftest import T0, freeze, wait_for, write_session
from .test_snapshots import app_with, saved_sessions, settle


def test_sessions_browser_with_a_fork(snap_compare: Any) -> None:
    saved_sessions()
    parent = SessionStore().load("20250301-090000-a0b0c0")
    branch = fork_session(parent, 3)
    branch.id = "20250304-090000-f0r0k0"
    write_session(freeze(branch, T0.replace(day=4)))

    async def browse(pilot: Any) -> None:
        await wait_for(pilot, lambda: pilot.app.main.ready)
        await pilot.press("ctrl+o")
        await settle(pilot)

    assert snap_compare(app_with(), terminal_size=(120, 30), run_before=browse)

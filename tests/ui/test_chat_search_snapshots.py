"""Issue 14 snapshots for search in the chat: the bar with its count and highlighted hits.

Fixed like tests/ui/test_snapshots.py; regenerate with --snapshot-update and look at them."""

from __future__ import annotations

from typing import Any

from .conftest import wait_for
from .test_snapshots import MEDIUM, SMALL, app_with, settle


async def search_postgres(pilot: Any) -> None:
    await wait_for(pilot, lambda: pilot.app.main.ready)
    await pilot.press("ctrl+f", *"postgresql", "enter")
    await settle(pilot)


def test_chat_search_second_of_three_hits(snap_compare: Any) -> None:
    assert snap_compare(app_with(6), terminal_size=MEDIUM, run_before=search_postgres)


def test_chat_search_small_terminal(snap_compare: Any) -> None:
    assert snap_compare(app_with(6), terminal_size=SMALL, run_before=search_postgres)

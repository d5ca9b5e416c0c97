"""Issue 14 snapshot for edit-and-resend: the editor opened on an earlier message, saying which
turns sending it replaces.

Fixed like tests/ui/test_snapshots.py; regenerate with --snapshot-update and look at it."""

from __future__ import annotations

from typing import Any

from rcm_tui.ui.screens.dialogs import EditDialog

from .conftest import wait_for
from .test_snapshots import app_with, settle, type_and_send


def test_edit_dialog_on_an_earlier_message(snap_compare: Any) -> None:
    async def edit(pilot: Any) -> None:
        await type_and_send(pilot, "/edit 2")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, EditDialog))
        await settle(pilot)

    assert snap_compare(app_with(4), terminal_size=(120, 36), run_before=edit)

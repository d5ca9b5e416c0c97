"""Issue 14 snapshots for /model and for editing the ledger: the /model listing, the
edit-requirement dialog, the merge dialog, and the rejected options list of the Decisions
panel.

Fixed like tests/ui/test_snapshots.py; regenerate with --snapshot-update and look at them."""

from __future__ import annotations

from typing import Any

import pytest

from rcm_tui.providers import switching
from rcm_tui.ui.screens.ledger_edit import RejectedOptionsScreen, RequirementDialog
from rcm_tui.ui.widgets.decisions import DecisionsPanel
from rcm_tui.ui.widgets.requirements import RequirementsTable

from .conftest import wait_for
from .test_snapshots import app_with, settle, type_and_send


def test_model_listing(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The same picture whether or not this machine has the local model installed.
    monkeypatch.setattr(switching, "local_available", lambda: False)

    async def listing(pilot: Any) -> None:
        await type_and_send(pilot, "/model")

    assert snap_compare(app_with(2), terminal_size=(120, 36), run_before=listing)


async def _focus_table(pilot: Any, *keys: str) -> None:
    await wait_for(pilot, lambda: pilot.app.main.ready)
    pilot.app.main.query_one(RequirementsTable).focus()
    await pilot.pause()
    await pilot.press(*keys)
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, RequirementDialog))
    await settle(pilot)


def test_edit_requirement_dialog(snap_compare: Any) -> None:
    async def edit(pilot: Any) -> None:
        await _focus_table(pilot, "down", "e")

    assert snap_compare(app_with(5), terminal_size=(120, 36), run_before=edit)


def test_merge_requirements_dialog(snap_compare: Any) -> None:
    async def merge(pilot: Any) -> None:
        await _focus_table(pilot, "down", "m", "down", "m")

    assert snap_compare(app_with(5), terminal_size=(120, 36), run_before=merge)


def test_rejected_options_list_after_a_merge(snap_compare: Any) -> None:
    async def rejected(pilot: Any) -> None:
        await type_and_send(pilot, "/req merge R2 R3")
        pilot.app.main.query_one(DecisionsPanel).focus()
        await pilot.pause()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, RejectedOptionsScreen))
        await settle(pilot)

    assert snap_compare(app_with(5), terminal_size=(120, 36), run_before=rejected)

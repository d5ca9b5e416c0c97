"""Editing the ledger from the panels (issue 14): e edits a requirement, n adds one, m … m
merges two, and from the Decisions panel r edits or reopens a rejected option; /req does the
same from the composer. Each change is saved with origin "user", the keys are in the footer
while the panel is focused, and the next turn's analysis does not undo them."""

from __future__ import annotations

from textual.widgets import Input, OptionList

from rcm_tui.store import SessionStore
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.screens.ledger_edit import (
    RejectedOptionDialog,
    RejectedOptionsScreen,
    RequirementDialog,
)
from rcm_tui.ui.widgets.decisions import DecisionsPanel
from rcm_tui.ui.widgets.requirements import RequirementsTable

from .conftest import converse, entry_texts, make_controller, send_message, wait_for


def footer_keys(app: RcmApp) -> set[str]:
    return {
        b.binding.description for b in app.main.active_bindings.values() if b.binding.show
    }


async def _focus_requirements(app: RcmApp, pilot) -> RequirementsTable:  # type: ignore[no-untyped-def]
    app.main.refresh_views()
    table = app.main.query_one(RequirementsTable)
    table.focus()
    await pilot.pause()
    return table


async def _answer(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, RequirementDialog))
    app.screen.query_one(Input).value = text
    await pilot.press("enter")
    await pilot.pause()


async def test_edit_add_and_merge_requirements_from_the_panel() -> None:
    controller = make_controller()
    await converse(controller, 5)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await _focus_requirements(app, pilot)
        assert {"Edit", "Add", "Merge"} <= footer_keys(app)

        await pilot.press("e")  # on R1
        await wait_for(pilot, lambda: isinstance(app.screen, RequirementDialog))
        assert app.screen.query_one(Input).value.startswith("Support strict ACID")
        await _answer(pilot, "Strict ACID transactions across accounts (SERIALIZABLE)")

        await pilot.press("n")
        await _answer(pilot, "Nightly backups kept for 35 days")

        await pilot.press("down", "m", "down", "m")  # keep R2, merge R3 into it
        await _answer(pilot, "2,000 writes per second at peak, each with an audit entry")

        store = SessionStore().load(controller.session.id)
        req = {r.id: r for r in store.requirements}
        assert req["R1"].text == "Strict ACID transactions across accounts (SERIALIZABLE)"
        assert (req["R4"].text, req["R4"].origin) == ("Nightly backups kept for 35 days", "user")
        assert req["R2"].text == "2,000 writes per second at peak, each with an audit entry"
        assert (req["R3"].status, req["R3"].merged_into) == ("dropped", "R2")
        assert [(e.action, e.origin) for e in store.ledger_edits] == [
            ("edit", "user"), ("add", "user"), ("merge", "user")]
        rows = [str(app.main.query_one(RequirementsTable).get_row_at(i)[2]) for i in range(4)]
        assert rows[2] == "→R2"  # the merged-away one stays visible, pointing at the kept one

        # The next turn restates the merged-away text: it stays merged, nothing is re-added.
        app.main.composer.focus()
        await send_message(pilot, "We must also keep an immutable audit trail of every "
                                   "balance change.")
        await wait_for(pilot, lambda: not app.main.busy)
        after = {r.id: r for r in controller.session.requirements}
        assert set(after) == {"R1", "R2", "R3", "R4"}
        assert after["R3"].status == "dropped"
        assert after["R1"].text == "Strict ACID transactions across accounts (SERIALIZABLE)"


async def test_edit_and_unreject_a_rejected_option_from_the_decisions_panel() -> None:
    controller = make_controller()
    await converse(controller, 4)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        app.main.refresh_views()
        app.main.query_one(DecisionsPanel).focus()
        await pilot.pause()
        assert "Rejected: edit/unreject" in footer_keys(app)

        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RejectedOptionsScreen))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RejectedOptionDialog))
        app.screen.query_one("#rejected-option", Input).value = "MongoDB Atlas"
        app.screen.query_one("#rejected-reason", Input).value = "we need SERIALIZABLE"
        await pilot.press("enter")
        await pilot.pause()
        [entry] = controller.session.rejected
        assert (entry.option, entry.reason, entry.edited_by) == (
            "MongoDB Atlas", "we need SERIALIZABLE", "user")

        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RejectedOptionsScreen))
        assert "MongoDB Atlas — we need SERIALIZABLE" in str(
            app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        await pilot.press("u")
        await pilot.pause()
        assert not entry.active and entry.reopened_by == "user"
        saved = SessionStore().load(controller.session.id)
        assert [e.action for e in saved.ledger_edits] == ["edit_rejected", "unreject"]


async def test_req_commands_edit_the_ledger_and_refuse_with_a_reason() -> None:
    controller = make_controller()
    await converse(controller, 3)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/req add Nightly backups kept for 35 days")
        await send_message(pilot, "/req edit 2 Handle 5,000 writes per second at peak")
        await send_message(pilot, "/req merge R1 R3 : ACID across accounts, 35-day backups")
        notes = entry_texts(app, "note")
        assert any("Added **R3** by hand" in n for n in notes)
        assert any("Merged **R3** into **R1**" in n for n in notes)
        reqs = {r.id: r for r in controller.session.requirements}
        assert reqs["R2"].text == "Handle 5,000 writes per second at peak"
        assert reqs["R1"].text == "ACID across accounts, 35-day backups"
        assert reqs["R3"].merged_into == "R1"
        await send_message(pilot, "/req merge R1")
        await send_message(pilot, "/req edit R9 anything")
        notices = [str(n) for n in app.main.chat.query("NoticeLine")]
        texts = [getattr(n, "text", "") for n in app.main.chat.query("NoticeLine")]
        assert any(t.startswith("/req: Usage: /req add") for t in texts), notices
        assert any("no requirement 'R9'" in t for t in texts)


async def test_at_80_columns_the_focused_tables_keys_fit_the_footer_whole() -> None:
    from rcm_tui.ui.screens.main import FOOTER_PALETTE_CELLS

    controller = make_controller()
    await converse(controller, 2)
    app = RcmApp(controller)
    async with app.run_test(size=(80, 24)) as pilot:
        await _focus_requirements(app, pilot)
        shown = [b.binding for b in app.main.active_bindings.values() if b.binding.show]
        cells = sum(len(app.get_key_display(b)) + len(b.description) + 2 for b in shown)
        assert cells <= 80 - FOOTER_PALETTE_CELLS  # nothing cut mid-word
        assert {"Confirm", "Drop", "Edit", "Add", "Merge"} <= {b.description for b in shown}

"""The chat screen driven as a user would: send, solidify, cancel, retry, errors, commands."""

from __future__ import annotations

from rcm_tui.controller import ProviderPair
from rcm_tui.store import SessionStore
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.widgets.decisions import DecisionsPanel
from rcm_tui.ui.widgets.requirements import RequirementsTable

from .conftest import (
    FlakyProvider,
    converse,
    entry_texts,
    make_controller,
    notice_texts,
    send_message,
    wait_for,
)

ACID_AND_MONGO = (
    "It must support strict ACID transactions across accounts. "
    "MongoDB is off the table: multi-document transactions are too fragile for money."
)



def footer_actions(app: RcmApp) -> set[str]:
    """The actions the footer offers right now (cancel and retry come and go)."""
    return {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}


def requirement_rows(app: RcmApp) -> list[str]:
    table = app.main.query_one(RequirementsTable)
    return [" | ".join(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]


def decisions_text(app: RcmApp) -> str:
    panel = app.main.query_one(DecisionsPanel)
    return str(panel.query_one("#decision-log").render())


def solidified_widget(app: RcmApp):  # type: ignore[no-untyped-def]
    return app.main.query_one(DecisionsPanel).query_one("#solidified")


async def test_send_shows_the_reply_and_the_ledger_in_the_panels() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await send_message(pilot, ACID_AND_MONGO)

        assert entry_texts(app, "user") == [ACID_AND_MONGO]
        [reply] = entry_texts(app, "assistant")
        assert "offline demo" in reply
        rows = requirement_rows(app)
        assert len(rows) == 1
        assert "Support strict ACID transactions across accounts" in rows[0]
        assert controller.session.requirements[0].status in rows[0]
        assert "MongoDB" in decisions_text(app)
        assert "too fragile for money" in decisions_text(app)
        assert "turn 1 done" in str(app.main.stage.render())
        assert app.main.composer.text == ""
    # The turn was saved: a new store sees it.
    [entry] = SessionStore().list()
    assert entry.turns == 1


async def test_solidify_key_pins_the_block_like_the_slash_command() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await send_message(pilot, ACID_AND_MONGO)
        assert not solidified_widget(app).has_class("-present")

        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()

        pinned = solidified_widget(app)
        assert pinned.has_class("-present")
        assert "MongoDB" in str(pinned.render())
        assert pinned.border_title.startswith("SOLIDIFIED · turn 1")
        # The key ran /solidify: its answer is in the transcript like a typed command's.
        assert any("SOLIDIFIED" in note for note in entry_texts(app, "note"))
        assert controller.session.solidified is not None
        first = controller.session.solidified.text

        await send_message(pilot, "/solidify")
        assert len([n for n in entry_texts(app, "note") if "SOLIDIFIED" in n]) == 2
        assert controller.session.solidified.text == first


async def test_escape_cancels_a_slow_turn_and_retry_runs_it_again() -> None:
    controller = make_controller(flags={"providers.offline.latency_ms": 5000})
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        app.main.composer.load_text("It has to handle 2,000 writes per second at peak.")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.main.stage.stage == "generating")
        assert "cancel" in footer_actions(app)

        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()

        assert not app.main.busy
        assert any("cancelled" in n and "ctrl+r" in n for n in notice_texts(app))
        pending = controller.session.pending_user_turn
        assert pending is not None and pending.content.startswith("It has to handle")
        stored = SessionStore().load(controller.session.id)
        assert [m.role for m in stored.messages] == ["user"]
        assert entry_texts(app, "assistant") == []

        controller.settings.providers.offline.latency_ms = 0
        await pilot.press("ctrl+r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()

        assert controller.session.pending_user_turn is None
        assert len(entry_texts(app, "assistant")) == 1
        # The message was not sent twice.
        assert [m.role for m in controller.session.messages] == ["user", "assistant"]


async def test_a_failed_turn_shows_the_reason_and_retry_recovers() -> None:
    flaky = FlakyProvider()
    controller = make_controller(providers=ProviderPair(flaky, flaky))
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "It has to handle 2,000 writes per second at peak.")

        [error] = entry_texts(app, "error")
        assert "connection refused" in error
        assert "ctrl+r" in error
        assert entry_texts(app, "assistant") == []
        assert controller.session.pending_user_turn is not None
        assert "retry" in footer_actions(app)

        flaky.failing = False
        await pilot.press("ctrl+r")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()

        assert controller.session.pending_user_turn is None
        [reply] = entry_texts(app, "assistant")
        assert "offline demo" in reply
        assert [m.content for m in controller.session.messages if m.role == "user"] == [
            "It has to handle 2,000 writes per second at peak."
        ]


async def test_unknown_slash_command_is_explained_and_never_sent() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/frobnicate the ledger")

        [notice] = notice_texts(app)
        assert "Unknown command /frobnicate" in notice
        assert app.main.composer.text == "/frobnicate the ledger"  # kept to fix or escape
        assert controller.session.messages == []
        assert controller.session.calls == []
        assert SessionStore().list() == []


async def test_slash_commands_answer_in_the_transcript() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await converse(controller, 4)
        await app.main.show_session()
        await send_message(pilot, "/reject Cassandra: no multi-row transactions")
        await send_message(pilot, "/requirements")

        notes = entry_texts(app, "note")
        assert "Rejected **Cassandra**" in notes[0]
        assert "Support strict ACID transactions across accounts" in notes[1]
        assert "Cassandra" in decisions_text(app)
        assert controller.session.turn == 4  # commands are not turns


async def test_input_history_and_newline_keys() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        composer = app.main.composer
        await send_message(pilot, "/status")
        await send_message(pilot, "/requirements")

        await pilot.press("up")
        assert composer.text == "/requirements"
        await pilot.press("up")
        assert composer.text == "/status"
        await pilot.press("down", "down")
        assert composer.text == ""

        await pilot.press("a", "ctrl+j", "b")
        assert composer.text == "a\nb"
        composer.load_text("")
        await pilot.press("x", "shift+enter", "y")
        assert composer.text == "x\ny"
        assert len(entry_texts(app, "note")) == 2  # neither newline key sent anything


async def test_requirement_keys_change_the_status() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await converse(controller, 3)
        app.main.refresh_views()
        table = app.main.query_one(RequirementsTable)
        table.focus()
        await pilot.pause()
        assert table.row_count == 2

        await pilot.press("c")
        await pilot.pause()
        assert controller.session.requirements[0].status == "confirmed"
        assert "confirmed" in requirement_rows(app)[0]

        await pilot.press("down", "d")
        await pilot.pause()
        assert controller.session.requirements[1].status == "dropped"
        assert SessionStore().load(controller.session.id).requirements[1].status == "dropped"


async def test_e_edits_the_solidified_block() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await converse(controller, 4, solidify=True)
        app.main.refresh_views()
        app.main.query_one(DecisionsPanel).focus()
        await pilot.press("e")
        await pilot.pause()
        area = app.screen.query_one("#dialog-text")
        area.load_text("CONCLUSION: PostgreSQL 16 with SERIALIZABLE transfers")
        await pilot.press("ctrl+s")
        await pilot.pause()

        block = controller.session.solidified
        assert block is not None and block.edited
        assert block.text == "CONCLUSION: PostgreSQL 16 with SERIALIZABLE transfers"
        assert "PostgreSQL 16" in str(solidified_widget(app).render())
        assert "edited" in solidified_widget(app).border_title


async def test_toggle_panels_gives_the_chat_the_full_width() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        side = app.main.query_one("#side")
        assert side.display
        chat_width = app.main.chat.size.width
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert not side.display
        assert app.main.chat.size.width > chat_width + 30
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert side.display


async def test_narrow_terminals_show_the_panels_as_tabs() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(80, 24)) as pilot:
        await converse(controller, 4)
        app.main.refresh_views()
        await pilot.pause()
        assert app.main.panels.tabbed
        assert app.main.query("#panel-tabs")
        assert len(requirement_rows(app)) == 2


async def test_help_stats_and_inspector_screens() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await converse(controller, 3)
        app.main.refresh_views()

        await pilot.press("f1")
        await pilot.pause()
        help_text = app.screen.query_one("Markdown").source
        assert "/solidify" in help_text and "ctrl+j" in help_text
        await pilot.press("escape")

        await pilot.press("f2")
        await pilot.pause()
        assert "Session statistics" in app.screen.query_one("Markdown").source
        await pilot.press("escape")

        await pilot.press("f3")
        await pilot.pause()
        assert type(app.screen).__name__ == "InspectorScreen"
        assert app.screen.turn == 3
        calls = app.screen.query_one("#calls")
        purposes = {str(calls.get_row_at(i)[1]) for i in range(calls.row_count)}
        assert "generation" in purposes
        await pilot.press("left")
        await pilot.pause()
        assert app.screen.turn == 2
        detail = str(app.screen.query_one("#call-text").render())
        assert "prompt (tail)" in detail and "response" in detail
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main


async def test_export_key_writes_markdown_and_says_where() -> None:
    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await converse(controller, 2)
        await pilot.press("ctrl+e")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        [note] = [n for n in entry_texts(app, "note") if "Exported to" in n]
        path = note.split("`")[1]
        assert path.endswith(f"{controller.session.id}.md")
        with open(path, encoding="utf-8") as handle:
            assert "Support strict ACID transactions across accounts" in handle.read()


async def test_palette_lists_the_key_actions() -> None:
    from rcm_tui.ui.palette import RcmCommands

    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        provider = RcmCommands(app.main)
        titles = [hit.text async for hit in provider.discover()]
        for title in (
            "Solidify",
            "Sessions browser",
            "Toggle panels",
            "Help",
            "Quit",
            "/requirements",
        ):
            assert title in titles
        hits = [hit async for hit in provider.search("solid")]
        assert hits and hits[0].text == "Solidify"

        await send_message(pilot, "x")  # one turn, so solidify has something to write
        await hits[0].command()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert controller.session.solidified is not None


async def test_remapped_keys_drive_the_footer_and_the_actions() -> None:
    controller = make_controller(flags={"keys.solidify": "ctrl+t", "keys.toggle_panels": "f6"})
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        await send_message(pilot, ACID_AND_MONGO)
        keys = {b.binding.action: key for key, b in app.screen.active_bindings.items()}
        assert keys["solidify"] == "ctrl+t"
        assert keys["toggle_panels"] == "f6"
        assert "ctrl+t solidify" in app.main.stage.hint

        await pilot.press("ctrl+s")  # the old key does nothing now
        await app.workers.wait_for_complete()
        assert controller.session.solidified is None
        await pilot.press("ctrl+t")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert controller.session.solidified is not None
        await pilot.press("f6")
        await pilot.pause()
        assert not app.main.query_one("#side").display

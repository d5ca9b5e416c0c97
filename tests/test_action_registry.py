"""The action registry (rcm_tui/actions.py) is the one list of user actions: every entry is
reachable by its key and/or its slash command, and is listed in /help and the palette, all
derived from it, so a new action cannot be forgotten in one of them."""

from __future__ import annotations

import asyncio

from rcm_tui.actions import ACTIONS, BY_NAME, FOOTER, KEY_LIST
from rcm_tui.commands import COMMANDS, dispatch
from rcm_tui.config import KeySettings
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.palette import RcmCommands
from rcm_tui.ui.screens.main import MainScreen
from rcm_tui.ui.widgets.composer import Composer
from tests.ui.conftest import entry_texts, make_controller, send_message

SCOPE_CLASS = {"screen": MainScreen, "app": RcmApp, "composer": Composer}


def _help_text(**flags: str) -> str:
    result = asyncio.run(dispatch(make_controller(flags=flags), "/help"))
    assert result.ok
    return result.text


def test_every_action_has_a_key_or_a_command() -> None:
    for action in ACTIONS:
        assert action.key or action.command, action.name
    assert len(BY_NAME) == len(ACTIONS)  # names are unique
    assert len(COMMANDS) == sum(1 for a in ACTIONS if a.command)  # so are commands


def test_every_key_is_bound_to_a_method_that_exists() -> None:
    for action in ACTIONS:
        if action.key is None:
            continue
        owner = SCOPE_CLASS[action.scope]
        [binding] = [b for b in owner.BINDINGS if getattr(b, "id", None) == action.name]
        assert binding.key == action.key  # type: ignore[union-attr]
        assert hasattr(owner, f"action_{action.name}"), action.name


def test_the_main_screen_footer_shows_app_keys_too_in_the_listed_order() -> None:
    ids = [b.id for b in MainScreen.BINDINGS if b.show]  # type: ignore[union-attr]
    assert ids == list(FOOTER)
    # help and quit are bound on the app (every screen) and repeated for the chat's footer.
    assert {"help", "quit"} <= {b.id for b in MainScreen.BINDINGS}  # type: ignore[union-attr]


def test_every_slash_command_dispatches_to_a_handler() -> None:
    for action in ACTIONS:
        if action.command:
            command = COMMANDS[action.command]
            assert command.usage.startswith(f"/{action.command}")
            assert callable(command.handler)


def test_the_settings_keys_are_the_registry_keys_with_its_defaults() -> None:
    keyed = {a.name: a.key for a in ACTIONS if a.key}
    assert KeySettings().model_dump() == keyed


def test_help_lists_every_command_and_every_key() -> None:
    text = _help_text()
    for action in ACTIONS:
        if action.command:
            assert f"- `{action.usage}` — {action.command_help}" in text, action.name
        if action.key and action.scope != "composer":
            assert f"`{action.key}` {action.key_help}" in text, action.name
    assert f"`{BY_NAME['newline'].key}` (or ctrl+j) adds a newline" in text
    assert set(KEY_LIST) == {a.name for a in ACTIONS if a.key and a.scope != "composer"}


def test_help_shows_a_remapped_key() -> None:
    text = _help_text(**{"keys.fork": "f6", "keys.newline": "ctrl+l"})
    assert "`f6` fork at a turn" in text and "`f5`" not in text
    assert "`ctrl+l` (or ctrl+j) adds a newline" in text


async def test_the_palette_lists_every_action_but_those_that_need_an_argument() -> None:
    app = RcmApp(make_controller(flags={"keys.stats": "f7"}))
    async with app.run_test(size=(120, 36)):
        hits = {hit.text: hit.help async for hit in RcmCommands(app.main).discover()}
    for action in ACTIONS:
        if action.title is not None:
            key = "f7" if action.name == "stats" else action.key
            assert hits[action.title] == f"{key} · {action.palette_help}", action.name
        elif action.command and action.args != "required":
            assert hits[action.usage] == action.command_help, action.name
        else:  # an editing key, or a command that needs its argument typed
            assert action.scope == "composer" or action.args == "required", action.name
            assert action.usage not in hits



async def test_slash_commands_the_chat_does_itself_make_the_same_call_as_their_keys() -> None:
    from rcm_tui.ui.screens.sessions import SessionsScreen

    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "/sessions")  # the browser, as ctrl+o opens it
        assert isinstance(app.screen, SessionsScreen)
        await pilot.press("escape")
        await pilot.pause()
        await send_message(pilot, "hello")
        assert entry_texts(app, "user") == ["hello"]
        first = controller.session.id
        await send_message(pilot, "/new")  # a new session, as ctrl+n starts one
        second = controller.session.id
        assert second != first and controller.session.messages == []
        assert entry_texts(app, "user") == []  # the chat shows the new, empty session
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert controller.session.id not in (first, second)


def test_the_readme_names_every_key_and_command() -> None:
    from pathlib import Path

    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    for action in ACTIONS:
        if action.key and action.scope != "composer":
            assert f"\n| {action.key} | " in readme, action.name
        if action.command:
            assert f"`/{action.command}" in readme, action.name


def test_the_presentation_orders_name_only_registry_keys() -> None:
    from rcm_tui.actions import FOOTER_DROP

    keyed = {a.name for a in ACTIONS if a.key}
    for order in (FOOTER, FOOTER_DROP, KEY_LIST):
        assert set(order) <= keyed and len(set(order)) == len(order)
    assert set(FOOTER_DROP) <= set(FOOTER)  # only what the footer shows can leave it

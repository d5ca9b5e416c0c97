"""Keys sent into a dialog in one burst land as typed (issue 14: "no lost keystroke").

Seen in tmux: "ctrl+a ctrl+k 2 Enter" sent at once into the fork dialog (showing "3") forked
nothing, and Tab then text put the text in the first field: Textual runs a bound key only once
it has bubbled to the app, after the letters queued behind it."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult

from rcm_tui.core.models import RejectedOption
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.screens.dialogs import TextDialog
from rcm_tui.ui.screens.ledger_edit import RejectedOptionDialog

from .conftest import SESSION_ID, converse, make_controller, wait_for


def burst(app: App[object], keys: list[str]) -> None:
    """Queue every key at once, as a fast typist or tmux send-keys delivers them."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


class DialogHost(App[object]):
    def __init__(self, dialog: object) -> None:
        super().__init__()
        self.dialog = dialog
        self.answers: list[object] = []

    def compose(self) -> ComposeResult:
        return iter(())

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.answers.append)  # type: ignore[arg-type]


async def test_clearing_the_field_and_typing_in_one_burst_submits_what_was_typed() -> None:
    app = DialogHost(TextDialog("Fork at turn (1–3)", "3"))
    async with app.run_test() as pilot:
        await pilot.pause()
        burst(app, ["ctrl+a", "ctrl+k", "2", "enter"])
        for _ in range(4):
            await pilot.pause()
        assert app.answers == ["2"]


async def test_tab_then_text_in_one_burst_goes_to_the_next_field() -> None:
    entry = RejectedOption(id="X1", option="Kafka", reason="", turn=1)
    app = DialogHost(RejectedOptionDialog(entry))
    async with app.run_test() as pilot:
        await pilot.pause()
        burst(app, ["tab", *"too heavy", "enter"])
        for _ in range(6):
            await pilot.pause()
        assert app.answers == [("Kafka", "too heavy")]


async def test_keys_sent_with_the_key_that_opens_a_dialog_go_to_the_dialog() -> None:
    # tmux: "F5 C-a C-k 2 Enter" at once sent "2" as a message, then opened the fork dialog.
    controller = make_controller()
    await converse(controller, 3)
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.main.ready)
        burst(app, ["f5", "ctrl+a", "ctrl+k", "2", "enter"])
        await wait_for(pilot, lambda: controller.session.id != SESSION_ID)
        await app.workers.wait_for_complete()
        assert controller.session.parent is not None and controller.session.parent.turn == 2
        assert app.main.composer.text == ""

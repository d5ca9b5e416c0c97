"""Small modal dialogs: confirm, one-line text (rename), multi-line text (edit SOLIDIFIED),
and the export format choice. Each returns its answer through `dismiss`."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static, TextArea

from ...core.text_safety import visible_controls, visible_line
from ..widgets.ordered_input import OrderedInput
from .base import follow_app_cursor_blink


class ConfirmDialog(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str, confirm_label: str = "Delete") -> None:
        super().__init__(classes="dialog-screen")
        # Questions name sessions by their titles: text from a file.
        self.question = visible_controls(question)
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"{self.confirm_label} (y)", variant="error", id="yes")
                yield Button("Cancel (n)", id="no")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


class TextDialog(ModalScreen[str | None]):
    """One line of text, e.g. a new session title. Enter saves, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", placeholder: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = visible_line(title)
        # The value shown for editing is what gets saved: an edit keeps the visible stand-ins.
        self.value = visible_line(value)
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.title_text, classes="question", markup=False)
            yield OrderedInput(self.value, placeholder=self.placeholder, id="dialog-input")
            yield Static("Enter saves · Escape cancels", classes="hint")

    def on_mount(self) -> None:
        follow_app_cursor_blink(self)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        self.dismiss(value or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class EditDialog(ModalScreen[str | None]):
    """Multi-line text, e.g. the SOLIDIFIED block. ctrl+s saves, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, title: str, text: str, *, save_label: str = "saves") -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = visible_line(title)
        self.text = visible_controls(text)
        self.save_label = save_label

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -wide"):
            yield Static(self.title_text, classes="question", markup=False)
            yield TextArea(self.text, id="dialog-text", soft_wrap=True)
            yield Static(f"ctrl+s {self.save_label} · Escape cancels", classes="hint")

    def on_mount(self) -> None:
        follow_app_cursor_blink(self)
        self.query_one(TextArea).focus()

    def action_save(self) -> None:
        text = self.query_one(TextArea).text.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExportDialog(ModalScreen[str | None]):
    """Choose the export format: m Markdown, j JSON."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "choose('md')", "Markdown"),
        Binding("j", "choose('json')", "JSON"),
        Binding("escape", "choose('')", "Cancel"),
    ]

    def __init__(self, title: str) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = visible_line(title)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(f"Export “{self.title_text}” as", classes="question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Markdown (m)", variant="primary", id="md")
                yield Button("JSON (j)", id="json")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id)

    def action_choose(self, suffix: str) -> None:
        self.dismiss(suffix or None)

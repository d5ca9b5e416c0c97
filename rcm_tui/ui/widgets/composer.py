"""The multi-line composer: Enter sends, shift+enter or ctrl+j adds a newline, and up/down on
the first/last line walk the input history.

Many terminals send the same byte for Enter and shift+enter, which is why ctrl+j (a plain
line feed every terminal can send) always adds a newline too.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, TextArea

from ...actions import BY_NAME
from ...core.text_safety import visible_controls

# The app's keys (solidify, export, ...) must reach the screen from the composer; TextArea's
# emacs-style ctrl+e (line end; `end` still works) would swallow the export key.
APP_KEYS = frozenset({"ctrl+e"})
NEWLINE = BY_NAME["newline"]


def _without_app_keys(bindings: list[BindingType]) -> list[BindingType]:
    kept: list[BindingType] = []
    for binding in bindings:
        if isinstance(binding, Binding):
            keys = [k.strip() for k in binding.key.split(",") if k.strip() not in APP_KEYS]
            if keys:
                kept.append(
                    Binding(
                        ",".join(keys),
                        binding.action,
                        binding.description,
                        show=binding.show,
                        priority=binding.priority,
                    )
                )
        else:
            kept.append(binding)
    return kept


class Composer(TextArea, inherit_bindings=False):
    BINDINGS: ClassVar[list[BindingType]] = [
        *_without_app_keys(TextArea.BINDINGS),
        Binding(NEWLINE.key or "", NEWLINE.name, NEWLINE.label, id=NEWLINE.name, show=False),
        Binding("ctrl+j", "newline", "Newline", show=False),
    ]

    class Submitted(Message):
        """The user pressed Enter on a non-empty composer."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            id=id,
            soft_wrap=True,
            show_line_numbers=False,
            tab_behavior="focus",
            compact=True,
            highlight_cursor_line=False,
            placeholder="Message · Enter sends · /help",
        )
        self.input_history: list[str] = []
        # Index into history while walking it; len(history) means "the text being written".
        self._history_index = 0
        self._unsent = ""

    def set_history(self, entries: list[str]) -> None:
        # Recalled messages come from the session file: shown with their controls visible.
        self.input_history = [visible_controls(e) for e in entries if e.strip()]
        self._history_index = len(self.input_history)
        self._unsent = ""

    async def _on_key(self, event: events.Key) -> None:
        if self.app.screen is not self.screen:
            # An earlier key of this burst opened a dialog (f5, f9, ctrl+s…): what was typed
            # after it is for the dialog, once it has its focus.
            event.stop()
            event.prevent_default()
            self._pass_on(events.Key(event.key, event.character))
            return
        focused = self.app.focused
        if focused is not None and focused is not self:
            # An earlier key of this burst (tab, shift+tab) moved the focus on: this key does
            # what it would have done typed a moment later, there.
            event.stop()
            event.prevent_default()
            await self._as_if_typed_at(focused, events.Key(event.key, event.character))
            return
        # Runs before TextArea's own handler, which would insert a newline for Enter.
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self._submit()
        elif self._is_newline_key(event.key):
            # A binding would run only after the event bubbled to the app, by which time the
            # letters typed after it in a burst are already in: insert it in order, here.
            event.stop()
            event.prevent_default()
            self.action_newline()
        elif (
            # A letter is always typed, as before, even where a keymap binds it above.
            not event.is_printable
            and await self.app._check_bindings(event.key)
        ):
            # A bound key (the composer's own editing keys first, then the screen's and the
            # app's) runs here, in order, rather than after the keys queued behind it have
            # reached the composer: "f5 2 Enter" sent "2" as a message before the fork dialog
            # opened, "abc backspace Enter" sent "abc". Stopped so that it does not run twice.
            event.stop()
            event.prevent_default()

    async def _as_if_typed_at(self, focused: Widget, key: events.Key) -> None:
        """Handle `key` now, in order, as the app would have with `focused` focused: its
        bindings, a text widget's typing, or the main screen's rule that a letter nothing
        focused takes is typed into the composer (MainScreen.on_key)."""
        app = self.app
        if await app._check_bindings(key.key, priority=True):
            return
        if isinstance(focused, TextArea | Input):
            focused._forward_event(key)
        elif await app._check_bindings(key.key):
            return
        elif key.is_printable and key.character and not self._bound_in_chain(key.key):
            self.focus()
            self.insert(key.character)
        else:
            focused._forward_event(key)

    def _bound_in_chain(self, key: str) -> bool:
        return any(key in bindings.key_to_bindings for _, bindings in self.screen._binding_chain)

    def _pass_on(self, key: events.Key, tries: int = 8) -> None:
        """To the widget the dialog focused, once it has (a few refreshes at most)."""
        target = self.app.focused
        if target is not None and (target is not self or self.app.screen is self.screen):
            target.post_message(key)
        elif tries:
            self.app.call_after_refresh(self._pass_on, key, tries - 1)

    def _is_newline_key(self, key: str) -> bool:
        # The screen's binding chain has the user's keymap ([keys] newline) applied.
        return any(
            binding.action == "newline"
            for node, bindings in self.screen._binding_chain
            if node is self
            for binding in bindings.key_to_bindings.get(key, ())
        )

    def _submit(self) -> None:
        text = self.text
        if text.strip():
            self.post_message(self.Submitted(text))

    def accept(self, text: str) -> None:
        """The screen took `text` (sent or ran it): into the history, out of the composer.
        A refused text stays where it is and never enters the history."""
        if not self.input_history or self.input_history[-1] != text:
            self.input_history.append(text)
        self._history_index = len(self.input_history)
        self._unsent = ""
        self.clear()

    def action_newline(self) -> None:
        start, end = self.selection
        self.replace("\n", start, end)

    def action_cursor_up(self, select: bool = False) -> None:
        at_top = self.navigator.is_first_wrapped_line(self.cursor_location)
        if not select and at_top and self._recall(-1):
            return
        super().action_cursor_up(select)

    def action_cursor_down(self, select: bool = False) -> None:
        at_bottom = self.navigator.is_last_wrapped_line(self.cursor_location)
        if not select and at_bottom and self._recall(+1):
            return
        super().action_cursor_down(select)

    def _recall(self, step: int) -> bool:
        index = self._history_index + step
        if not 0 <= index <= len(self.input_history) or not self.input_history:
            return False
        if self._history_index == len(self.input_history):
            self._unsent = self.text
        self._history_index = index
        self.load_text(
            self.input_history[index] if index < len(self.input_history) else self._unsent
        )
        # Up lands on the first line, down on the last, so the next press keeps walking.
        if step < 0:
            self.move_cursor((0, len(self.document.get_line(0))))
        else:
            self.move_cursor(self.document.end)
        return True

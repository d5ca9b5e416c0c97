"""Editing the ledger from the panels: the dialogs, and what their answers do.

Requirements panel: e edits the text of the requirement under the cursor, n adds one, m on
the one to keep then m on another merges them. Decisions panel: r lists the rejected options;
Enter edits one's name and reason, u reopens it. Every change goes through the controller to
core/ledger_edits.py (recorded with origin "user"), the same functions `/req` and `/unreject`
use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ...core import ledger_edits as edits
from ...core.models import RejectedOption, Requirement
from ...core.text_safety import visible_line
from ..widgets.ordered_input import OrderedInput
from ..widgets.requirements import RequirementsTable
from .base import follow_app_cursor_blink

if TYPE_CHECKING:
    from .main import MainScreen

USER_WINS = "What you write here is yours: later turns' analysis will not replace it."


class RequirementDialog(ModalScreen[str | None]):
    """The text of one requirement (edit, add or the merged text). Enter saves, Escape
    cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", context: list[str] | None = None) -> None:
        super().__init__(classes="dialog-screen")
        self.title_text = visible_line(title)
        self.value = visible_line(value)
        self.context = [visible_line(line) for line in context or []]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -ledger"):
            yield Static(self.title_text, classes="question", markup=False)
            for line in self.context:
                yield Static(line, classes="context", markup=False)
            # The cursor at the end, nothing selected: a first key edits, it does not erase.
            yield OrderedInput(self.value, placeholder="the requirement, in one sentence",
                        id="requirement-text", select_on_focus=False)
            yield Static(f"Enter saves · Escape cancels\n{USER_WINS}", classes="hint")

    def on_mount(self) -> None:
        follow_app_cursor_blink(self)
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RejectedOptionDialog(ModalScreen[tuple[str, str] | None]):
    """A rejected option's name and reason. Enter in either field saves, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, entry: RejectedOption) -> None:
        super().__init__(classes="dialog-screen")
        self.entry = entry

    def compose(self) -> ComposeResult:
        entry = self.entry
        with Vertical(classes="dialog -ledger"):
            yield Static(f"Edit rejected option {entry.id} (rejected at turn {entry.turn})",
                         classes="question", markup=False)
            yield Static("Option", classes="context", markup=False)
            yield OrderedInput(
                visible_line(entry.option), id="rejected-option", select_on_focus=False
            )
            yield Static("Reason", classes="context", markup=False)
            yield OrderedInput(visible_line(entry.reason), placeholder="why it is off the table",
                               id="rejected-reason", select_on_focus=False)
            yield Static(f"Enter saves · Tab next field · Escape cancels\n{USER_WINS}",
                         classes="hint")

    def on_mount(self) -> None:
        follow_app_cursor_blink(self)
        self.query_one("#rejected-option", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        option = self.query_one("#rejected-option", Input).value.strip()
        reason = self.query_one("#rejected-reason", Input).value.strip()
        self.dismiss((option, reason) if option else None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RejectedOptionsScreen(ModalScreen[tuple[str, str] | None]):
    """Every rejected option, reopened ones too: Enter edits (name, reason), u reopens.
    Dismisses with (what, id)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,e", "choose('edit')", "Edit", priority=True),
        Binding("u", "choose('unreject')", "Unreject"),
        Binding("escape", "cancel", "Close"),
    ]

    def __init__(self, rejected: list[RejectedOption]) -> None:
        super().__init__(classes="dialog-screen")
        self.rejected = rejected

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog -ledger"):
            yield Static("Rejected options", classes="question", markup=False)
            yield OptionList(*[Option(_rejected_line(r), id=r.id) for r in self.rejected],
                             id="rejected-list")
            yield Static("Enter edit name and reason · u unreject · Escape closes",
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def action_choose(self, what: str) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        option_id = options.get_option_at_index(options.highlighted).id
        if option_id is not None:
            self.dismiss((what, option_id))

    def action_cancel(self) -> None:
        self.dismiss(None)


def _rejected_line(entry: RejectedOption) -> str:
    reason = f" — {entry.reason}" if entry.reason else ""
    state = (f"reopened at turn {entry.reopened_turn}" if not entry.active
             else f"rejected t{entry.turn}")
    return visible_line(f"{entry.id}  {entry.option}{reason}  ({state})")


# -- what the panels' keys do --------------------------------------------------------------------


def open_ledger_editor(main: MainScreen, message: Any) -> None:
    """Route a panel's request (RequirementsTable.EditRequested or the Decisions panel's
    RejectedRequested) to its dialog."""
    if not isinstance(message, RequirementsTable.EditRequested):
        _pick_rejected(main)
    elif message.what == "add":
        _ask_text(main, "Add a requirement by hand", "", [], edits.add_requirement)
    elif message.what == "edit":
        req = _requirement(main, message.ids[0])
        if req is not None:
            context = [f"{req.id} · {req.status} · from turn {req.source_turn} · "
                       f"found by {req.origin}"]
            _ask_text(main, f"Edit {req.id}", req.text, context, edits.edit_requirement, req.id)
    else:
        keep, merged = (_requirement(main, i) for i in message.ids)
        if keep is not None and merged is not None:
            context = [f"kept   {keep.id}: {keep.text}", f"merged {merged.id}: {merged.text}",
                       f"{merged.id} stays in the ledger, dropped, as merged into {keep.id}."]
            _ask_text(main, f"Merge {merged.id} into {keep.id}: the merged text", keep.text,
                      context, edits.merge_requirements, keep.id, merged.id)


def _requirement(main: MainScreen, req_id: str) -> Requirement | None:
    try:
        return edits.requirement(main.controller.session, req_id)
    except KeyError as exc:
        main.notify(str(exc.args[0]), severity="warning")
        return None


def _ask_text(main: MainScreen, title: str, value: str, context: list[str],
              change: Callable[..., Requirement], *args: str) -> None:
    def save(text: str | None) -> None:
        if text is not None:
            _apply(main, change, *args, text)

    main.app.push_screen(RequirementDialog(title, value, context), save)


def _apply(main: MainScreen, change: Callable[..., Any], *args: Any) -> None:
    try:
        result = main.controller.edit_ledger(change, *args)
    except (KeyError, ValueError) as exc:
        main.notify(str(exc.args[0] if exc.args else exc), severity="warning")
        return
    except Exception as exc:  # the session file could not be written
        main.notify(f"could not save: {exc}", severity="error")
        return
    label = getattr(result, "id", "")
    main.notify(f"{label} saved (yours: the analyser will not override it).")
    main.refresh_views()


def _pick_rejected(main: MainScreen) -> None:
    rejected = list(main.controller.session.rejected)
    if not rejected:
        main.notify("No rejected options yet (/reject <option> [: reason] adds one).",
                    severity="warning")
        return

    def chosen(answer: tuple[str, str] | None) -> None:
        if answer is None:
            return
        what, entry_id = answer
        if what == "unreject":
            _apply(main, edits.unreject, entry_id)
            return
        entry = next(r for r in main.controller.session.rejected if r.id == entry_id)

        def save(values: tuple[str, str] | None) -> None:
            if values is not None:
                _apply(main, edits.edit_rejection, entry_id, *values)

        main.app.push_screen(RejectedOptionDialog(entry), save)

    main.app.push_screen(RejectedOptionsScreen(rejected), chosen)


def set_requirement_status(main: MainScreen, req_id: str, status: str) -> None:
    """A status chosen in the requirements panel (done, dropped, ...), saved and shown."""
    try:
        req = main.controller.set_requirement_status(req_id, status)
    except (KeyError, ValueError) as exc:
        main.notify(str(exc), severity="error")
        return
    except Exception as exc:
        main.notify(f"could not save: {exc}", severity="error")
        return
    main.notify(f"{req.id} is now {req.status}.")
    main.refresh_views()


def edit_solidified(main: MainScreen) -> None:
    """The SOLIDIFIED block edited by hand in a dialog (not while a turn runs)."""
    if main.busy:
        main.notify("A turn is running; edit SOLIDIFIED when it is done.", severity="warning")
        return
    block = main.controller.session.solidified
    text = block.text if block else "CONCLUSION: \nREJECTED:\n- \nOPEN QUESTIONS:\n- "

    def save(edited: str | None) -> None:
        if edited is None:
            return
        try:
            main.controller.edit_solidified(edited)
        except Exception as exc:
            main.notify(f"could not save: {exc}", severity="error")
            return
        main.notify("SOLIDIFIED updated.")
        main.refresh_views()

    from .dialogs import EditDialog

    main.app.push_screen(EditDialog("Edit the SOLIDIFIED block", text), save)

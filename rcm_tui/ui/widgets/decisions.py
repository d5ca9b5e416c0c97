"""The decision log: SOLIDIFIED pinned on top, the current direction, rejected options with
their reasons and turns (reopened ones dimmed), open questions, facts and topics."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Static

from ...core.conclusion import current_conclusion
from ...core.models import Session
from ...core.text_safety import visible_controls, visible_line
from .session_panel import SessionPanel


def solidified_text(session: Session, solidify_key: str = "ctrl+s") -> Text:
    block = session.solidified
    if block is None:
        return Text(
            f"No SOLIDIFIED block yet — {solidify_key} writes one from the conversation.", "dim"
        )
    return Text(visible_controls(block.text))


def solidified_caption(session: Session) -> str:
    block = session.solidified
    if block is None:
        return "SOLIDIFIED"
    notes = [f"turn {block.turn}"]
    if block.edited:
        notes.append("edited")
    if block.fallback:
        notes.append("from the ledger")
    return "SOLIDIFIED · " + " · ".join(notes)


def decision_log_text(session: Session) -> Text:
    return _decision_log(session, visible_line)


def _decision_log(session: Session, v: Callable[[str], str]) -> Text:
    """The log; every piece of the ledger passes through `v` (it came from a model or a user)."""
    out = Text()

    def heading(title: str) -> None:
        if out:
            out.append("\n")
        out.append(title + "\n", "bold underline")

    conclusion = current_conclusion(session)  # one conclusion, the newest of its sources
    if conclusion:
        heading("Current conclusion")
        out.append(f"{v(conclusion.text)}\n")
        out.append(f"{conclusion.source}, turn {conclusion.turn}\n", "dim")
    if session.rejected:
        heading("Rejected")
        for option in session.rejected:
            if option.active:
                out.append("✗ ", "bold red")
                out.append(v(option.option), "strike bold")
                if option.reason:
                    out.append(f" — {v(option.reason)}")
                out.append(f"  t{option.turn}\n", "dim")
            else:
                out.append(f"↺ {v(option.option)}", "dim strike")
                out.append(
                    f" — reopened at turn {option.reopened_turn} (rejected t{option.turn})\n",
                    "dim",
                )
    if session.memory.open_questions:
        heading("Open questions")
        for question in session.memory.open_questions[-6:]:
            out.append(f"? {v(question)}\n")
    if session.memory.facts:
        heading("Facts")
        for fact in session.memory.facts[-8:]:
            out.append(f"• {v(fact)}\n")
    if session.topics:
        heading("Topics")
        for topic in session.topics:
            out.append(f"t{topic.turn} ", "dim")
            out.append(v(topic.title), "bold")
            if topic.summary:
                out.append(f" — {v(topic.summary)}", "dim")
            out.append("\n")
    if not out:
        out.append(
            "Nothing decided or rejected yet. Say what is off the table (\"let's not "
            'use X") or /reject X.',
            "dim",
        )
    out.rstrip()
    return out


class DecisionsPanel(SessionPanel, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "edit_solidified", "Edit SOLIDIFIED"),
        Binding("r", "rejected", "Rejected: edit/unreject"),
    ]

    class EditRequested(Message):
        """The user wants to edit the SOLIDIFIED block."""

    class RejectedRequested(Message):
        """The user wants to edit or reopen a rejected option."""

    def __init__(self, solidify_key: str = "ctrl+s", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.solidify_key = solidify_key

    def compose(self) -> ComposeResult:
        yield Static(id="solidified", markup=False)
        yield Static(id="decision-log", markup=False)

    def on_mount(self) -> None:
        self.border_title = "Decisions"
        self.redraw()

    def draw(self, session: Session) -> None:
        pinned = self.query_one("#solidified", Static)
        pinned.update(solidified_text(session, self.solidify_key))
        pinned.border_title = solidified_caption(session)
        pinned.set_class(session.solidified is not None, "-present")
        self.query_one("#decision-log", Static).update(decision_log_text(session))
        active = len(session.active_rejections())
        self.border_subtitle = f"{active} rejected" if active else ""

    def action_edit_solidified(self) -> None:
        self.post_message(self.EditRequested())

    def action_rejected(self) -> None:
        self.post_message(self.RejectedRequested())

"""The inspector: every LLM call of one turn — purpose, attempt, model, prompt, response,
tokens, time, fallback or error — so a user can see exactly what the layer did."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ...core.call_text import as_sent
from ...core.models import CallRecord, Session
from ...core.text_safety import visible_controls, visible_line

PROMPT_CHARS = 4000


def call_status(call: CallRecord) -> Text:
    error = visible_line(call.error or "")
    if error and not call.fallback:
        return Text(f"error: {error}", "bold red")
    if call.fallback:
        return Text("fallback" + (f": {error}" if error else ""), "yellow")
    return Text("ok", "green")


def call_detail(call: CallRecord, session: Session) -> Text:
    out = Text()
    model = visible_line(call.model) or "model?"
    out.append(f"{call.purpose} · attempt {call.attempt} · {model}\n", "bold")
    timing = f"{call.ms:.0f} ms"
    if call.ttft_ms is not None:
        timing += f" (first token {call.ttft_ms:.0f} ms)"
    out.append(
        f"{call.prompt_tokens} prompt ({call.cached_tokens} cached) + "
        f"{call.completion_tokens} completion tokens · {timing}\n",
        "dim",
    )
    if call.note:
        out.append(f"{visible_controls(call.note)}\n", "italic dim")
    out.append_text(call_status(call))
    out.append("\n\n── prompt (tail) ──\n", "bold")
    if not call.prompt:
        out.append("(not kept)\n", "dim")
    for message in as_sent(session, call):
        content = message.get("content", "")
        if len(content) > PROMPT_CHARS:
            content = content[:PROMPT_CHARS] + f"… ({len(content) - PROMPT_CHARS} more chars)"
        out.append(f"[{visible_line(message.get('role', '?'))}] ", "bold cyan")
        out.append(visible_controls(content) + "\n")
    out.append("\n── response ──\n", "bold")
    out.append(visible_controls(call.response) or "(empty)")
    return out


class InspectorScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "turn(-1)", "Previous turn", priority=True),
        Binding("right", "turn(1)", "Next turn", priority=True),
        Binding("escape,f3", "close", "Close"),
    ]

    turn: reactive[int] = reactive(0, init=False)

    def __init__(self, session: Session) -> None:
        super().__init__(classes="inspector-screen")
        self.session = session

    def compose(self) -> ComposeResult:
        yield Static(id="inspector-title", markup=False)
        yield DataTable(id="calls", cursor_type="row")
        with VerticalScroll(id="call-detail"):
            yield Static(id="call-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#calls", DataTable)
        for label, key in (
            ("#", "n"),
            ("purpose", "purpose"),
            ("att", "attempt"),
            ("model", "model"),
            ("prompt", "prompt"),
            ("compl", "completion"),
            ("ms", "ms"),
            ("status", "status"),
        ):
            table.add_column(label, key=key)
        turns = self.turns()
        self.turn = turns[-1] if turns else 0
        table.focus()

    def turns(self) -> list[int]:
        return sorted({c.turn for c in self.session.calls})

    def calls(self) -> list[CallRecord]:
        return [c for c in self.session.calls if c.turn == self.turn]

    def watch_turn(self) -> None:
        self.refresh_calls()

    def refresh_calls(self) -> None:
        """Re-read the session's calls (also called while a turn is running)."""
        table = self.query_one("#calls", DataTable)
        cursor = table.cursor_row
        table.clear()
        calls = self.calls()
        for index, call in enumerate(calls, 1):
            table.add_row(
                str(index),
                call.purpose,
                str(call.attempt),
                Text(visible_line(call.model)),  # a Text: a str cell would be read as markup
                str(call.prompt_tokens),
                str(call.completion_tokens),
                f"{call.ms:.0f}",
                call_status(call),
                key=str(index),
            )
        if calls:
            table.move_cursor(row=min(cursor, len(calls) - 1), animate=False)
        turns = self.turns()
        position = f"turn {self.turn}" if self.turn else "no calls yet"
        span = f" (turns {turns[0]}–{turns[-1]})" if turns else ""
        tokens = sum(c.prompt_tokens + c.completion_tokens for c in calls)
        self.query_one("#inspector-title", Static).update(
            Text.assemble(
                ("Inspector ", "bold"),
                f"· {position}{span} · {len(calls)} call(s) · {tokens:,} tokens",
                ("   ←/→ turn · ↑/↓ call · Escape closes", "dim"),
            )
        )
        self._show_detail()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._show_detail()

    def _show_detail(self) -> None:
        calls = self.calls()
        table = self.query_one("#calls", DataTable)
        text = self.query_one("#call-text", Static)
        if not calls:
            text.update(Text("No LLM calls recorded for this turn.", "dim"))
            return
        index = min(max(table.cursor_row, 0), len(calls) - 1)
        text.update(call_detail(calls[index], self.session))

    def action_turn(self, step: int) -> None:
        turns = self.turns()
        if not turns:
            return
        if self.turn not in turns:
            self.turn = turns[-1]
            return
        index = min(max(turns.index(self.turn) + step, 0), len(turns) - 1)
        self.turn = turns[index]

    def action_close(self) -> None:
        self.dismiss(None)

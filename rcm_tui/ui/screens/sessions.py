"""The sessions browser: every saved session with title, last update, turns and average
quality; type to filter by title and content; Enter resumes; r rename; d delete (asks
first); x export. Broken files are listed with their reason and can only be deleted."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from ...core.text_safety import visible_line
from ...store import SessionEntry
from .base import follow_app_cursor_blink

if TYPE_CHECKING:
    from ..app import RcmApp
from ..widgets.ordered_input import OrderedInput
from .branches import branches_under_parents

UPDATED_FORMAT = "%Y-%m-%d %H:%M"


def updated_text(value: datetime | None) -> str:
    return value.astimezone().strftime(UPDATED_FORMAT) if value else "—"


class SessionsTable(DataTable[Text]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Resume", show=True),
        Binding("r", "request('rename')", "Rename"),
        Binding("d,delete", "request('delete')", "Delete"),
        Binding("x", "request('export')", "Export"),
    ]

    class Requested(Message):
        def __init__(self, what: str) -> None:
            super().__init__()
            self.what = what

    def action_request(self, what: str) -> None:
        self.post_message(self.Requested(what))


class SessionsScreen(Screen[None]):
    """Actions are carried out by the app (it owns the controller); this screen asks."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("down", "focus_table", "Table", show=False),
    ]

    class Chosen(Message):
        """The user asked to do `what` with a session (resume, rename, delete, export)."""

        def __init__(self, what: str, entry: SessionEntry) -> None:
            super().__init__()
            self.what = what
            self.entry = entry

    def __init__(self, current_id: str | None = None) -> None:
        super().__init__(classes="sessions-screen")
        self.current_id = current_id
        self.entries: list[SessionEntry] = []
        self._title_column = 0
        self._summary = Text()
        # Nesting depth of each listed branch, and every listed title (for "fork of …").
        self._depth: dict[str, int] = {}
        self._titles: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static("Sessions", id="sessions-title", markup=False)
        yield OrderedInput(placeholder="Filter by title and content…", id="sessions-filter")
        yield SessionsTable(id="sessions-table", cursor_type="row")
        yield Static(id="sessions-status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._build_columns()
        follow_app_cursor_blink(self)
        self.query_one(Input).focus()
        self.reload()

    def _title_width(self) -> int:
        # updated 16, turns 5, quality 7, id 22, and the padding of five cells. The title gives
        # way first: at 80 columns a wider one cut the id's last character.
        return max(12, self.query_one(SessionsTable).size.width - 16 - 5 - 7 - 22 - 10 - 1)

    def _build_columns(self) -> None:
        table = self.query_one(SessionsTable)
        table.clear(columns=True)
        self._title_column = self._title_width()
        table.add_column("title", key="title", width=self._title_column)
        table.add_column("updated", key="updated", width=16)
        table.add_column("turns", key="turns", width=5)
        table.add_column("quality", key="quality", width=7)
        table.add_column("id", key="id", width=22)

    def on_resize(self) -> None:
        if self._title_width() != self._title_column:
            self._build_columns()
            self._show(self.entries, self.query_one(Input).value)

    def reload(self) -> None:
        self.search(self.query_one(Input).value)

    @on(Input.Changed, "#sessions-filter")
    def _filter(self, event: Input.Changed) -> None:
        self.search(event.value)

    @work(exclusive=True, group="sessions-search", thread=True, exit_on_error=False)
    def search(self, query: str) -> None:
        # Content search reads session files; a thread keeps typing responsive.
        store = cast("RcmApp", self.app).controller.store
        try:
            entries = store.search(query) if query.strip() else store.list()
        except Exception as exc:
            self.app.call_from_thread(self._show_error, str(exc))
            return
        self.app.call_from_thread(self._show, entries, query)

    def _show_error(self, message: str) -> None:
        self.query_one("#sessions-status", Static).update(Text(visible_line(message), "bold red"))

    def _show(self, entries: list[SessionEntry], query: str) -> None:
        # Broken files last, so they never sit between sessions a user moves through; each
        # branch right under its parent.
        entries, self._depth = branches_under_parents(sorted(entries, key=lambda e: bool(e.broken)))
        self._titles = {e.id: e.title for e in entries}
        selected = self.selected()
        self.entries = entries
        table = self.query_one(SessionsTable)
        cursor = table.cursor_row
        table.clear()
        for entry in entries:
            table.add_row(*self._cells(entry), key=entry.id)
        if entries:
            # The cursor follows the session it was on (a rename re-sorts the list), not the
            # row number, which would now be another entry.
            same = [i for i, e in enumerate(entries) if selected and e.path == selected.path]
            row = same[0] if same else min(max(cursor, 0), len(entries) - 1)
            table.move_cursor(row=row, animate=False)
        broken = sum(1 for e in entries if e.broken)
        summary = f"{len(entries)} session(s)"
        if query.strip():
            summary += f" matching “{visible_line(query.strip())}”"
        if broken:
            summary += f" · {broken} broken"
        self._summary = Text.assemble(
            summary, ("   Enter resume · r rename · d delete · x export", "dim")
        )
        self.query_one("#sessions-status", Static).update(self._summary)

    def _cells(self, entry: SessionEntry) -> tuple[Text, ...]:
        # Titles, reasons and even ids (a file's name) come from the sessions folder.
        shown_id = Text(visible_line(entry.id), "dim")
        if entry.broken:
            broken = visible_line(entry.broken)
            return (
                Text(f"⚠ BROKEN: {broken}", "bold red", overflow="ellipsis", no_wrap=True),
                Text(updated_text(entry.updated_at), "dim"),
                Text("—", "dim"),
                Text("—", "dim"),
                shown_id,
            )
        title = Text(visible_line(entry.title), overflow="ellipsis", no_wrap=True)
        if entry.parent is not None:
            # Under its parent the turn says enough; elsewhere (filtered, parent deleted)
            # the parent is named.
            depth = self._depth.get(entry.id, 0)
            parent = self._titles.get(entry.parent[0], entry.parent[0])
            where = "" if depth else f" of {visible_line(parent)}"
            title = Text.assemble(
                "  " * max(depth - 1, 0), ("↳ ", "bold"), (f"fork{where} @ turn {entry.parent[1]}",
                                                          "dim"),
                " · ", title, overflow="ellipsis", no_wrap=True,
            )
        if entry.id == self.current_id:
            title.append("  (open)", "italic dim")
        quality = "—" if entry.average_quality is None else f"{entry.average_quality:.2f}"
        return (
            title,
            Text(updated_text(entry.updated_at)),
            Text(str(entry.turns), justify="right"),
            Text(quality, justify="right"),
            shown_id,
        )

    def selected(self) -> SessionEntry | None:
        table = self.query_one(SessionsTable)
        if not self.entries or table.cursor_row < 0:
            return None
        return self.entries[min(table.cursor_row, len(self.entries) - 1)]

    def _ask(self, what: str) -> None:
        entry = self.selected()
        if entry is None:
            self.notify("No session selected.", severity="warning")
            return
        self.post_message(self.Chosen(what, entry))

    @on(DataTable.RowHighlighted, "#sessions-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        # A broken entry's reason is cut in the table; the status line shows all of it.
        entry = self.selected()
        status = self.query_one("#sessions-status", Static)
        if entry is not None and entry.broken:
            status.update(
                Text.assemble(
                    (visible_line(f"{entry.path.name} is broken: {entry.broken}"), "bold red"),
                    ("   it cannot be opened; d deletes it", "dim"),
                )
            )
        elif entry is not None and entry.parent is not None:
            parent = self._titles.get(entry.parent[0], f"{entry.parent[0]} (not listed)")
            status.update(Text.assemble(
                (f"↳ fork of {parent} @ turn {entry.parent[1]}", "bold"), "   ", self._summary
            ))
        else:
            status.update(self._summary)

    @on(Input.Submitted, "#sessions-filter")
    def _open_from_filter(self, event: Input.Submitted) -> None:
        event.stop()
        self._ask("resume")

    @on(DataTable.RowSelected, "#sessions-table")
    def _open_row(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._ask("resume")

    @on(SessionsTable.Requested)
    def _request(self, event: SessionsTable.Requested) -> None:
        event.stop()
        self._ask(event.what)

    def on_key(self, event: events.Key) -> None:
        # Typing while the table has focus goes to the filter ("type to filter").
        table = self.query_one(SessionsTable)
        character = event.character or ""
        if table.has_focus and event.is_printable and character not in "rdxj":
            filter_input = self.query_one(Input)
            filter_input.focus()
            filter_input.insert_text_at_cursor(character)
            event.stop()

    def action_focus_table(self) -> None:
        self.query_one(SessionsTable).focus()

    def action_close(self) -> None:
        self.dismiss(None)

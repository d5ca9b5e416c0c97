"""The requirement ledger as a table the user can act on: c confirm, a addressed, d drop,
p pending; e edit the text, n add one, m merge two (m on the one to keep, m on the other).
The table is a view of `session.requirements`; changes go up as messages."""

from __future__ import annotations

import functools
from typing import ClassVar

from rich._wrap import divide_line
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from ...core.models import Requirement, Session
from ...core.text_safety import visible_line

STATUS_STYLE = {
    "pending": "bold yellow",
    "addressed": "cyan",
    "confirmed": "bold green",
    "dropped": "dim strike",
}
# id, status, turn, confidence and the padding of five cells; narrow tables drop turn and
# confidence so the requirement text keeps its room.
WIDE_FIXED = 4 + 9 + 4 + 4 + 5 * 2
NARROW_FIXED = 3 + 9 + 3 * 2
NARROW_BELOW = 44
# Rows laid out at once when the ledger is shown; the rest follow a batch per frame, so a
# resumed 1,000-requirement ledger does not hold back the screen (a panel shows ~40 rows).
FIRST_ROWS = 80
ROWS_PER_FRAME = 200


@functools.lru_cache(maxsize=4096)
def wrapped_lines(text: str, width: int) -> int:
    """Lines a one-line text takes folded at `width` (what Text.wrap gives, without building
    the lines): the table is filled several times while the app starts, and wrapping every
    text of a 1,000-requirement ledger each time took a second."""
    return len(divide_line(text, width, fold=True)) + 1


class RequirementsTable(DataTable[Text]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "set_status('confirmed')", "Confirm"),
        Binding("a", "set_status('addressed')", "Addressed"),
        Binding("d", "set_status('dropped')", "Drop"),
        Binding("p", "set_status('pending')", "Pending"),
        Binding("e", "edit('edit')", "Edit"),
        Binding("n", "edit('add')", "Add"),
        Binding("m", "edit('merge')", "Merge"),
    ]

    class EditRequested(Message):
        """Edit (ids: the one), add (no ids) or merge (ids: the one kept, the one merged)."""

        def __init__(self, what: str, ids: tuple[str, ...] = ()) -> None:
            super().__init__()
            self.what = what
            self.ids = ids

    class StatusChosen(Message):
        """The user asked to move a requirement to another status."""

        def __init__(self, requirement_id: str, status: str) -> None:
            super().__init__()
            self.requirement_id = requirement_id
            self.status = status

    session: reactive[Session | None] = reactive(None, always_update=True, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False, show_cursor=True)
        self._text_width = 0
        # The requirement marked by a first `m`, to keep when a second `m` merges another.
        self._merge_into: str | None = None
        # What the rows show now: an unchanged ledger is not laid out again.
        self._filled: tuple[object, ...] = ()
        # Bumped by every fill: a batch of rows from an older fill is dropped.
        self._fill_number = 0
        self._rows_pending = False
        self._id_width = 4

    def on_mount(self) -> None:
        self._build_columns()

    @property
    def narrow(self) -> bool:
        return self.size.width < NARROW_BELOW

    def _wanted_id_width(self) -> int:
        """The id column fits the longest id: "R1000" wrapped to "R100" / "0" in a column of
        four (of three when narrow: from "R100" on)."""
        base = 3 if self.narrow else 4
        session = self.session
        longest = max((len(r.id) for r in session.requirements), default=0) if session else 0
        return max(base, longest)

    def _wanted_text_width(self) -> int:
        fixed = NARROW_FIXED if self.narrow else WIDE_FIXED
        extra = self._wanted_id_width() - (3 if self.narrow else 4)
        return max(10, self.size.width - fixed - extra - 1)

    def _build_columns(self) -> None:
        self.clear(columns=True)
        self._text_width = self._wanted_text_width()
        self._id_width = self._wanted_id_width()
        self.add_column("id", key="id", width=self._id_width)
        self.add_column("requirement", key="text", width=self._text_width)
        self.add_column("status", key="status", width=9)
        if not self.narrow:
            self.add_column("turn", key="turn", width=4)
            self.add_column("conf", key="conf", width=4)
        self._fill()

    def on_resize(self) -> None:
        if self._wanted_text_width() != self._text_width:
            self._build_columns()
            self.post_message(self.Refilled())

    class Refilled(Message):
        """The rows were laid out again (new width): the height they need may change."""

    def watch_session(self) -> None:
        self._fill()

    def _fill(self) -> None:
        if not self.columns:
            return
        if self._wanted_id_width() != self._id_width:
            self._build_columns()  # lays the rows out in the new columns
            self.post_message(self.Refilled())
            return
        session = self.session
        requirements = session.requirements if session is not None else []
        # The columns were built for the width of the last resize; the size may have changed
        # since (a relayout before on_resize), so fill what the columns are, not what the
        # width says.
        shown = len(self.columns)
        filled = (shown, self._text_width, *(
            (r.id, r.text, r.status, r.merged_into, r.source_turn, r.confidence)
            for r in requirements))
        complete = self.row_count == len(requirements) or self._rows_pending
        if filled == self._filled and complete:
            return
        self._filled = filled
        self._fill_number += 1
        cursor = self.cursor_row
        self.clear()
        self._add_rows(requirements[:FIRST_ROWS], shown)
        if cursor < self.row_count or len(requirements) <= FIRST_ROWS:
            self._restore_cursor(cursor)
            cursor = -1  # placed: the later rows must not move it from where the user takes it
        self._rows_pending = len(requirements) > FIRST_ROWS
        if self._rows_pending:
            self.call_after_refresh(
                self._add_later, self._fill_number, requirements[FIRST_ROWS:], shown, cursor
            )

    def _add_rows(self, requirements: list[Requirement], shown: int) -> None:
        for req in requirements:
            cells = self._cells(req)
            # The row's height from wrapping its text alone: letting the table find it renders
            # every cell of every row, seconds for a ledger of a few hundred requirements.
            height = max(1, wrapped_lines(cells[1].plain, self._text_width))
            self.add_row(*cells[:shown], key=req.id, height=height)

    def _add_later(
        self, fill_number: int, rest: list[Requirement], shown: int, cursor: int
    ) -> None:
        if fill_number != self._fill_number:
            return  # a newer fill cleared the table and lays out its own rows
        self._add_rows(rest[:ROWS_PER_FRAME], shown)
        if len(rest) > ROWS_PER_FRAME:
            self.call_after_refresh(
                self._add_later, fill_number, rest[ROWS_PER_FRAME:], shown, cursor
            )
            return
        self._rows_pending = False
        if cursor >= 0:
            self._restore_cursor(cursor)

    def _restore_cursor(self, cursor: int) -> None:
        if self.row_count:
            self.move_cursor(row=min(cursor, self.row_count - 1), animate=False)

    def content_height(self, at_most: int) -> int:
        """Lines the table needs to show every row (the header and each wrapped text), counted
        up to `at_most`: a panel is never taller than the screen, and wrapping every text of a
        1,000-requirement ledger to find that out cost a resume ~90 ms."""
        session = self.session
        requirements = session.requirements if session is not None else []
        width = max(1, self._text_width)
        lines = 1
        for req in requirements:
            if lines >= at_most:
                return at_most
            lines += max(1, wrapped_lines(visible_line(req.text), width))
        return min(lines, at_most)

    def _cells(self, req: Requirement) -> tuple[Text, ...]:
        dropped = req.status == "dropped"
        text_style = "dim strike" if dropped else ""
        return (
            Text(visible_line(req.id), "bold" if not dropped else "dim"),
            Text(visible_line(req.text), text_style, overflow="fold"),
            Text(f"→{visible_line(req.merged_into)}", "dim") if req.merged_into
            else Text(visible_line(req.status), STATUS_STYLE.get(req.status, "")),
            Text(str(req.source_turn), "dim", justify="right"),
            Text(f"{req.confidence:.2f}", "dim", justify="right"),
        )

    def _cursor_id(self) -> str | None:
        if not self.row_count:
            self.notify("No requirements yet.", severity="warning")
            return None
        row_key, _ = self.coordinate_to_cell_key(self.cursor_coordinate)
        return row_key.value

    def action_set_status(self, status: str) -> None:
        req_id = self._cursor_id()
        if req_id is not None:
            self.post_message(self.StatusChosen(req_id, status))

    def action_edit(self, what: str) -> None:
        if what == "add":
            self.post_message(self.EditRequested("add"))
            return
        req_id = self._cursor_id()
        if req_id is None:
            return
        if what == "edit":
            self.post_message(self.EditRequested("edit", (req_id,)))
        elif self._merge_into is None or self._merge_into == req_id:
            self._merge_into = None if self._merge_into == req_id else req_id
            self.notify(
                f"{req_id} is kept: move to the requirement to merge into it and press m "
                "(m here again cancels)." if self._merge_into else "Merge cancelled.",
                timeout=6,
            )
        else:
            keep, self._merge_into = self._merge_into, None
            self.post_message(self.EditRequested("merge", (keep, req_id)))

"""The requirements table lays out a long ledger once (issue 15: resuming 1,000 requirements
wrapped every text seven times while the app started), with the heights rich gives."""

from __future__ import annotations

import random

from rich.console import Console
from rich.text import Text

from rcm_tui.core.models import Message, Requirement, Session
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.widgets.requirements import (
    FIRST_ROWS,
    ROWS_PER_FRAME,
    RequirementsTable,
    wrapped_lines,
)

from .conftest import make_controller, wait_for, write_session

LEDGER_ID = "20250301-090000-0c0c0c"

WORDS = ("Kafka", "part", "of", "the", "mobile", "platform", "must", "handle", "101",
         "requests", "per", "second", "averyveryverylongidentifierwithoutspaces", "数据", "保留7天")


def test_row_heights_are_what_rich_wraps() -> None:
    rng = random.Random(15)
    console = Console(width=200)
    for _ in range(500):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 30)))
        width = rng.randint(10, 60)
        expected = max(1, len(Text(text, overflow="fold").wrap(console, width)))
        assert max(1, wrapped_lines(text, width)) == expected, (text, width)


# -- a long ledger is laid out a batch per frame ---------------------------------------------------


def ledger_session(count: int) -> Session:
    session = Session(id=LEDGER_ID, title="Long ledger")
    session.messages.append(Message(role="user", content="Needs?", turn=1))
    session.messages.append(Message(role="assistant", content="Noted.", turn=1))
    session.requirements.extend(
        Requirement(id=f"R{n}", text=f"The part {n} must handle {n} requests", source_turn=1)
        for n in range(1, count + 1)
    )
    return session


async def test_a_long_ledger_shows_its_first_rows_at_once_and_every_row_soon() -> None:
    count = FIRST_ROWS + 2 * ROWS_PER_FRAME + 7
    write_session(ledger_session(count))
    controller = make_controller()
    controller.open_session(LEDGER_ID)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        table = app.main.query_one(RequirementsTable)
        await wait_for(pilot, lambda: table.row_count == count)
        keys = [table.coordinate_to_cell_key((row, 0))[0].value for row in range(count)]
        assert keys == [f"R{n}" for n in range(1, count + 1)]
        # The panel asks how tall the table is, up to the screen's height.
        assert table.content_height(at_most=45) == 45
        assert table.content_height(at_most=10_000) >= 1 + count  # every row counted

        # A refill (the ledger changed) keeps the cursor on its row, even one laid out later.
        table.move_cursor(row=count - 3, animate=False)
        controller.session.requirements[0].status = "confirmed"
        table.session = controller.session
        assert table.row_count == FIRST_ROWS  # the rest follow frame by frame
        await wait_for(pilot, lambda: table.row_count == count)
        assert table.cursor_row == count - 3


async def test_a_newer_fill_drops_the_rows_of_an_older_one() -> None:
    write_session(ledger_session(FIRST_ROWS + ROWS_PER_FRAME))
    controller = make_controller()
    controller.open_session(LEDGER_ID)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        table = app.main.query_one(RequirementsTable)
        await wait_for(pilot, lambda: table.row_count == FIRST_ROWS + ROWS_PER_FRAME)
        controller.session.requirements[0].status = "confirmed"
        table.session = controller.session  # a refill: its later rows wait for the next frame
        assert table.row_count == FIRST_ROWS
        del controller.session.requirements[5:]
        table.session = controller.session  # and before that frame, a ledger of five
        for _ in range(4):
            await pilot.pause()
        assert table.row_count == 5


async def test_the_id_column_fits_the_longest_id() -> None:
    write_session(ledger_session(1000))
    controller = make_controller()
    controller.open_session(LEDGER_ID)
    app = RcmApp(controller)
    async with app.run_test(size=(160, 45)) as pilot:
        table = app.main.query_one(RequirementsTable)
        await wait_for(pilot, lambda: table.row_count == 1000)
        widths = {str(key.value): column.width for key, column in table.columns.items()}
        assert widths["id"] == len("R1000")  # not wrapped to "R100" / "0"
        assert table.get_row("R1000")[0].plain == "R1000"

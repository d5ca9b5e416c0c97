"""The fork key: ask at which turn to branch the session, then run what `/fork N` runs (the
same call the composer and the palette make)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import BY_NAME
from .dialogs import TextDialog
from .rewind import pickable_turns

if TYPE_CHECKING:
    from .main import MainScreen


def ask_fork_turn(main: MainScreen) -> None:
    turns = pickable_turns(main, "fork")
    if not turns:
        return

    def fork_at(answer: str | None) -> None:
        if answer is None:
            return
        if not answer.isdigit() or int(answer) not in turns:
            main.notify(f"No turn “{answer}”: pick one of 1–{turns[-1]}.", severity="warning")
            return
        main.perform(BY_NAME["fork"], answer)

    main.app.push_screen(
        TextDialog(f"Fork this session at turn (1–{turns[-1]}); the branch keeps the history "
                   "and the ledger as of that turn", str(turns[-1])),
        fork_at,
    )

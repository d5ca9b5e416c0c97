"""Regenerate the last reply and edit-and-resend an earlier message, from the chat.

Both rewind the session to before a turn (the turn and every later one are dropped, with what
they put in the ledger), re-render the transcript, and run the message again as a turn, so
streaming, cancel and errors behave as for any message.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.branch import fork_turns
from ...core.rewind import user_message
from .dialogs import EditDialog, TextDialog

if TYPE_CHECKING:
    from .main import MainScreen


def _refused_while_busy(main: MainScreen, what: str) -> bool:
    if main.busy:
        main.notify(f"A turn is running; {what} when it is done or press escape to cancel it.",
                    severity="warning")
    return main.busy


def pickable_turns(main: MainScreen, verb: str) -> list[int]:
    """The turns a user may pick to `verb` at ("fork", "edit"); [] (and a notice) when a turn
    is running or nothing has been said yet."""
    if _refused_while_busy(main, verb):
        return []
    turns = fork_turns(main.controller.session)
    if not turns:
        main.notify(f"Nothing to {verb} yet: the conversation is empty.", severity="warning")
    return turns


async def resend(main: MainScreen, turn: int, text: str) -> None:
    """Drop `turn` and later ones, show the rewound transcript, and send `text` as `turn`."""
    if _refused_while_busy(main, "resend"):
        return
    controller = main.controller
    await controller.rewind(turn)
    await main.show_session()
    await main.chat.add_user(text, turn)
    main._start(controller.send(text), turn)


async def regenerate(main: MainScreen) -> None:
    if _refused_while_busy(main, "regenerate"):
        return
    session = main.controller.session
    if session.turn == 0 or session.pending_user_turn is not None:
        retry = main.key_for("retry")
        main.notify("Nothing to regenerate: no answered reply yet"
                    + (f" (the last message has none: {retry} retries it)."
                       if session.pending_user_turn is not None else "."), severity="warning")
        return
    main.notify(f"Regenerating the reply of turn {session.turn}.", timeout=3)
    await resend(main, session.turn, user_message(session, session.turn))


def edit(main: MainScreen, args: str = "") -> None:
    """`/edit [turn]` (default: the last): the message in an editor; saving resends it."""
    turns = pickable_turns(main, "edit")
    if not turns:
        return
    arg = args.strip()
    if arg and (not arg.isdigit() or int(arg) not in turns):
        main.notify(f"No turn “{arg}”: pick one of 1–{turns[-1]}.", severity="warning")
        return
    turn = int(arg) if arg else turns[-1]
    later = f"turns {turn}–{turns[-1]}" if turn < turns[-1] else f"turn {turn}"
    title = (f"Edit your message of turn {turn}; sending it replaces {later}, and what they put "
             "in the ledger")

    async def send(edited: str | None) -> None:
        if edited is not None:
            await resend(main, turn, edited)

    main.app.push_screen(EditDialog(title, user_message(main.controller.session, turn),
                                    save_label="sends"), send)


def ask_edit_turn(main: MainScreen) -> None:
    """The edit key: which turn (the last proposed), then the editor."""
    turns = pickable_turns(main, "edit")
    if not turns:
        return

    def chosen(answer: str | None) -> None:
        if answer is not None:
            edit(main, answer)

    main.app.push_screen(
        TextDialog(f"Edit and resend your message of turn (1–{turns[-1]})", str(turns[-1])),
        chosen,
    )

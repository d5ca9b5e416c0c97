"""A turn's or a command's progress on the main screen: the messages their workers post, and
what each pipeline event and the end of a turn or a command change in the chat."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.message import Message

from ...actions import Action
from ...commands import CommandResult, run
from ...core.events import (
    CallFinished,
    LedgerChanged,
    Notice,
    PipelineEvent,
    QualityScored,
    ReplyDelta,
    ReplyShown,
    ReplyStarted,
    StageChanged,
    TurnFailed,
    TurnFinished,
)
from ..widgets.chat import reply_meta
from ..widgets.status import duration

if TYPE_CHECKING:
    from ...core.turn import TurnOutcome
    from .main import MainScreen


class PipelineUpdate(Message):
    """A pipeline event forwarded by the controller."""

    def __init__(self, event: PipelineEvent) -> None:
        super().__init__()
        self.event = event


class TurnEnded(Message):
    """A turn worker finished: with an outcome, cancelled, or with an unexpected error."""

    def __init__(
        self,
        outcome: TurnOutcome | None,
        *,
        turn: int,
        cancelled: bool = False,
        error: str | None = None,
    ) -> None:
        super().__init__()
        self.outcome = outcome
        self.turn = turn
        self.cancelled = cancelled
        self.error = error


class CommandFinished(Message):
    def __init__(
        self, action: Action, result: CommandResult | None, cancelled: bool = False
    ) -> None:
        super().__init__()
        self.action = action
        self.result = result
        self.cancelled = cancelled


async def show_event(screen: MainScreen, event: PipelineEvent) -> None:
    """One pipeline event on screen: the draft streamed, the stage, captions, notices."""
    if isinstance(event, ReplyDelta):
        await screen.chat.write_draft(event.text)
    elif isinstance(event, StageChanged):
        screen.stage.update_stage(event.turn, event.stage, event.label)
    elif isinstance(event, ReplyStarted):
        await screen.chat.start_draft(event.turn, event.attempt, screen.writer())
        which = "draft" if event.attempt == 1 else f"attempt {event.attempt}"
        screen.stage.detail = f"streaming {which}"
    elif isinstance(event, ReplyShown):
        await screen.chat.settle_draft(
            event.turn, event.text, reply_meta(event.turn, None, event.attempt, screen.writer())
        )
        screen.stage.detail = f"showing attempt {event.attempt}"
    elif isinstance(event, QualityScored):
        record = event.record
        screen.chat.set_reply_meta(
            record.turn, reply_meta(record.turn, record, model=screen.writer())
        )
        screen.stage.detail = f"showing attempt {record.shown_attempt} of {record.attempts}"
        screen.refresh_views()
    elif isinstance(event, TurnFailed):
        await screen.chat.drop_draft()
        await screen.show_error(event.turn, event.message)
    elif isinstance(event, Notice):
        await screen.chat.add_notice(event.text, event.level)
    elif isinstance(event, LedgerChanged | CallFinished | TurnFinished):
        screen.refresh_views()


async def show_turn_end(screen: MainScreen, message: TurnEnded) -> None:
    """The end of a turn: a cancelled reply kept or dropped, an error, or what it took."""
    outcome = message.outcome
    stage = screen.stage
    stage.running = False
    if message.cancelled:
        kept = screen.cancelled_reply(message.turn)
        if kept is not None:
            await screen.chat.keep_cancelled(message.turn, kept.content, kept.model)
        else:
            await screen.chat.drop_draft()
        stage.detail = f"turn {message.turn} cancelled"
        await screen.chat.add_notice(
            f"Turn {message.turn} cancelled"
            + (" (what it had written is kept above)" if kept is not None else "")
            + f". Your message is saved; press {screen.key_for('retry')} to run it again.",
            "warning",
        )
        screen.errors_shown.discard(message.turn)
    elif message.error is not None or (outcome is not None and not outcome.ok):
        await screen.chat.drop_draft()
        reason = message.error or (outcome.error if outcome else None) or "the turn failed"
        stage.detail = f"turn {message.turn} failed"
        await screen.show_error(message.turn, reason)
    elif outcome is not None:
        screen.errors_shown.discard(outcome.turn)
        cost = next(
            (c for c in screen.controller.session.metrics.llm_calls if c.turn == outcome.turn),
            None,
        )
        took = f" in {duration(cost.seconds)}" if cost and cost.seconds else ""
        record = outcome.quality
        shown = (
            f" · attempt {record.shown_attempt} of {record.attempts} shown"
            if record and record.attempts > 1
            else ""
        )
        stage.detail = f"turn {outcome.turn} done{took}{shown}"
    screen.refresh_views()


async def run_command(screen: MainScreen, action: Action, args: str) -> None:
    """A command's handler (rcm_tui/commands.py), run in a worker; its end is posted."""
    try:
        result = await run(screen.controller, action, args)
    except asyncio.CancelledError:
        screen.post_message(CommandFinished(action, None, cancelled=True))
        raise
    except Exception as exc:  # e.g. the session file could not be written
        result = CommandResult(f"/{action.command} failed: {exc}", ok=False)
    screen.post_message(CommandFinished(action, result))


async def show_command_end(screen: MainScreen, message: CommandFinished) -> None:
    """A command's result in the chat: its text, a notice if it failed, what it asks of the chat."""
    name = message.action.command
    if message.action.name == "solidify":
        screen.busy = False
        screen.stage.running = False
    result = message.result
    if message.cancelled or result is None:
        await screen.chat.add_notice(f"/{name} cancelled.", "warning")
        screen.refresh_views()
        return
    if not result.ok:
        # One line, not a boxed note: a mistyped command is not an event of the session.
        # Errors raised by a command already name it ("/fork: no turn 9"): not twice.
        said = result.text if result.text.startswith(f"/{name}:") else f"/{name}: {result.text}"
        await screen.chat.add_notice(said, "warning")
    elif result.action not in ("copy", "forked"):
        await screen.chat.add_note(result.text, f"/{name}")
    await _follow_up(screen, result)
    screen.refresh_views()


async def _follow_up(screen: MainScreen, result: CommandResult) -> None:
    """What a command's result asks of the chat beyond showing its text."""
    if result.action == "forked":
        await screen.show_session()
        screen.notify(result.text, timeout=6)
    elif result.action == "copy" and result.payload is not None:
        screen.app.copy_to_clipboard(result.payload)
        screen.notify(f"{result.text} (via the terminal's clipboard support)", timeout=4)
    elif result.action == "confirm_export" and result.path is not None:
        screen.rcm_app.confirm_export(result.path)

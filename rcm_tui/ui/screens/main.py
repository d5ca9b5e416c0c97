"""The main screen: the chat on the left, the ledger panels on the right.

Turns and commands run in workers (group "turn" for anything that calls the model), so the
screen never waits on the network. The controller's pipeline events arrive as
`PipelineUpdate` messages on this screen's queue, in the order they were emitted; the worker
posts `TurnEnded` / `CommandFinished` last, so the outcome is handled after every event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Input, TextArea
from textual.worker import Worker

from ...actions import (
    BY_COMMAND,
    BY_NAME,
    FOOTER,
    Action,
    footer_order,
    is_exclusive,
)
from ...commands import (
    command_args,
    command_name,
    is_command,
    is_known,
    run,
    unescape,
    unknown_command_message,
)
from ..footer import fitted
from ..widgets.chat import ChatLog, as_lines
from ..widgets.composer import Composer
from ..widgets.decisions import DecisionsPanel
from ..widgets.panels import SidePanels
from ..widgets.requirements import RequirementsTable
from ..widgets.status import SessionHeader, StageLine
from .base import follow_app_cursor_blink
from .inspector import InspectorScreen
from .turn_view import (
    CommandFinished,
    PipelineUpdate,
    TurnEnded,
    run_command,
    show_command_end,
    show_event,
    show_turn_end,
)

if TYPE_CHECKING:
    from ...controller import Controller
    from ...core.models import CancelledReply
    from ...core.turn import TurnOutcome
    from ..app import RcmApp

log = logging.getLogger("rcm_tui.ui")

# The cells the footer's palette entry takes (entries leave in actions.FOOTER_DROP order).
FOOTER_PALETTE_CELLS = 14
# Below this size the three panels become tabs so each stays readable.
TABBED_BELOW = (110, 34)


class MainScreen(Screen[None]):
    # Keys come from `settings.keys` through the app's keymap (binding ids = setting names),
    # derived from the action registry in footer order; help and quit repeat the app's
    # bindings so a narrow footer still shows them.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            action.key or "",
            f"app.{action.name}" if action.scope == "app" else action.name,
            action.label,
            id=action.name,
            priority=action.priority,
            show=action.name in FOOTER,
        )
        for action in footer_order()
    ]

    busy: reactive[bool] = reactive(False, bindings=True)
    panels_visible: reactive[bool] = reactive(True)

    def __init__(self, controller: Controller, *, recap: str | None = None) -> None:
        super().__init__(id="main")
        self.controller = controller
        self._recap = recap
        # True once the first session is on screen (headless drivers wait for it).
        self.ready = False
        # Set when the app is quitting: late events and outcomes are no longer drawn.
        self.closing = False
        self._turn_worker: Worker[None] | None = None
        self.errors_shown: set[int] = set()

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        settings = self.controller.settings
        yield SessionHeader(id="header")
        with Horizontal(id="body"):
            with Vertical(id="chat-column"):
                yield ChatLog(id="chat")
                yield StageLine(id="stage")
                yield Composer(id="composer")
            yield SidePanels(
                self.controller.session,
                settings.quality_threshold,
                (settings.bloat_moderate, settings.bloat_significant),
                tabbed=self._narrow(*self.app.size),
                solidify_key=self.key_for("solidify"),
                id="side",
            )
        yield Footer(id="footer", compact=True)

    @property
    def chat(self) -> ChatLog:
        return self.query_one(ChatLog)

    @property
    def composer(self) -> Composer:
        return self.query_one(Composer)

    @property
    def stage(self) -> StageLine:
        return self.query_one(StageLine)

    @property
    def panels(self) -> SidePanels:
        return self.query_one(SidePanels)

    @property
    def rcm_app(self) -> RcmApp:
        return cast("RcmApp", self.app)

    def key_for(self, action: str) -> str:
        return str(getattr(self.controller.settings.keys, action, action))

    async def on_mount(self) -> None:
        self.stage.hint = (
            f"Enter send · {self.key_for('newline')} or ctrl+j newline · "
            f"{self.key_for('solidify')} solidify · /help"
        )
        self.chat.solidify_key = self.key_for("solidify")
        follow_app_cursor_blink(self)
        self.composer.focus()
        await self.show_session(self._recap)
        self.ready = True
        # After the first frame, while the user types: the first reply should not pay for it.
        self.call_after_refresh(self._preload)

    # A worker, so the coroutine is made when the worker starts: made before, an app that
    # exits first leaves it never awaited (a RuntimeWarning at exit).
    @work(group="preload", exit_on_error=False)
    async def _preload(self) -> None:
        await self.controller.warm_analysers()
        header = self.query_one(SessionHeader)
        header.load_state = "loading model…"
        try:
            seconds = await self.controller.preload()
        except Exception as exc:
            # The first turn reports the reason in full; the header only says it is not ready.
            log.info("background model load failed: %s", exc)
            header.load_state = "model not loaded"
            return
        header.load_state = ""
        header.provider = self.controller.provider_label
        if seconds is not None:
            log.info("model loaded in the background in %.2f s", seconds)

    @staticmethod
    def _narrow(width: int, height: int) -> bool:
        return width < TABBED_BELOW[0] or height < TABBED_BELOW[1]

    def on_resize(self) -> None:
        self.panels.tabbed = self._narrow(*self.size)
        self.refresh_bindings()  # the footer picks the keys that fit the new width

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Bindings for the footer, fitted to its width (ui/footer.py)."""
        room = self.size.width - FOOTER_PALETTE_CELLS
        return fitted(super().active_bindings, room, self.app.get_key_display)

    def watch_panels_visible(self, visible: bool) -> None:
        self.set_class(not visible, "-panels-hidden")
        focused = self.focused
        if not visible and (focused is None or self.panels in focused.ancestors_with_self):
            self.composer.focus()

    def on_key(self, event: events.Key) -> None:
        """A printable key that nothing focused takes (the chat log, a panel without a
        binding for it) is typing meant for the composer, not a keystroke to lose."""
        if not event.is_printable or event.character is None or self.composer.has_focus:
            return
        if isinstance(self.focused, TextArea | Input):
            return
        if any(event.key in bindings.key_to_bindings for _, bindings in self._binding_chain):
            return
        event.stop()
        event.prevent_default()
        self.composer.focus()
        self.composer.insert(event.character)

    async def show_session(self, recap: str | None = None) -> None:
        """Render the controller's session from scratch (start, open, new)."""
        session = self.controller.session
        self.errors_shown.clear()
        await self.chat.show_session(session)
        if recap:
            await self.chat.add_note(
                as_lines(recap), "recap · where this session stood", kind="recap"
            )
        note, self.controller.model_note = self.controller.model_note, None
        if note:
            await self.chat.add_notice(note, "warning")
        pending = session.pending_user_turn
        if pending is not None:
            kept = self.cancelled_reply(pending.turn)
            if kept is not None:
                await self.chat.keep_cancelled(pending.turn, kept.content, kept.model)
            await self.chat.add_error(
                pending.turn,
                "This message has no answer yet: the turn was interrupted or failed.",
                self.key_for("retry"),
            )
            self.errors_shown.add(pending.turn)
        self.composer.set_history([m.content for m in session.messages if m.role == "user"])
        self.stage.detail = ""
        self.stage.running = False
        self.refresh_views()
        # A new or opened session starts with the cursor where the user types.
        self.composer.focus()

    def cancelled_reply(self, turn: int) -> CancelledReply | None:
        kept = [c for c in self.controller.session.cancelled_replies if c.turn == turn]
        return kept[-1] if kept else None

    def writer(self) -> str:
        """The model writing this turn's reply (captions name it)."""
        return self.controller.providers().generator.model

    def refresh_views(self) -> None:
        """Re-render the panels and the header from the session document."""
        session = self.controller.session
        self.panels.show(session)
        header = self.query_one(SessionHeader)
        header.session_title = session.title
        header.provider = self.controller.provider_label
        header.reason = self.controller.header_reason
        header.profile = self.controller.profile_label
        header.turn = session.turn
        header.dialog_state = session.dialog_state
        if isinstance(self.app.screen, InspectorScreen):
            self.app.screen.refresh_calls()
        self.refresh_bindings()

    # -- actions (keys, palette and slash commands all land here) -----------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Cancel and retry leave the footer when there is nothing to cancel or retry.
        if action == "cancel":
            return self.busy
        if action == "retry":
            return not self.busy and self.controller.session.pending_user_turn is not None
        return True

    def action_solidify(self) -> None:
        self.perform(BY_NAME["solidify"])

    def action_export(self) -> None:
        self.perform(BY_NAME["export"])

    def action_copy_reply(self) -> None:
        self.perform(BY_NAME["copy_reply"])

    def action_fork(self) -> None:
        from .fork import ask_fork_turn

        ask_fork_turn(self)

    async def action_regenerate(self) -> None:
        from .rewind import regenerate

        await regenerate(self)

    def action_edit_message(self) -> None:
        from .rewind import ask_edit_turn

        ask_edit_turn(self)

    async def action_search(self) -> None:
        from ..widgets.chat_search import open_chat_search

        await open_chat_search(self)

    async def action_new_session(self) -> None:
        if self._refused_while_busy(BY_NAME["new_session"]):
            return
        self.controller.new_session()
        await self.show_session()

    def action_sessions(self) -> None:
        if self.busy:
            self.notify("A turn is running; press escape to cancel it first.", severity="warning")
            return
        self.rcm_app.open_sessions()

    def action_toggle_panels(self) -> None:
        self.panels_visible = not self.panels_visible

    async def action_stats(self) -> None:
        from .info import StatsScreen

        result = await run(self.controller, BY_NAME["stats"])
        await self.app.push_screen(StatsScreen(result.text))

    async def action_inspector(self) -> None:
        await self.app.push_screen(InspectorScreen(self.controller.session))

    def action_cancel(self) -> None:
        worker = self._turn_worker
        if worker is not None and not worker.is_finished:
            worker.cancel()

    def action_retry(self) -> None:
        if self.busy:
            self.notify("A turn is running; wait for it or press escape.", severity="warning")
            return
        pending = self.controller.session.pending_user_turn
        if pending is None:
            self.notify("Nothing to retry: the last message has an answer.")
            return
        self._start(self.controller.retry(), pending.turn)

    async def cancel_and_wait(self) -> None:
        """Cancel a running turn and let the controller save (used when quitting)."""
        self.closing = True
        worker = self._turn_worker
        if worker is not None and not worker.is_finished:
            worker.cancel()
            # WorkerCancelled is the expected answer; the controller saved the session.
            with contextlib.suppress(Exception):
                await worker.wait()

    # -- the composer ---------------------------------------------------------------------
    @on(Composer.Submitted)
    async def _submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        text = event.text
        # Whatever is refused stays in the composer (and out of the history) to fix or resend.
        if is_command(text):
            if not is_known(text):
                await self.chat.add_notice(unknown_command_message(command_name(text)), "warning")
                return
            if self._refused_while_busy(BY_COMMAND[command_name(text)], command_args(text)):
                return
            self.composer.accept(text)
            self.run_command(text.strip())
            return
        if self.busy:
            self.notify(
                "A turn is running; your message stays here. Escape cancels the turn.",
                severity="warning",
            )
            return
        self.composer.accept(text)
        text = unescape(text)
        turn = self.controller.session.turn + 1
        await self.chat.add_user(text, turn)
        self._start(self.controller.send(text), turn)

    def _start(self, work: Awaitable[TurnOutcome | None], turn: int) -> None:
        self.busy = True
        self.stage.begin(turn)
        self._turn_worker = self.run_worker(
            self._run_turn(work, turn), group="turn", exclusive=True, exit_on_error=False
        )

    async def _run_turn(self, work: Awaitable[TurnOutcome | None], turn: int) -> None:
        try:
            outcome = await work
        except asyncio.CancelledError:
            self.post_message(TurnEnded(None, turn=turn, cancelled=True))
            raise
        except Exception as exc:  # a store error, say: shown, never a traceback
            self.post_message(TurnEnded(None, turn=turn, error=str(exc) or type(exc).__name__))
            return
        self.post_message(TurnEnded(outcome, turn=turn))

    # -- slash commands -------------------------------------------------------------------
    def run_command(self, text: str) -> None:
        """A known slash command, typed: the same call as its key and palette entry."""
        self.perform(BY_COMMAND[command_name(text)], command_args(text))

    def perform(self, action: Action, args: str = "") -> None:
        """An action with a command (from a key, the palette or the composer). Where the chat
        does the work itself (a turn, a dialog, the browser, quitting) it makes the same call
        as the action's key; the others run their handler (rcm_tui/commands.py) in a worker."""
        if action.name == "retry":
            self.action_retry()
            return
        if self._refused_while_busy(action, args):
            return
        from . import rewind

        if action.name == "edit_message":
            rewind.edit(self, args)
        elif action.name == "regenerate":
            self.run_worker(rewind.regenerate(self), exit_on_error=False)
        elif action.name == "new_session":
            self.call_next(self.action_new_session)
        elif action.name == "sessions":
            self.rcm_app.open_sessions()
        elif action.name == "quit":
            self.call_next(self.rcm_app.action_quit)
        elif action.name == "solidify":
            self.busy = True
            self.stage.begin(self.controller.session.turn)
            self._turn_worker = self.run_worker(
                run_command(self, action, args), group="turn", exclusive=True,
                exit_on_error=False,
            )
        else:
            self.run_worker(run_command(self, action, args), group="command", exit_on_error=False)

    def _refused_while_busy(self, action: Action, args: str = "") -> bool:
        if self.busy and is_exclusive(action, args):
            self.notify(
                f"/{action.command} cannot run during a turn: wait for it or press escape, "
                "then run it again.",
                severity="warning",
            )
            return True
        return False

    @on(CommandFinished)
    async def _command_finished(self, message: CommandFinished) -> None:
        if not self.closing:
            await show_command_end(self, message)

    # -- pipeline events ------------------------------------------------------------------
    @on(PipelineUpdate)
    async def _pipeline_update(self, message: PipelineUpdate) -> None:
        if not self.closing:
            await show_event(self, message.event)

    async def show_error(self, turn: int, reason: str) -> None:
        if turn in self.errors_shown:
            return
        self.errors_shown.add(turn)
        await self.chat.add_error(turn, reason, self.key_for("retry"))

    @on(TurnEnded)
    async def _turn_ended(self, message: TurnEnded) -> None:
        self.busy = False
        self._turn_worker = None
        if not self.closing:
            await show_turn_end(self, message)

    # -- panels ---------------------------------------------------------------------------
    @on(RequirementsTable.StatusChosen)
    def _requirement_status(self, message: RequirementsTable.StatusChosen) -> None:
        message.stop()
        from .ledger_edit import set_requirement_status

        set_requirement_status(self, message.requirement_id, message.status)

    @on(RequirementsTable.EditRequested)
    @on(DecisionsPanel.RejectedRequested)
    def _edit_ledger(self, message: Message) -> None:
        message.stop()
        from .ledger_edit import open_ledger_editor

        open_ledger_editor(self, message)

    @on(DecisionsPanel.EditRequested)
    def _edit_solidified(self, message: DecisionsPanel.EditRequested) -> None:
        message.stop()
        from .ledger_edit import edit_solidified

        edit_solidified(self)

    def forward(self, event: Any) -> None:
        """The controller's on_event callback (same event loop; runs inside the worker)."""
        self.post_message(PipelineUpdate(event))

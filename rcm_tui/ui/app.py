"""The Textual app and `run_app`, the entry point the CLI calls.

Kept import-light: no provider SDK and no model runtime is imported on the way to the first
frame; the controller builds its providers on the first turn.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType

from ..actions import BY_NAME, keyed
from ..core.text_safety import visible_controls, visible_line
from .palette import RcmCommands
from .screens.main import MainScreen

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from ..config import LoadedSettings
    from ..controller import Controller
    from ..store import SessionEntry
    from .screens.sessions import SessionsScreen

log = logging.getLogger("rcm_tui.ui")
# Seconds a quit may spend saving and closing before the app exits anyway.
QUIT_WITHIN = 0.8


class RcmApp(App[int]):
    # Absolute, so subclasses (tests, scripts) find it wherever they live.
    CSS_PATH = Path(__file__).with_name("app.tcss")
    TITLE = "rcm-tui"
    # Tests turn this off so snapshots never catch a cursor mid-blink.
    CURSOR_BLINK: ClassVar[bool] = True
    COMMANDS = App.COMMANDS | {RcmCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(a.key or "", a.name, a.label, id=a.name, priority=a.priority)
            for a in keyed("app")
        ),
        # Only while closing (see check_action): otherwise ctrl+c keeps its usual meanings.
        Binding("ctrl+c", "quit_now", show=False, priority=True),
    ]

    def __init__(self, controller: Controller, *, recap: str | None = None) -> None:
        super().__init__()
        self.controller = controller
        self._quitting = False
        self._crash_line: str | None = None
        self.main = MainScreen(controller, recap=recap)
        controller.on_event = self.main.forward

    def get_default_screen(self) -> MainScreen:
        return self.main

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Every toast of every screen comes here. Toasts quote error messages, titles and
        file names, so they are plain text (no markup) with their controls made visible."""
        super().notify(
            visible_controls(message),
            title=visible_line(title),
            severity=severity,
            timeout=timeout,
            markup=markup,
        )

    def on_mount(self) -> None:
        from ..config import KeySettings

        # Only remapped keys go into the keymap, so the footer keeps the bindings' order.
        defaults = KeySettings().model_dump()
        keys = self.controller.settings.keys.model_dump()
        self.set_keymap({name: key for name, key in keys.items() if key and key != defaults[name]})
        self._keep_theme()

    def _keep_theme(self) -> None:
        from .ui_state import load_theme, save_theme

        saved = load_theme()
        if saved and saved in self.available_themes:
            self.theme = saved
        self.theme_changed_signal.subscribe(self, lambda theme: save_theme(theme.name))

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        from .ui_state import screenshots_dir

        if path is None:
            folder = screenshots_dir()
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            path = str(folder)
        return super().deliver_screenshot(filename, path, time_format)

    def _fatal_error(self) -> None:
        # Textual's own handler prints the traceback with its locals: the whole session.
        from .crash import crash_line, write_crash_report

        error = sys.exc_info()[1] or self._exception or RuntimeError("unknown error")
        self.bell()
        if self._crash_line is None:
            self._crash_line = crash_line(error, write_crash_report(error))
        self._close_messages_no_wait()

    def _print_error_renderables(self) -> None:
        # Printed as is: a terminal-wide Rich render would break the path over lines.
        if self._crash_line is not None:
            print(self._crash_line, file=sys.stderr)
            self._exit_renderables.clear()
            return
        super()._print_error_renderables()

    # -- app-wide actions ---------------------------------------------------------------
    async def action_help(self) -> None:
        from ..commands import run
        from .screens.info import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        result = await run(self.controller, BY_NAME["help"])
        await self.push_screen(HelpScreen(result.text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "quit_now":
            return self._quitting
        return True

    def action_quit_now(self) -> None:
        self.exit(0)

    async def action_quit(self) -> None:
        """Cancel a running turn (its message is saved) and background work, exit 0.

        Background work is cancelled, not awaited: its input is on disk and it runs again
        later. Closing is bounded by QUIT_WITHIN; a second quit (or ctrl+c) exits at once."""
        if self._quitting:
            self.exit(0)
            return
        self._quitting = True
        if self.main.ready:
            self.main.stage.detail = "closing…"
        try:
            await asyncio.wait_for(self._close(), QUIT_WITHIN)
        except TimeoutError:
            log.warning("closing took longer than %.1f s; quitting anyway", QUIT_WITHIN)
        except Exception:  # closing must not turn a normal quit into a traceback
            log.warning("closing the session failed", exc_info=True)
        self.exit(0)

    async def _close(self) -> None:
        await self.main.cancel_and_wait()
        await self.controller.aclose(wait=False)

    def confirm_export(self, target: Path) -> None:
        """Export the open session over an existing file, if the user says so."""
        self._confirm_overwrite(target, self._export_current)

    def _confirm_overwrite(self, target: Path, write: Callable[[Path], None]) -> None:
        """An export never replaces an existing file unless the user says so here."""
        from .screens.dialogs import ConfirmDialog

        def answered(yes: bool | None) -> None:
            if yes:
                write(target)

        question = f"{target} already exists. Overwrite it with this export?"
        self.push_screen(ConfirmDialog(question, "Overwrite"), answered)

    def _export_current(self, target: Path) -> None:
        from ..commands import write_export

        try:
            write_export(self.controller, target, overwrite=True)
        except OSError as exc:
            self.notify(f"Export failed: {exc.strerror or exc} ({target})", severity="error")
            return
        self.notify(f"Exported to {target}", timeout=8)

    # -- sessions browser ---------------------------------------------------------------
    def open_sessions(self) -> None:
        from .screens.sessions import SessionsScreen

        if isinstance(self.screen, SessionsScreen):
            return
        self.push_screen(SessionsScreen(self.controller.session.id))

    async def on_sessions_screen_chosen(self, message: SessionsScreen.Chosen) -> None:
        from .screens.dialogs import ConfirmDialog, ExportDialog, TextDialog

        browser = message.control if message.control is not None else self.screen
        entry = message.entry
        if message.what == "resume":
            await self._resume(entry)
        elif message.what == "rename":
            if entry.broken:
                self.notify("A broken session cannot be renamed.", severity="warning")
                return
            self.push_screen(
                TextDialog("Rename session", entry.title),
                lambda title: self._rename(entry, title, browser),
            )
        elif message.what == "delete":
            what = (
                f"the broken file {entry.path.name}"
                if entry.broken
                else f"the session “{entry.title}” ({entry.id})"
            )
            question = f"Delete {what}? This cannot be undone."
            self.push_screen(
                ConfirmDialog(question),
                lambda yes: self._delete(entry, bool(yes), browser),
            )
        elif message.what == "export":
            if entry.broken:
                self.notify("A broken session cannot be exported.", severity="warning")
                return
            self.push_screen(ExportDialog(entry.title), lambda suffix: self._export(entry, suffix))

    async def _resume(self, entry: SessionEntry) -> None:
        from .screens.sessions import SessionsScreen

        if entry.broken:
            self.notify(f"Cannot open: {entry.broken}", severity="error", timeout=6)
            return
        if entry.id != self.controller.session.id:
            try:
                self.controller.open_session(entry.id)
            except Exception as exc:  # locked by another instance, broken since listed, ...
                self.notify(str(exc), severity="error", timeout=8)
                return
        if isinstance(self.screen, SessionsScreen):
            self.screen.dismiss(None)
        await self.main.show_session(self.controller.recap())

    def _rename(self, entry: SessionEntry, title: str | None, browser: object) -> None:
        if not title:
            return
        try:
            if entry.id == self.controller.session.id:
                self.controller.session.title = " ".join(title.split())
                self.controller.save()
                self.main.refresh_views()
            else:
                self.controller.store.rename(entry.id, title)
        except Exception as exc:
            self.notify(str(exc), severity="error")
            return
        self._reload(browser)

    async def _delete(self, entry: SessionEntry, confirmed: bool, browser: object) -> None:
        if not confirmed:
            return
        try:
            if entry.id == self.controller.session.id:
                # Release the open session first, or its next save would bring it back.
                self.controller.new_session()
                await self.main.show_session()
            self.controller.store.delete(entry.id)
        except Exception as exc:
            self.notify(str(exc), severity="error")
            return
        self.notify(f"Deleted {entry.id}.")
        self._reload(browser)

    def _export(self, entry: SessionEntry, suffix: str | None) -> None:
        if not suffix:
            return
        from ..commands import exports_dir

        target = exports_dir() / f"{entry.id}.{suffix}"
        if os.path.lexists(target):
            self._confirm_overwrite(target, lambda path: self._export_entry(entry, path, True))
        else:
            self._export_entry(entry, target, False)

    def _export_entry(self, entry: SessionEntry, target: Path, overwrite: bool) -> None:
        from ..export import export_session

        try:
            if entry.id == self.controller.session.id:
                session = self.controller.session
            else:
                session = self.controller.store.load(entry.id)
            export_session(session, target, overwrite=overwrite)
        except Exception as exc:
            self.notify(f"Export failed: {exc}", severity="error")
            return
        self.notify(f"Exported to {target}", timeout=8)

    @staticmethod
    def _reload(browser: object) -> None:
        reload = getattr(browser, "reload", None)
        if callable(reload):
            reload()


def run_app(loaded: LoadedSettings, resume: str | None = None) -> int:
    """Start the TUI; print the exit summary afterwards. Returns the exit code."""
    from ..controller import Controller
    from ..core.stats import exit_summary
    from ..store import SessionStore, StoreError

    controller = Controller(loaded, SessionStore())
    recap = None
    if resume:
        try:
            controller.open_session(resume)
        except StoreError as exc:
            print(f"rcm-tui: {visible_line(str(exc))}", file=sys.stderr)
            return 1
        recap = controller.recap()
    # What is alive now (the modules, the settings, the session just read) lives as long as
    # the app: kept out of the collector, the collections of the first frames do not walk it
    # again and again (a 1,000-turn session is ~40,000 objects: ~60 ms of its resume).
    gc.freeze()
    app = RcmApp(controller, recap=recap)
    try:
        app.run()
    finally:
        gc.unfreeze()  # for a caller that goes on (the tests); the TUI's process ends here
        controller.release()
    session = controller.session
    if session.messages:
        settings = loaded.settings
        summary = exit_summary(session, settings.bloat_moderate, settings.bloat_significant)
        print(visible_controls(summary))
    return app.return_code or 0

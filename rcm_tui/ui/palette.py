"""Command palette (ctrl+p): every key action and every argument-free slash command, calling
the same action methods the keys and the composer call."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from .app import RcmApp

# (title, action on the main screen or app, setting name of its key, help)
KEY_ACTIONS = (
    ("Solidify", "solidify", "solidify", "write the SOLIDIFIED block now (same as /solidify)"),
    ("Sessions browser", "sessions", "sessions", "browse, resume, rename, delete, export"),
    ("New session", "new_session", "new_session", "start a new session (same as /new)"),
    ("Toggle panels", "toggle_panels", "toggle_panels", "hide or show the side panels"),
    ("Statistics", "stats", "stats", "research metrics of this session"),
    ("Inspector", "inspector", "inspector", "every LLM call of a turn"),
    ("Export", "export", "export", "export this session as Markdown (same as /export)"),
    ("Retry", "retry", "retry", "run the last unanswered message again (same as /retry)"),
    ("Copy the last reply", "copy_reply", "copy_reply", "to the system clipboard (same as /copy)"),
    ("Fork", "fork", "fork", "branch this session at a turn into a new session (same as /fork)"),
    ("Regenerate", "regenerate", "regenerate",
     "replace the last reply with a new one (same as /regenerate)"),
    ("Edit and resend", "edit_message", "edit_message",
     "edit an earlier message and send it again; later turns are dropped (same as /edit)"),
    ("Search the chat", "search", "search", "highlight and jump between matches"),
    ("Cancel turn", "cancel", "cancel", "cancel the running turn; the message stays saved"),
)
APP_ACTIONS = (
    ("Help", "help", "help", "keys and commands"),
    ("Quit", "quit", "quit", "close the session and exit"),
)
# Slash commands already reachable as a key action above, or needing an argument.
NOT_LISTED = frozenset(
    {
        "solidify",
        "new",
        "sessions",
        "export",
        "retry",
        "exit",
        "reject",
        "unreject",
        "req",
        "help",
        "stats",
        "copy",
        "fork",
        "regenerate",
        "edit",
    }
)


def _model_entries(app: RcmApp, main: Any) -> list[tuple[str, str, Callable[[], Any]]]:
    """"Use PROVIDER · MODEL" for every other provider that can run here (same as /model P)."""
    from ..providers.switching import provider_states

    return [
        (f"Use {row.provider} · {row.models}", f"switch the model for the next turns "
         f"(same as /model {row.provider})", partial(main.run_command, f"/model {row.provider}"))
        for row in provider_states(app.controller.settings)
        if row.problem is None and row.provider != app.controller.choice.name
    ]


class RcmCommands(Provider):
    def _entries(self) -> list[tuple[str, str, Callable[[], Any]]]:
        from ..commands import COMMANDS
        from .screens.main import MainScreen

        app = cast("RcmApp", self.app)
        keys = app.controller.settings.keys
        entries: list[tuple[str, str, Callable[[], Any]]] = []
        for title, action, key_name, help_text in APP_ACTIONS:
            key = getattr(keys, key_name)
            entries.append((title, f"{key} · {help_text}", partial(app.run_action, action)))
        # Chat actions make sense only from the chat screen (not from a dialog on top).
        if isinstance(self.screen, MainScreen):
            main = self.screen
            for title, action, key_name, help_text in KEY_ACTIONS:
                key = getattr(keys, key_name)
                entries.append((title, f"{key} · {help_text}", partial(main.run_action, action)))
            for name, command in COMMANDS.items():
                if name not in NOT_LISTED:
                    entries.append(
                        (command.usage, command.help, partial(main.run_command, f"/{name}"))
                    )
            entries += _model_entries(app, main)
        return entries

    async def discover(self) -> Hits:
        for title, help_text, callback in self._entries():
            yield DiscoveryHit(title, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), callback, help=help_text)

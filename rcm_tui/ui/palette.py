"""Command palette (ctrl+p): every key action and every argument-free slash command of the
action registry (rcm_tui/actions.py), calling the same action methods the keys and the
composer call."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from ..actions import ACTIONS, BY_NAME, listed_keys

if TYPE_CHECKING:
    from .app import RcmApp


def _model_entries(app: RcmApp, main: Any) -> list[tuple[str, str, Callable[[], Any]]]:
    """"Use PROVIDER · MODEL" for every other provider that can run here (same as /model P)."""
    from ..providers.switching import provider_states

    return [
        (f"Use {row.provider} · {row.models}", f"switch the model for the next turns "
         f"(same as /model {row.provider})", partial(main.perform, BY_NAME["model"], row.provider))
        for row in provider_states(app.controller.settings)
        if row.problem is None and row.provider != app.controller.choice.name
    ]


class RcmCommands(Provider):
    def _entries(self) -> list[tuple[str, str, Callable[[], Any]]]:
        from .screens.main import MainScreen

        app = cast("RcmApp", self.app)
        keys = app.controller.settings.keys
        # Chat actions make sense only from the chat screen (not from a dialog on top).
        main = self.screen if isinstance(self.screen, MainScreen) else None
        entries: list[tuple[str, str, Callable[[], Any]]] = []
        for action in listed_keys():
            target = app if action.scope == "app" else main
            if action.title is None or target is None:
                continue
            entries.append((action.title, f"{getattr(keys, action.name)} · "
                            f"{action.palette_help}", partial(target.run_action, action.name)))
        if main is not None:
            entries += [
                (a.usage, a.command_help, partial(main.perform, a))
                for a in ACTIONS
                if a.in_palette_as_command()
            ]
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

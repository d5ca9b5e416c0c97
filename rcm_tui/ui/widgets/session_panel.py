"""A side panel drawn from the session document: given a session, it redraws once mounted."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.reactive import reactive

from ...core.models import Session


class SessionPanel(VerticalScroll):
    session: reactive[Session | None] = reactive(None, always_update=True, init=False)

    def watch_session(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        if self.session is not None and self.is_mounted:
            self.draw(self.session)

    def draw(self, session: Session) -> None:
        raise NotImplementedError

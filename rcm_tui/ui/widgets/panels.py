"""The right column: requirements, decisions and quality.

Wide terminals show the three panels stacked; narrow ones show them as tabs so each stays
readable. Every panel renders `session` (the controller's document); nothing is copied.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import Static, TabbedContent, TabPane

from ...core.models import Session
from .decisions import DecisionsPanel
from .quality import QualityPanel
from .requirements import RequirementsTable


class RequirementsPanel(Vertical):
    session: reactive[Session | None] = reactive(None, always_update=True, init=False)

    def compose(self) -> ComposeResult:
        yield RequirementsTable(id="requirements")
        yield Static(
            'No requirements yet. State what you need ("it must…", "we need…") and it '
            "appears here.",
            classes="empty",
        )

    def on_mount(self) -> None:
        self.border_title = "Requirements"

    def watch_session(self, session: Session | None) -> None:
        self.query_one(RequirementsTable).session = session
        requirements = session.requirements if session else []
        self.set_class(not requirements, "-empty")
        pending = sum(1 for r in requirements if r.status == "pending")
        self.border_subtitle = f"{len(requirements)} · {pending} pending" if requirements else ""
        self._fit()

    def on_requirements_table_refilled(self) -> None:
        self._fit()

    def _fit(self) -> None:
        """Stacked, the panel is as tall as its rows (the stylesheet caps it); as a tab it
        fills the tab."""
        if not isinstance(self.parent, SidePanels) or self.has_class("-empty"):
            self.styles.height = None
            return
        table = self.query_one(RequirementsTable)
        # The round border takes two lines; no panel is taller than the screen.
        screen_lines = max(1, self.app.size.height)
        self.styles.height = table.content_height(at_most=screen_lines) + 2


class SidePanels(Vertical):
    tabbed: reactive[bool] = reactive(False, recompose=True)

    def __init__(
        self,
        session: Session,
        threshold: float,
        bloat_bands: tuple[float, float],
        *,
        tabbed: bool = False,
        solidify_key: str = "ctrl+s",
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        # The first layout is chosen before mounting, so startup composes the panels once.
        self.set_reactive(SidePanels.tabbed, tabbed)
        self.session = session
        self.threshold = threshold
        self.bloat_bands = bloat_bands
        self.solidify_key = solidify_key

    def compose(self) -> ComposeResult:
        requirements = RequirementsPanel(id="requirements-panel")
        decisions = DecisionsPanel(self.solidify_key, id="decisions")
        quality = QualityPanel(self.threshold, self.bloat_bands, id="quality")
        if self.tabbed:
            with TabbedContent(id="panel-tabs"):
                with TabPane("Reqs", id="tab-requirements"):
                    yield requirements
                with TabPane("Decisions", id="tab-decisions"):
                    yield decisions
                with TabPane("Quality", id="tab-quality"):
                    yield quality
        else:
            yield requirements
            yield decisions
            yield quality

    def on_mount(self) -> None:
        self.show(self.session)

    async def watch_tabbed(self) -> None:
        # Recompose has replaced the panels; give the new ones the document.
        self.call_after_refresh(self.show, self.session)

    def show(self, session: Session) -> None:
        """Re-render every panel from the session document."""
        self.session = session
        for requirements in self.query(RequirementsPanel):
            requirements.session = session
        for decisions in self.query(DecisionsPanel):
            decisions.session = session
        for quality in self.query(QualityPanel):
            quality.session = session

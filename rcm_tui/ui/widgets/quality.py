"""The quality panel: a trend chart of the overall score per turn, the last turn's seven
dimensions, the premature flag, re-advocacy caught, bloat, and what the turn cost."""

from __future__ import annotations

import math

from rich.text import Text
from textual.app import ComposeResult
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ...core.models import GRADED_DIMENSIONS, LOWER_IS_BETTER, QualityRecord, Session
from ...core.readvocacy_label import readvocacy_label
from ...core.stats import bloat_assessment
from ...core.text_safety import visible_line
from .session_panel import SessionPanel
from .status import duration

BLOCKS = " ▁▂▃▄▅▆▇█"
CHART_ROWS = 4
# Shorter names where the panel is narrow.
_LABELS = {"middle_turn_reference": "middle turns", "requirement_tracking": "requirements"}
# (label, attribute, lower is better)
DIMENSIONS = tuple(
    (_LABELS.get(name, name), name, name in LOWER_IS_BETTER) for name in GRADED_DIMENSIONS
)


def score_style(value: float, threshold: float) -> str:
    if value >= threshold:
        return "green"
    if value >= threshold - 0.2:
        return "yellow"
    return "red"


def chart_floor(scores: tuple[float, ...], threshold: float) -> float:
    """The bottom of the chart's scale: a tenth below the lowest score or the threshold, so
    0.85 and 0.96 differ by a visible step instead of sharing the top row of a 0–1 scale."""
    lowest = min(min(scores), threshold)
    return max(0.0, math.floor(lowest * 10) / 10 - 0.1)


class TrendChart(Widget):
    """Overall quality per turn as columns, newest on the right, on a scale from a little
    below the lowest score (or the threshold) to 1.0."""

    scores: reactive[tuple[float, ...]] = reactive(())
    threshold: reactive[float] = reactive(0.8)

    def render(self) -> Text:
        if not self.scores:
            return Text("no scored turns yet", "dim")
        width = max(1, self.size.width - 5)
        column = 2 if len(self.scores) * 2 <= width else 1
        shown = self.scores[-(width // column) :]
        levels = CHART_ROWS * 8
        floor = chart_floor(tuple(shown), self.threshold)
        lines = []
        for row in range(CHART_ROWS, 0, -1):
            axis = {CHART_ROWS: "1.0 ┤", 1: f"{floor:.1f} ┤"}.get(row, "    │")
            line = Text(axis, "dim")
            for value in shown:
                height = (max(floor, min(1.0, value)) - floor) / (1.0 - floor)
                filled = round(height * levels) - (row - 1) * 8
                char = BLOCKS[max(0, min(8, filled))]
                line.append(char, score_style(value, self.threshold))
                if column > 1:
                    line.append(" ")
            lines.append(line)
        return Text("\n").join(lines)


def dimension_lines(record: QualityRecord, threshold: float, bar: int) -> Text:
    out = Text()
    for label, attribute, lower_better in DIMENSIONS:
        value = float(getattr(record, attribute))
        good = 1.0 - value if lower_better else value
        filled = round(good * bar)
        out.append(f"{label:<13}", "dim")
        out.append("█" * filled, score_style(good, threshold))
        out.append("░" * (bar - filled), "dim")
        out.append(f" {value:.2f}")
        if lower_better:
            out.append(" ↓", "dim")
        out.append("\n")
    out.append("              ↓ lower is better; full bar = good\n", "dim")
    out.append(f"{'premature':<13}", "dim")
    if record.premature_attempt:
        out.append("YES — answered before the facts were in", "bold red")
    else:
        out.append("no", "green")
    return out


def summary_text(
    session: Session, threshold: float, moderate: float = 1.5, significant: float = 2.0
) -> Text:
    out = Text()
    trend = [q.overall for q in sorted(session.quality, key=lambda q: q.turn)]
    if trend:
        out.append("overall ", "dim")
        for value in trend[-8:]:
            out.append(f"{value:.2f} ", score_style(value, threshold))
        average = sum(trend) / len(trend)
        out.append(f"\navg {average:.2f}", "dim")
        out.append(f" · threshold {threshold:.2f}\n", "dim")
    record = session.quality[-1] if session.quality else None
    if record is not None:
        out.append(f"turn {record.turn}", "bold")
        out.append(f" · judge {record.judge}", "dim")
        if record.attempts > 1:
            out.append(f" · attempt {record.shown_attempt} of {record.attempts} shown", "dim")
        out.append("\n")
        out.append_text(dimension_lines(record, threshold, bar=10))
        out.append("\n")
        caught = sorted({o for q in session.quality for o in q.readvocated})
        out.append(f"{'re-advocacy':<13}", "dim")
        if record.readvocated:
            style = "bold red" if record.readvocated_final else "bold yellow"
            out.append(f"caught {visible_line(readvocacy_label(record))}", style)
        elif caught:
            out.append(f"none this turn ({len(caught)} caught before)", "green")
        else:
            out.append("none", "green")
        out.append("\n")
    ratio = session.metrics.bloat_ratio
    lengths = session.metrics.answer_lengths
    if ratio is not None or lengths:
        out.append(f"{'bloat':<13}", "dim")
        if ratio is None:
            out.append("n/a (one answer so far)")
        else:
            assessment = bloat_assessment(ratio, moderate, significant)
            style = {"minimal": "green", "moderate": "yellow"}.get(assessment, "red")
            out.append(f"{ratio:.2f}× ", "bold")
            out.append(assessment, style)
        if lengths:
            out.append(f"  ({lengths[0]}→{lengths[-1]} chars)", "dim")
    costs = session.metrics.llm_calls
    if costs:
        cost = max(costs, key=lambda c: c.turn)
        if out:
            out.append("\n")
        out.append(f"{'cost t' + str(cost.turn):<13}", "dim")
        tokens = cost.prompt_tokens + cost.completion_tokens
        calls = "1 call" if cost.calls == 1 else f"{cost.calls} calls"
        out.append(f"{calls} · {tokens:,} tok · {duration(cost.seconds)}")
        if cost.cached_tokens:
            out.append(f" · {cost.cached_tokens:,} cached", "dim")
    return out


class QualityPanel(SessionPanel):
    def __init__(
        self,
        threshold: float = 0.8,
        bloat_bands: tuple[float, float] = (1.5, 2.0),
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.threshold = threshold
        self.bloat_bands = bloat_bands

    def compose(self) -> ComposeResult:
        yield TrendChart()
        yield Static(id="quality-summary", markup=False)

    def on_mount(self) -> None:
        self.border_title = "Quality"
        self.query_one(TrendChart).threshold = self.threshold
        self.redraw()

    def draw(self, session: Session) -> None:
        scores = tuple(q.overall for q in sorted(session.quality, key=lambda q: q.turn))
        self.query_one(TrendChart).scores = scores
        self.query_one("#quality-summary", Static).update(
            summary_text(session, self.threshold, *self.bloat_bands)
        )
        if scores:
            self.border_subtitle = f"last {scores[-1]:.2f}"
        else:
            self.border_subtitle = ""

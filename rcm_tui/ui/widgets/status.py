"""The header line (session, provider, turn, dialog state) and the stage line of the running
turn (analysing · generating · evaluating · refining 2/3)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

STEPS = ("analysing", "generating", "evaluating")
BUSY_STAGES = ("saving", "analysing", "generating", "evaluating", "refining", "solidifying")


def duration(seconds: float) -> str:
    """'40 ms' below a second, '1.4 s' above: an offline turn is not '0.0 s'."""
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


class SessionHeader(Widget):
    """One line: title on the left; provider, why it was chosen, turn and state on the right."""

    session_title: reactive[str] = reactive("New session")
    provider: reactive[str] = reactive("")
    reason: reactive[str] = reactive("")
    turn: reactive[int] = reactive(0)
    dialog_state: reactive[str] = reactive("greeting")
    # "loading model…" while an in-process model loads in the background; "" once it is ready.
    load_state: reactive[str] = reactive("")

    def render(self) -> Text:
        left = Text.assemble(("rcm-tui ", "bold"), ("│ ", "dim"), (self.session_title, "bold"))
        right = Text.assemble(
            (self.provider, "bold"),
            (f" · {self.load_state}" if self.load_state else "", "bold yellow"),
            (f" ({self.reason})" if self.reason else "", "dim"),
            ("  turn ", "dim"),
            (str(self.turn), "bold"),
            ("  ", ""),
            (self.dialog_state.replace("_", " "), "italic"),
        )
        width = self.size.width
        # The provider reason is the first thing to go when the line is short.
        if left.cell_len + right.cell_len + 2 > width and self.reason:
            right = Text.assemble(
                (self.provider, "bold"),
                (f" · {self.load_state}" if self.load_state else "", "bold yellow"),
                ("  turn ", "dim"),
                (str(self.turn), "bold"),
                ("  ", ""),
                (self.dialog_state.replace("_", " "), "italic"),
            )
        room = max(0, width - right.cell_len - 2)
        left.truncate(room, overflow="ellipsis")
        gap = max(1, width - left.cell_len - right.cell_len)
        return Text.assemble(left, " " * gap, right)


class StageLine(Widget):
    """Where the running turn is, and which attempt is on screen."""

    turn: reactive[int] = reactive(0)
    stage: reactive[str] = reactive("")
    label: reactive[str] = reactive("")
    running: reactive[bool] = reactive(False)
    # The last "refining k/n" of this turn, kept while the refinement is evaluated.
    refine_label: reactive[str] = reactive("")
    # "streaming attempt 2", "showing attempt 1 of 3", "turn 3 done in 1.4 s", ...
    detail: reactive[str] = reactive("")
    hint: reactive[str] = reactive("")

    def begin(self, turn: int) -> None:
        self.turn = turn
        self.stage = "saving"
        self.label = "saving"
        self.refine_label = ""
        self.detail = ""
        self.running = True

    def update_stage(self, turn: int, stage: str, label: str) -> None:
        self.turn = turn
        self.stage = stage
        self.label = label
        if stage == "refining":
            self.refine_label = label
        self.running = stage in BUSY_STAGES

    def render(self) -> Text:
        if not self.running:
            line = Text()
            if self.detail:
                line.append(self.detail + "   ")
            line.append(self.hint, "dim")
            return line
        if self.stage == "solidifying":
            steps = ["solidifying"]
        else:
            steps = [*STEPS, self.refine_label] if self.refine_label else list(STEPS)
        current = self.label if self.stage == "refining" else self.stage
        position = steps.index(current) if current in steps else -1
        line = Text(f"turn {self.turn}  ", "bold")
        for index, step in enumerate(steps):
            if index:
                line.append(" · ", "dim")
            if index == position:
                line.append(f" {step} ", "reverse bold")
            elif index < position:
                line.append(step)
            else:
                line.append(step, "dim")
        if self.detail:
            line.append(f"   {self.detail}", "italic")
        return line

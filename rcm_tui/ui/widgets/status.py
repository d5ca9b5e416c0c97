"""The header line (session, provider, turn, dialog state) and the stage line of the running
turn (analysing · generating · evaluating · refining 2/3)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ...core.text_safety import visible_line

STEPS = ("analysing", "generating", "evaluating")
BUSY_STAGES = ("saving", "analysing", "generating", "evaluating", "refining", "solidifying")


def duration(seconds: float) -> str:
    """'40 ms' below a second, '1.4 s' above: an offline turn is not '0.0 s'."""
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def fit_hint(hint: str, room: int) -> str:
    """The key hint in `room` cells: middle parts go first, the last one (/help) stays."""
    parts = hint.split(" · ")
    while len(parts) > 1 and len(" · ".join(parts)) > room:
        del parts[-2]
    return " · ".join(parts) if len(" · ".join(parts)) <= room else ""


class SessionHeader(Widget):
    """One line: title on the left; provider, why it was chosen, turn and state on the right."""

    session_title: reactive[str] = reactive("New session")
    provider: reactive[str] = reactive("")
    reason: reactive[str] = reactive("")
    # "lean profile" / "full profile" once a turn has run; it outlives the reason when short.
    profile: reactive[str] = reactive("")
    turn: reactive[int] = reactive(0)
    dialog_state: reactive[str] = reactive("greeting")
    # "loading model…" while an in-process model loads in the background; "" once it is ready.
    load_state: reactive[str] = reactive("")

    def render(self) -> Text:
        # The title comes from the user's first message or a file; the provider from config.
        title, provider = visible_line(self.session_title), visible_line(self.provider)
        left = Text.assemble(("rcm-tui ", "bold"), ("│ ", "dim"), (title, "bold"))
        profile = (f"  {visible_line(self.profile)}", "italic") if self.profile else ("", "")
        right = Text.assemble(
            (provider, "bold"),
            (f" · {self.load_state}" if self.load_state else "", "bold yellow"),
            (f" ({visible_line(self.reason)})" if self.reason else "", "dim"),
            profile,
            ("  turn ", "dim"),
            (str(self.turn), "bold"),
            ("  ", ""),
            (self.dialog_state.replace("_", " "), "italic"),
        )
        width = self.size.width
        # The provider reason is the first thing to go when the line is short.
        if left.cell_len + right.cell_len + 2 > width and self.reason:
            right = Text.assemble(
                (provider, "bold"),
                (f" · {self.load_state}" if self.load_state else "", "bold yellow"),
                profile,
                ("  turn ", "dim"),
                (str(self.turn), "bold"),
                ("  ", ""),
                (self.dialog_state.replace("_", " "), "italic"),
            )
        if left.cell_len + right.cell_len + 2 > width:
            # Still short: the provider's first words and the turn; never words run together.
            right = Text.assemble(
                (self.provider.split(" · ")[0], "bold"),
                ("  turn ", "dim"),
                (str(self.turn), "bold"),
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
        if stage == "evaluating" and self.detail.startswith("streaming"):
            self.detail = ""  # the stream has ended; the next event says what is shown
        self.running = stage in BUSY_STAGES

    def render(self) -> Text:
        detail = visible_line(self.detail)
        if not self.running:
            line = Text()
            if detail:
                line.append(detail + "   ")
            line.append(fit_hint(self.hint, self.size.width - 2 - line.cell_len), "dim")
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
            step = visible_line(step)
            if index == position:
                line.append(f" {step} ", "reverse bold")
            elif index < position:
                line.append(step)
            else:
                line.append(step, "dim")
        if detail:
            line.append(f"   {detail}", "italic")
        return line

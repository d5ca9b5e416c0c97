"""Read-only Markdown screens: help (f1) and stats (f2). Their text comes from the same slash
command handlers as `/help` and `/stats`, so the two can never disagree."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

from ...core.text_safety import visible_controls

UI_KEYS_HELP = """
## In the panels
- **Tab** / **shift+tab** move the focus: transcript → composer → requirements → decisions.
- Requirements table: **c** confirm · **a** addressed · **d** drop · **p** back to pending.
- Decisions panel: **e** edits the SOLIDIFIED block (ctrl+s saves the edit).

## In the composer
- **Enter** sends. **shift+enter** adds a newline — many terminals cannot send shift+enter,
  so **ctrl+j** always adds one too.
- **up** on the first line / **down** on the last line walk the input history.
- Lines starting with `/` are commands and are never sent to the model.

## Sessions browser
- Type to filter by title and content · **Enter** resumes · **r** rename · **d** delete
  (asks first) · **x** export (Markdown or JSON) · **Escape** back.

## Inspector
- **left** / **right** choose the turn; the table lists every LLM call of that turn; the
  pane below shows its prompt (the tail; the note describes the shared prefix) and response.
"""


class MarkdownScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f1,f2", "close", "Close")]

    def __init__(self, title: str, markdown: str) -> None:
        super().__init__(classes="info-screen")
        self.title_text = title
        # Stats quote the ledger: text from a model or a file.
        self.markdown = visible_controls(markdown)

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="info") as scroll:
            scroll.border_title = self.title_text
            scroll.border_subtitle = "Escape closes"
            yield Markdown(self.markdown)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(MarkdownScreen):
    def __init__(self, commands_markdown: str) -> None:
        super().__init__("Help", commands_markdown + "\n" + UI_KEYS_HELP)


class StatsScreen(MarkdownScreen):
    def __init__(self, stats_markdown: str) -> None:
        super().__init__("Statistics", stats_markdown)

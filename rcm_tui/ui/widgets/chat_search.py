"""Search in the chat: a bar above the transcript (the search key opens it); typing
highlights every match in the replies and messages shown, Enter / down jump to the next hit,
shift+Enter / up to the previous one, the count says where you are, escape closes.

Matches are looked for in the text as displayed (after Markdown rendering), block by block,
so a hit is always something the user can see; highlighting restyles the block's own
content and closing restores it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.css.query import NoMatches
from textual.widgets import Input, Label, Static
from textual.widgets.markdown import MarkdownBlock, MarkdownFence

from ..screens.base import follow_app_cursor_blink
from .chat import ChatEntry, ChatLog
from .ordered_input import OrderedInput

if TYPE_CHECKING:
    from ..screens.main import MainScreen

HIT_STYLE = "black on $warning 70%"
CURRENT_STYLE = "bold black on $warning"


@dataclass(frozen=True)
class Hit:
    block: MarkdownBlock
    start: int
    end: int


async def open_chat_search(main: MainScreen) -> None:
    """Open the bar (or, when it is open, go to the next hit). The bar has the focus when
    this returns, so that the keys typed right after the search key land in it, even when
    they come in the same burst (the composer reads them next)."""
    try:
        bar = main.query_one(ChatSearch)
    except NoMatches:
        bar = ChatSearch(id="chat-search")
        await main.query_one("#chat-column").mount(bar, before=main.chat)
        follow_app_cursor_blink(bar)  # mounted after the screen set its inputs' blink
    else:
        if bar.query_one(Input).has_focus:
            bar.move(1)
            return
    main.set_focus(bar.query_one(Input))


def _leaf_blocks(chat: ChatLog) -> list[MarkdownBlock]:
    """The blocks that hold text, in reading order (a list item holds paragraphs)."""
    blocks: list[MarkdownBlock] = []
    for entry in chat.query(ChatEntry):
        for block in entry.query(MarkdownBlock):
            if isinstance(block, MarkdownFence) or not block.query_children(MarkdownBlock):
                blocks.append(block)
    return blocks


def _show(block: MarkdownBlock, content: Content) -> None:
    if isinstance(block, MarkdownFence):
        # A code block draws its content in a Label of its own.
        block.query_one("#code-content", Label).update(content)
    else:
        block.update(content)


class ChatSearch(Horizontal):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close search"),
        Binding("down", "move(1)", "Next hit", show=False),
        Binding("shift+enter,up", "move(-1)", "Previous hit", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hits: list[Hit] = []
        self.current = -1
        self._styled: set[MarkdownBlock] = set()

    def compose(self) -> ComposeResult:
        yield OrderedInput(placeholder="Search the chat…", id="chat-search-input")
        yield Static("", id="chat-search-count", markup=False)

    @property
    def chat(self) -> ChatLog:
        return self.screen.query_one(ChatLog)

    @property
    def query_text(self) -> str:
        return self.query_one(Input).value

    @on(Input.Changed, "#chat-search-input")
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.find()

    @on(Input.Submitted, "#chat-search-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.move(1)

    def find(self) -> None:
        """Collect the hits of the query and jump to the first one."""
        self._restore()
        needle = self.query_text.strip()
        self.hits = []
        if needle:
            pattern = re.compile(re.escape(needle), re.IGNORECASE)
            for block in _leaf_blocks(self.chat):
                for match in pattern.finditer(block._content.plain):
                    self.hits.append(Hit(block, match.start(), match.end()))
        self.current = 0 if self.hits else -1
        self._paint()

    def action_move(self, step: int) -> None:
        self.move(step)

    def move(self, step: int) -> None:
        # The transcript may have been rebuilt (a new turn, another session): look again.
        if any(not hit.block.is_attached for hit in self.hits):
            self.find()
        if not self.hits:
            return
        self.current = (self.current + step) % len(self.hits)
        self._paint()

    def _paint(self) -> None:
        by_block: dict[MarkdownBlock, list[tuple[int, Hit]]] = {}
        for index, hit in enumerate(self.hits):
            by_block.setdefault(hit.block, []).append((index, hit))
        for block, hits in by_block.items():
            content = block._content
            for index, hit in hits:
                style = CURRENT_STYLE if index == self.current else HIT_STYLE
                content = content.stylize(style, hit.start, hit.end)
            _show(block, content)
            self._styled.add(block)
        self._update_count()
        if self.current >= 0:
            # After the next refresh: the restyled blocks and a transcript still being laid
            # out (a session just opened) change heights, and a scroll computed before lands
            # a few lines off (seen in CI under load).
            block = self.hits[self.current].block
            self.call_after_refresh(self.chat.scroll_to_widget, block, animate=False)

    def _update_count(self) -> None:
        count = self.query_one("#chat-search-count", Static)
        if not self.query_text.strip():
            count.update("type to search")
        elif not self.hits:
            count.update("no match")
        else:
            count.update(f"{self.current + 1}/{len(self.hits)}")

    def _restore(self) -> None:
        for block in self._styled:
            if block.is_attached:
                _show(block, block._content)
        self._styled.clear()

    def action_close(self) -> None:
        self._restore()
        composer = self.screen.query_one("#composer")
        self.remove()
        composer.focus()

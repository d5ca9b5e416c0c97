"""The Markdown body of a transcript entry: Textual's Markdown, without language guessing.

A code fence without a language label made Textual ask Pygments to guess one, which imports
every lexer Pygments has (~0.7 s the first time) and then tries each of them on the code
(~50 ms per block): resuming a session whose last replies held such fences took seconds more
than one without. Such a fence is shown as plain text; a labelled one is highlighted as before.
Imported only where a transcript entry is composed (Markdown is the heaviest import of the
transcript, and a new session's first frame does not need it).
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownBlock, MarkdownFence

# Pygments' lexer for text as it is: no guess, no colours.
PLAIN_LANGUAGE = "text"


class UnguessedFence(MarkdownFence):
    @classmethod
    def highlight(
        cls, code: str, language: str, ansi: bool = False, dark: bool = False
    ) -> Content:
        return super().highlight(code, language or PLAIN_LANGUAGE, ansi=ansi, dark=dark)


class EntryMarkdown(Markdown):
    # Annotated as Textual's Markdown declares it (an instance attribute read from the class).
    BLOCKS: dict[str, type[MarkdownBlock]] = {  # noqa: RUF012
        **Markdown.BLOCKS,
        "fence": UnguessedFence,
        "code_block": UnguessedFence,
    }

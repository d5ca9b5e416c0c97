"""The transcript: one entry per message, the streaming draft, notes, recaps and errors.

Entries are appended as the turn runs instead of re-rendering the whole transcript, so a long
session stays fast. Only the messages of the session document are the conversation; notes,
notices, recaps and errors are views the UI adds and never stores.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from rich.text import Text
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from ...core.models import Message, QualityRecord, Session
from ...core.readvocacy_label import readvocacy_label

if TYPE_CHECKING:
    from textual.widgets import Markdown
    from textual.widgets.markdown import MarkdownStream

EntryKind = Literal["user", "assistant", "note", "recap", "error", "notice"]

# A resumed 200-turn session should open instantly; older turns stay in the file and export.
SHOWN_MESSAGES = 80


def unfence(markdown: str) -> str:
    """Turn unlabelled code fences of a command's answer into wrapped lines.

    A SOLIDIFIED block in a fence would not wrap in a narrow chat and Pygments would guess a
    language for it. As one paragraph of hard-broken lines it wraps; block markers at the
    start of a line are neutralised so the lines stay lines ("- item" shows as "• item").
    """
    out: list[str] = []
    fence: str | None = None  # None outside a fence, "plain" or "labelled" inside one
    for line in markdown.split("\n"):
        stripped = line.strip()
        if fence is None and stripped.startswith("```"):
            fence = "plain" if stripped == "```" else "labelled"
            if fence == "plain":
                out.append("")
                continue
        elif fence is not None and stripped == "```":
            was_plain, fence = fence == "plain", None
            if was_plain:
                out.append("")
                continue
        elif fence == "plain" and stripped:
            line = _literal_line(line) + "  "
        out.append(line)
    return "\n".join(out)


def as_lines(text: str) -> str:
    """Plain text (a recap) as Markdown that keeps its line breaks."""
    return unfence(f"```\n{text}\n```")


def _literal_line(line: str) -> str:
    body = line.lstrip()
    indent = "\u00a0" * (len(line) - len(body))  # keeps nesting visible without a code block
    if body[:2] in ("- ", "* ", "+ "):
        body = "• " + body[2:]
    elif body[:1] in ("#", ">", "|"):
        body = "\\" + body
    else:
        number = re.match(r"(\d+)([.)]) ", body)
        if number:
            body = f"{number[1]}\\{number[2]} " + body[number.end() :]
    return indent + body


def reply_meta(turn: int, record: QualityRecord | None, attempt: int | None = None) -> Text:
    """'assistant · turn 3 · attempt 2 of 3 shown · quality 0.82' for a reply."""
    parts = [f"assistant · turn {turn}"]
    if record is not None:
        if record.attempts > 1:
            parts.append(f"attempt {record.shown_attempt} of {record.attempts} shown")
        parts.append(f"quality {record.overall:.2f}")
        if record.premature_attempt:
            parts.append("premature")
        if record.readvocated:
            parts.append("re-advocacy caught: " + readvocacy_label(record))
    elif attempt and attempt > 1:
        parts.append(f"attempt {attempt} shown")
    return Text(" · ".join(parts))


class ChatEntry(Vertical):
    """One block of the transcript: a one-line caption above a Markdown body."""

    def __init__(self, kind: EntryKind, meta: str | Text, body: str, *, turn: int = 0) -> None:
        super().__init__(classes=f"entry -{kind}")
        self.kind = kind
        self.turn = turn
        self._meta = meta
        self._body = body

    def compose(self):  # type: ignore[no-untyped-def]
        yield Static(self._meta, classes="meta", markup=False)
        # Imported here: Markdown (with its parser and Pygments) is the heaviest import of the
        # transcript, and a new session's first frame does not need it.
        from textual.widgets import Markdown

        yield Markdown(self._body, classes="body")

    @property
    def body(self) -> Markdown:
        from textual.widgets import Markdown

        return self.query_one(".body", Markdown)

    def set_meta(self, meta: str | Text) -> None:
        self._meta = meta
        self.query_one(".meta", Static).update(meta)


class WelcomeNote(Static):
    """What an empty session shows until the first message."""

    def __init__(self, solidify_key: str) -> None:
        text = Text.assemble(
            ("rcm-tui\n", "bold"),
            "Describe what you are working on. Requirements and decisions you state are "
            "tracked in the panels on the right; ",
            (solidify_key, "bold"),
            " writes a SOLIDIFIED summary, ",
            ("/help", "bold"),
            " lists every command.",
        )
        super().__init__(text, classes="entry -welcome", markup=False)


class NoticeLine(Static):
    """A one-line, dim remark of the layer (a fallback, a consolidation, a cancellation)."""

    def __init__(self, text: str, level: str = "info") -> None:
        super().__init__(Text(text), classes=f"entry -notice -{level}", markup=False)
        self.text = text


class DraftReply(ChatEntry):
    """The reply being streamed; becomes the stored reply once the turn has shown it."""

    def __init__(self, turn: int, attempt: int) -> None:
        super().__init__("assistant", self._caption(turn, attempt), "", turn=turn)
        self.add_class("-streaming")
        self.attempt = attempt
        self._stream: MarkdownStream | None = None

    @staticmethod
    def _caption(turn: int, attempt: int) -> str:
        which = "the draft" if attempt == 1 else f"attempt {attempt} (refinement {attempt - 1})"
        return f"assistant · turn {turn} · streaming {which}…"

    async def restart(self, attempt: int) -> None:
        """A new attempt replaces the text streamed so far."""
        await self.stop()
        self.attempt = attempt
        self.set_meta(self._caption(self.turn, attempt))
        await self.body.update("")

    async def write(self, fragment: str) -> None:
        if self._stream is None:
            from textual.widgets import Markdown

            self._stream = Markdown.get_stream(self.body)
        await self._stream.write(fragment)

    async def stop(self) -> None:
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None

    async def settle(self, text: str, meta: str | Text) -> None:
        """Show the reply that stays (the best attempt) and stop streaming."""
        await self.stop()
        await self.body.update(text)
        self.set_meta(meta)
        self.remove_class("-streaming")


class ChatLog(VerticalScroll):
    """The scrolling transcript. It follows the newest text until the user scrolls up."""

    # Named in the welcome note; the screen sets it from the configured keys.
    solidify_key = "ctrl+s"

    def on_mount(self) -> None:
        self.anchor()

    @property
    def draft(self) -> DraftReply | None:
        drafts = self.query(DraftReply).filter(".-streaming")
        return drafts.last() if drafts else None

    async def show_session(self, session: Session) -> None:
        """Render a session from its document (opening, resuming, a new session)."""
        await self.remove_children()
        messages = session.messages[-SHOWN_MESSAGES:]
        entries: list[ChatEntry | NoticeLine | WelcomeNote] = []
        hidden = len(session.messages) - len(messages)
        if hidden:
            entries.append(
                NoticeLine(f"{hidden} earlier message(s) are in the session file and its export")
            )
        for message in messages:
            entries.append(self._entry_for(session, message))
        if not session.messages:
            entries.append(WelcomeNote(self.solidify_key))
        if entries:
            await self.mount_all(entries)
        self.scroll_end(animate=False)
        self.anchor()

    def _entry_for(self, session: Session, message: Message) -> ChatEntry:
        if message.role == "user":
            return ChatEntry(
                "user", f"you · turn {message.turn}", message.content, turn=message.turn
            )
        meta = reply_meta(message.turn, session.quality_for(message.turn), message.attempt)
        return ChatEntry("assistant", meta, message.content, turn=message.turn)

    async def _append(self, widget: ChatEntry | NoticeLine | WelcomeNote) -> None:
        for welcome in self.query(".-welcome"):
            await welcome.remove()
        await self.mount(widget)
        self.anchor()

    async def add_user(self, text: str, turn: int) -> None:
        await self._append(ChatEntry("user", f"you · turn {turn}", text, turn=turn))

    async def add_note(self, markdown: str, caption: str, kind: EntryKind = "note") -> None:
        await self._append(ChatEntry(kind, caption, unfence(markdown)))

    async def add_notice(self, text: str, level: str = "info") -> None:
        await self._append(NoticeLine(text, level))

    async def add_error(self, turn: int, reason: str, retry_key: str) -> None:
        body = (
            f"**{reason}**\n\nYour message is saved. Press **{retry_key}** (or type `/retry`) "
            "to run the turn again."
        )
        await self._append(ChatEntry("error", f"error · turn {turn}", body, turn=turn))

    async def start_draft(self, turn: int, attempt: int) -> None:
        draft = self.draft
        if draft is not None and draft.turn == turn:
            await draft.restart(attempt)
            return
        await self._append(DraftReply(turn, attempt))

    async def write_draft(self, fragment: str) -> None:
        draft = self.draft
        if draft is not None:
            await draft.write(fragment)

    async def settle_draft(self, turn: int, text: str, meta: str | Text) -> None:
        draft = self.draft
        if draft is None:
            await self._append(ChatEntry("assistant", meta, text, turn=turn))
            return
        await draft.settle(text, meta)

    async def drop_draft(self) -> None:
        draft = self.draft
        if draft is not None:
            await draft.stop()
            await draft.remove()

    def set_reply_meta(self, turn: int, meta: Text) -> None:
        """Update the caption of a turn's reply once its quality is known."""
        for entry in self.query(ChatEntry).filter(".-assistant"):
            if entry.turn == turn and not entry.has_class("-streaming"):
                entry.set_meta(meta)

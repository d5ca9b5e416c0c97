"""The transcript: one entry per message, the streaming draft, notes, recaps and errors.

Entries are appended as the turn runs instead of re-rendering the whole transcript, so a long
session stays fast. Only the messages of the session document are the conversation; notes,
notices, recaps and errors are views the UI adds and never stores.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from ...core.models import Message, QualityRecord, Session
from ...core.readvocacy_label import readvocacy_label
from ...core.text_safety import visible_controls, visible_line
from .reply_format import display_reply

if TYPE_CHECKING:
    from textual.widgets import Markdown
    from textual.widgets.markdown import MarkdownStream

EntryKind = Literal["user", "assistant", "note", "recap", "error", "notice"]

# A resumed session shows its last messages at once (a screenful: at least MIN_INITIAL, at most
# INITIAL_MESSAGES), and mounts older ones a batch at a time as the user scrolls up to them:
# opening a 1,000-turn session costs what opening a short one does, and memory grows only with
# what was viewed. Each Markdown body mounted before the first frame delays it (~40 ms for a
# reply with a code block and a table).
INITIAL_MESSAGES = 10
MIN_INITIAL = 2
OLDER_BATCH = 10
# Lines an entry takes besides its text: the caption and the margins.
ENTRY_CHROME_LINES = 3
# Lines from the top at which the next older batch is mounted.
REVEAL_MARGIN = 3


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


# A model name longer than this is cut in a caption (a path or a dated release name).
MODEL_CAPTION_CHARS = 32


def writer_caption(model: str | None) -> str:
    """Who wrote a reply, as its caption starts: the model's name ('gpt-4o', 'SmolLM2-135M-
    Instruct'), or 'assistant' for replies written before models were recorded. The name
    stands where 'assistant' stood, as 'you' does on the user's messages: no extra field."""
    if not model:
        return "assistant"
    name = model.rstrip("/").rsplit("/", 1)[-1].removesuffix(".gguf") or model
    if len(name) > MODEL_CAPTION_CHARS:
        name = name[: MODEL_CAPTION_CHARS - 1] + "…"
    return name


def reply_meta(
    turn: int, record: QualityRecord | None, attempt: int | None = None, model: str | None = None
) -> Text:
    """'gpt-4o · turn 3 · attempt 2 of 3 shown · quality 0.82' for a reply."""
    parts = [f"{writer_caption(model)} · turn {turn}"]
    if record is not None:
        if record.attempts > 1:
            parts.append(f"attempt {record.shown_attempt} of {record.attempts} shown")
        parts.append(f"quality {record.overall:.2f}")
        if record.premature_attempt:
            parts.append("premature")
        if record.readvocated:
            parts.append("re-advocacy flagged: " + readvocacy_label(record))
    elif attempt and attempt > 1:
        parts.append(f"attempt {attempt} shown")
    return Text(visible_line(" · ".join(parts)))


def _safe_meta(meta: str | Text) -> str | Text:
    # Captions built here from stored text are Text already made visible (reply_meta).
    return visible_line(meta) if isinstance(meta, str) else meta


def estimated_lines(text: str, width: int) -> int:
    """Lines a message takes on screen, roughly: at least what its text wraps to at `width`."""
    width = max(20, width)
    return ENTRY_CHROME_LINES + sum(1 + len(line) // width for line in text.split("\n"))


def first_on_screen(messages: list[Message], width: int, height: int) -> int:
    """The index of the oldest message to mount so that the newest ones fill `height` lines
    (a session this short is shown whole). The terminal's width overstates the chat's, so
    the estimate errs towards one more."""
    if len(messages) <= INITIAL_MESSAGES:
        return 0
    start, lines = len(messages), 0
    while start > 0 and len(messages) - start < INITIAL_MESSAGES:
        if lines >= height and len(messages) - start >= MIN_INITIAL:
            break
        start -= 1
        lines += estimated_lines(messages[start].content, width)
    return start


class ChatEntry(Vertical):
    """One block of the transcript: a one-line caption above a Markdown body."""

    def __init__(self, kind: EntryKind, meta: str | Text, body: str, *, turn: int = 0) -> None:
        super().__init__(classes=f"entry -{kind}")
        self.kind = kind
        self.turn = turn
        # Messages and notes are text from a model or a file: no terminal control gets through.
        self._meta = _safe_meta(meta)
        self._body = visible_controls(body)

    def compose(self) -> ComposeResult:
        yield Static(self._meta, classes="meta", markup=False)
        # Imported here: Markdown (with its parser and Pygments) is the heaviest import of the
        # transcript, and a new session's first frame does not need it.
        from .markdown_body import EntryMarkdown

        yield EntryMarkdown(self._body, classes="body")

    @property
    def body(self) -> Markdown:
        from textual.widgets import Markdown

        return self.query_one(".body", Markdown)

    def set_meta(self, meta: str | Text) -> None:
        self._meta = _safe_meta(meta)
        self.query_one(".meta", Static).update(self._meta)


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
        shown = Text(visible_controls(text))
        super().__init__(shown, classes=f"entry -notice -{level}", markup=False)
        self.text = text


class EarlierMessages(Static):
    """Stands above the oldest mounted message while older ones are not mounted yet."""

    def __init__(self, count: int) -> None:
        super().__init__(self._text(count), classes="entry -notice -info -earlier", markup=False)
        self.count = count

    @staticmethod
    def _text(count: int) -> Text:
        return Text(f"↑ {count} earlier message(s): scroll up to show them")

    def set_count(self, count: int) -> None:
        self.count = count
        self.update(self._text(count))


class DraftReply(ChatEntry):
    """The reply being streamed; becomes the stored reply once the turn has shown it."""

    def __init__(self, turn: int, attempt: int, model: str | None = None) -> None:
        super().__init__("assistant", self._caption(turn, attempt, model), "", turn=turn)
        self.add_class("-streaming")
        self.attempt = attempt
        self.model = model
        self._stream: MarkdownStream | None = None

    @staticmethod
    def _caption(turn: int, attempt: int, model: str | None) -> str:
        which = "the draft" if attempt == 1 else f"attempt {attempt} (refinement {attempt - 1})"
        return f"{writer_caption(model)} · turn {turn} · streaming {which}…"

    async def restart(self, attempt: int) -> None:
        """A new attempt replaces the text streamed so far."""
        await self.stop()
        self.attempt = attempt
        self.set_meta(self._caption(self.turn, attempt, self.model))
        await self.body.update("")

    async def write(self, fragment: str) -> None:
        if self._stream is None:
            from textual.widgets import Markdown

            self._stream = Markdown.get_stream(self.body)
        await self._stream.write(visible_controls(fragment))

    async def stop(self) -> None:
        if self._stream is not None:
            await self._stream.stop()
            self._stream = None

    async def settle(self, text: str, meta: str | Text) -> None:
        """Show the reply that stays (the best attempt) and stop streaming."""
        await self.stop()
        await self.body.update(visible_controls(text))
        self.set_meta(meta)
        self.remove_class("-streaming")


class ChatLog(VerticalScroll):
    """The scrolling transcript. It follows the newest text until the user scrolls up."""

    # Named in the welcome note; the screen sets it from the configured keys.
    solidify_key = "ctrl+s"

    _session: Session | None = None
    # Index in session.messages of the oldest message mounted.
    _first_shown = 0
    _revealing = False

    def on_mount(self) -> None:
        self.anchor()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if new_value <= REVEAL_MARGIN and self._first_shown > 0 and not self._revealing:
            self._revealing = True
            self.call_later(self.reveal_older)

    async def reveal_older(self) -> None:
        """Mount the next batch of older messages above the oldest one shown, keeping the
        lines the user is reading where they are."""
        try:
            session = self._session
            markers = self.query(EarlierMessages)
            if session is None or self._first_shown <= 0 or not markers:
                return
            start = max(0, self._first_shown - OLDER_BATCH)
            batch = [self._entry_for(session, m) for m in session.messages[start:self._first_shown]]
            height, offset = self.virtual_size.height, self.scroll_y
            await self.mount_all(batch, after=markers.first())
            self._first_shown = start
            if start:
                markers.first().set_count(start)
            else:
                await markers.first().remove()
            self.call_after_refresh(self._keep_reading_position, height, offset)
        finally:
            self._revealing = False

    def _keep_reading_position(self, height: int, offset: float) -> None:
        grown = self.virtual_size.height - height
        if grown > 0:
            self.scroll_to(y=offset + grown, animate=False)

    @property
    def draft(self) -> DraftReply | None:
        drafts = self.query(DraftReply).filter(".-streaming")
        return drafts.last() if drafts else None

    async def show_session(self, session: Session) -> None:
        """Render a session from its document (opening, resuming, a new session)."""
        await self.remove_children()
        self._session = session
        width, height = self.size if self.size.area else self.app.size
        self._first_shown = first_on_screen(session.messages, width, height)
        messages = session.messages[self._first_shown :]
        entries: list[ChatEntry | NoticeLine | WelcomeNote | EarlierMessages] = []
        if self._first_shown:
            entries.append(EarlierMessages(self._first_shown))
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
        meta = reply_meta(
            message.turn, session.quality_for(message.turn), message.attempt, message.model
        )
        return ChatEntry("assistant", meta, display_reply(message.content), turn=message.turn)

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

    async def start_draft(self, turn: int, attempt: int, model: str | None = None) -> None:
        draft = self.draft
        if draft is not None and draft.turn == turn:
            await draft.restart(attempt)
            return
        await self._append(DraftReply(turn, attempt, model))

    async def write_draft(self, fragment: str) -> None:
        draft = self.draft
        if draft is not None:
            await draft.write(fragment)

    async def settle_draft(self, turn: int, text: str, meta: str | Text) -> None:
        text = display_reply(text)
        draft = self.draft
        if draft is None:
            await self._append(ChatEntry("assistant", meta, text, turn=turn))
            return
        await draft.settle(text, meta)

    async def keep_cancelled(self, turn: int, text: str, model: str | None = None) -> None:
        """Show what a cancelled turn had streamed, marked as such (it is not the answer)."""
        caption = f"{writer_caption(model)} · turn {turn} · cancelled · not an answer"
        meta = Text(visible_line(caption))
        draft = self.draft
        if draft is not None and draft.turn == turn:
            await draft.settle(display_reply(text), meta)
            draft.add_class("-cancelled")
            return
        entry = ChatEntry("assistant", meta, display_reply(text), turn=turn)
        entry.add_class("-cancelled")
        await self._append(entry)

    async def drop_draft(self) -> None:
        draft = self.draft
        if draft is not None:
            await draft.stop()
            await draft.remove()

    def set_reply_meta(self, turn: int, meta: Text) -> None:
        """Update the caption of a turn's reply once its quality is known."""
        for entry in self.query(ChatEntry).filter(".-assistant"):
            if entry.turn == turn and not entry.has_class("-streaming", "-cancelled"):
                entry.set_meta(meta)

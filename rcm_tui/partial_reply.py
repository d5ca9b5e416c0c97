"""The reply being streamed, so that a turn cancelled mid-stream keeps what was shown."""

from __future__ import annotations

from .core.events import PipelineEvent, ReplyDelta, ReplyShown, ReplyStarted


class PartialReply:
    def __init__(self) -> None:
        # (turn, attempt or 0 once shown whole, text parts) of the reply being streamed.
        self._partial: tuple[int, int, list[str]] | None = None

    def clear(self) -> None:
        self._partial = None

    def track(self, event: PipelineEvent) -> None:
        # The reply streamed so far, kept if the turn is cancelled mid-stream; once an attempt
        # was shown whole, that one (a later refinement's stream does not replace it).
        shown = self._partial is not None and self._partial[1] == 0
        if isinstance(event, ReplyStarted) and not shown:
            self._partial = (event.turn, event.attempt, [])
        elif isinstance(event, ReplyDelta) and self._partial is not None and not shown:
            self._partial[2].append(event.text)
        elif isinstance(event, ReplyShown):
            self._partial = (event.turn, 0, [event.text])

    def take(self, turn: int) -> tuple[str, int] | None:
        """(text, attempt) streamed for `turn`, once; None when nothing was."""
        partial, self._partial = self._partial, None
        if partial is None or partial[0] != turn:
            return None
        text = "".join(partial[2]).strip()
        return (text, partial[1] or 1) if text else None

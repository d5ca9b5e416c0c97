"""Stopping a small model's sample at the first sentence that proposes a rejected option.

The lean profile answers a reply that proposes a rejected option with a fresh sample of the
same prompt (small_model.py). Measured on SmolLM2-135M (`rcm-tui eval`, shared scenarios),
such a sample usually proposes the option in its first sentence, yet ran on to its 160 tokens
before the guard read it: a doomed sample cost a whole reply's time (db-selection: 1.75 calls
and 1.7× plain's time a turn). So the guard reads the sample while it streams, at each
completed sentence or line, and the stream is cancelled at the first proposal. The stopped
attempt counts as a failed one and is never shown (its draft leaves the screen when the next
attempt starts; evaluate.py never keeps it); the next sample starts at once, from a prompt the
KV cache still holds whole.

The last attempt the settings allow is never stopped: a turn always has a whole reply to show,
even when every sample proposed the option (the label then says so).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..heuristics import find_readvocacy
from .engine import Engine
from .state import Turn

# Where a sentence or a line ends: the punctuation is followed by a space (not "2.5" or
# "e.g" mid-word); CJK full stops need none.
_SENTENCE_END = re.compile(r"[.!?](?=\s)|[。！？]|\n")


class ProposalWatch:
    """Reads a streamed sample sentence by sentence; says when it has proposed an option."""

    def __init__(self, rejected: list[str], own_text: Callable[[str], str]) -> None:
        self._rejected = rejected
        # The sample as the user would see it: without the ledger lines it copied.
        self._own_text = own_text
        self._text = ""
        self._checked = 0
        self.proposed: list[str] = []

    @property
    def stopped(self) -> bool:
        return bool(self.proposed)

    @property
    def kept(self) -> str:
        """The sample up to the end of the sentence that proposed the option."""
        return self._text[: self._checked]

    def reset(self) -> None:
        """The stream starts over (resent after another call cut it off)."""
        self._text = ""
        self._checked = 0
        self.proposed = []

    def feed(self, delta: str) -> bool:
        """Add a streamed piece; True once a completed sentence proposes a rejected option."""
        self._text += delta
        # From one character back: the space that completes "MongoDB." may come alone.
        ends = list(_SENTENCE_END.finditer(self._text, max(self._checked - 1, 0)))
        if not ends or ends[-1].end() <= self._checked:
            return False
        self._checked = ends[-1].end()
        self.proposed = find_readvocacy(
            self._own_text(self._text[: self._checked]), self._rejected, as_reply=True
        )
        return self.stopped


def proposal_watch(
    engine: Engine, turn: Turn, attempt: int, own_text: Callable[[str], str]
) -> ProposalWatch | None:
    """A watch for this attempt, or None when it must run to its end: not the lean profile
    (a rewrite request needs the whole draft it rewrites), no option rejected, or the last
    attempt the settings allow."""
    settings = engine.settings
    if not (settings.reliability and engine.lean) or attempt > settings.max_refinement_attempts:
        return None
    rejected = [r.option for r in turn.session.active_rejections()]
    return ProposalWatch(rejected, own_text) if rejected else None

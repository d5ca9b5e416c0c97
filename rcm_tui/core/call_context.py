"""What the engine knows of a call beyond its messages, for a provider that has no model.

Providers receive messages and a response format, nothing else. The offline demo answers
without a model, so it needs what a model would read in the prompt: the user's message, the
ledger, the draft to revise, the scores a judge would give. The engine states them for each
call it makes (`calling`), and a provider that wants them asks (`current_call`); a network
provider never does. A context variable rather than a request field: wrappers around a
provider (the bench's token cap, a test's recorder) pass it on without knowing it exists.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from .ledger_snapshot import LedgerSnapshot
from .quality import Scores


@dataclass(frozen=True)
class CallContext:
    turn: int
    ledger: LedgerSnapshot
    user_message: str = ""
    # Is the reply asked to open with a [STATUS] block?
    status_requested: bool = False
    # A refinement: the reply to revise.
    draft: str = ""
    # A judge call: the heuristics' scores of the reply.
    heuristic: Scores | None = None
    # A consolidation: the summary the heuristics would write.
    summary_fallback: str = ""


_CURRENT: ContextVar[CallContext | None] = ContextVar("rcm_tui_call_context", default=None)


@contextlib.contextmanager
def calling(context: CallContext) -> Iterator[None]:
    """State `context` for the calls made inside the block (in this task and those it
    starts)."""
    token = _CURRENT.set(context)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def current_call() -> CallContext | None:
    """The context of the call being made, if the engine stated one."""
    return _CURRENT.get()

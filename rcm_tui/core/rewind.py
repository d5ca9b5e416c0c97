"""Rewinding a session to just before one of its turns, for regenerating a reply and for
editing an earlier message: that turn and every later one are dropped, and the ledger is taken
as it stood after the turn before (the fork computes it: see branch.py), so nothing the dropped
turns stated is left behind. The caller then runs the (edited) message again as that turn.

The session keeps its identity (id, title, provider, parent): it is the same conversation.
"""

from __future__ import annotations

from .branch import fork_session, fork_turns
from .models import Session

# What a rewind keeps from the session itself, not from the state as of the earlier turn.
_IDENTITY = frozenset({
    "schema_version", "id", "title", "created_at", "updated_at", "provider", "parent",
    "reliability", "one_call_at_a_time",
})


def rewind_before(session: Session, turn: int) -> Session:
    """A new Session object: `session` as it stood before user turn `turn` was sent."""
    turns = fork_turns(session)
    if turn not in turns:
        shown = f"1–{turns[-1]}" if turns else "none yet"
        raise ValueError(f"no turn {turn} (turns: {shown})")
    earlier = [t for t in turns if t < turn]
    # Before the first turn the state is a fresh session's.
    state = fork_session(session, earlier[-1]) if earlier else Session()
    fields = {name: getattr(state, name) for name in Session.model_fields
              if name not in _IDENTITY}
    return session.model_copy(update=fields, deep=True)


def user_message(session: Session, turn: int) -> str:
    """The text the user sent at `turn`."""
    found = next((m.content for m in session.messages if m.role == "user" and m.turn == turn),
                 None)
    if found is None:
        raise ValueError(f"no user message at turn {turn}")
    return found

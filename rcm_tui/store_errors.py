"""What the session store raises: each error's str() is the one line shown to the user."""

from __future__ import annotations

from .session_files import printable


class StoreError(Exception):
    """A session store failure; str() is the one line shown to the user."""


class SessionNotFound(StoreError):
    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        super().__init__(
            f"no session with id '{printable(session_id)}' (rcm-tui sessions list shows them)"
        )


class BrokenSession(StoreError):
    def __init__(self, session_id: str, reason: str, *, action: str = "") -> None:
        self.session_id = session_id
        self.reason = reason
        prefix = f"{action}: " if action else ""
        super().__init__(f"{prefix}session '{printable(session_id)}' is broken: {reason}")


class SessionLocked(StoreError):
    def __init__(self, session_id: str, pid: int | None) -> None:
        self.session_id = session_id
        self.pid = pid
        holder = f"pid {pid}" if pid else "pid unknown"
        super().__init__(
            f"session {session_id} is open in another rcm-tui ({holder}); "
            "close it there first, or open a different session"
        )

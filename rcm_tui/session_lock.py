"""The lock a process holds on an open session: flock() on <id>.lock, and who holds it."""

from __future__ import annotations

import contextlib
import fcntl
import os
import weakref
from pathlib import Path

# Lock files this process holds, so that its own rename/delete are not refused by its own lock.
# Weak, so that a lock object nobody references any more can still be released by __del__.
HELD_LOCKS: weakref.WeakValueDictionary[Path, SessionLock] = weakref.WeakValueDictionary()


class SessionLock:
    """An exclusive flock on "<id>.lock"; released explicitly, on exit, or when the process dies."""

    def __init__(self, session_id: str, path: Path, fd: int) -> None:
        self.session_id = session_id
        self.path = path
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if HELD_LOCKS.get(self.path) is self:
            del HELD_LOCKS[self.path]
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def __enter__(self) -> SessionLock:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()

    def __del__(self) -> None:
        # A forgotten lock must not outlive its owner object and block the session forever.
        with contextlib.suppress(Exception):
            self.release()


def lock_holder(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True

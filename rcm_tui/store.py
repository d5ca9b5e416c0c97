"""Session files: one JSON document per session, written atomically, listed through an index.

Everything in the sessions folder is treated as untrusted input. A file that cannot be used
(bad JSON, a newer schema, a symlink, something huge, ...) is reported as a *broken* entry with
a one-line reason and is never written to, renamed or cleaned up by a save: the user may be
able to repair it by hand, and a newer rcm-tui may understand it. Only an explicit `delete`
removes it.

Layout of the folder (0700):
    <id>.json                       a session document (0600)
    <id>.journal                    changes since the document was last rewritten (journal.py)
    <id>.lock                       held with flock() by the process that has the session open
    index.json                      a cache of what `list` shows; rebuilt whenever it is unusable
    .<id>.json.tmp-<pid>-<rand>     a save in progress, or the leftover of a crash
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import fcntl
import json
import logging
import os
import re
import stat
import time
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic_core import PydanticSerializationError

from . import config, journal, safe_files
from .core.models import DocumentError, Session, session_from_data, utc_now
from .core.text_safety import visible_line

log = logging.getLogger(__name__)

INDEX_NAME = "index.json"
INDEX_VERSION = 1
# Sessions with every LLM call recorded reach a few tens of MB after a very long conversation;
# anything much larger is not ours, and reading it would stall the app.
MAX_FILE_BYTES = 64 * 1024 * 1024
# A small file can still expand ~25x in memory when it is nothing but tiny JSON values
# ("[[],[],...]"). Real sessions hold a few hundred thousand values at most.
MAX_JSON_VALUES = 2_000_000
# Real documents nest about six levels; unknown keys from newer writers get generous room.
MAX_NESTING = 64
# Titles are shown in one table row; the index should not carry a pasted novel.
MAX_LISTED_TITLE = 200
MAX_TITLE = 200
# A temp file older than this is a leftover even if its writer's pid was reused since.
STALE_TEMP_SECONDS = 3600
# A temp file younger than this may belong to a writer in another pid namespace.
MIN_TEMP_AGE_SECONDS = 60

_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,80}")
_TEMP_RE = re.compile(r"^\.(?P<name>.+)\.tmp-(?P<pid>\d+)-[0-9a-f]+$")
_RESERVED_IDS = frozenset({INDEX_NAME.removesuffix(".json")})


# -- errors ---------------------------------------------------------------------------------


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


def printable(text: str, limit: int = 80) -> str:
    """Text from a file or the command line, safe to put in a one-line terminal message."""
    cleaned = visible_line(text)
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


# -- listing entries ------------------------------------------------------------------------


@dataclass
class SessionEntry:
    id: str
    title: str
    updated_at: datetime | None
    created_at: datetime | None
    turns: int
    average_quality: float | None
    path: Path
    broken: str | None
    size: int
    # A branch: (parent id, the last turn it shares with the parent).
    parent: tuple[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "updated_at": _iso(self.updated_at),
            "created_at": _iso(self.created_at),
            "turns": self.turns,
            "average_quality": self.average_quality,
            "path": str(self.path),
            "broken": self.broken,
            "parent": {"id": self.parent[0], "turn": self.parent[1]} if self.parent else None,
        }


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _aware(value: datetime) -> datetime:
    # Hand-edited or foreign documents may carry naive times; sorting must not mix the kinds.
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return _aware(datetime.fromisoformat(value))
    except ValueError:
        return None


# -- encoding and hostile-safe reading ------------------------------------------------------


def encode_document(session: Session) -> bytes:
    """The bytes of a session file (also what `export --format json` prints)."""
    try:
        # pydantic-core's encoder: the same bytes as json.dumps(indent=2) in a fifth of the
        # time (the stdlib drops its C encoder when indenting); a 200-turn file saves in ms.
        return (session.model_dump_json(indent=2) + "\n").encode("utf-8")
    except PydanticSerializationError:
        pass
    data = session.dump()
    try:
        text = json.dumps(data, ensure_ascii=False, indent=2)
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (from a broken paste) cannot be UTF-8; \u escapes keep it loadable
        # instead of losing the whole turn.
        return (json.dumps(data, ensure_ascii=True, indent=2) + "\n").encode("ascii")


class _Unusable(Exception):
    """Internal: why a file cannot be used; becomes BrokenSession or a broken entry."""


_Signature = tuple[int, int, int]  # (mtime_ns, size, inode)


def _signature(st: os.stat_result) -> _Signature:
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MB"


def _check_kind(st: os.stat_result) -> None:
    """Raise _Unusable for anything but a regular file of sane size (lstat result)."""
    if stat.S_ISLNK(st.st_mode):
        raise _Unusable("symbolic link (not followed)")
    if stat.S_ISDIR(st.st_mode):
        raise _Unusable("a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise _Unusable("not a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise _Unusable(f"file too large ({_megabytes(st.st_size)})")


def _read_bounded(path: Path) -> tuple[bytes, os.stat_result]:
    """Read a regular file without following symlinks, blocking on FIFOs or reading unbounded."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _Unusable("symbolic link (not followed)") from None
        if isinstance(exc, FileNotFoundError):
            raise
        raise _Unusable(f"cannot read: {(exc.strerror or str(exc)).lower()}") from None
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(fd)
        _check_kind(st)
        try:
            raw = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise _Unusable(f"cannot read: {(exc.strerror or str(exc)).lower()}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise _Unusable(f"file too large (over {_megabytes(MAX_FILE_BYTES)})")
    return raw, st


def _parse_json(raw: bytes) -> Any:
    if not raw.strip():
        raise _Unusable("empty file")
    values = raw.count(b'"') // 2 + raw.count(b"[") + raw.count(b"{")
    if values > MAX_JSON_VALUES:
        raise _Unusable(f"too many JSON values (about {values:,})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _Unusable(f"not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise _Unusable("nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise _Unusable(
            f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:  # e.g. an integer literal beyond Python's digit limit
        raise _Unusable(f"invalid JSON: {str(exc).splitlines()[0]}") from None


def _unusable_shape(data: Any, limit: int = MAX_NESTING) -> str | None:
    """Why parsed JSON could be loaded but never saved again, or None. In one iterative pass
    (so that measuring a hostile document cannot itself hit the recursion limit) that pushes
    only containers: a 1,000-turn document took ~60 ms in two passes, ~15 ms in this one.

    - json.loads accepts a few hundred levels that pydantic then refuses to serialise;
    - a key with a lone surrogate (a JSON escape like "\\ud800"): pydantic keeps it but cannot
      serialise it. Values are fine: they are escaped."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit or (depth == limit and node):  # its items are one level deeper
            return "nested too deeply"
        if type(node) is dict:
            for key in node:
                if not key.isascii():
                    try:
                        key.encode("utf-8")
                    except UnicodeEncodeError:
                        return "a key holds a lone surrogate (not valid Unicode text)"
            children: Any = node.values()
        else:
            children = node
        for child in children:
            if type(child) is dict or type(child) is list:
                stack.append((child, depth + 1))
    return None


def _validate(session_id: str, data: Any) -> Session:
    # Such a session could be opened but never saved again, so it is refused up front.
    reason = _unusable_shape(data)
    if reason is not None:
        raise _Unusable(reason)
    try:
        session = session_from_data(data)
    except DocumentError as exc:
        raise _Unusable(str(exc)) from None
    except RecursionError:
        raise _Unusable("nested too deeply") from None
    if session.id != session_id:
        raise _Unusable(f"file name does not match the id inside ('{printable(session.id)}')")
    return session


def _read_session(session_id: str, path: Path) -> tuple[Session, os.stat_result]:
    session, st, _ = _read_session_and_journal(session_id, path)
    return session, st


def _read_session_and_journal(
    session_id: str, path: Path
) -> tuple[Session, os.stat_result, journal.Replayed]:
    raw, st = _read_bounded(path)
    changes = journal.replay_checked(_parse_json(raw), journal.read_journal(path, MAX_FILE_BYTES))
    return _validate(session_id, changes.data), st, changes


# -- the index ------------------------------------------------------------------------------


def _record_for(session: Session, st: os.stat_result) -> dict[str, Any]:
    mtime_ns, size, ino = _signature(st)
    return {
        "title": session.title[:MAX_LISTED_TITLE],
        "updated_at": _aware(session.updated_at).isoformat(),
        "created_at": _aware(session.created_at).isoformat(),
        "turns": session.turn,
        "average_quality": session.average_quality(),
        "mtime_ns": mtime_ns,
        "size": size,
        "ino": ino,
        "broken": None,
        "parent": [session.parent.id, session.parent.turn] if session.parent else None,
    }


def _broken_record(reason: str, st: os.stat_result) -> dict[str, Any]:
    mtime_ns, size, ino = _signature(st)
    return {
        "title": "",
        "updated_at": None,
        "created_at": None,
        "turns": 0,
        "average_quality": None,
        "mtime_ns": mtime_ns,
        "size": size,
        "ino": ino,
        "broken": reason,
        "parent": None,
    }


_RECORD_TYPES: dict[str, tuple[type, ...]] = {
    "title": (str,),
    "updated_at": (str, type(None)),
    "created_at": (str, type(None)),
    "turns": (int,),
    "average_quality": (float, int, type(None)),
    "mtime_ns": (int,),
    "size": (int,),
    "ino": (int,),
    "broken": (str, type(None)),
    "parent": (list, type(None)),
}


def _record_is_sane(record: Any) -> bool:
    # The index is just another file in the folder: a record of the wrong shape is re-derived
    # from the session file rather than trusted.
    # Every key must be there: a record from a version that did not know one is re-derived.
    return isinstance(record, dict) and all(
        key in record
        and isinstance(record.get(key), types) and not isinstance(record.get(key), bool)
        for key, types in _RECORD_TYPES.items()
    )


def _record_signature(record: dict[str, Any]) -> _Signature:
    return (record["mtime_ns"], record["size"], record["ino"])


def _entry_from_record(session_id: str, record: dict[str, Any], path: Path) -> SessionEntry:
    quality = record["average_quality"]
    return SessionEntry(
        id=session_id,
        title=record["title"],
        updated_at=_parse_time(record["updated_at"]),
        created_at=_parse_time(record["created_at"]),
        turns=record["turns"],
        average_quality=float(quality) if quality is not None else None,
        path=path,
        broken=record["broken"],
        size=record["size"],
        parent=_parent_from_record(record.get("parent")),
    )


def _parent_from_record(value: Any) -> tuple[str, int] | None:
    # Optional (older index records lack it) and only as trusted as the rest of the index.
    if (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
            and isinstance(value[1], int) and not isinstance(value[1], bool)):
        return (value[0], value[1])
    return None


def _sort_key(session_id: str, record: dict[str, Any]) -> tuple[float, str]:
    updated = _parse_time(record["updated_at"])
    # Broken files have no trustworthy time of their own; their mtime places them sensibly.
    when = updated.timestamp() if updated else record["mtime_ns"] / 1e9
    return (when, session_id)


# -- locking --------------------------------------------------------------------------------

# Lock files this process holds, so that its own rename/delete are not refused by its own lock.
# Weak, so that a lock object nobody references any more can still be released by __del__.
_HELD_LOCKS: weakref.WeakValueDictionary[Path, SessionLock] = weakref.WeakValueDictionary()


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
        if _HELD_LOCKS.get(self.path) is self:
            del _HELD_LOCKS[self.path]
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


def _lock_holder(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


# -- the store ------------------------------------------------------------------------------


class SessionStore:
    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else config.sessions_dir()
        try:
            # Conversations are private; a folder made by an older version or by hand is
            # tightened when it may be, and a read-only one stays readable.
            safe_files.private_folder(self.root)
        except OSError as exc:
            raise StoreError(f"cannot use sessions folder {self.root}: {exc.strerror}") from None
        # Files this instance wrote or validated, by signature: saving over them needs no re-read.
        self._verified: dict[str, _Signature] = {}
        self._search_cache: dict[str, tuple[tuple[_Signature, int], str]] = {}
        # Sessions this instance wrote, with what it wrote: the next save appends the changes.
        self._journals: dict[str, journal.SessionJournal] = {}

    # -- paths ----------------------------------------------------------------------------
    def path_for(self, session_id: str) -> Path:
        if not isinstance(session_id, str) or not _ID_RE.fullmatch(session_id):
            shown = printable(str(session_id))
            raise StoreError(f"invalid session id '{shown}': use 1-80 letters, digits, '-' or '_'")
        if session_id in _RESERVED_IDS:
            raise StoreError(f"invalid session id '{session_id}': the name is reserved")
        return self.root / f"{session_id}.json"

    def _lock_path(self, session_id: str) -> Path:
        return self.path_for(session_id).with_suffix(".lock")

    @property
    def index_path(self) -> Path:
        return self.root / INDEX_NAME

    # -- load and save --------------------------------------------------------------------
    def load(self, session_id: str) -> Session:
        path = self.path_for(session_id)
        try:
            _check_kind(os.lstat(path))
            session, st, changes = _read_session_and_journal(session_id, path)
        except FileNotFoundError:
            raise SessionNotFound(session_id) from None
        except _Unusable as exc:
            raise BrokenSession(session_id, str(exc)) from None
        except OSError as exc:
            raise StoreError(f"cannot read session {session_id}: {exc.strerror}") from None
        self._verified[session_id] = _signature(st)
        if changes.size and changes.clean and changes.base is not None:
            # Left by a crash: the next save appends to it instead of rewriting the document.
            self._journals[session_id] = journal.SessionJournal(
                session, path, changes.base, st.st_size, changes.size
            )
        return session

    def save(self, session: Session) -> None:
        path = self.path_for(session.id)
        self._refuse_broken_target(session.id, path)
        session.updated_at = utc_now()
        if self._append_to_journal(session, path):
            return
        self._rewrite(session, path)

    def _rewrite(self, session: Session, path: Path) -> None:
        try:
            payload = encode_document(session)
        except (RecursionError, ValueError) as exc:
            raise StoreError(f"cannot encode session {session.id}: {exc}") from None
        self._remove_stale_temps()
        try:
            st = self._write_atomically(path, payload)
        except OSError as exc:
            raise StoreError(
                f"cannot save session {session.id} to {path}: {exc.strerror or exc}"
            ) from None
        self._verified[session.id] = _signature(st)
        self._start_journal(session, path, st)
        self._update_index({session.id: _record_for(session, st)})

    def flush(self, session: Session) -> None:
        """Fold the journal into the document (when the session is closed): tools that read
        the file itself then find everything in it."""
        held = self._journals.get(session.id)
        if held is not None and held.tracks(session) and held.journal_bytes:
            del self._journals[session.id]
            path = self.path_for(session.id)
            self._refuse_broken_target(session.id, path)
            self._rewrite(session, path)  # not a change: updated_at stays

    def _append_to_journal(self, session: Session, path: Path) -> bool:
        """Save only the changes, when this instance wrote the document the journal extends."""
        held = self._journals.pop(session.id, None)
        if held is None or not held.tracks(session) or held.due_for_compaction:
            return False
        try:
            held.append(session)
            st = os.stat(path, follow_symlinks=False)
        except (journal.JournalError, OSError) as exc:
            # A line may be cut short: no more appends after it until a rewrite removes it.
            log.warning("cannot append to the session journal", extra={"error": str(exc)})
            return False
        self._journals[session.id] = held
        listed = (session.title, session.turn)
        if listed != held.listed:
            # Once a turn, not at every save: the browser shows title and turns; the rest of
            # the record (time, quality) catches up at the next turn or when the file is
            # rewritten.
            held.listed = listed
            self._update_index({session.id: _record_for(session, st)})
        return True

    def _start_journal(self, session: Session, path: Path, st: os.stat_result) -> None:
        if not journal.remove_journal(path):
            return
        base = session.model_dump(mode="json", include={"updated_at"})["updated_at"]
        self._journals[session.id] = journal.SessionJournal(session, path, base, st.st_size)

    def _refuse_broken_target(self, session_id: str, path: Path) -> None:
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise StoreError(f"cannot save session {session_id}: {exc.strerror}") from None
        if self._verified.get(session_id) == _signature(st):
            return
        try:
            _check_kind(st)
            _, st = _read_session(session_id, path)
        except FileNotFoundError:
            return
        except _Unusable as exc:
            raise BrokenSession(session_id, str(exc), action="refusing to overwrite") from None
        self._verified[session_id] = _signature(st)

    def _write_atomically(
        self, path: Path, payload: bytes, *, durable: bool = True
    ) -> os.stat_result:
        """Temp file in the same folder, fsync, rename over the target, fsync the folder.

        A crash at any point leaves either the old file or the new one, plus at most a temp
        file that `list` ignores and a later save removes.
        """
        return safe_files.write_atomically(path, payload, durable=durable)

    def _fsync_root(self) -> None:
        safe_files.fsync_folder(self.root)

    def _remove_stale_temps(self) -> None:
        now = time.time()
        try:
            with os.scandir(self.root) as it:
                candidates = [e for e in it if e.name.startswith(".") and ".tmp-" in e.name]
        except OSError:
            return
        for entry in candidates:
            match = _TEMP_RE.match(entry.name)
            if not match:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            age = now - st.st_mtime
            abandoned = age > MIN_TEMP_AGE_SECONDS and not _pid_alive(int(match["pid"]))
            if stat.S_ISREG(st.st_mode) and (abandoned or age > STALE_TEMP_SECONDS):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)

    # -- listing --------------------------------------------------------------------------
    def list(self) -> list[SessionEntry]:
        index = self._read_index()
        current: dict[str, dict[str, Any]] = {}
        changed = False
        for session_id, path, st in self._scan():
            record = index.get(session_id)
            if record is None or _record_signature(record) != _signature(st):
                record = self._inspect(session_id, path, st)
                changed = True
            if record is not None:
                current[session_id] = record
        if changed or current.keys() != index.keys():
            self._write_index(current)
        ordered = sorted(current, key=lambda sid: _sort_key(sid, current[sid]), reverse=True)
        return [_entry_from_record(sid, current[sid], self.root / f"{sid}.json") for sid in ordered]

    def _scan(self) -> Iterator[tuple[str, Path, os.stat_result]]:
        try:
            with os.scandir(self.root) as it:
                entries = list(it)
        except OSError as exc:
            raise StoreError(f"cannot list sessions in {self.root}: {exc.strerror}") from None
        for entry in entries:
            name = entry.name
            if name.startswith(".") or not name.endswith(".json") or name == INDEX_NAME:
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue  # removed while we were looking
            yield name.removesuffix(".json"), Path(entry.path), st

    def _inspect(self, session_id: str, path: Path, st: os.stat_result) -> dict[str, Any] | None:
        """The index record for one file; None if it vanished while we looked."""
        if not _ID_RE.fullmatch(session_id):
            return _broken_record("file name is not a valid session id", st)
        try:
            _check_kind(st)
            session, st = _read_session(session_id, path)
        except _Unusable as exc:
            log.info("broken session file", extra={"file": path.name, "reason": str(exc)})
            return _broken_record(str(exc), st)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return _broken_record(f"cannot read: {(exc.strerror or str(exc)).lower()}", st)
        return _record_for(session, st)

    def _read_index(self) -> dict[str, dict[str, Any]]:
        try:
            raw, _ = _read_bounded(self.index_path)
            data = _parse_json(raw)
        except (OSError, _Unusable):
            return {}
        if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
            return {}
        sessions = data.get("sessions")
        if not isinstance(sessions, dict):
            return {}
        return {sid: rec for sid, rec in sessions.items() if _record_is_sane(rec)}

    def _write_index(self, records: dict[str, dict[str, Any]]) -> None:
        # ASCII escapes: titles may hold lone surrogates, which UTF-8 cannot encode.
        payload = json.dumps({"version": INDEX_VERSION, "sessions": records}, ensure_ascii=True)
        try:
            # No fsync: the index is a cache. If a power cut leaves it empty, it is rebuilt.
            self._write_atomically(self.index_path, payload.encode("ascii"), durable=False)
        except OSError as exc:
            log.warning("cannot write the session index %s: %s", self.index_path,
                        exc.strerror or exc)

    def _update_index(self, changes: dict[str, dict[str, Any] | None]) -> None:
        # Read-modify-write without a lock: a concurrent writer may drop our change, which the
        # next `list` repairs because the file's signature no longer matches.
        index = self._read_index()
        for session_id, record in changes.items():
            if record is None:
                index.pop(session_id, None)
            else:
                index[session_id] = record
        self._write_index(index)

    # -- search ---------------------------------------------------------------------------
    def search(self, query: str) -> builtins.list[SessionEntry]:
        words = query.casefold().split()
        entries = self.list()
        if not words:
            return entries
        found = []
        for entry in entries:
            if entry.broken:
                continue
            haystack = self._search_text(entry)
            if all(word in haystack for word in words):
                found.append(entry)
        return found

    def _search_text(self, entry: SessionEntry) -> str:
        """Title and message contents, casefolded; cached while the file is unchanged."""
        cached = self._search_cache.get(entry.id)
        try:
            signature = self._search_signature(entry.path)
            if cached and cached[0] == signature:
                return cached[1]
            raw, _ = _read_bounded(entry.path)
            changes = journal.read_journal(entry.path, MAX_FILE_BYTES)
            data = journal.replay(_parse_json(raw), changes)
        except (OSError, _Unusable):
            return entry.title.casefold()
        parts = [str(data.get("title", ""))] if isinstance(data, dict) else []
        messages = data.get("messages") if isinstance(data, dict) else None
        for message in messages if isinstance(messages, list) else []:
            if isinstance(message, dict) and isinstance(message.get("content"), str):
                parts.append(message["content"])
        text = "\n".join(parts).casefold()
        self._search_cache[entry.id] = (signature, text)
        return text

    @staticmethod
    def _search_signature(path: Path) -> tuple[_Signature, int]:
        """The document's signature and the size of its journal (appended to between saves)."""
        try:
            journal_size = os.lstat(journal.journal_path(path)).st_size
        except OSError:
            journal_size = -1
        return _signature(os.lstat(path)), journal_size

    # -- changes the user asks for --------------------------------------------------------
    def delete(self, session_id: str) -> None:
        path = self.path_for(session_id)
        with self._exclusive(session_id):
            try:
                st = os.lstat(path)
            except FileNotFoundError:
                raise SessionNotFound(session_id) from None
            try:
                if stat.S_ISDIR(st.st_mode):
                    os.rmdir(path)
                else:
                    os.unlink(path)  # a symlink goes, never what it points to
            except OSError as exc:
                raise StoreError(f"cannot delete {path}: {exc.strerror}") from None
            journal.remove_journal(path)
            self._fsync_root()
            with contextlib.suppress(OSError):
                os.unlink(self._lock_path(session_id))
        self._journals.pop(session_id, None)
        self._verified.pop(session_id, None)
        self._search_cache.pop(session_id, None)
        self._update_index({session_id: None})

    def rename(self, session_id: str, title: str) -> Session:
        clean = " ".join(title.split())
        if not clean:
            raise StoreError("a session title cannot be empty")
        if len(clean) > MAX_TITLE:
            raise StoreError(f"a session title can have at most {MAX_TITLE} characters")
        with self._exclusive(session_id):
            session = self.load(session_id)
            session.title = clean
            self.save(session)
        return session

    @contextlib.contextmanager
    def _exclusive(self, session_id: str) -> Iterator[None]:
        """Refuse to change a session another process holds open; its next save would undo us."""
        if self._lock_path(session_id) in _HELD_LOCKS:
            yield  # held by this process: the caller owns the session
            return
        with self.lock(session_id):
            yield

    def resolve(self, ref: str) -> str:
        ref = ref.strip()
        if _ID_RE.fullmatch(ref) and ref not in _RESERVED_IDS and os.path.lexists(
            self.root / f"{ref}.json"
        ):
            # A whole id: listing would read every session whose index record is stale,
            # this one included, only to find the name it already has.
            return ref
        entries = self.list()
        if ref == "latest":
            for entry in entries:
                if not entry.broken:
                    return entry.id
            raise StoreError("there are no saved sessions yet")
        ids = [entry.id for entry in entries]
        if ref in ids:
            return ref
        matches = [sid for sid in ids if ref and sid.startswith(ref)]
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise SessionNotFound(ref)
        shown = ", ".join(sorted(matches)[:5]) + (", ..." if len(matches) > 5 else "")
        raise StoreError(
            f"ambiguous id '{printable(ref)}': it starts {len(matches)} sessions ({shown})"
        )

    def lock(self, session_id: str) -> SessionLock:
        path = self._lock_path(session_id)
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(path, flags, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot lock session {session_id}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _lock_holder(fd)
            os.close(fd)
            raise SessionLocked(session_id, holder) from None
        except OSError as exc:
            os.close(fd)
            raise StoreError(f"cannot lock session {session_id}: {exc.strerror}") from None
        # The pid is only for the message the next instance shows; the flock is the lock.
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as exc:
            # A full disk: we hold the flock, so no one else uses the file; leave none behind.
            with contextlib.suppress(OSError):
                os.unlink(path)
            os.close(fd)
            raise StoreError(f"cannot lock session {session_id}: cannot write {path}: "
                             f"{exc.strerror or exc}") from None
        held = SessionLock(session_id, path, fd)
        _HELD_LOCKS[path] = held
        return held

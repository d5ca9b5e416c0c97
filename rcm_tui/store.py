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
import fcntl
import json
import logging
import os
import re
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import config, journal, safe_files
from .core.models import Session, utc_now
from .session_files import (
    MAX_FILE_BYTES,
    Signature,
    Unusable,
    check_kind,
    collector_paused,
    encode_document,
    parse_json,
    printable,
    read_bounded,
    signature,
    validate,
)
from .session_index import (
    SessionEntry,
    broken_record,
    entry_from_record,
    record_for,
    record_is_sane,
    record_signature,
    sort_key,
)
from .session_lock import HELD_LOCKS, SessionLock, lock_holder, pid_alive
from .store_errors import BrokenSession, SessionLocked, SessionNotFound, StoreError

log = logging.getLogger(__name__)

INDEX_NAME = "index.json"
INDEX_VERSION = 1

# Titles are shown in one table row; a pasted novel is cut.
MAX_TITLE = 200
# A temp file older than this is a leftover even if its writer's pid was reused since.
STALE_TEMP_SECONDS = 3600
# A temp file younger than this may belong to a writer in another pid namespace.
MIN_TEMP_AGE_SECONDS = 60

_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,80}")
_TEMP_RE = re.compile(r"^\.(?P<name>.+)\.tmp-(?P<pid>\d+)-[0-9a-f]+$")
_RESERVED_IDS = frozenset({INDEX_NAME.removesuffix(".json")})


def _read_session(session_id: str, path: Path) -> tuple[Session, os.stat_result]:
    session, st, _ = _read_session_and_journal(session_id, path)
    return session, st


def _read_session_and_journal(
    session_id: str, path: Path
) -> tuple[Session, os.stat_result, journal.Replayed]:
    raw, st = read_bounded(path)
    with collector_paused():
        changes = journal.replay_checked(
            parse_json(raw), journal.read_journal(path, MAX_FILE_BYTES)
        )
        return validate(session_id, changes.data), st, changes



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
        self._verified: dict[str, Signature] = {}
        self._search_cache: dict[str, tuple[tuple[Signature, int], str]] = {}
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
            check_kind(os.lstat(path))
            session, st, changes = _read_session_and_journal(session_id, path)
        except FileNotFoundError:
            raise SessionNotFound(session_id) from None
        except Unusable as exc:
            raise BrokenSession(session_id, str(exc)) from None
        except OSError as exc:
            raise StoreError(f"cannot read session {session_id}: {exc.strerror}") from None
        self._verified[session_id] = signature(st)
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
        self._verified[session.id] = signature(st)
        self._start_journal(session, path, st)
        self._update_index({session.id: record_for(session, st)})

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
        listed = journal.listed_of(session)
        if listed != held.listed:
            # Twice a turn, not at every save: when the user's message opens a turn and when
            # its quality is scored (a list read after a kill then shows both); the time of
            # the last save catches up at the next of these or when the file is rewritten.
            held.listed = listed
            self._update_index({session.id: record_for(session, st)})
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
        if self._verified.get(session_id) == signature(st):
            return
        try:
            check_kind(st)
            _, st = _read_session(session_id, path)
        except FileNotFoundError:
            return
        except Unusable as exc:
            raise BrokenSession(session_id, str(exc), action="refusing to overwrite") from None
        self._verified[session_id] = signature(st)

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
            abandoned = age > MIN_TEMP_AGE_SECONDS and not pid_alive(int(match["pid"]))
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
            if record is None or record_signature(record) != signature(st):
                record = self._inspect(session_id, path, st)
                changed = True
            if record is not None:
                current[session_id] = record
        if changed or current.keys() != index.keys():
            self._write_index(current)
        ordered = sorted(current, key=lambda sid: sort_key(sid, current[sid]), reverse=True)
        return [entry_from_record(sid, current[sid], self.root / f"{sid}.json") for sid in ordered]

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
            return broken_record("file name is not a valid session id", st)
        try:
            check_kind(st)
            session, st = _read_session(session_id, path)
        except Unusable as exc:
            log.info("broken session file", extra={"file": path.name, "reason": str(exc)})
            return broken_record(str(exc), st)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return broken_record(f"cannot read: {(exc.strerror or str(exc)).lower()}", st)
        return record_for(session, st)

    def _read_index(self) -> dict[str, dict[str, Any]]:
        try:
            raw, _ = read_bounded(self.index_path)
            data = parse_json(raw)
        except (OSError, Unusable):
            return {}
        if not isinstance(data, dict) or data.get("version") != INDEX_VERSION:
            return {}
        sessions = data.get("sessions")
        if not isinstance(sessions, dict):
            return {}
        return {sid: rec for sid, rec in sessions.items() if record_is_sane(rec)}

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
            raw, _ = read_bounded(entry.path)
            changes = journal.read_journal(entry.path, MAX_FILE_BYTES)
            data = journal.replay(parse_json(raw), changes)
        except (OSError, Unusable):
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
    def _search_signature(path: Path) -> tuple[Signature, int]:
        """The document's signature and the size of its journal (appended to between saves)."""
        try:
            journal_size = os.lstat(journal.journal_path(path)).st_size
        except OSError:
            journal_size = -1
        return signature(os.lstat(path)), journal_size

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
        if self._lock_path(session_id) in HELD_LOCKS:
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
            holder = lock_holder(fd)
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
        HELD_LOCKS[path] = held
        return held

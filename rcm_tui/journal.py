"""An append-only journal beside each session document, so that a save costs what changed.

Rewriting a whole session document several times a turn made a 1,000-turn conversation spend
most of each turn re-encoding and re-writing megabytes it had already written. Instead, a save
appends one JSON line to `<id>.journal` holding only what changed since the last write, and
the document is rewritten (compacted, atomically, as before) only when the journal has grown
to the size of the document, when the session is closed, or when this process has not written
the session before. Loading reads the document and replays its journal.

Crash safety stays what it was:
- a line is appended with one write() and fsync'd before the save returns; a line cut short by
  a crash (no newline, or not JSON) and everything after it are ignored, exactly like the
  temp file of an interrupted atomic save;
- every line names the document it extends (the `updated_at` the document was written with),
  so a journal left behind by a crash between a compaction and the journal's removal is
  ignored rather than replayed over the newer document;
- the document itself is only ever replaced atomically, so it is always valid JSON on its own.

What a line holds: `set` (top-level keys whose value changed, encoded whole; `metrics` without
the lists tracked below) and `lists` (for the lists that grow with the session: the list's new
length and the items that are new or changed, by index; `journal_lists.py` finds those).
Encoding a grown list whole on every save made a line of a 1,000-turn session ~100 KB (the
restated requirements in `metrics`), and one with 1,000 requirements ~200 KB.

Version 1 lines (from before `metrics` and the requirements were tracked) still replay: their
`set.metrics` carries those lists whole, and a `set` value wins over what it leaves out.
"""

from __future__ import annotations

import json
import os
import stat
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core.models import Session
from .journal_lists import (
    BY_TURN,
    EVERY_ITEM,
    PLAIN,
    ListState,
    list_changes,
    state_of,
)
from .safe_files import fsync_folder, open_for_append, write_all

JOURNAL_SUFFIX = ".journal"
JOURNAL_VERSION = 2
READABLE_VERSIONS = frozenset({1, JOURNAL_VERSION})
# Compact once the journal is as large as the document (but not for tiny sessions): the
# amortised cost of rewriting the document then stays proportional to what was appended.
MIN_COMPACT_BYTES = 1024 * 1024
# The lists that grow with the session: (parent key or None, key) -> how changes are found.
TRACKED: dict[tuple[str | None, str], str] = {
    (None, "messages"): BY_TURN,
    (None, "calls"): BY_TURN,
    (None, "quality"): BY_TURN,
    (None, "status_blocks"): BY_TURN,
    (None, "sent_ledgers"): BY_TURN,
    ("metrics", "llm_calls"): BY_TURN,
    ("metrics", "restated_requirements"): BY_TURN,
    (None, "requirements"): EVERY_ITEM,
    ("metrics", "answer_lengths"): PLAIN,
    ("metrics", "consolidation_turns"): PLAIN,
    ("metrics", "status_turns"): PLAIN,
}
_EXCLUDE: dict[str, Any] = {key: True for parent, key in TRACKED if parent is None}
_EXCLUDE["metrics"] = {key for parent, key in TRACKED if parent == "metrics"}


class JournalError(Exception):
    """The journal cannot be used (a symlink, not a regular file, ...): compact instead."""


def journal_path(document: Path) -> Path:
    return document.with_suffix(JOURNAL_SUFFIX)


# -- writing --------------------------------------------------------------------------------


def _tracked_list(session: Session, parent: str | None, key: str) -> list[Any]:
    owner = getattr(session, parent) if parent else session
    value: list[Any] = getattr(owner, key)
    return value


def listed_of(session: Session) -> tuple[str, int, int]:
    """What the sessions list shows that changes during a turn: the title, the turns and the
    number of scored turns (a quality arrives after the turn's first save)."""
    return (session.title, session.turn, len(session.quality))


class SessionJournal:
    """What one session looked like when this process last wrote it, and its journal file."""

    def __init__(
        self,
        session: Session,
        document: Path,
        base: str,
        document_bytes: int,
        journal_bytes: int = 0,
    ) -> None:
        self._session = weakref.ref(session)
        self.path = journal_path(document)
        self.base = base
        self.document_bytes = document_bytes
        self.journal_bytes = journal_bytes
        # What the sessions index last showed for it (the store refreshes it when this changes).
        self.listed: tuple[str, int, int] = listed_of(session)
        self._rest = session.model_dump(mode="json", exclude=_EXCLUDE)
        self._lists = {
            name: state_of(_tracked_list(session, *name), session.turn, kind)
            for name, kind in TRACKED.items()
        }

    def tracks(self, session: Session) -> bool:
        return self._session() is session

    @property
    def due_for_compaction(self) -> bool:
        return self.journal_bytes > max(MIN_COMPACT_BYTES, self.document_bytes)

    def append(self, session: Session) -> None:
        """Append what changed since the last write (nothing at all: no line)."""
        entry, states = self._changes(session)
        if entry is None:
            return
        line = _encode_line(entry)
        self._write(line)
        self.journal_bytes += len(line)
        self._rest.update(entry.get("set", {}))
        for key in entry.get("unset", []):
            self._rest.pop(key, None)
        self._lists.update(states)

    def _changes(
        self, session: Session
    ) -> tuple[dict[str, Any] | None, dict[tuple[str | None, str], ListState]]:
        rest = session.model_dump(mode="json", exclude=_EXCLUDE)
        changed = {k: v for k, v in rest.items() if self._rest.get(k, _MISSING) != v}
        removed = [k for k in self._rest if k not in rest]
        turn = session.turn
        lists: dict[str, Any] = {}
        states: dict[tuple[str | None, str], ListState] = {}
        for (parent, key), kind in TRACKED.items():
            items = _tracked_list(session, parent, key)
            delta, state = list_changes(self._lists[(parent, key)], items, turn, kind)
            states[(parent, key)] = state
            if delta is not None:
                lists[f"{parent}.{key}" if parent else key] = delta
        if not (changed or removed or lists):
            return None, states
        entry: dict[str, Any] = {"v": JOURNAL_VERSION, "base": self.base}
        if changed:
            entry["set"] = changed
        if removed:
            entry["unset"] = removed
        if lists:
            entry["lists"] = lists
        return entry, states

    def _write(self, line: bytes) -> None:
        try:
            fd = open_for_append(self.path)  # no symlink, no FIFO, 0600
        except OSError as exc:
            raise JournalError(f"cannot open the journal: {exc.strerror or exc}") from None
        try:
            created = os.fstat(fd).st_size == 0
            write_all(fd, line)
            os.fsync(fd)
        finally:
            os.close(fd)
        if created:
            fsync_folder(self.path.parent)


class _Missing:
    pass


_MISSING = _Missing()


def _encode_line(entry: dict[str, Any]) -> bytes:
    try:
        text = json.dumps(entry, ensure_ascii=False, separators=(",", ":"))
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate (from a broken paste): \u escapes keep it loadable, as in the document.
        return (json.dumps(entry, ensure_ascii=True, separators=(",", ":")) + "\n").encode()


def remove_journal(document: Path) -> bool:
    """After a compaction (or a delete): the document holds everything the journal held.
    False when a journal is left (appending after a line torn by a crash would hide the new
    lines, so the caller then rewrites the document on every save)."""
    try:
        os.unlink(journal_path(document))
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


# -- reading --------------------------------------------------------------------------------


def read_journal(document: Path, limit: int) -> bytes:
    """The journal's bytes (b"" when there is none or it is unusable: it is never followed
    through a symlink, and a journal larger than `limit` is ignored rather than read)."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(journal_path(document), flags)
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return b""
        return handle.read(limit + 1)[:limit]


@dataclass
class Replayed:
    data: Any
    # The document's `updated_at` as written: what new lines must name to extend it.
    base: str | None
    # Every line was complete and applied: new lines may follow them (otherwise the next save
    # rewrites the document, because a line after a torn one would never be read).
    clean: bool
    size: int


def replay(data: Any, raw: bytes) -> Any:
    """The document data with the journal's complete lines for this document applied."""
    return replay_checked(data, raw).data


def replay_checked(data: Any, raw: bytes) -> Replayed:
    base = data.get("updated_at") if isinstance(data, dict) else None
    if not raw or not isinstance(data, dict):
        return Replayed(data, base if isinstance(base, str) else None, True, len(raw))
    clean = raw.endswith(b"\n")  # the part after the last newline was never finished
    for line in raw.split(b"\n")[:-1]:
        try:
            entry = json.loads(line)
        except (ValueError, RecursionError):
            clean = False  # torn by a crash: nothing after it was ever acknowledged
            break
        if not isinstance(entry, dict) or entry.get("v") not in READABLE_VERSIONS:
            clean = False
            break
        if entry.get("base") != base:
            clean = False  # left from before the document was last rewritten
            continue
        try:
            _apply(data, entry)
        except (ValueError, TypeError, AttributeError, KeyError):
            clean = False  # not a line this program wrote; the document validates the rest
            break
    return Replayed(data, base if isinstance(base, str) else None, clean, len(raw))


def _apply(data: dict[str, Any], entry: dict[str, Any]) -> None:
    for key, value in (entry.get("set") or {}).items():
        # The tracked lists a `set` leaves out come in `lists`; what it holds wins (a version 1
        # line holds the lists of `metrics` but `llm_calls`).
        kept = {child: data[key][child] for parent, child in TRACKED
                if parent == key and isinstance(data.get(key), dict) and child in data[key]}
        data[key] = {**kept, **value} if isinstance(value, dict) and kept else value
    for key in entry.get("unset") or []:
        data.pop(key, None)
    for name, delta in (entry.get("lists") or {}).items():
        parent, _, key = name.rpartition(".")
        owner = data.get(parent) if parent else data
        if not isinstance(owner, dict) or not isinstance(delta, dict):
            continue
        items = owner.get(key)
        if not isinstance(items, list):
            items = owner[key] = []
        length = delta.get("len")
        if isinstance(length, int) and length < len(items):
            del items[length:]
        for index, item in sorted(
            ((int(i), v) for i, v in (delta.get("at") or {}).items()), key=lambda p: p[0]
        ):
            if index < len(items):
                items[index] = item
            else:
                items.append(item)

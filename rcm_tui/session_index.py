"""The index of the sessions folder: what `list` shows of each session (a record per file,
kept with the file's signature so a warm index reads no session file), and its order."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .core.models import QualityRecord, Session
from .core.tracked_lists import Seen, kept_prefix, seen
from .session_files import Signature, signature

# Titles are shown in one table row; the index should not carry a pasted novel.
MAX_LISTED_TITLE = 200


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


def record_for(session: Session, st: os.stat_result) -> dict[str, Any]:
    mtime_ns, size, ino = signature(st)
    return {
        "title": session.title[:MAX_LISTED_TITLE],
        "updated_at": _aware(session.updated_at).isoformat(),
        "created_at": _aware(session.created_at).isoformat(),
        "turns": session.turn,
        "average_quality": average_quality(session),
        "mtime_ns": mtime_ns,
        "size": size,
        "ino": ino,
        "broken": None,
        "parent": [session.parent.id, session.parent.turn] if session.parent else None,
    }


@dataclass
class _RunningSums:
    """The quality records last averaged and the running sums of their overall scores."""

    records: list[QualityRecord]
    sums: list[float]
    seen: Seen | None = None


_running = _RunningSums([], [0])


def average_quality(session: Session) -> float | None:
    """session.average_quality(), the same float, without adding up every turn's score at
    each turn: records are replaced, never changed in place, so the sums of the records that
    are the same objects as last time still hold (sum() adds in the same order)."""
    global _running
    records = session.quality
    if not records:
        return None
    held = _running
    now = seen(records)
    if not kept_prefix(records, held.seen, held.records):
        held = _RunningSums([], [0])
    for record in records[len(held.records) :]:
        held.records.append(record)
        held.sums.append(held.sums[-1] + record.overall)
    held.seen = now
    _running = held
    return held.sums[-1] / len(records)


def broken_record(reason: str, st: os.stat_result) -> dict[str, Any]:
    mtime_ns, size, ino = signature(st)
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


def record_is_sane(record: Any) -> bool:
    # The index is just another file in the folder: a record of the wrong shape is re-derived
    # from the session file rather than trusted.
    # Every key must be there: a record from a version that did not know one is re-derived.
    return isinstance(record, dict) and all(
        key in record
        and isinstance(record.get(key), types) and not isinstance(record.get(key), bool)
        for key, types in _RECORD_TYPES.items()
    )


def record_signature(record: dict[str, Any]) -> Signature:
    return (record["mtime_ns"], record["size"], record["ino"])


def entry_from_record(session_id: str, record: dict[str, Any], path: Path) -> SessionEntry:
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


def sort_key(session_id: str, record: dict[str, Any]) -> tuple[float, str]:
    updated = _parse_time(record["updated_at"])
    # Broken files have no trustworthy time of their own; their mtime places them sensibly.
    when = updated.timestamp() if updated else record["mtime_ns"] / 1e9
    return (when, session_id)

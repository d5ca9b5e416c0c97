"""A session file's bytes: encoded from a session, and read as untrusted input (its kind and
size bounded, its JSON parsed within limits and of a sane shape, then validated)."""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic_core import PydanticSerializationError

from .core.models import DocumentError, Session, session_from_data
from .core.text_safety import visible_line

# Sessions with every LLM call recorded reach a few tens of MB after a very long conversation;
# anything much larger is not ours, and reading it would stall the app.
MAX_FILE_BYTES = 64 * 1024 * 1024
# A small file can still expand ~25x in memory when it is nothing but tiny JSON values
# ("[[],[],...]"). Real sessions hold a few hundred thousand values at most.
MAX_JSON_VALUES = 2_000_000
# Real documents nest about six levels; unknown keys from newer writers get generous room.
MAX_NESTING = 64


def printable(text: str, limit: int = 80) -> str:
    """Text from a file or the command line, safe to put in a one-line terminal message."""
    cleaned = visible_line(text)
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


class Unusable(Exception):
    """Internal: why a file cannot be used; becomes BrokenSession or a broken entry."""


Signature = tuple[int, int, int]  # (mtime_ns, size, inode)


def signature(st: os.stat_result) -> Signature:
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MB"


def check_kind(st: os.stat_result) -> None:
    """Raise Unusable for anything but a regular file of sane size (lstat result)."""
    if stat.S_ISLNK(st.st_mode):
        raise Unusable("symbolic link (not followed)")
    if stat.S_ISDIR(st.st_mode):
        raise Unusable("a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise Unusable("not a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise Unusable(f"file too large ({_megabytes(st.st_size)})")


def read_bounded(path: Path) -> tuple[bytes, os.stat_result]:
    """Read a regular file without following symlinks, blocking on FIFOs or reading unbounded."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Unusable("symbolic link (not followed)") from None
        if isinstance(exc, FileNotFoundError):
            raise
        raise Unusable(f"cannot read: {(exc.strerror or str(exc)).lower()}") from None
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(fd)
        check_kind(st)
        try:
            raw = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise Unusable(f"cannot read: {(exc.strerror or str(exc)).lower()}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise Unusable(f"file too large (over {_megabytes(MAX_FILE_BYTES)})")
    return raw, st


def parse_json(raw: bytes) -> Any:
    if not raw.strip():
        raise Unusable("empty file")
    values = raw.count(b'"') // 2 + raw.count(b"[") + raw.count(b"{")
    if values > MAX_JSON_VALUES:
        raise Unusable(f"too many JSON values (about {values:,})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unusable(f"not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise Unusable("nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise Unusable(
            f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:  # e.g. an integer literal beyond Python's digit limit
        raise Unusable(f"invalid JSON: {str(exc).splitlines()[0]}") from None


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


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection while a document is parsed and validated: that makes no reference
    cycles, and each collection meanwhile walked the growing tree (and every module) again:
    ~45 ms of the ~120 ms that loading a 1,000-turn session took."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def validate(session_id: str, data: Any) -> Session:
    # Such a session could be opened but never saved again, so it is refused up front.
    reason = _unusable_shape(data)
    if reason is not None:
        raise Unusable(reason)
    try:
        session = session_from_data(data)
    except DocumentError as exc:
        raise Unusable(str(exc)) from None
    except RecursionError:
        raise Unusable("nested too deeply") from None
    if session.id != session_id:
        raise Unusable(f"file name does not match the id inside ('{printable(session.id)}')")
    return session


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

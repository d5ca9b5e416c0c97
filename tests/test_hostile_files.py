"""Files in the sessions folder that are not sessions we can use.

Each must be listed as a broken entry with a reason, must never crash, hang or exhaust memory,
and must stay byte-for-byte as it was through every operation except an explicit delete.
"""

from __future__ import annotations

import errno
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rcm_tui import store
from rcm_tui.core.models import SCHEMA_VERSION, Session
from rcm_tui.store import BrokenSession, SessionStore, encode_document

MB = 1024 * 1024


def valid_document(session_id: str) -> bytes:
    session = Session(title="a perfectly good session")
    session.id = session_id
    return encode_document(session)


def write(path: Path, content: bytes) -> None:
    path.write_bytes(content)


def truncated(path: Path) -> None:
    data = valid_document(path.stem)
    write(path, data[: len(data) // 2])


def binary_garbage(path: Path) -> None:
    write(path, bytes(range(256)) * 64)


def latin1(path: Path) -> None:
    text = valid_document(path.stem).decode().replace("a perfectly good", "café")
    write(path, text.encode("latin-1"))


def json_array(path: Path) -> None:
    write(path, b'[{"schema_version": 1}]')


def future_schema(path: Path) -> None:
    data = json.loads(valid_document(path.stem))
    data["schema_version"] = SCHEMA_VERSION + 1
    write(path, json.dumps(data).encode())


def deep_open(path: Path) -> None:
    write(path, b"[" * 100_000)


def deep_balanced(path: Path) -> None:
    write(path, b"[" * 100_000 + b"]" * 100_000)


def deep_object(path: Path) -> None:
    write(path, b'{"a":' * 100_000 + b"1" + b"}" * 100_000)


def huge_sparse(path: Path) -> None:
    with path.open("wb") as handle:
        handle.truncate(200 * MB)


def empty(path: Path) -> None:
    write(path, b"")


def whitespace(path: Path) -> None:
    write(path, b" \n\t\n")


def invalid_session(path: Path) -> None:
    data = json.loads(valid_document(path.stem))
    data["messages"] = "not a list"
    write(path, json.dumps(data).encode())


def wrong_id_inside(path: Path) -> None:
    write(path, valid_document("someone-else"))


def many_tiny_values(path: Path) -> None:
    write(path, b"[" + b"[]," * 2_100_000 + b"[]]")


def giant_integer(path: Path) -> None:
    write(path, b'{"schema_version": 1, "x": ' + b"9" * 50_000 + b"}")


def nul_bytes(path: Path) -> None:
    write(path, b"\x00" * 4096)


def utf8_bom(path: Path) -> None:
    write(path, b"\xef\xbb\xbf" + valid_document(path.stem))


def outside_target(path: Path) -> Path:
    return path.parent.parent / "outside" / "target.json"


def symlink_out(path: Path) -> None:
    target = outside_target(path)
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(valid_document(path.stem))  # a valid session: still not followed
    path.symlink_to(target)


def dangling_symlink(path: Path) -> None:
    path.symlink_to(path.parent / "does-not-exist.json")


def directory(path: Path) -> None:
    path.mkdir()


def fifo(path: Path) -> None:
    os.mkfifo(path)


# kind -> (maker, expected reason fragment)
HOSTILE: dict[str, tuple[Callable[[Path], None], str]] = {
    "truncated": (truncated, "invalid JSON"),
    "binary": (binary_garbage, "not UTF-8"),
    "latin1": (latin1, "not UTF-8"),
    "array": (json_array, "top level is list"),
    "future": (future_schema, "newer than this rcm-tui"),
    "deep-open": (deep_open, "nested too deeply"),
    "deep-balanced": (deep_balanced, "nested too deeply"),
    "deep-object": (deep_object, "nested too deeply"),
    "huge": (huge_sparse, "file too large (200 MB)"),
    "empty": (empty, "empty file"),
    "whitespace": (whitespace, "empty file"),
    "invalid": (invalid_session, "invalid messages"),
    "wrong-id": (wrong_id_inside, "does not match the id inside"),
    "tiny-values": (many_tiny_values, "too many JSON values"),
    "giant-int": (giant_integer, "invalid JSON"),
    "nul": (nul_bytes, "invalid JSON"),
    "bom": (utf8_bom, "invalid JSON"),
    "symlink": (symlink_out, "symbolic link"),
    "dangling": (dangling_symlink, "symbolic link"),
    "directory": (directory, "a directory"),
    "fifo": (fifo, "not a regular file"),
}


def fingerprint(path: Path) -> tuple[str, str]:
    """(kind, sha256 of the content) without following links or reading 200 MB of zeros."""
    if path.is_symlink():
        return "link", os.readlink(path)
    if path.is_dir():
        return "dir", ",".join(sorted(os.listdir(path)))
    if not path.is_file():
        return "other", ""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(MB):
            digest.update(chunk)
    return "file", digest.hexdigest()


@pytest.fixture
def sessions(tmp_path: Path) -> SessionStore:
    return SessionStore(tmp_path / "sessions")


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_hostile_file_is_listed_broken_and_never_modified(
    sessions: SessionStore, make_session, kind: str
) -> None:
    maker, reason = HOSTILE[kind]
    path = sessions.root / "hostile.json"
    maker(path)
    before = fingerprint(path)
    outside = outside_target(path)
    outside_before = fingerprint(outside) if outside.exists() else None

    sessions.save(make_session(session_id="good", title="a good one"))
    entries = {e.id: e for e in sessions.list()}
    assert set(entries) == {"good", "hostile"}
    assert entries["good"].broken is None
    broken = entries["hostile"]
    assert broken.broken is not None and reason in broken.broken
    assert "\n" not in broken.broken

    assert [e.id for e in sessions.search("good")] == ["good"]
    with pytest.raises(BrokenSession) as info:
        sessions.load("hostile")
    assert reason in info.value.reason

    # A save under the same id must not replace what is there.
    with pytest.raises(BrokenSession, match="refusing to overwrite"):
        sessions.save(make_session(session_id="hostile"))
    with pytest.raises(BrokenSession):
        sessions.rename("hostile", "fixed?")
    sessions.save(make_session(session_id="good", title="saved again"))
    fresh = {e.id: e.broken for e in SessionStore(sessions.root).list()}
    assert fresh == {"good": None, "hostile": broken.broken}
    assert sessions.resolve("latest") == "good"

    assert fingerprint(path) == before
    if outside_before is not None:
        assert fingerprint(outside) == outside_before
    leftovers = [p.name for p in sessions.root.iterdir() if ".tmp-" in p.name]
    assert leftovers == []


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_broken_entry_can_be_deleted_on_request(sessions: SessionStore, kind: str) -> None:
    maker, _ = HOSTILE[kind]
    path = sessions.root / "hostile.json"
    maker(path)
    outside = outside_target(path)
    outside_before = fingerprint(outside) if outside.exists() else None
    sessions.delete("hostile")
    assert not os.path.lexists(path)
    assert sessions.list() == []
    if outside_before is not None:  # the link went, never what it pointed at
        assert fingerprint(outside) == outside_before


def test_unreadable_file(sessions: SessionStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests may run as root, where chmod 000 does not stop reading; fail the open instead.
    path = sessions.root / "locked.json"
    path.write_bytes(valid_document("locked"))
    real_open = os.open

    def guarded_open(target, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(target) == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(target))
        return real_open(target, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded_open)
    entries = sessions.list()
    assert [(e.id, e.broken) for e in entries] == [("locked", "cannot read: permission denied")]
    with pytest.raises(BrokenSession, match="permission denied"):
        sessions.load("locked")
    with pytest.raises(BrokenSession):
        sessions.save(Session(id="locked"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read a mode-000 file")
def test_unreadable_file_for_real(sessions: SessionStore) -> None:
    path = sessions.root / "locked.json"
    path.write_bytes(valid_document("locked"))
    path.chmod(0)
    assert sessions.list()[0].broken == "cannot read: permission denied"


def test_file_name_that_is_not_an_id(sessions: SessionStore) -> None:
    path = sessions.root / "my backup copy.json"
    path.write_bytes(valid_document("my backup copy"))
    entry = sessions.list()[0]
    assert entry.broken == "file name is not a valid session id"
    assert path.exists()


def test_deep_but_parseable_document_is_broken_not_half_usable(sessions: SessionStore) -> None:
    # json.loads copes with 500 levels, but such a session could never be saved again.
    data = json.loads(valid_document("deepish"))
    data["future"] = json.loads("[" * 500 + "]" * 500)
    (sessions.root / "deepish.json").write_text(json.dumps(data))
    assert sessions.list()[0].broken == "nested too deeply"


def test_moderately_nested_unknown_keys_are_kept(sessions: SessionStore) -> None:
    data = json.loads(valid_document("nested"))
    data["future"] = json.loads("[" * 30 + "1" + "]" * 30)
    (sessions.root / "nested.json").write_text(json.dumps(data))
    assert sessions.list()[0].broken is None
    sessions.save(sessions.load("nested"))
    assert json.loads((sessions.root / "nested.json").read_text())["future"] == data["future"]


def test_broken_state_is_cached_not_reread(
    sessions: SessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    truncated(sessions.root / "bad.json")
    assert sessions.list()[0].broken
    reads: list[str] = []
    monkeypatch.setattr(store, "_read_session", lambda sid, path: reads.append(sid))
    assert sessions.list()[0].broken
    assert reads == []


def test_repairing_a_broken_file_by_hand_makes_it_usable(sessions: SessionStore) -> None:
    path = sessions.root / "fixme.json"
    truncated(path)
    assert sessions.list()[0].broken
    path.write_bytes(valid_document("fixme"))
    assert sessions.list()[0].broken is None
    sessions.save(sessions.load("fixme"))


def test_index_json_that_is_hostile(sessions: SessionStore, make_session) -> None:
    sessions.save(make_session(session_id="a"))
    sessions.index_path.unlink()
    huge_sparse(sessions.index_path)
    assert [e.id for e in sessions.list()] == ["a"]
    assert sessions.index_path.stat().st_size < MB  # replaced by a real index


CLI_AVAILABLE = importlib.util.find_spec("rcm_tui.cli") is not None


@pytest.mark.skipif(not CLI_AVAILABLE, reason="rcm_tui/cli.py has not landed yet")
def test_cli_lists_a_folder_full_of_hostile_files(isolated_env: Path, make_session) -> None:
    sessions = SessionStore()
    for kind, (maker, _) in HOSTILE.items():
        maker(sessions.root / f"h-{kind}.json")
    sessions.save(make_session(session_id="good"))
    before = {p.name: fingerprint(p) for p in sessions.root.iterdir() if p.name.startswith("h-")}

    result = subprocess.run(
        [sys.executable, "-m", "rcm_tui", "sessions", "list", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    entries = {e["id"]: e for e in json.loads(result.stdout)}
    assert entries["good"]["broken"] is None
    for kind, (_, reason) in HOSTILE.items():
        assert reason in entries[f"h-{kind}"]["broken"]
    after = {p.name: fingerprint(p) for p in sessions.root.iterdir() if p.name.startswith("h-")}
    assert after == before

    human = subprocess.run(
        [sys.executable, "-m", "rcm_tui", "sessions", "list"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert human.returncode == 0, human.stderr
    assert human.stdout.count("BROKEN: ") == len(HOSTILE)

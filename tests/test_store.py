"""The session store: round trips, atomic writes, permissions, the index, locks, search."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rcm_tui import config, store
from rcm_tui.core.models import Message, Session
from rcm_tui.store import (
    SessionLocked,
    SessionNotFound,
    SessionStore,
    StoreError,
)

PYTHON = sys.executable


@pytest.fixture
def sessions(tmp_path: Path) -> SessionStore:
    return SessionStore(tmp_path / "sessions")


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# -- round trip and files -------------------------------------------------------------------


def test_default_root_follows_xdg_data_home(isolated_env: Path) -> None:
    created = SessionStore()
    assert created.root == config.sessions_dir()
    assert str(created.root).startswith(os.environ["XDG_DATA_HOME"])
    assert created.root.is_dir()


def test_save_then_load_gives_the_same_document(sessions: SessionStore, make_session) -> None:
    session = make_session(turns=4, solidified=True)
    sessions.save(session)
    loaded = sessions.load(session.id)
    assert loaded.dump() == session.dump()
    assert loaded.requirements[1].text == "No new infrastructure | only Redis"


def test_save_sets_updated_at(sessions: SessionStore, make_session) -> None:
    session = make_session()
    before = datetime.now(UTC)
    sessions.save(session)
    assert session.updated_at >= before
    assert sessions.load(session.id).updated_at == session.updated_at


def test_unknown_keys_from_newer_writers_survive_a_save(
    sessions: SessionStore, make_session
) -> None:
    data = make_session().dump()
    data["future_panel"] = {"kept": [1, 2, 3]}
    data["messages"][0]["reaction"] = "thumbs-up"
    (sessions.root / f"{data['id']}.json").write_text(json.dumps(data))
    session = sessions.load(data["id"])
    sessions.save(session)
    raw = json.loads((sessions.root / f"{data['id']}.json").read_text())
    assert raw["future_panel"] == {"kept": [1, 2, 3]}
    assert raw["messages"][0]["reaction"] == "thumbs-up"


def test_lone_surrogates_and_nul_survive_a_round_trip(sessions: SessionStore) -> None:
    session = Session(title="broken paste \ud800 here")
    session.messages.append(Message(role="user", content="a\x00b\udfffc 😀", turn=1))
    sessions.save(session)
    loaded = sessions.load(session.id)
    assert loaded.title == "broken paste \ud800 here"
    assert loaded.messages[0].content == "a\x00b\udfffc 😀"
    assert sessions.list()[0].broken is None


def test_non_ascii_is_stored_readably(sessions: SessionStore) -> None:
    session = Session(title="缓存策略 — café")
    sessions.save(session)
    assert "缓存策略 — café" in sessions.path_for(session.id).read_text(encoding="utf-8")


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    title=TEXT | st.sampled_from(["😀", "\x00", "\u2028", "👩‍👩‍👧"]),
    contents=st.lists(TEXT | st.sampled_from(["😀", "\x00\x00", "\ufeff"]), max_size=6),
)
def test_any_text_round_trips_through_save_and_load(
    sessions: SessionStore, title: str, contents: list[str]
) -> None:
    session = Session(title=title)
    for number, content in enumerate(contents):
        role = "user" if number % 2 == 0 else "assistant"
        session.messages.append(Message(role=role, content=content, turn=number // 2 + 1))
    sessions.save(session)
    loaded = sessions.load(session.id)
    assert loaded.title == title
    assert [m.content for m in loaded.messages] == contents
    assert loaded.dump() == session.dump()


def test_folder_is_0700_and_files_are_0600(tmp_path: Path, make_session) -> None:
    root = tmp_path / "sessions"
    root.mkdir(mode=0o755)
    os.chmod(root, 0o755)
    sessions = SessionStore(root)
    assert mode_of(root) == 0o700
    session = make_session()
    old_umask = os.umask(0)  # a permissive umask must not leak into the file mode
    try:
        sessions.save(session)
        lock = sessions.lock(session.id)
    finally:
        os.umask(old_umask)
    lock.release()
    assert mode_of(sessions.path_for(session.id)) == 0o600
    assert mode_of(sessions.root / f"{session.id}.lock") == 0o600
    assert mode_of(sessions.index_path) == 0o600


@pytest.mark.parametrize(
    "bad_id", ["", "../escape", "a/b", "..", "x" * 81, "index", "with space", "é", "a.b"]
)
def test_path_for_rejects_unsafe_ids(sessions: SessionStore, bad_id: str) -> None:
    with pytest.raises(StoreError, match="invalid session id"):
        sessions.path_for(bad_id)


def test_path_for_accepts_generated_ids(sessions: SessionStore) -> None:
    session = Session()
    assert sessions.path_for(session.id) == sessions.root / f"{session.id}.json"


def test_load_unknown_id(sessions: SessionStore) -> None:
    with pytest.raises(SessionNotFound) as info:
        sessions.load("nope")
    assert str(info.value) == "no session with id 'nope' (rcm-tui sessions list shows them)"


# -- crash safety ---------------------------------------------------------------------------


def test_failed_rename_keeps_the_previous_file(
    sessions: SessionStore, make_session, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = make_session(title="first version")
    sessions.save(session)
    path = sessions.path_for(session.id)
    before = path.read_bytes()

    def failing_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    session.title = "second version"
    # A store that has not written this session rewrites the document (nothing to append to).
    with pytest.raises(StoreError, match="No space left on device"):
        SessionStore(sessions.root).save(session)
    monkeypatch.undo()

    assert path.read_bytes() == before
    assert sessions.load(session.id).title == "first version"
    assert [p.name for p in sessions.root.iterdir() if ".tmp-" in p.name] == []


CRASH_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from pathlib import Path
    from rcm_tui.store import SessionStore
    store = SessionStore(Path(sys.argv[1]))
    session = store.load(sys.argv[2])
    session.title = "never committed"
    os.replace = lambda *args: os._exit(3)  # the process dies between write and rename
    store.save(session)
    """
)


def test_crash_between_write_and_rename(sessions: SessionStore, make_session) -> None:
    session = make_session(title="committed")
    sessions.save(session)
    path = sessions.path_for(session.id)
    before = path.read_bytes()

    result = subprocess.run(
        [PYTHON, "-c", CRASH_SCRIPT, str(sessions.root), session.id], capture_output=True
    )
    assert result.returncode == 3, result.stderr
    temps = [p for p in sessions.root.iterdir() if ".tmp-" in p.name]
    assert len(temps) == 1 and temps[0].name.startswith(f".{session.id}.json.tmp-")
    assert b"never committed" in temps[0].read_bytes()

    assert path.read_bytes() == before
    assert [(e.id, e.title, e.broken) for e in sessions.list()] == [(session.id, "committed", None)]

    # The writer is dead; once the leftover is old enough, the next save removes it.
    old = time.time() - 3 * store.MIN_TEMP_AGE_SECONDS
    os.utime(temps[0], (old, old))
    sessions.save(make_session(title="another"))
    assert not temps[0].exists()


def test_a_fresh_temp_of_a_live_writer_is_left_alone(sessions: SessionStore, make_session) -> None:
    live = sessions.root / f".someone.json.tmp-{os.getpid()}-abcd1234"
    live.write_text("{}")
    old = time.time() - 3 * store.MIN_TEMP_AGE_SECONDS
    os.utime(live, (old, old))
    sessions.save(make_session())
    assert live.exists()
    ancient = time.time() - 2 * store.STALE_TEMP_SECONDS
    os.utime(live, (ancient, ancient))
    sessions.save(make_session())
    assert not live.exists()


# -- listing and the index ------------------------------------------------------------------


def save_at(sessions: SessionStore, session: Session, when: datetime) -> None:
    """Save, then set updated_at to a chosen time (save always stamps 'now')."""
    sessions.save(session)
    data = session.dump()
    data["updated_at"] = when.isoformat()
    sessions.path_for(session.id).write_text(json.dumps(data))


def test_list_is_newest_first_with_summary_fields(sessions: SessionStore, make_session) -> None:
    base = datetime(2025, 1, 1, tzinfo=UTC)
    old, new = make_session(session_id="old", turns=2), make_session(session_id="new", turns=5)
    save_at(sessions, old, base)
    save_at(sessions, new, base + timedelta(days=1))
    entries = sessions.list()
    assert [e.id for e in entries] == ["new", "old"]
    first = entries[0]
    assert first.turns == 5
    assert first.title == new.title
    assert first.average_quality == pytest.approx(new.average_quality())
    assert first.updated_at == base + timedelta(days=1)
    assert first.created_at == new.created_at
    assert first.path == sessions.path_for("new")
    assert first.size == first.path.stat().st_size
    assert first.broken is None


def test_naive_timestamps_do_not_break_sorting(sessions: SessionStore, make_session) -> None:
    sessions.save(make_session(session_id="aware"))
    data = make_session(session_id="naive").dump()
    data["updated_at"] = "2020-01-01T00:00:00"
    data["created_at"] = "2020-01-01T00:00:00"
    (sessions.root / "naive.json").write_text(json.dumps(data))
    assert [e.id for e in sessions.list()] == ["aware", "naive"]


def test_list_ignores_index_temp_and_lock_files(sessions: SessionStore, make_session) -> None:
    session = make_session()
    sessions.save(session)
    sessions.lock(session.id).release()
    (sessions.root / ".hidden.json").write_text("{}")
    (sessions.root / "notes.txt").write_text("hello")
    assert [e.id for e in sessions.list()] == [session.id]


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    reads: list[str] = []
    real = store._read_session

    def counting(session_id: str, path: Path):  # type: ignore[no-untyped-def]
        reads.append(session_id)
        return real(session_id, path)

    monkeypatch.setattr(store, "_read_session", counting)
    return reads


def test_a_warm_index_reads_no_session_file(
    sessions: SessionStore, make_session, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(5):
        sessions.save(make_session(session_id=f"s{number}"))
    reads = count_reads(monkeypatch)
    first = sessions.list()
    assert reads == []  # save already recorded every file in the index
    assert SessionStore(sessions.root).list() == first
    assert reads == []


def test_index_picks_up_external_changes(
    sessions: SessionStore, make_session, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("keep", "edit", "gone"):
        sessions.save(make_session(session_id=name, title=f"title {name}"))
    sessions.list()

    data = json.loads(sessions.path_for("edit").read_text())
    data["title"] = "edited by hand, a longer title"
    sessions.path_for("edit").write_text(json.dumps(data))
    sessions.path_for("gone").unlink()
    (sessions.root / "added.json").write_text(
        json.dumps(make_session(session_id="added", title="copied in").dump())
    )

    reads = count_reads(monkeypatch)
    titles = {e.id: e.title for e in sessions.list()}
    assert titles == {
        "keep": "title keep",
        "edit": "edited by hand, a longer title",
        "added": "copied in",
    }
    assert sorted(reads) == ["added", "edit"]  # only changed or new files are re-read
    index = json.loads(sessions.index_path.read_text())
    assert set(index["sessions"]) == {"keep", "edit", "added"}


@pytest.mark.parametrize(
    "garbage",
    [
        b"{not json",
        b"",
        b"[]",
        b'{"version": 1, "sessions": []}',
        b'{"version": 1, "sessions": {"a": {"title": 5}}}',
        b'{"version": 99, "sessions": {}}',
        b"\xff\xfe",
    ],
)
def test_a_corrupt_index_is_rebuilt(sessions: SessionStore, make_session, garbage: bytes) -> None:
    sessions.save(make_session(session_id="a", title="alpha"))
    sessions.save(make_session(session_id="b", title="beta"))
    sessions.index_path.write_bytes(garbage)
    assert {e.id: e.title for e in sessions.list()} == {"a": "alpha", "b": "beta"}
    rebuilt = json.loads(sessions.index_path.read_text())
    assert set(rebuilt["sessions"]) == {"a", "b"}


def test_a_lying_index_record_is_not_trusted_once_the_file_changes(
    sessions: SessionStore, make_session
) -> None:
    sessions.save(make_session(session_id="a", title="real title"))
    index = json.loads(sessions.index_path.read_text())
    index["sessions"]["a"]["title"] = "stale title"
    index["sessions"]["a"]["size"] += 1
    sessions.index_path.write_text(json.dumps(index))
    assert sessions.list()[0].title == "real title"


def test_an_unwritable_index_does_not_break_listing(sessions: SessionStore, make_session) -> None:
    sessions.save(make_session(session_id="a"))
    sessions.index_path.unlink()
    sessions.index_path.mkdir()
    assert [e.id for e in sessions.list()] == ["a"]
    sessions.save(make_session(session_id="b"))
    assert {e.id for e in sessions.list()} == {"a", "b"}


# -- search and resolve ---------------------------------------------------------------------


def test_search_title_and_content(sessions: SessionStore, make_session) -> None:
    alpha = make_session(session_id="alpha", title="Kafka consumer lag")
    alpha.messages.append(Message(role="user", content="Partition REBALANCING storms", turn=9))
    beta = make_session(session_id="beta", title="Postgres vacuum")
    beta.messages.append(Message(role="user", content="autovacuum and partition pruning", turn=9))
    sessions.save(alpha)
    sessions.save(beta)
    assert [e.id for e in sessions.search("kafka")] == ["alpha"]
    assert [e.id for e in sessions.search("rebalancing")] == ["alpha"]
    assert {e.id for e in sessions.search("PARTITION")} == {"alpha", "beta"}
    assert [e.id for e in sessions.search("partition vacuum")] == ["beta"]
    assert sessions.search("kafka vacuum") == []
    assert {e.id for e in sessions.search("   ")} == {"alpha", "beta"}


def test_search_sees_edits(sessions: SessionStore, make_session) -> None:
    session = make_session(session_id="s")
    sessions.save(session)
    assert sessions.search("zeppelin") == []
    session.messages.append(Message(role="user", content="what about a zeppelin", turn=9))
    sessions.save(session)
    assert [e.id for e in sessions.search("zeppelin")] == ["s"]


def test_resolve(sessions: SessionStore, make_session) -> None:
    base = datetime(2025, 1, 1, tzinfo=UTC)
    save_at(sessions, make_session(session_id="20250101-aaa111"), base)
    save_at(sessions, make_session(session_id="20250101-aab222"), base + timedelta(hours=1))
    save_at(sessions, make_session(session_id="20250102-ccc333"), base + timedelta(hours=2))
    (sessions.root / "20250103-broken.json").write_text("{")  # newest file, but broken

    assert sessions.resolve("latest") == "20250102-ccc333"
    assert sessions.resolve("20250102") == "20250102-ccc333"
    assert sessions.resolve("20250101-aab") == "20250101-aab222"
    assert sessions.resolve("20250101-aaa111") == "20250101-aaa111"
    assert sessions.resolve("20250103") == "20250103-broken"  # so that it can be deleted
    with pytest.raises(StoreError, match=r"ambiguous id '20250101-aa'.*2 sessions"):
        sessions.resolve("20250101-aa")
    with pytest.raises(SessionNotFound):
        sessions.resolve("zzz")
    with pytest.raises(SessionNotFound):
        sessions.resolve("")


def test_resolve_latest_without_sessions(sessions: SessionStore) -> None:
    with pytest.raises(StoreError, match="no saved sessions"):
        sessions.resolve("latest")


# -- delete and rename ----------------------------------------------------------------------


def test_delete(sessions: SessionStore, make_session) -> None:
    sessions.save(make_session(session_id="a"))
    sessions.save(make_session(session_id="b"))
    sessions.delete("a")
    assert not sessions.path_for("a").exists()
    assert [e.id for e in sessions.list()] == ["b"]
    assert "a" not in json.loads(sessions.index_path.read_text())["sessions"]
    with pytest.raises(SessionNotFound):
        sessions.delete("a")


def test_rename(sessions: SessionStore, make_session) -> None:
    sessions.save(make_session(session_id="a", title="old"))
    renamed = sessions.rename("a", "  New\ntitle  ")
    assert renamed.title == "New title"
    assert sessions.load("a").title == "New title"
    assert sessions.list()[0].title == "New title"
    with pytest.raises(StoreError, match="cannot be empty"):
        sessions.rename("a", " \n ")
    with pytest.raises(SessionNotFound):
        sessions.rename("missing", "x")


# -- locks ----------------------------------------------------------------------------------


def test_second_lock_in_the_same_process_is_refused(sessions: SessionStore) -> None:
    lock = sessions.lock("s1")
    other = SessionStore(sessions.root)
    with pytest.raises(SessionLocked) as info:
        other.lock("s1")
    assert info.value.pid == os.getpid()
    assert str(info.value).startswith(f"session s1 is open in another rcm-tui (pid {os.getpid()});")
    assert "\n" not in str(info.value)
    other.lock("s2").release()  # other sessions are free
    lock.release()
    assert not lock.held
    with other.lock("s1") as again:
        assert again.held
    assert not again.held


HOLD_SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from rcm_tui.store import SessionStore
    lock = SessionStore(Path(sys.argv[1])).lock(sys.argv[2])
    print("locked", flush=True)
    sys.stdin.readline()
    """
)


def test_lock_held_by_another_process(sessions: SessionStore, make_session) -> None:
    session = make_session(session_id="shared")
    sessions.save(session)
    holder = subprocess.Popen(
        [PYTHON, "-c", HOLD_SCRIPT, str(sessions.root), "shared"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(SessionLocked, match=f"pid {holder.pid}"):
            sessions.lock("shared")
        # Changing it under the holder would be undone by its next save.
        with pytest.raises(SessionLocked):
            sessions.delete("shared")
        with pytest.raises(SessionLocked):
            sessions.rename("shared", "mine now")
        assert sessions.load("shared").title == session.title
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    with sessions.lock("shared"):  # released when the holder exits
        pass


def test_a_crashed_holder_releases_its_lock(sessions: SessionStore) -> None:
    script = HOLD_SCRIPT.replace("sys.stdin.readline()", "import os; os._exit(9)")
    result = subprocess.run([PYTHON, "-c", script, str(sessions.root), "s"], capture_output=True)
    assert result.returncode == 9
    sessions.lock("s").release()


def test_own_lock_does_not_block_own_rename_and_delete(
    sessions: SessionStore, make_session
) -> None:
    sessions.save(make_session(session_id="mine"))
    with sessions.lock("mine"):
        assert sessions.rename("mine", "renamed").title == "renamed"
        sessions.delete("mine")
    assert sessions.list() == []

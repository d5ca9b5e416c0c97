"""The session journal: a save appends what changed, loading replays it, and the document on
disk stays a valid, complete session whenever the journal is folded in."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from rcm_tui import journal, journal_lists
from rcm_tui.core import call_text
from rcm_tui.core.models import CallRecord, Message, Session
from rcm_tui.core.turn import calls
from rcm_tui.eval.long_session import build_session, reply_turn, user_turn
from rcm_tui.store import SessionStore, encode_document


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    return SessionStore(tmp_path / "sessions")


def add_turn(session: Session, number: int) -> None:
    session.messages.append(Message(role="user", content=user_turn(number), turn=number))
    session.messages.append(Message(role="assistant", content=reply_turn(number), turn=number))


def on_disk(store: SessionStore, session: Session) -> bytes:
    """What a new rcm-tui would make of the files (document plus journal)."""
    return encode_document(SessionStore(store.root).load(session.id))


def test_a_save_appends_and_loading_replays_it(store: SessionStore) -> None:
    session = build_session(30)
    store.save(session)
    path = store.path_for(session.id)
    document = path.read_bytes()
    for number in range(31, 34):
        add_turn(session, number)
        session.requirements[0].status = "confirmed"  # an old item changed in place
        store.save(session)
    assert path.read_bytes() == document, "the document was rewritten"
    assert journal.journal_path(path).exists()
    assert on_disk(store, session) == encode_document(session)


def test_a_save_of_a_long_session_writes_only_what_changed(store: SessionStore) -> None:
    session = build_session(1000)
    store.save(session)
    journal_file = journal.journal_path(store.path_for(session.id))
    add_turn(session, 1001)
    store.save(session)
    # Two messages of ~700 characters and the top-level figures, not 2 MB of document.
    assert journal_file.stat().st_size < 8_000
    assert on_disk(store, session) == encode_document(session)


def test_a_line_torn_by_a_crash_is_ignored(store: SessionStore) -> None:
    session = build_session(5)
    store.save(session)
    add_turn(session, 6)
    store.save(session)
    acknowledged = encode_document(session)
    add_turn(session, 7)
    store.save(session)
    journal_file = journal.journal_path(store.path_for(session.id))
    raw = journal_file.read_bytes()
    last_line = raw[: -1].rfind(b"\n") + 1
    journal_file.write_bytes(raw[: last_line + (len(raw) - last_line) // 2])  # cut mid-line

    reopened = SessionStore(store.root)
    loaded = reopened.load(session.id)
    assert encode_document(loaded) == acknowledged
    assert [m.turn for m in loaded.messages][-1] == 6
    # The next save cannot follow a torn line: it rewrites the document and drops the journal.
    add_turn(loaded, 7)
    reopened.save(loaded)
    assert not journal_file.exists()
    assert on_disk(store, loaded) == encode_document(loaded)


def test_a_journal_left_from_before_a_rewrite_is_not_replayed(store: SessionStore) -> None:
    session = build_session(5)
    store.save(session)
    add_turn(session, 6)
    store.save(session)
    journal_file = journal.journal_path(store.path_for(session.id))
    stale = journal_file.read_bytes()
    store.flush(session)  # the document now holds turn 6; the journal is gone
    session.messages = session.messages[:4]  # and the user's edit goes into a new document
    SessionStore(store.root).save(session)
    journal_file.write_bytes(stale)  # as if a crash had left the old journal behind
    assert [m.turn for m in SessionStore(store.root).load(session.id).messages] == [1, 1, 2, 2]


def test_closing_folds_the_journal_into_the_document(store: SessionStore) -> None:
    session = build_session(5)
    store.save(session)
    add_turn(session, 6)
    store.save(session)
    updated = session.updated_at
    store.flush(session)
    path = store.path_for(session.id)
    assert not journal.journal_path(path).exists()
    assert session.updated_at == updated
    raw = json.loads(path.read_bytes())  # the file alone, as another tool reads it
    assert raw["messages"][-1]["content"] == reply_turn(6)


def test_the_journal_compacts_once_it_outgrows_the_document(
    store: SessionStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "MIN_COMPACT_BYTES", 0)
    session = build_session(2)
    store.save(session)
    path = store.path_for(session.id)
    rewrites = 0
    for number in range(3, 30):
        inode = path.stat().st_ino
        add_turn(session, number)
        store.save(session)
        rewrites += path.stat().st_ino != inode
        assert on_disk(store, session) == encode_document(session)
    assert 1 <= rewrites < 10
    assert journal.journal_path(path).stat().st_size <= 2 * path.stat().st_size


def test_the_journal_is_private_and_never_followed_through_a_symlink(
    store: SessionStore, tmp_path: Path
) -> None:
    session = build_session(3)
    store.save(session)
    add_turn(session, 4)
    store.save(session)
    path = store.path_for(session.id)
    journal_file = journal.journal_path(path)
    assert stat.S_IMODE(journal_file.stat().st_mode) == 0o600

    target = tmp_path / "elsewhere.txt"
    target.write_text("not ours\n")
    journal_file.unlink()
    journal_file.symlink_to(target)
    reopened = SessionStore(store.root)
    loaded = reopened.load(session.id)  # the link is not read
    assert [m.turn for m in loaded.messages][-1] == 3
    add_turn(loaded, 4)
    reopened.save(loaded)
    assert target.read_text() == "not ours\n"
    assert on_disk(store, loaded) == encode_document(loaded)


def test_search_finds_text_that_is_only_in_the_journal(store: SessionStore) -> None:
    session = build_session(3)
    store.save(session)
    session.messages.append(Message(role="user", content="What about zeppelins?", turn=4))
    store.save(session)
    assert [e.id for e in store.search("zeppelins")] == [session.id]
    assert store.list()[0].turns == 4


def test_pruned_call_text_is_journaled(store: SessionStore) -> None:
    # The pipeline empties the text of calls CALL_TEXT_TURNS old, further back than the
    # journal's window: it replaces the record, which the journal sees anywhere in the list.
    assert journal_lists.WINDOW_TURNS < calls.CALL_TEXT_TURNS
    session = build_session(40)
    for record in session.calls:
        record.response = f"reply {record.turn}"
    store.save(session)
    add_turn(session, 41)
    call_text.prune(session, 41 - calls.CALL_TEXT_TURNS)
    store.save(session)
    loaded = SessionStore(store.root).load(session.id)
    assert [bool(c.response) for c in loaded.calls] == [bool(c.response) for c in session.calls]
    assert encode_document(loaded) == encode_document(session)


def test_an_old_call_pruned_in_place_reaches_the_disk(store: SessionStore) -> None:
    session = build_session(40)
    session.calls.append(
        CallRecord(turn=38, purpose="generation", prompt=[{"role": "user", "content": "x"}],
                   response="a reply")
    )
    store.save(session)
    add_turn(session, 41)
    old = session.calls[-1]
    old.prompt, old.response = [], ""
    store.save(session)
    assert SessionStore(store.root).load(session.id).calls[-1].response == ""


def test_a_journal_line_that_is_not_ours_stops_the_replay(store: SessionStore) -> None:
    session = build_session(3)
    store.save(session)
    add_turn(session, 4)
    store.save(session)
    journal_file = journal.journal_path(store.path_for(session.id))
    with open(journal_file, "ab") as handle:
        base = json.loads(journal_file.read_bytes().splitlines()[0])["base"]
        handle.write(json.dumps({"v": 1, "base": base, "lists": {"messages": {"at": {"x": 1}}}})
                     .encode() + b"\n")
    assert [m.turn for m in SessionStore(store.root).load(session.id).messages][-1] == 4
    assert os.path.exists(store.path_for(session.id))

"""The journal writes what a turn changed even where the session grows outside `messages`: the
lists of `metrics` and the requirements are journaled item by item, older journals still load,
and a line cut by a crash loses nothing that was acknowledged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rcm_tui import journal
from rcm_tui.core.models import Requirement, Restatement, Session
from rcm_tui.eval.long_session import build_session, reply_turn, user_turn
from rcm_tui.store import SessionStore, encode_document

from .test_journal import add_turn, on_disk


@pytest.fixture
def store(tmp_path: Path) -> SessionStore:
    return SessionStore(tmp_path / "sessions")


def restated_turn(session: Session, number: int) -> None:
    """A turn as a long session with a few needs has them: the user says a need again (a
    restatement in `metrics`, the requirement's `restated_turns` grown in place), a new need
    joins the ledger, the figures grow."""
    add_turn(session, number)
    again = session.requirements[number % min(20, len(session.requirements))]
    again.restated_turns.append(number)
    again.status = "pending"
    session.metrics.restated_requirements.append(
        Restatement(turn=number, requirement_id=again.id, text=again.text)
    )
    session.requirements.append(
        Requirement(id=f"R{number}", text=user_turn(number), source_turn=number)
    )
    session.metrics.answer_lengths.append(len(reply_turn(number)))
    session.metrics.consolidation_turns.append(number)


def long_session() -> Session:
    session = build_session(1000)
    session.metrics.restated_requirements = [
        Restatement(turn=n, requirement_id=f"R{n % 20 + 1}", text=user_turn(n % 20 + 1))
        for n in range(21, 1001)
    ]
    session.metrics.consolidation_turns = list(range(3, 1001, 3))
    return session


def test_a_turn_of_a_long_session_appends_a_line_the_size_of_the_turn(
    store: SessionStore,
) -> None:
    # 1,000 requirements and 980 restatements: a line used to carry both lists whole (~300 KB).
    session = long_session()
    store.save(session)
    journal_file = journal.journal_path(store.path_for(session.id))
    restated_turn(session, 1001)
    store.save(session)
    assert journal_file.stat().st_size < 8_000
    assert on_disk(store, session) == encode_document(session)


def test_what_changed_in_place_reaches_the_disk(store: SessionStore) -> None:
    session = long_session()
    store.save(session)
    for number in range(1001, 1006):
        restated_turn(session, number)
        session.requirements[3].text = f"An old need, reworded at turn {number}"
        session.metrics.answer_lengths[0] = number  # an old figure rewritten
        store.save(session)
    session.requirements[0].restated_turns.append(1005)  # grown in place, nothing else
    del session.metrics.consolidation_turns[-2:]  # a list that shrinks
    session.requirements.pop(7)  # and an item that leaves the middle of the ledger
    store.save(session)
    loaded = SessionStore(store.root).load(session.id)
    assert encode_document(loaded) == encode_document(session)
    assert loaded.requirements[1003 % 20].restated_turns == [1003]


def test_a_line_torn_in_the_ledger_change_keeps_the_acknowledged_state(
    store: SessionStore,
) -> None:
    session = long_session()
    store.save(session)
    restated_turn(session, 1001)
    store.save(session)
    acknowledged = encode_document(session)
    restated_turn(session, 1002)
    store.save(session)
    journal_file = journal.journal_path(store.path_for(session.id))
    raw = journal_file.read_bytes()
    last = raw[:-1].rfind(b"\n") + 1
    assert b'"requirements"' in raw[last:]
    journal_file.write_bytes(raw[: last + (len(raw) - last) // 2])  # a kill -9 mid-write
    loaded = SessionStore(store.root).load(session.id)
    assert encode_document(loaded) == acknowledged
    assert (journal_file.exists(), loaded.turn) == (True, 1001)


def test_a_journal_written_before_the_lists_were_tracked_still_loads(
    store: SessionStore,
) -> None:
    # A version 1 line sets `metrics` whole (but its llm_calls) and the requirements whole,
    # as the previous release wrote them; a crash may leave one for this release to read.
    session = build_session(3)
    store.save(session)
    path = store.path_for(session.id)
    base = json.loads(path.read_bytes())["updated_at"]
    journal.remove_journal(path)
    restated_turn(session, 4)
    data = session.dump()
    metrics = {k: v for k, v in data["metrics"].items() if k != "llm_calls"}
    line = {
        "v": 1,
        "base": base,
        "set": {"metrics": metrics, "requirements": data["requirements"],
                "updated_at": data["updated_at"]},
        "lists": {
            "messages": {"len": 8, "at": {"6": data["messages"][6], "7": data["messages"][7]}},
            "metrics.llm_calls": {"len": 3, "at": {}},
        },
    }
    journal.journal_path(path).write_bytes(json.dumps(line).encode() + b"\n")
    loaded = SessionStore(store.root).load(session.id)
    assert encode_document(loaded) == encode_document(session)
    assert [r.turn for r in loaded.metrics.restated_requirements] == [4]

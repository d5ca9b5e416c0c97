"""A save compares only the requirements written to since the last save (issue 15), and every
change of a requirement still reaches the journal: whatever is changed, and however, the files
reload to the session as it is."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rcm_tui import journal, journal_lists
from rcm_tui.core import requirement_writes
from rcm_tui.core.models import Requirement
from rcm_tui.eval.long_session import build_session
from rcm_tui.store import SessionStore, encode_document


def _on_disk(store: SessionStore, session_id: str) -> bytes:
    return encode_document(SessionStore(store.root).load(session_id))


def _mutate(rng: random.Random, reqs: list[Requirement], step: int) -> None:
    req = rng.choice(reqs)
    match rng.randrange(9):
        case 0:
            req.status = rng.choice(("pending", "addressed", "confirmed", "dropped"))
        case 1:
            req.text = f"{req.text} ({step})"
        case 2:
            req.restated_turns.append(step)  # in place: no assignment to log
        case 3:
            req.replaced_texts.append(f"old {step}")
        case 4:
            req.confidence = round(rng.random(), 2)
        case 5:  # a value and back again between two saves
            old = req.status
            req.status = "dropped"
            req.status = old
        case 6:
            reqs.append(Requirement(id=f"N{step}", text=f"need {step}", source_turn=step))
        case 7:
            reqs[rng.randrange(len(reqs))] = Requirement(id=f"S{step}", text="swapped",
                                                          source_turn=step)
        case _:
            del reqs[rng.randrange(len(reqs))]


def test_every_change_of_a_requirement_reaches_the_journal(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    session = build_session(200)
    store.save(session)
    rng = random.Random(15)
    for step in range(300):
        for _ in range(rng.randint(0, 3)):
            _mutate(rng, session.requirements, 1000 + step)
        store.save(session)
        if step % 25 == 0:
            assert _on_disk(store, session.id) == encode_document(session), step
    assert journal.journal_path(store.path_for(session.id)).exists()
    assert _on_disk(store, session.id) == encode_document(session)


def test_a_save_after_one_change_compares_only_that_requirement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SessionStore(tmp_path / "sessions")
    session = build_session(1000)
    store.save(session)
    session.requirements[500].status = "confirmed"
    compared: list[int] = []
    snapshots = journal_lists._snapshots

    def counting(items: list[object], kind: str) -> list[tuple[object, ...]]:
        if kind == journal_lists.EVERY_ITEM:
            compared.append(len(items))
        return snapshots(items, kind)

    monkeypatch.setattr(journal_lists, "_snapshots", counting)
    store.save(session)
    assert compared == [1, 0]  # the written requirement, no new one
    assert _on_disk(store, session.id) == encode_document(session)


def test_a_full_write_log_falls_back_to_comparing_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(requirement_writes, "MAX_WRITES", 5)
    store = SessionStore(tmp_path / "sessions")
    session = build_session(50)
    store.save(session)
    for req in session.requirements[:12]:  # more writes than the log holds: a new epoch
        req.status = "confirmed"
    store.save(session)
    assert _on_disk(store, session.id) == encode_document(session)

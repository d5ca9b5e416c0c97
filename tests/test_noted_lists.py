"""A requirement's list fields changed in place reach the journal through the write log (issue
15: every save compared every requirement's lists to find such changes)."""

from __future__ import annotations

from pathlib import Path

from rcm_tui.core.models import Requirement, Session
from rcm_tui.store import SessionStore


def _reloaded(tmp_path: Path, session: Session) -> Session:
    return SessionStore(tmp_path).load(session.id)


def test_lists_changed_in_place_are_saved_by_the_journal(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = Session(requirements=[Requirement(id=f"R{n}", text=f"need {n}", source_turn=n)
                                    for n in range(1, 200)])
    store.save(session)
    store.save(session)  # the journal is started
    session.requirements[5].restated_turns.append(7)
    session.requirements[150].replaced_texts += ["an older wording"]
    store.save(session)
    assert store.path_for(session.id).with_suffix(".journal").exists()
    loaded = _reloaded(tmp_path, session)
    assert loaded.requirements[5].restated_turns == [7]
    assert loaded.requirements[150].replaced_texts == ["an older wording"]


def test_a_list_set_by_copy_or_assignment_is_followed_too(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    session = Session(requirements=[Requirement(id="R1", text="a", source_turn=1)])
    store.save(session)
    store.save(session)
    copied = session.requirements[0].model_copy(update={"restated_turns": [2]})
    session.requirements.append(copied.model_copy(update={"id": "R2"}))
    store.save(session)
    session.requirements[1].restated_turns.append(3)  # a plain list from model_copy, at first
    session.requirements[0].replaced_texts = ["x"]
    store.save(session)
    session.requirements[0].replaced_texts.append("y")  # the list assigned above
    store.save(session)
    loaded = _reloaded(tmp_path, session)
    assert loaded.requirements[1].restated_turns == [2, 3]
    assert loaded.requirements[0].replaced_texts == ["x", "y"]

"""The session's growing lists count their changes (issue 15: a save proved "only appended to"
with a copy and a pass over every list). Whatever is done to a list — appended, an item
replaced, inserted, popped, a slice assigned, sorted — the files reload to the session as it
is, and a reader is sent back to its full comparison whenever items may have moved."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rcm_tui.core import tracked_lists
from rcm_tui.core.models import CallRecord, Message, QualityRecord, Requirement, Session
from rcm_tui.core.tracked_lists import TrackedList, kept_prefix, replaced_since, seen
from rcm_tui.eval.long_session import build_session
from rcm_tui.store import SessionStore, encode_document

Change = Callable[[list[Any]], None]
# What each change leaves for a reader that looked before it: the replaced indices, or None.
CHANGES: dict[str, tuple[Change, list[int] | None]] = {
    "append": (lambda items: items.append(9), []),
    "extend": (lambda items: items.extend([9, 9]), []),
    "+=": (lambda items: items.__iadd__([9]), []),
    "item replaced": (lambda items: items.__setitem__(1, 9), [1]),
    "item replaced from the end": (lambda items: items.__setitem__(-1, 9), [3]),
    "insert": (lambda items: items.insert(0, 9), None),
    "pop": (lambda items: items.pop(), None),
    "remove": (lambda items: items.remove(2), None),
    "del": (lambda items: items.__delitem__(0), None),
    "slice assigned": (lambda items: items.__setitem__(slice(1, 2), [9]), None),
    "sort": (lambda items: items.sort(reverse=True), None),
    "reverse": (lambda items: items.reverse(), None),
    "clear": (lambda items: items.clear(), None),
    "*=": (lambda items: items.__imul__(2), None),
}


@pytest.mark.parametrize("name", CHANGES)
def test_a_reader_learns_what_changed_or_that_it_cannot_tell(name: str) -> None:
    change, expected = CHANGES[name]
    items = TrackedList([0, 1, 2, 3])
    before = seen(items)
    change(items)
    assert replaced_since(items, before) == expected
    # The answer kept_prefix gives is the full comparison's, whichever path it takes.
    held = [0, 1, 2, 3]
    assert kept_prefix(items, before, held) == (
        len(items) >= 4 and all(a is b for a, b in zip(items, held, strict=False))
    )


def test_other_lists_and_a_full_log_cannot_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    items = TrackedList([0, 1, 2])
    before = seen(items)
    assert replaced_since(TrackedList([0, 1, 2]), before) is None  # another list
    assert replaced_since([0, 1, 2], before) is None and seen([0, 1, 2]) is None
    monkeypatch.setattr(tracked_lists, "MAX_REPLACED", 2)
    items[0] = 5
    items[1] = 6
    assert replaced_since(items, before) == [0, 1]
    items[2] = 7  # past the log's size: it starts again, readers compare in full
    assert replaced_since(items, before) is None


def test_the_session_keeps_its_lists_tracked() -> None:
    session = build_session(3)
    assert isinstance(session.messages, TrackedList)
    assert isinstance(session.metrics.answer_lengths, TrackedList)
    session.quality = [*session.quality]  # assigned: tracked again
    assert isinstance(session.quality, TrackedList)
    copied = session.model_copy(update={"calls": list(session.calls)})
    assert isinstance(copied.calls, TrackedList)
    loaded = Session.model_validate(session.model_dump(mode="json"))
    assert isinstance(loaded.requirements, TrackedList)
    for other in (copy.deepcopy(session), pickle.loads(pickle.dumps(session))):
        assert isinstance(other.messages, TrackedList)
        assert other.messages is not session.messages
        assert encode_document(other) == encode_document(session)


def _on_disk(store: SessionStore, session_id: str) -> bytes:
    return encode_document(SessionStore(store.root).load(session_id))


def _message(step: int) -> Message:
    return Message(role="user", content=f"message {step}", turn=step)


def _quality(step: int, overall: float) -> QualityRecord:
    return QualityRecord(turn=step, clarity=0.5, completeness=0.5, assumptions=0.5,
                         verbosity=0.5, premature_attempt=False, middle_turn_reference=0.5,
                         requirement_tracking=0.5, overall=overall)


def _mutate(rng: random.Random, session: Session, step: int) -> None:
    """One change anywhere in one of the growing lists, in place or by assignment."""
    lists: list[tuple[list[Any], Callable[[], Any]]] = [
        (session.messages, lambda: _message(step)),
        (session.calls, lambda: CallRecord(turn=step, purpose="judge", note=f"c{step}")),
        (session.quality, lambda: _quality(step, rng.random())),
        (session.requirements, lambda: Requirement(id=f"N{step}", text=f"need {step}",
                                                   source_turn=step)),
        (session.metrics.answer_lengths, lambda: step),
    ]
    items, new = rng.choice(lists)
    at = rng.randrange(len(items)) if items else 0
    match rng.randrange(10):
        case 0 | 1 | 2:
            items.append(new())
        case 3 | 4:
            if items:
                items[at] = new()  # anywhere, also before the journal's window
        case 5:
            items.insert(at, new())
        case 6:
            if items:
                items.pop(at)
        case 7:
            items[at : at + 2] = [new()]
        case 8:
            items.sort(key=lambda item: rng.random())
        case _:
            session.messages = [*session.messages, _message(step)]


@pytest.mark.parametrize("seed", range(4))
def test_every_change_of_a_list_reaches_the_files(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    store = SessionStore(tmp_path / "sessions")
    session = build_session(60)
    store.save(session)
    for step in range(100, 400):
        for _ in range(rng.randint(0, 3)):
            _mutate(rng, session, step)
        store.save(session)
        if step % 20 == 0:
            assert _on_disk(store, session.id) == encode_document(session), step
    assert store.path_for(session.id).with_suffix(".journal").exists()
    assert _on_disk(store, session.id) == encode_document(session)


def test_a_replaced_item_is_saved_however_far_back(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    session = build_session(200)
    store.save(session)
    store.save(session)  # the journal is started
    session.calls[3] = session.calls[3].model_copy(update={"note": "pruned"})
    session.messages[-1] = _message(999)
    session.requirements[10] = Requirement(id="R11", text="swapped", source_turn=1)
    session.metrics.answer_lengths[5] = 1
    store.save(session)
    loaded = SessionStore(store.root).load(session.id)
    assert loaded.calls[3].note == "pruned"
    assert loaded.messages[-1].content == "message 999"
    assert loaded.requirements[10].text == "swapped"
    assert loaded.metrics.answer_lengths[5] == 1
    assert encode_document(loaded) == encode_document(session)


def test_plain_lists_in_the_session_are_compared_in_full(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    session = build_session(40)
    store.save(session)
    store.save(session)
    plain = list(session.calls)
    session.__dict__["calls"] = plain  # as model_construct or an old copy may leave it
    store.save(session)
    plain[2] = plain[2].model_copy(update={"note": "changed"})
    plain.append(CallRecord(turn=41, purpose="generation"))
    store.save(session)
    assert _on_disk(store, session.id) == encode_document(session)

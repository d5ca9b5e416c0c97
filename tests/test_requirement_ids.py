"""Looking requirements up by id through the followed ids gives what a scan of the ledger
gives (issue 15: each lookup read every requirement), through additions, edits and rewinds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rcm_tui.core.ledger import find_requirement, mark_addressed, next_id
from rcm_tui.core.ledger_index import index_of
from rcm_tui.core.models import Requirement, Session
from rcm_tui.core.requirement_ids import requirement_ids

ID = st.one_of(st.integers(1, 30).map(lambda n: f"R{n}"), st.sampled_from(["r3", "X1", "R", "Q7"]))
req_st = st.builds(Requirement, id=ID, text=st.sampled_from(["a", "b c", "cache 5 ms"]),
                   source_turn=st.integers(1, 9),
                   status=st.sampled_from(["pending", "addressed", "dropped"]),
                   status_set_by=st.sampled_from([None, None, "user"]))
edit_st = st.one_of(
    st.tuples(st.just("add"), req_st),
    st.tuples(st.just("id"), st.integers(0, 99), ID),
    st.tuples(st.just("text"), st.integers(0, 99), st.sampled_from(["new", "b c d"])),
    st.tuples(st.just("cut"), st.integers(0, 99)),
)


def _scan_find(session: Session, req_id: str) -> Requirement | None:
    return next((r for r in session.requirements if r.id.lower() == req_id.strip().lower()),
                None)


def _check(session: Session, wanted: list[str]) -> None:
    assert requirement_ids(session.requirements).next_id() == next_id(
        "R", [r.id for r in session.requirements])
    for req_id in [*wanted, " R3 "]:
        expected = _scan_find(session, req_id)
        if expected is None:
            with pytest.raises(KeyError):
                find_requirement(session, req_id)
        else:
            assert find_requirement(session, req_id) is expected
    assert index_of(session.requirements).texts == [r.text for r in session.requirements]
    twin = session.model_copy(deep=True)
    expected_changes = []
    lowered = {i.strip().lower() for i in wanted}
    for req in twin.requirements:  # mark_addressed as it was: a scan
        if req.status_set_by != "user" and req.id.lower() in lowered and req.status == "pending":
            req.status = "addressed"
            expected_changes.append(f"{req.id} addressed")
    assert mark_addressed(session, wanted, 5) == expected_changes
    assert [r.status for r in session.requirements] == [r.status for r in twin.requirements]


@settings(max_examples=200, deadline=None)
@given(start=st.lists(req_st, max_size=15), edits=st.lists(edit_st, max_size=10),
       wanted=st.lists(ID, max_size=3))
def test_lookups_by_id_are_those_of_a_scan(
    start: list[Requirement], edits: list[tuple], wanted: list[str]
) -> None:
    session = Session(requirements=start)
    _check(session, wanted)
    for edit in edits:
        reqs = session.requirements
        if edit[0] == "add":
            reqs.append(edit[1].model_copy())
        elif edit[0] == "cut":
            del reqs[edit[1] % (len(reqs) + 1):]
        elif reqs:
            target = reqs[edit[1] % len(reqs)]
            if edit[0] == "id":
                target.id = edit[2]
            else:
                target.text = edit[2]
        _check(session, wanted)

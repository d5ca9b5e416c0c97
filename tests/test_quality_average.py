"""The sessions index's average quality, kept as running sums, is the float the session's own
average gives, through appended and replaced records (issue 15: it added up every turn's
score at every turn)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rcm_tui.core.models import QualityRecord, Session
from rcm_tui.session_index import average_quality


def _record(turn: int, overall: float) -> QualityRecord:
    return QualityRecord(turn=turn, clarity=0.5, completeness=0.5, assumptions=0.5,
                         verbosity=0.5, premature_attempt=False, middle_turn_reference=0.5,
                         requirement_tracking=0.5, overall=overall)


score = st.floats(0, 1)
edit_st = st.one_of(st.tuples(st.just("add"), score), st.tuples(st.just("replace"), score),
                    st.tuples(st.just("cut"), st.integers(0, 50)))


@settings(max_examples=200, deadline=None)
@given(start=st.lists(score, max_size=30), edits=st.lists(edit_st, max_size=12))
def test_running_average_is_the_sessions_own(start: list[float], edits: list[tuple]) -> None:
    session = Session(quality=[_record(n, s) for n, s in enumerate(start, 1)])
    assert average_quality(session) == session.average_quality()
    for kind, value in edits:
        if kind == "add":
            session.quality.append(_record(len(session.quality) + 1, value))
        elif kind == "replace" and session.quality:
            session.quality[-1] = _record(len(session.quality), value)
        elif kind == "cut":
            session.quality = session.quality[: value]
        assert average_quality(session) == session.average_quality()

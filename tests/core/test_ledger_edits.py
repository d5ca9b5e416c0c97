"""The ledger edited by hand (issue 14): add, edit and merge requirements, edit and reopen
rejected options. Each change is recorded with origin "user", and the analysers of later turns
never replace what the user wrote, bring back what was merged away, or flip a status the user
set."""

from __future__ import annotations

import pytest

from rcm_tui.core import ledger_edits as edits
from rcm_tui.core.analysis import Analysis, RejectionFinding, RequirementFinding
from rcm_tui.core.branch import fork_session
from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger import (
    apply_analysis,
    ledger_snapshot,
    reject_option,
    set_requirement_status,
)
from rcm_tui.core.models import Message, Session, session_from_data


def reqs(*texts: str, source: str = "heuristic") -> Analysis:
    return Analysis(requirements=[RequirementFinding(t, 0.7) for t in texts], source=source)


def said(session: Session, text: str, turn: int) -> list[str]:
    """A user message read by the heuristic analyser and merged, as a turn does."""
    session.messages.append(Message(role="user", content=text, turn=turn))
    return apply_analysis(session, analyse_message(text, turn, ledger_snapshot(session)), turn)


def test_a_requirement_added_by_hand_is_the_users_and_is_recorded() -> None:
    session = Session()
    apply_analysis(session, reqs("Log every upload"), 1)
    req = edits.add_requirement(session, "  Keep   uploads for a year ", turn=1)
    assert (req.id, req.text, req.origin, req.confidence) == ("R2", "Keep uploads for a year",
                                                             "user", 1.0)
    [edit] = session.ledger_edits
    assert (edit.action, edit.target, edit.after, edit.origin) == (
        "add", "R2", "Keep uploads for a year", "user")
    with pytest.raises(ValueError, match="R1 already says that"):
        edits.add_requirement(session, "log every upload", turn=1)
    with pytest.raises(ValueError, match="empty"):
        edits.add_requirement(session, "   ", turn=1)


def test_an_edited_text_is_never_replaced_by_a_later_analysis() -> None:
    session = Session()
    apply_analysis(session, reqs("Validate uploads"), 1)
    edits.edit_requirement(session, "1", "Validate file types on upload", turn=1)
    # Without the user's edit this finding would refine the text (a more specific one).
    changes = apply_analysis(session, reqs("Validate file types — only PNG, JPEG and PDF"), 2)
    assert [(r.id, r.text) for r in session.requirements] == [
        ("R1", "Validate file types on upload")]
    assert not any("updated" in c for c in changes)
    [edit] = session.ledger_edits
    assert (edit.action, edit.before, edit.after) == (
        "edit", "Validate uploads", "Validate file types on upload")


def test_the_text_the_user_edited_away_is_still_that_requirement() -> None:
    session = Session()
    apply_analysis(session, reqs("Sessions must expire after 30 minutes of inactivity"), 1)
    edits.edit_requirement(session, "R1", "Sessions expire after 8 hours", turn=1)
    apply_analysis(session, reqs("Sessions must expire after 30 minutes of inactivity"), 3)
    assert [r.text for r in session.requirements] == ["Sessions expire after 8 hours"]


def test_a_merged_away_requirement_is_recorded_and_never_comes_back() -> None:
    session = Session()
    said(session, "We need to store the uploaded files in S3.", 1)
    said(session, "Uploads should be kept in an S3 bucket with versioning.", 2)
    assert len(session.requirements) == 2, session.requirements
    first_text = session.requirements[0].text
    kept = edits.merge_requirements(session, "R1", "R2",
                                    "Store uploads in a versioned S3 bucket", turn=2)
    merged = session.requirements[1]
    assert (kept.text, kept.text_set_by) == ("Store uploads in a versioned S3 bucket", "user")
    assert (merged.status, merged.merged_into, merged.status_set_by) == ("dropped", "R1", "user")
    [edit] = session.ledger_edits
    assert (edit.action, edit.target, edit.merged) == ("merge", "R1", "R2")
    assert (edit.before, edit.after) == (first_text, "Store uploads in a versioned S3 bucket")
    # The user says the merged-away text again: it is R1 (restated), not R2 back nor an R3.
    said(session, "Uploads should be kept in an S3 bucket with versioning.", 3)
    assert [(r.id, r.status) for r in session.requirements] == [("R1", "pending"),
                                                                ("R2", "dropped")]
    assert session.requirements[0].text == "Store uploads in a versioned S3 bucket"
    with pytest.raises(ValueError, match="already merged into R1"):
        edits.merge_requirements(session, "R2", "R1", turn=3)
    with pytest.raises(ValueError, match="merged into R1; edit that one"):
        edits.edit_requirement(session, "R2", "x", turn=3)
    with pytest.raises(ValueError, match="two different"):
        edits.merge_requirements(session, "R1", "r1", turn=3)
    with pytest.raises(KeyError, match="no requirement 'R9'"):
        edits.merge_requirements(session, "R1", "9", turn=3)


def test_a_status_the_user_set_is_not_flipped_by_later_analysis() -> None:
    session = Session()
    apply_analysis(session, reqs("Export monthly statements as CSV", "Use Redis for sessions"), 1)
    set_requirement_status(session, "R1", "dropped", 1)
    set_requirement_status(session, "R2", "confirmed", 1)
    # Restated (would reinstate), confirmed or dropped by id, an option it names rejected.
    apply_analysis(session, reqs("Export monthly statements as CSV"), 3)
    apply_analysis(session, Analysis(confirmed_ids=["R1"], dropped_ids=["R2"]), 4)
    apply_analysis(session, Analysis(rejections=[RejectionFinding("Redis", "")]), 5)
    assert [r.status for r in session.requirements] == ["dropped", "confirmed"]


def test_an_option_reopened_by_hand_is_not_rejected_again_by_the_model() -> None:
    session = Session()
    said(session, "MongoDB is off the table: transactions are too fragile.", 1)
    [entry] = session.active_rejections()
    edits.unreject(session, entry.id, turn=1)
    assert (entry.reopened_by, session.ledger_edits[-1].action) == ("user", "unreject")
    reject_option(session, "MongoDB", "", 2, origin="model")  # a [REJECTED: …] marker
    apply_analysis(session, Analysis(rejections=[RejectionFinding("MongoDB", "")],
                                     source="llm"), 2)
    assert session.active_rejections() == []
    # The user's own words in a later message still reject it again.
    said(session, "Actually, no MongoDB: it is too risky.", 3)
    assert [r.option for r in session.active_rejections()] == ["MongoDB"]
    with pytest.raises(ValueError, match="reopened already"):
        edits.unreject(session, entry.id, turn=3)


def test_a_rejected_option_edited_by_hand_keeps_its_name_and_reason() -> None:
    session = Session()
    said(session, "MongoDB is off the table: transactions are too fragile.", 1)
    [entry] = session.active_rejections()
    edits.edit_rejection(session, "MongoDB", "MongoDB Atlas", "we need SERIALIZABLE", turn=1)
    assert (entry.option, entry.reason, entry.edited_by) == (
        "MongoDB Atlas", "we need SERIALIZABLE", "user")
    edit = session.ledger_edits[-1]
    assert (edit.action, edit.before, edit.after, edit.reason_after, edit.origin) == (
        "edit_rejected", "MongoDB", "MongoDB Atlas", "we need SERIALIZABLE", "user")
    apply_analysis(session, Analysis(rejections=[RejectionFinding("MongoDB Atlas", "cost")],
                                     source="llm"), 2)
    assert entry.reason == "we need SERIALIZABLE"
    # A reason the user cleared is not filled in by the analyser either.
    edits.edit_rejection(session, entry.id, "MongoDB Atlas", "", turn=2)
    apply_analysis(session, Analysis(rejections=[RejectionFinding("MongoDB Atlas", "cost")],
                                     source="llm"), 3)
    assert entry.reason == ""
    with pytest.raises(ValueError, match="option name is empty"):
        edits.edit_rejection(session, entry.id, " ", "", turn=2)
    with pytest.raises(KeyError, match="no rejected option"):
        edits.edit_rejection(session, "Cassandra", "x", "", turn=2)


def test_edits_survive_the_document_and_a_fork_keeps_those_up_to_its_turn() -> None:
    session = Session()
    said(session, "We need to store the uploaded files in S3.", 1)
    session.messages.append(Message(role="assistant", content="ok", turn=1))
    edits.edit_requirement(session, "R1", "Store uploads in S3 (eu-west-1)", turn=1)
    said(session, "It must handle 50 uploads per second.", 2)
    session.messages.append(Message(role="assistant", content="ok", turn=2))
    edits.add_requirement(session, "Virus-scan every upload", turn=2)
    loaded = session_from_data(session.dump())
    assert loaded.ledger_edits == session.ledger_edits
    assert loaded.requirements[0].replaced_texts == [session.ledger_edits[0].before]
    assert [e.action for e in fork_session(session, 1).ledger_edits] == ["edit"]
    # A document written before these keys existed loads with none of them.
    data = Session().dump()
    del data["ledger_edits"]
    assert session_from_data(data).ledger_edits == []


def test_a_fork_before_the_edits_starts_from_the_ledger_as_the_user_left_it_then() -> None:
    session = Session()
    said(session, "We need to store the uploaded files in S3.", 1)
    said(session, "MongoDB is off the table: transactions are too fragile.", 1)
    session.messages.append(Message(role="assistant", content="ok", turn=1))
    said(session, "Uploads should be kept in an S3 bucket with versioning.", 2)
    session.messages.append(Message(role="assistant", content="ok", turn=2))
    original = [(r.id, r.text, r.status) for r in session.requirements]
    [entry] = session.rejected
    rejected_then = (entry.option, entry.reason, True)
    edits.edit_requirement(session, "R1", "Store uploads in S3 (eu-west-1)", turn=2)
    edits.merge_requirements(session, "R1", "R2", "One versioned S3 bucket", turn=2)
    edits.add_requirement(session, "Virus-scan every upload", turn=2)
    edits.edit_rejection(session, entry.id, "MongoDB Atlas", "no SERIALIZABLE", turn=2)
    edits.unreject(session, entry.id, turn=2)

    branch = fork_session(session, 1)
    assert [(r.id, r.text, r.status) for r in branch.requirements] == original[:1]
    assert branch.requirements[0].replaced_texts == []
    assert branch.requirements[0].text_set_by is None
    assert [(r.option, r.reason, r.active) for r in branch.rejected] == [rejected_then]
    assert branch.rejected[0].edited_by is None and branch.rejected[0].reopened_by is None
    assert branch.ledger_edits == []
    # At the turn of the edits the branch keeps them all.
    same = fork_session(session, 2)
    assert [e.action for e in same.ledger_edits] == [
        "edit", "merge", "add", "edit_rejected", "unreject"]
    assert same.requirements[0].text == "One versioned S3 bucket"
    assert same.requirements[1].merged_into == "R1"
    # The parent is untouched.
    assert session.requirements[0].text == "One versioned S3 bucket"
    assert session.rejected[0].option == "MongoDB Atlas"

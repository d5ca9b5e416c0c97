"""The ledger merge: requirements merged, never duplicated; rejections keep their history."""

from __future__ import annotations

import pytest

from rcm_tui.core.analysis import Analysis, RejectionFinding, RequirementFinding
from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger import (
    apply_analysis,
    ledger_snapshot,
    mark_addressed,
    reject_option,
    reopen_option,
    set_requirement_status,
)
from rcm_tui.core.ledger_snapshot import RequirementItem
from rcm_tui.core.models import Message, Session


def reqs(*texts: str, source: str = "heuristic") -> Analysis:
    return Analysis(requirements=[RequirementFinding(t, 0.7) for t in texts], source=source)


def rejects(*pairs: tuple[str, str]) -> Analysis:
    return Analysis(rejections=[RejectionFinding(o, r) for o, r in pairs])


def active(session: Session) -> list[str]:
    return [r.option for r in session.active_rejections()]


# -- requirements -------------------------------------------------------------------------------


def test_new_requirements_get_sequential_ids_and_describe_the_change() -> None:
    session = Session()
    changes = apply_analysis(session, reqs("Reject anything over 20 MB", "Log every upload"), 1)
    assert changes == ["+R1 Reject anything over 20 MB", "+R2 Log every upload"]
    assert [(r.id, r.source_turn, r.origin) for r in session.requirements] == [
        ("R1", 1, "heuristic"),
        ("R2", 1, "heuristic"),
    ]


def test_ids_continue_after_the_highest_existing_id() -> None:
    session = Session()
    apply_analysis(session, reqs("Use Flask", "Log every upload", "Keep files for a year"), 1)
    session.requirements.pop(1)
    apply_analysis(session, reqs("Encrypt files at rest"), 2)
    assert [r.id for r in session.requirements] == ["R1", "R3", "R4"]


def test_a_repeated_requirement_is_a_restatement_not_a_duplicate() -> None:
    session = Session()
    apply_analysis(session, reqs("Sessions must expire after 30 minutes of inactivity"), 2)
    changes = apply_analysis(
        session, reqs("Sessions should expire after 30 minutes of inactivity"), 5
    )
    assert changes == ["R1 restated"]
    (req,) = session.requirements
    assert req.restated_turns == [5]
    assert req.updated_turn == 5
    assert req.confidence == pytest.approx(0.8)
    (restatement,) = session.metrics.restated_requirements
    assert (restatement.turn, restatement.requirement_id) == (5, "R1")


def test_the_llm_echoing_the_heuristic_in_the_same_turn_is_no_restatement() -> None:
    session = Session()
    apply_analysis(session, reqs("Keep an immutable audit trail"), 3)
    apply_analysis(session, reqs("Keep an immutable audit trail", source="llm"), 3)
    assert len(session.requirements) == 1
    assert session.metrics.restated_requirements == []


def test_a_restatement_is_counted_once_per_turn() -> None:
    session = Session()
    apply_analysis(session, reqs("Keep an immutable audit trail"), 1)
    apply_analysis(session, reqs("Keep an immutable audit trail"), 4)
    apply_analysis(session, reqs("keep an immutable audit trail", source="llm"), 4)
    assert session.requirements[0].restated_turns == [4]
    assert len(session.metrics.restated_requirements) == 1


def test_a_more_specific_finding_refines_the_text_and_keeps_the_id() -> None:
    session = Session()
    apply_analysis(session, reqs("Validate file types"), 2)
    changes = apply_analysis(session, reqs("Validate file types — only PNG, JPEG and PDF"), 3)
    assert changes == ["R1 updated: Validate file types — only PNG, JPEG and PDF"]
    assert [(r.id, r.text) for r in session.requirements] == [
        ("R1", "Validate file types — only PNG, JPEG and PDF")
    ]
    assert session.metrics.restated_requirements == []


def test_a_changed_number_updates_the_requirement() -> None:
    session = Session()
    apply_analysis(session, reqs("Sessions must expire after 30 minutes of inactivity"), 2)
    apply_analysis(session, reqs("Sessions must expire after 60 minutes of inactivity"), 6)
    assert [r.text for r in session.requirements] == [
        "Sessions must expire after 60 minutes of inactivity"
    ]
    assert session.requirements[0].restated_turns == []


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Reads for the dashboard must not slow down writes", "Around 2,000 writes per second"),
        ("Reject files over 20 MB", "Reject images over 5 MB"),
        ("Use Go", "Use Google Cloud"),
        ("Use Flask", "Log every upload"),
    ],
)
def test_different_requirements_stay_apart(first: str, second: str) -> None:
    session = Session()
    apply_analysis(session, reqs(first), 1)
    apply_analysis(session, reqs(second), 2)
    assert [r.text for r in session.requirements] == [first, second]


def test_restating_an_addressed_requirement_makes_it_pending_again() -> None:
    session = Session()
    apply_analysis(session, reqs("Log every login attempt"), 1)
    mark_addressed(session, ["R1"], 1)
    assert apply_analysis(session, reqs("Log every login attempt"), 3) == [
        "R1 restated",
        "R1 pending again",
    ]
    assert session.requirements[0].status == "pending"


def test_a_requirement_to_use_a_rejected_option_is_not_added() -> None:
    session = Session()
    apply_analysis(session, rejects(("MongoDB", "compliance needs SQL")), 1)
    assert apply_analysis(session, reqs("Use MongoDB for the ledger"), 2) == []
    assert session.requirements == []
    apply_analysis(session, reqs("Never use MongoDB for money"), 3)
    assert [r.text for r in session.requirements] == ["Never use MongoDB for money"]


def test_rejecting_an_option_drops_the_requirement_to_use_it() -> None:
    session = Session()
    apply_analysis(session, reqs("Use Redis for sessions", "Log every login attempt"), 1)
    changes = apply_analysis(session, rejects(("Redis", "")), 2)
    assert changes == ["rejected Redis", "R1 dropped (Redis rejected)"]
    assert [r.status for r in session.requirements] == ["dropped", "pending"]


def test_a_restated_dropped_requirement_is_reinstated() -> None:
    session = Session()
    apply_analysis(session, reqs("Export monthly statements as CSV"), 1)
    apply_analysis(session, Analysis(dropped_ids=["R1"]), 2)
    changes = apply_analysis(session, reqs("Export monthly statements as CSV"), 4)
    assert changes == ["R1 restated", "R1 reinstated"]
    assert session.requirements[0].status == "pending"


def test_confirm_and_drop_by_id_ignore_unknown_ids() -> None:
    session = Session()
    apply_analysis(session, reqs("Use PostgreSQL", "Export statements as CSV"), 1)
    changes = apply_analysis(session, Analysis(confirmed_ids=["R1", "R9"], dropped_ids=["R2"]), 2)
    assert changes == ["R2 dropped", "R1 confirmed"]
    assert [r.status for r in session.requirements] == ["confirmed", "dropped"]


def test_origin_follows_the_analysis_source() -> None:
    session = Session()
    apply_analysis(session, reqs("Encrypt backups", source="llm"), 1)
    apply_analysis(session, Analysis(rejections=[RejectionFinding("FTP")], source="llm"), 1)
    assert session.requirements[0].origin == "llm"
    assert session.rejected[0].origin == "llm"


# -- rejections ---------------------------------------------------------------------------------


def test_rejections_get_ids_and_an_already_rejected_option_only_gains_a_missing_reason() -> None:
    session = Session()
    assert apply_analysis(session, rejects(("MongoDB", "")), 7) == ["rejected MongoDB"]
    assert apply_analysis(session, rejects(("Mongo", "we need SQL reporting")), 8) == [
        "MongoDB: reason noted"
    ]
    assert apply_analysis(session, rejects(("mongodb", "something else")), 9) == []
    (entry,) = session.rejected
    assert (entry.id, entry.option, entry.reason, entry.turn) == (
        "X1",
        "MongoDB",
        "we need SQL reporting",
        7,
    )


def test_a_category_named_in_this_turns_reason_is_not_a_second_rejection() -> None:
    session = Session()
    reason = "Compliance requires SQL reporting, so a document store is off the table"
    apply_analysis(session, rejects(("MongoDB", reason)), 7)
    llm = Analysis(
        rejections=[RejectionFinding("MongoDB", ""), RejectionFinding("document store", "")],
        source="llm",
    )
    assert apply_analysis(session, llm, 7) == []
    assert active(session) == ["MongoDB"]
    apply_analysis(session, rejects(("document store", "")), 9)
    assert active(session) == ["MongoDB", "document store"]


def test_reopening_keeps_history_and_rejecting_again_adds_a_new_entry() -> None:
    session = Session()
    apply_analysis(session, rejects(("Redis", "one more stateful service")), 3)
    assert apply_analysis(session, Analysis(reopened=["redis"]), 6) == ["reopened redis"]
    assert active(session) == []
    assert session.rejected[0].reopened_turn == 6
    apply_analysis(session, rejects(("Redis", "still no")), 9)
    assert [(r.id, r.turn, r.reopened_turn) for r in session.rejected] == [
        ("X1", 3, 6),
        ("X2", 9, None),
    ]
    assert active(session) == ["Redis"]


def test_reopen_before_reject_in_one_analysis_ends_rejected() -> None:
    session = Session()
    apply_analysis(session, rejects(("Kafka", "")), 1)
    analysis = Analysis(reopened=["Kafka"], rejections=[RejectionFinding("Kafka", "too heavy")])
    apply_analysis(session, analysis, 2)
    assert active(session) == ["Kafka"]


def test_reject_option_by_hand_overwrites_the_reason() -> None:
    session = Session()
    apply_analysis(session, rejects(("gRPC", "")), 2)
    entry = reject_option(session, "grpc", "plain REST everywhere", 4)
    assert (entry.id, entry.reason) == ("X1", "plain REST everywhere")
    manual = reject_option(session, "SOAP", "", 4)
    assert (manual.id, manual.origin) == ("X2", "user")
    with pytest.raises(ValueError, match="name the option"):
        reject_option(session, "  ", "", 4)


def test_reopen_option_by_hand() -> None:
    session = Session()
    reject_option(session, "Redis", "", 1)
    assert reopen_option(session, "Kafka", 2) is None
    entry = reopen_option(session, "REDIS", 2)
    assert entry is not None and entry.reopened_turn == 2
    assert reopen_option(session, "Redis", 3) is None  # already reopened


# -- statuses -----------------------------------------------------------------------------------


def test_set_requirement_status_and_unknown_ids() -> None:
    session = Session()
    apply_analysis(session, reqs("Use Flask"), 1)
    req = set_requirement_status(session, "r1", "confirmed", 2)
    assert (req.status, req.updated_turn) == ("confirmed", 2)
    with pytest.raises(KeyError, match=r"no requirement 'R7' \(known: R1\)"):
        set_requirement_status(session, "R7", "dropped", 2)


def test_mark_addressed_never_downgrades_a_confirmed_requirement() -> None:
    session = Session()
    apply_analysis(session, reqs("Use Flask", "Log uploads", "Encrypt files"), 1)
    set_requirement_status(session, "R1", "confirmed", 1)
    assert mark_addressed(session, ["R1", "R2", "R5"], 2) == ["R2 addressed"]
    assert [r.status for r in session.requirements] == ["confirmed", "addressed", "pending"]


# -- memory, pivots, dialog state -----------------------------------------------------------------


def test_pivots_facts_trajectory_questions_and_dialog_state() -> None:
    session = Session()
    first = Analysis(
        pivot=True,
        facts=["We already run PostgreSQL", "Team of 5 engineers"],
        trajectory="Modular monolith",
        questions=["How do modules talk?"],
        dialog_state="problem_solving",
    )
    apply_analysis(session, first, 4)
    second = Analysis(
        pivot=True,
        facts=["we already run PostgreSQL"],
        trajectory="",
        questions=["How do modules talk?", "What about deployments?"],
        dialog_state="clarification",
    )
    apply_analysis(session, second, 4)
    assert session.pivots == [4]
    assert session.memory.facts == ["We already run PostgreSQL", "Team of 5 engineers"]
    assert session.memory.trajectory == "Modular monolith"
    assert session.memory.open_questions == ["How do modules talk?", "What about deployments?"]
    assert session.dialog_state == "clarification"


def test_open_questions_keep_the_last_eight() -> None:
    session = Session()
    apply_analysis(session, Analysis(questions=[f"Question number {i}?" for i in range(12)]), 1)
    assert session.memory.open_questions[0] == "Question number 4?"
    assert len(session.memory.open_questions) == 8


# -- the snapshot -------------------------------------------------------------------------------


def test_ledger_snapshot_is_independent_of_the_session() -> None:
    session = Session()
    for turn in range(1, 9):
        session.messages.append(Message(role="user", content=f"user {turn}", turn=turn))
        session.messages.append(Message(role="assistant", content=f"reply {turn}", turn=turn))
    apply_analysis(session, reqs("Use Flask"), 1)
    apply_analysis(session, rejects(("Redis", ""), ("Kafka", "")), 2)
    reopen_option(session, "Kafka", 3)
    view = ledger_snapshot(session)
    assert view.requirements == (RequirementItem("R1", "Use Flask", "pending", 1),)
    assert view.active_rejections == ["Redis"]
    assert view.reopenable == ("Redis", "Kafka")
    assert view.recent_user_messages == tuple(f"user {t}" for t in range(3, 9))
    assert view.last_assistant_message == "reply 8"
    session.requirements.clear()
    assert len(view.requirements) == 1


def test_a_short_conversation_end_to_end() -> None:
    session = Session()
    script = [
        "We're building a webhook relay. Payloads must be signed with HMAC.",
        "No Kafka, please — we don't want to run a cluster.",
        "Remember, payloads must be signed with HMAC.",
        "Let's reconsider Kafka after all.",
    ]
    for turn, text in enumerate(script, start=1):
        session.messages.append(Message(role="user", content=text, turn=turn))
        apply_analysis(session, analyse_message(text, turn, ledger_snapshot(session)), turn)
    assert [r.text for r in session.requirements] == ["Payloads must be signed with HMAC"]
    assert session.requirements[0].restated_turns == [3]
    assert [(r.option, r.reason, r.reopened_turn) for r in session.rejected] == [
        ("Kafka", "We don't want to run a cluster", 4)
    ]
    assert session.memory.facts == ["We're building a webhook relay"]


def test_lists_pronouns_and_facts_end_to_end() -> None:
    session = Session()
    script = [
        (
            "We don't use Windows servers.",
            "Noted. Redis is the usual choice for the session store.",
        ),
        ("Hmm, no — too heavy.", "Then sessions can live in PostgreSQL, or in Memcached."),
        ("No Memcached, no Hazelcast, because they are stateful.", ""),
    ]
    for turn, (text, reply) in enumerate(script, start=1):
        session.messages.append(Message(role="user", content=text, turn=turn))
        apply_analysis(session, analyse_message(text, turn, ledger_snapshot(session)), turn)
        if reply:
            session.messages.append(Message(role="assistant", content=reply, turn=turn))
    assert session.memory.facts == ["We don't use Windows servers"]
    assert [(r.option, r.reason, r.turn) for r in session.rejected] == [
        ("Redis", "Too heavy", 2),
        ("Memcached", "They are stateful", 3),
        ("Hazelcast", "They are stateful", 3),
    ]

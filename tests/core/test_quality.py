"""Scoring: the overall formula, the hard checks, judge parsing and blending, markers."""

from __future__ import annotations

import json

import pytest

from rcm_tui.core.ledger_snapshot import LedgerSnapshot, RequirementItem
from rcm_tui.core.llm_analysis import parse_analysis
from rcm_tui.core.markers import option_of, parse_markers, strip_markers
from rcm_tui.core.models import Session
from rcm_tui.core.quality import (
    ReplyContext,
    Scores,
    combine,
    heuristic_scores,
    overall_score,
    parse_judge,
    update_length_metrics,
)
from rcm_tui.core.stats import bloat_assessment
from rcm_tui.core.structured import StructuredOutputError, extract_json


def scores(**over: object) -> Scores:
    base = dict(clarity=0.8, completeness=0.8, assumptions=0.2, verbosity=0.2,
                premature_attempt=False, middle_turn_reference=0.8, requirement_tracking=0.8)
    base.update(over)
    return Scores(**base)  # type: ignore[arg-type]


def ctx(**over: object) -> ReplyContext:
    base: dict[str, object] = dict(turn=3, user_text="How do we clean up expired sessions?",
                                   pending=[], rejected=[], first_answer_length=None,
                                   requirements_known=3)
    base.update(over)
    return ReplyContext(**base)  # type: ignore[arg-type]


def test_overall_is_the_mean_of_six_with_two_inverted() -> None:
    assert overall_score(scores()) == pytest.approx(0.8)
    assert overall_score(scores(assumptions=0.0, verbosity=0.0, clarity=1.0, completeness=1.0,
                                middle_turn_reference=1.0, requirement_tracking=1.0)) == 1.0


def test_a_premature_attempt_halves_the_score() -> None:
    assert overall_score(scores(premature_attempt=True)) == pytest.approx(0.4)


def test_full_code_before_any_requirement_is_premature() -> None:
    code = "Here is the complete implementation:\n```python\n" + "x = 1\n" * 30 + "```"
    early = heuristic_scores(code, ctx(turn=1, requirements_known=0,
                                       user_text="I need a file upload function"))
    later = heuristic_scores(code, ctx(turn=5, requirements_known=4))
    assert early.premature_attempt and not later.premature_attempt
    assert early.overall < later.overall


def test_readvocacy_is_flagged_and_costs_requirement_tracking() -> None:
    reply = "The simplest path is to move sessions into Redis and let its TTL expire them."
    proposing = heuristic_scores(reply, ctx(rejected=["Redis"]))
    mentioning = heuristic_scores("Since Redis was ruled out, use a cleanup job in PostgreSQL.",
                                  ctx(rejected=["Redis"]))
    assert proposing.readvocated == ["Redis"] and mentioning.readvocated == []
    assert proposing.requirement_tracking < mentioning.requirement_tracking
    assert any("Redis" in issue for issue in proposing.issues)


def test_bloat_raises_verbosity_and_names_the_ratio() -> None:
    long_reply = "word " * 400
    s = heuristic_scores(long_reply, ctx(first_answer_length=200))
    assert s.verbosity > 0.5
    assert any("as long as the first answer" in i for i in s.issues)


def test_bloat_ratio_and_first_attempt_are_recorded() -> None:
    session = Session()
    update_length_metrics(session, 1, "a" * 100)
    update_length_metrics(session, 2, "b" * 250)
    assert session.metrics.answer_lengths == [100, 250]
    assert session.metrics.bloat_ratio == 2.5
    assert bloat_assessment(1.2) == "minimal" and bloat_assessment(1.7) == "moderate"
    assert bloat_assessment(2.5) == "significant" and bloat_assessment(None) == "n/a"


def test_extract_json_finds_the_object_inside_prose_and_fences() -> None:
    assert extract_json('Sure!\n```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('x {bad} y {"b": [1, 2]}') == {"b": [1, 2]}
    with pytest.raises(StructuredOutputError):
        extract_json("no json here")
    with pytest.raises(StructuredOutputError):
        extract_json("{" * 5000)


def test_parse_judge_validates_ranges_and_grounds_addressed_ids() -> None:
    verdict = {"clarity": 0.9, "completeness": 0.7, "assumptions": 0.1, "verbosity": 0.2,
               "middle_turn_reference": 0.5, "requirement_tracking": 0.8,
               "premature_attempt": False, "addressed": ["R1", "R99"]}
    parsed = parse_judge(json.dumps(verdict), {"R1", "R2"})
    assert parsed.addressed == ["R1"]
    with pytest.raises(StructuredOutputError, match="clarity"):
        parse_judge(json.dumps({**verdict, "clarity": 7}), {"R1"})
    with pytest.raises(StructuredOutputError):
        parse_judge(json.dumps({"clarity": 0.5}), set())


def test_the_judge_cannot_clear_the_hard_checks() -> None:
    heuristic = scores(premature_attempt=True, readvocated=["Redis"], verbosity=0.7)
    verdict = parse_judge(json.dumps({
        "clarity": 1, "completeness": 1, "assumptions": 0, "verbosity": 0,
        "middle_turn_reference": 1, "requirement_tracking": 1, "premature_attempt": False,
    }), set())
    blended = combine(heuristic, verdict)
    assert blended.premature_attempt and blended.readvocated == ["Redis"]
    assert blended.verbosity >= 0.35 and blended.judge == "llm"


def test_llm_analysis_keeps_grounded_items_only() -> None:
    answer = json.dumps({
        "requirements": [{"text": "sessions expire after 30 minutes"}, "use Kafka streams",
                         {"text": "What about cleanup?"}],
        "rejections": [{"option": "Redis", "reason": "another stateful service"},
                       {"option": "Memcached"}],
        "reopened": ["Cassandra"], "confirmed": ["R1", "R42"],
        "pivot": False, "dialog_state": "unheard-of-state",
    })
    message = ("Sessions must expire after 30 minutes of inactivity. No Redis, please — we "
               "don't want another stateful service.")
    view = LedgerSnapshot(requirements=(RequirementItem("R1", "PostgreSQL", "pending"),))
    analysis = parse_analysis(answer, message, view)
    assert [r.text for r in analysis.requirements] == ["sessions expire after 30 minutes"]
    assert [r.option for r in analysis.rejections] == ["Redis"]
    assert analysis.confirmed_ids == ["R1"] and analysis.reopened == []
    assert analysis.dialog_state == "information_seeking"
    assert len(analysis.discarded) == 4


def test_status_block_and_markers_are_parsed() -> None:
    reply = ("[STATUS]\nConclusion: PostgreSQL with a read replica\n"
             "Rejected: MongoDB (no strict ACID); Redis\nOpen: backup window; none\n[/STATUS]\n"
             "[PIVOT] We move on. [REJECTED: gRPC]")
    found = parse_markers(reply)
    assert found.status_found and found.conclusion == "PostgreSQL with a read replica"
    assert found.rejected == ["MongoDB (no strict ACID)", "Redis"]
    assert found.open == ["backup window"]
    assert found.pivot and found.rejected_markers == ["gRPC"]
    assert option_of(found.rejected[0]) == ("MongoDB", "no strict ACID")
    assert strip_markers(reply) == "We move on."


def test_a_reply_without_markers_has_none() -> None:
    found = parse_markers("Use PostgreSQL. No status here.")
    assert not found.status_found and not found.pivot and found.rejected_markers == []


def test_llm_rejections_need_a_rejecting_sentence_and_a_short_name() -> None:
    answer = json.dumps({
        "requirements": [{"text": "Store them on local disk", "confidence": 90}],
        "rejections": [{"option": "Flask. Store them on local disk under /srv/uploads"},
                       {"option": "Flask"}, {"option": "python-magic"}],
        "pivot": True, "dialog_state": "problem_solving",
    })
    message = "Flask. Store them on local disk. Don't use python-magic, we can't install it."
    analysis = parse_analysis(answer, message, LedgerSnapshot())
    assert [r.option for r in analysis.rejections] == ["python-magic"]
    assert analysis.requirements[0].confidence == pytest.approx(0.9)
    assert not analysis.pivot  # "pivot": true without any change-of-direction words


def test_repeating_the_previous_answer_is_caught() -> None:
    previous = "Use a sessions table in PostgreSQL with an index on expires_at."
    repeat = heuristic_scores(previous, ctx(previous_reply=previous))
    fresh = heuristic_scores("Run a nightly DELETE in batches of 10,000 rows.",
                             ctx(previous_reply=previous))
    assert any("repeats the previous answer" in i for i in repeat.issues)
    assert repeat.completeness <= 0.3 < fresh.completeness


def test_a_reply_that_parrots_the_ledger_is_no_answer() -> None:
    pending = [("R1", "We need strict ACID transactions for a payments ledger", 1)]
    parrot = ("[Conversation ledger — authoritative] Rejected options:\n- MongoDB (reason: it is "
              "off the table) Requirements to respect:\n- R1: We need strict ACID transactions "
              "for a payments ledger")
    echoed = heuristic_scores(parrot, ctx(pending=pending))
    answer = heuristic_scores("For ACID transactions on a payments ledger, PostgreSQL with "
                              "serializable isolation is the usual choice.", ctx(pending=pending))
    assert echoed.echoed and not answer.echoed
    assert echoed.addressed == [] and answer.addressed == ["R1"]
    assert echoed.overall < answer.overall
    assert any("copies the conversation ledger" in i for i in echoed.issues)
    # Talking about a ledger (the payments kind) is not parroting the block.
    assert not heuristic_scores("Keep the ledger append-only.", ctx()).echoed

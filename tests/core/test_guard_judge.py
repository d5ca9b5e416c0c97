"""Re-advocacy with a capable judge: its per-option verdict decides, both ways.

The judge's answers are fed in through a scripted provider, as a capable model would give them.
"""

from __future__ import annotations

import json

import pytest

from rcm_tui.core import prompts
from rcm_tui.core.heuristics import find_readvocacy, member_reader
from rcm_tui.core.models import Message, RejectedOption, Session
from rcm_tui.core.turn import Pipeline, PipelineSettings
from rcm_tui.providers.offline import scripted_reply

from .fakes import ScriptedProvider


def judge(checks: list[tuple[str, bool]]) -> str:
    return json.dumps({
        "clarity": 0.9, "completeness": 0.9, "assumptions": 0.1, "verbosity": 0.1,
        "middle_turn_reference": 0.9, "requirement_tracking": 0.9, "premature_attempt": False,
        "rejected_options": [{"option": o, "proposes": p} for o, p in checks],
    })


def session_rejecting(*options: str) -> Session:
    session = Session()
    session.rejected = [
        RejectedOption(id=f"X{i}", option=o, reason="", turn=1, origin="user")
        for i, o in enumerate(options, 1)
    ]
    return session


async def first_draft_flags(session: Session, answers: list[str], reply: str) -> list[str]:
    provider = ScriptedProvider({"judge": answers})
    pipeline = Pipeline(
        provider, provider, PipelineSettings(profile="full", max_refinement_attempts=0),
        emit=lambda _e: None,
    )
    text = "How should I get from the station to the hotel?"
    session.messages.append(Message(role="user", content=text, turn=session.turn + 1))
    with scripted_reply(reply):
        await pipeline.run_turn(session, text)
    judge_calls = [r for r in provider.log if r.purpose == "judge"]
    assert judge_calls, "the judge was not asked"
    record = session.quality[-1]
    return list(record.readvocated)


@pytest.mark.usefixtures("member_reader_off")
async def test_the_judge_catches_a_member_the_names_do_not_show() -> None:
    # Without the member reader (a machine without its base model), names alone miss it.
    reply = "Easiest: a driver meets you at arrivals, and it is a 15-minute ride."
    assert find_readvocacy(reply, ["taxis"]) == []  # no name, variant or member to see
    session = session_rejecting("taxis")
    assert await first_draft_flags(session, [judge([("taxis", True)])], reply) == ["taxis"]
    issues = session.quality[-1].issues
    assert prompts.READVOCATED_ISSUE.format(option="taxis") in issues


async def test_the_judge_clears_a_flag_raised_on_a_mere_mention() -> None:
    # The heuristics read "Redis would be ideal" as a proposal; a judge that read the whole
    # sentence sees it reported as hearsay, not offered.
    reply = "Redis would be ideal for rate limiting, people say; a table does it here."
    assert find_readvocacy(reply, ["Redis"]) == ["Redis"]  # the heuristics raise it
    session = session_rejecting("Redis")
    flags = await first_draft_flags(session, [judge([("Redis", False)])], reply)
    assert flags == []
    assert not any("proposes Redis" in i for i in session.quality[-1].issues)


async def test_options_the_judge_did_not_answer_for_keep_the_heuristic_call() -> None:
    reply = "Put the sessions in Redis and let its TTL expire them."
    session = session_rejecting("Redis", "taxis")
    # A judge answer that names an option nobody rejected is ignored (grounding).
    answer = judge([("taxis", False), ("Memcached", True)])
    assert await first_draft_flags(session, [answer], reply) == ["Redis"]


async def test_the_judge_prompt_asks_per_rejected_option_about_variants_and_members() -> None:
    provider = ScriptedProvider({"judge": [judge([("flat foods", False)])]})
    pipeline = Pipeline(
        provider, provider, PipelineSettings(profile="full", max_refinement_attempts=0),
        emit=lambda _e: None,
    )
    session = session_rejecting("flat foods")
    session.messages.append(Message(role="user", content="Breakfast ideas?", turn=1))
    with scripted_reply("Try a frittata."):
        await pipeline.run_turn(session, "Breakfast ideas?")
    request = next(r for r in provider.log if r.purpose == "judge")
    instruction = request.messages[-1].content
    assert "Rejected options (must not be proposed): flat foods" in instruction
    assert "rejected_options" in instruction and "a member of the" in instruction
    assert "rejected_options" in (request.json_schema or {})["properties"]


async def test_a_rewrite_is_told_which_words_proposed_the_rejected_category() -> None:
    provider = ScriptedProvider()
    pipeline = Pipeline(
        provider, provider, PipelineSettings(
            profile="full", llm_analysis=False, llm_judge=False, max_refinement_attempts=1
        ),
        emit=lambda _e: None,
    )
    session = session_rejecting("flat foods")
    text = "Something quick for Saturday breakfast?"
    session.messages.append(Message(role="user", content=text, turn=1))
    with scripted_reply("1. **Protein pancakes** with berries.\n2. Egg muffins."):
        await pipeline.run_turn(session, text)
    rewrite = next(r for r in provider.log if r.purpose == "refinement")
    assert "- proposes pancakes, which is flat foods: the user rejected it" in (
        rewrite.messages[-1].content
    )
    assert session.quality[-1].readvocated == ["flat foods"]


async def test_a_malformed_judge_verdict_leaves_the_heuristic_call() -> None:
    # "proposes" must be true or false; an answer that cannot be read is no verdict at all, so
    # the heuristics decide: the flag they raise stays, and none is added.
    malformed = json.loads(judge([("taxis", False)]))
    malformed["rejected_options"] = [{"option": "taxis", "proposes": "maybe"}]
    flagged = "Honestly, just grab a taxi from the rank: it is 15 minutes."
    session = session_rejecting("taxis")
    assert await first_draft_flags(session, [json.dumps(malformed)], flagged) == ["taxis"]
    clean = "Take tram 28 from the square; it stops at the gate."
    session = session_rejecting("taxis")
    assert await first_draft_flags(session, ["{not json"], clean) == []


@pytest.mark.skipif(not member_reader.available(), reason="no base model for the member reader")
async def test_the_member_reader_sees_the_ride_and_the_judge_still_decides() -> None:
    reply = "Easiest: a driver meets you at arrivals, and it is a 15-minute ride."
    assert find_readvocacy(reply, ["taxis"], as_reply=True) == ["taxis"]
    # No answer for the option: the reader's call stands, and the issue names the reply's words.
    session = session_rejecting("taxis")
    assert await first_draft_flags(session, [judge([])], reply) == ["taxis"]
    issues = session.quality[-1].issues
    assert any(i.endswith("which is taxis: the user rejected it") for i in issues), issues
    # A judge that read the reply as no taxi clears it.
    session = session_rejecting("taxis")
    assert await first_draft_flags(session, [judge([("taxis", False)])], reply) == []

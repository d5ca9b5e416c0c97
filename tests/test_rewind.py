"""Regenerate and edit-and-resend (issue 14): the session is rewound to before a turn, with
the ledger as it stood then, and the (edited) message runs again as that turn."""

from __future__ import annotations

import asyncio

import pytest

from rcm_tui.core.rewind import rewind_before
from rcm_tui.providers.offline import scripted_reply

from .ui.conftest import CONVERSATION, converse, make_controller


def test_rewinding_drops_the_turns_and_what_they_put_in_the_ledger() -> None:
    controller = make_controller()
    session = asyncio.run(converse(controller, 6))
    controller.release()
    assert any("mongodb" in r.option.lower() for r in session.rejected)  # stated at turn 4
    assert any("audit" in r.text.lower() for r in session.requirements)  # stated at turn 5

    rewound = rewind_before(session, 4)

    assert rewound.id == session.id and rewound.title == session.title
    assert rewound.turn == 3 and len(rewound.messages) == 6
    assert rewound.rejected == []
    assert all(r.source_turn <= 3 for r in rewound.requirements)
    assert not any("audit" in r.text.lower() for r in rewound.requirements)
    assert [q.turn for q in rewound.quality] == [1, 2, 3]
    assert all(c.turn <= 3 for c in rewound.calls)
    assert len(rewound.metrics.answer_lengths) == 3
    assert session.turn == 6  # the original is untouched


def test_rewinding_before_the_first_turn_leaves_an_empty_conversation() -> None:
    controller = make_controller()
    session = asyncio.run(converse(controller, 3))
    controller.release()
    rewound = rewind_before(session, 1)
    assert rewound.messages == [] and rewound.requirements == [] and rewound.quality == []
    assert rewound.memory.facts == [] and rewound.id == session.id


def test_rewinding_to_a_turn_that_does_not_exist_is_refused() -> None:
    controller = make_controller()
    session = asyncio.run(converse(controller, 2))
    controller.release()
    with pytest.raises(ValueError, match="no turn 5"):
        rewind_before(session, 5)


async def test_an_edited_message_replaces_its_turn_and_is_analysed_anew() -> None:
    controller = make_controller()
    await converse(controller, 5)
    outcome = await controller.resend(4, "Redis is off the table: we need durable storage.")
    await controller.drain()
    session = controller.session
    assert outcome.ok and session.turn == 4
    users = [m.content for m in session.messages if m.role == "user"]
    assert users == [u for u, _ in CONVERSATION[:3]] + [
        "Redis is off the table: we need durable storage."]
    options = [r.option.lower() for r in session.rejected]
    assert not any("mongodb" in o for o in options)  # the dropped turn's rejection is gone
    assert any("redis" in o for o in options)  # the edited message was analysed
    assert not any("audit" in r.text.lower() for r in session.requirements)  # turn 5's
    assert [q.turn for q in session.quality] == [1, 2, 3, 4]
    # Saved: a reload sees the rewound conversation, not the old turns.
    reloaded = controller.store.load(session.id)
    assert reloaded.turn == 4 and len(reloaded.messages) == 8
    controller.release()


async def test_regenerate_replaces_the_last_reply_for_the_same_message() -> None:
    controller = make_controller()
    await converse(controller, 3)
    old_reply = controller.session.messages[-1].content
    old_calls = len(controller.session.calls)
    outcome = await controller.regenerate()
    session = controller.session
    assert outcome is not None and outcome.ok and session.turn == 3
    assert [m.turn for m in session.messages] == [1, 1, 2, 2, 3, 3]
    assert session.messages[-2].content == CONVERSATION[2][0]
    assert session.messages[-1].content != old_reply  # the offline demo reply, not the script
    assert [q.turn for q in session.quality] == [1, 2, 3]
    assert len(session.calls) <= old_calls + 1 and all(c.turn <= 3 for c in session.calls)
    controller.release()


async def test_regenerate_with_no_answered_reply_does_nothing() -> None:
    controller = make_controller()
    assert await controller.regenerate() is None
    controller.release()


async def test_the_script_commands_regenerate_and_edit_with_a_new_text() -> None:
    from rcm_tui.commands import dispatch

    controller = make_controller()
    await converse(controller, 4)
    result = await dispatch(controller, "/edit 2 It has to handle 500 writes per second.")
    assert result.ok, result.text
    assert controller.session.turn == 2
    assert not any("mongodb" in r.option.lower() for r in controller.session.rejected)
    assert any("500 writes" in r.text for r in controller.session.requirements)
    assert (await dispatch(controller, "/edit 2")).ok is False  # no text: the usage
    result = await dispatch(controller, "/regenerate")
    assert result.ok and "turn 2" in result.text and controller.session.turn == 2
    controller.release()


async def test_a_fact_first_stated_in_a_dropped_turn_is_gone_and_an_earlier_one_stays() -> None:
    from rcm_tui.core.branch import fork_session

    controller = make_controller()
    with scripted_reply("Noted."):
        await controller.send("We're building the core ledger for a payments startup.")
        await controller.send("We're building the billing service on AWS.")
    await controller.drain()
    facts = controller.session.memory.facts
    assert len(facts) == 2 and "billing service" in facts[1]
    kept = ["We're building the core ledger for a payments startup"]
    assert rewind_before(controller.session, 2).memory.facts == kept
    assert fork_session(controller.session, 1).memory.facts == kept  # the fork: the same
    controller.release()


async def test_editing_the_first_message_renames_a_session_named_after_it() -> None:
    controller = make_controller()
    await converse(controller, 2)
    assert controller.session.title.startswith("We're building the core ledger")
    await controller.resend(1, "Which message queue fits an event-sourced billing service?")
    assert controller.session.title.startswith("Which message queue fits")
    controller.session.title = "My own title"
    await controller.resend(1, "Something else entirely about queues.")
    assert controller.session.title == "My own title"  # a title the user gave is kept
    controller.release()

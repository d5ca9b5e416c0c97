"""A long ledger does not make every prompt and every stored call record longer: the block
sent to the model is bounded (what the user set, what is pending, what the message is about
and the newest in full; the rest named by id), and call records keep the block by reference,
once per session, readable and resumable as sent."""

from __future__ import annotations

import json
from pathlib import Path

from rcm_tui.core import call_text, prompts
from rcm_tui.core.context import Budget, assemble, estimate_tokens
from rcm_tui.core.models import CallRecord, Message, Requirement, Session
from rcm_tui.core.turn import Pipeline, PipelineSettings
from rcm_tui.eval.long_session import build_session, user_turn
from rcm_tui.providers.offline import scripted_reply
from rcm_tui.store import SessionStore, encode_document

from .core.fakes import ScriptedProvider

BUDGET = Budget(6000, 768, 6)


def ledger_block_of(session: Session, text: str) -> str:
    prompt = assemble(session, text, session.turn + 1, BUDGET)
    return prompt.ledger_text


def requirement_lines(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.startswith("- R")]


# -- the block sent to the model is bounded ------------------------------------------------------
def test_a_ledger_of_a_thousand_needs_sends_a_block_the_size_of_forty() -> None:
    small = ledger_block_of(build_session(40), "What next?")
    large = ledger_block_of(build_session(1000), "What next?")
    assert len(requirement_lines(small)) == 40  # up to the limit, every requirement
    assert len(requirement_lines(large)) == 40
    assert estimate_tokens(large) < 2 * estimate_tokens(small)
    assert "and 960 earlier requirements (R1–R960)" in large
    # The newest are those in full, in ledger order.
    assert requirement_lines(large)[0].startswith("- R961: ")
    assert requirement_lines(large)[-1].startswith("- R1000: ")


def test_the_bounded_block_keeps_what_the_user_set_what_is_pending_and_what_is_discussed(
) -> None:
    session = build_session(1000)
    session.requirements[4].origin = "user"  # R5, set by hand in the panel
    session.requirements[9].status = "pending"  # R10, never answered
    # 1,000 needs over 24 subjects: "checkout" is in ~42 of them, "need" in all.
    block = ledger_block_of(session, "Back to the checkout part: what about its numbers?")
    shown = {line.split(":")[0][2:] for line in requirement_lines(block)}
    assert {"R5", "R10"} <= shown
    checkout = [r.id for r in session.requirements if "checkout" in r.text]
    # The newest checkout needs, older than the 40 newest requirements, are in full too.
    assert set(checkout[-30:]) <= shown
    assert len(shown) == 40


def test_a_short_ledger_is_sent_whole_as_before() -> None:
    session = build_session(12)
    block = ledger_block_of(session, "What next?")
    assert len(requirement_lines(block)) == 12
    assert "earlier requirements" not in block


def test_distinct_needs_stay_distinct_in_the_bounded_block() -> None:
    # Bounding the block drops nothing from the ledger itself.
    session = build_session(1000)
    ledger_block_of(session, user_turn(1001))
    assert len(session.live_requirements()) == 1000


# -- call records keep the block by reference ---------------------------------------------------
async def run_turns(pipeline: Pipeline, session: Session, count: int) -> None:
    for number in range(session.turn + 1, session.turn + count + 1):
        text = f"We need the billing part to handle {100 + number} requests per second."
        if number > 1:
            text = "And what about the retries?"
        session.messages.append(Message(role="user", content=text, turn=number))
        with scripted_reply(f"Reply {number}."):
            outcome = await pipeline.run_turn(session, text)
        assert outcome.ok


async def test_call_records_name_the_block_they_sent_and_read_back_as_sent(
    tmp_path: Path,
) -> None:
    provider = ScriptedProvider()
    store = SessionStore(tmp_path / "sessions")
    session = Session()
    pipeline = Pipeline(provider, provider, PipelineSettings(), save=store.save)
    await run_turns(pipeline, session, 6)
    sent = [m for request in provider.log for m in request.messages
            if m.role == "user" and m.content.startswith(prompts.LEDGER_HEADER)]
    assert sent, "the prompts carried a ledger block"
    # The same block every turn (the ledger did not change after turn 1): stored once.
    blocks = {m.content.partition("[/ledger]")[0] for m in sent}
    kept = [entry for entry in session.sent_ledgers if entry.text]
    assert len(kept) == len(blocks)
    document = encode_document(session).decode()
    assert document.count(prompts.LEDGER_HEADER) == len(kept)
    # What the inspector shows is what the model received, byte for byte.
    generation = [c for c in session.calls if c.purpose == "generation"][-1]
    last_sent = [r for r in provider.log if r.purpose == generation.purpose][-1]
    assert call_text.as_sent(session, generation)[-1]["content"] == last_sent.messages[-1].content
    # And so it is after a restart (document and journal read back).
    loaded = SessionStore(tmp_path / "sessions").load(session.id)
    again = [c for c in loaded.calls if c.purpose == "generation"][-1]
    assert call_text.as_sent(loaded, again) == call_text.as_sent(session, generation)


async def test_blocks_leave_with_the_prompts_that_sent_them() -> None:
    provider = ScriptedProvider()
    session = Session()
    pipeline = Pipeline(provider, provider, PipelineSettings(status_interval=0))
    await run_turns(pipeline, session, 1)
    for number in range(2, 45):
        # A new need every turn: a new block every turn.
        text = user_turn(number)
        session.messages.append(Message(role="user", content=text, turn=number))
        with scripted_reply(f"Reply {number}."):
            assert (await pipeline.run_turn(session, text)).ok
    kept = [entry for entry in session.sent_ledgers if entry.text]
    # Only the blocks of the turns whose records keep their prompt (30), not one per turn.
    assert len(kept) <= 31 < len(session.sent_ledgers)
    for record in session.calls:
        for message in call_text.as_sent(session, record):
            assert "not kept]" not in message["content"]


def test_an_old_document_with_copied_blocks_still_reads() -> None:
    # Written before records kept the block by reference: no "ledger" key, no sent_ledgers.
    data = json.loads(encode_document(build_session(3)))
    data.pop("sent_ledgers", None)
    full = f"{prompts.LEDGER_HEADER}\n- R1: x\n[/ledger]\n\nWhat next?"
    data["calls"][0]["prompt"] = [{"role": "user", "content": full}]
    session = Session.model_validate(data)
    assert call_text.as_sent(session, session.calls[0]) == [{"role": "user", "content": full}]


def test_a_record_whose_block_is_gone_says_so() -> None:
    session = Session()
    record = CallRecord(turn=1, purpose="generation",
                        prompt=[{"role": "user", "content": "Hi", "ledger": "0123456789abcdef"}])
    shown = call_text.as_sent(session, record)[0]["content"]
    assert shown == "[ledger block 0123456789abcdef not kept]\n\nHi"


def test_a_message_that_merely_looks_like_a_block_is_kept_whole() -> None:
    session = Session()
    session.requirements.append(Requirement(id="R1", text="x", source_turn=1))
    from rcm_tui.core.llm import ChatMessage

    text = f"{prompts.LEDGER_HEADER} pasted by the user, no end marker"
    dumped = call_text.dump_prompt(session, 1, [ChatMessage("user", text)])
    assert dumped == [{"role": "user", "content": text}]
    assert session.sent_ledgers == []

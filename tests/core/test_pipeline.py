"""One turn of the pipeline, end to end, with scripted and offline providers (no network)."""

from __future__ import annotations

import asyncio
import json

import pytest

from rcm_tui.core.context import Budget
from rcm_tui.core.events import (
    CallFinished,
    Notice,
    QualityScored,
    ReplyDelta,
    ReplyShown,
    StageChanged,
    TurnFailed,
)
from rcm_tui.core.llm import ChatMessage, ProviderError, context_overflow_in
from rcm_tui.core.models import Message, Session
from rcm_tui.core.turn import Pipeline, PipelineSettings
from rcm_tui.providers.offline import scripted_reply

from .fakes import ScriptedProvider

GOOD_JUDGE = json.dumps({
    "clarity": 0.9, "completeness": 0.9, "assumptions": 0.1, "verbosity": 0.1,
    "middle_turn_reference": 0.9, "requirement_tracking": 0.9, "premature_attempt": False,
})


def make(provider: ScriptedProvider, **settings: object) -> tuple[Pipeline, list[object]]:
    events: list[object] = []
    pipeline = Pipeline(provider, provider, PipelineSettings(**settings), emit=events.append)
    return pipeline, events


async def turn(pipeline: Pipeline, session: Session, text: str, scripted: str | None = None):
    session.messages.append(Message(role="user", content=text, turn=session.turn + 1))
    with scripted_reply(scripted):
        return await pipeline.run_turn(session, text)


async def test_a_turn_stores_reply_quality_calls_and_ledger() -> None:
    provider = ScriptedProvider({"judge": [GOOD_JUDGE]})
    pipeline, events = make(provider)
    session = Session()
    outcome = await turn(pipeline, session,
                         "We need strict ACID transactions. Let's not use MongoDB, it is off "
                         "the table.", "Understood: PostgreSQL gives you ACID transactions.")
    assert outcome.ok
    assert [m.role for m in session.messages] == ["user", "assistant"]
    assert session.messages[1].content == "Understood: PostgreSQL gives you ACID transactions."
    assert any("ACID" in r.text for r in session.requirements)
    assert [r.option for r in session.active_rejections()] == ["MongoDB"]
    record = session.quality[0]
    assert record.turn == 1 and 0 <= record.overall <= 1 and record.judge == "llm"
    purposes = [c.purpose for c in session.calls]
    assert purposes.count("generation") == 1 and "analysis" in purposes and "judge" in purposes
    assert session.metrics.llm_calls[0].calls == len(session.calls)
    assert session.metrics.answer_lengths == [len(session.messages[1].content)]
    streamed = "".join(e.text for e in events if isinstance(e, ReplyDelta))
    assert streamed == session.messages[1].content
    assert any(isinstance(e, QualityScored) for e in events)


async def test_first_token_waits_for_no_llm_call_on_a_one_call_backend() -> None:
    """With a backend serving one call at a time, the analysis starts once tokens flow."""
    provider = ScriptedProvider({"judge": [GOOD_JUDGE]}, delay=0.001, parallel_calls=False)
    pipeline, _events = make(provider)
    await turn(pipeline, Session(), "We must support 2,000 writes per second.", "Noted.")
    assert provider.events[0] == "start:generation"
    first_token = provider.events.index("first-token:generation")
    assert provider.events.index("start:analysis") > first_token
    # ...as an extension of the reply's prompt, so a KV cache holds all of it
    analysis = next(r for r in provider.log if r.purpose == "analysis")
    generation = next(r for r in provider.log if r.purpose == "generation")
    assert analysis.messages[: len(generation.messages)] == generation.messages
    assert analysis.messages[len(generation.messages)].content == "Noted."


async def test_analysis_runs_concurrently_with_generation_on_a_parallel_backend() -> None:
    provider = ScriptedProvider({"judge": [GOOD_JUDGE]}, delay=0.01)
    pipeline, _events = make(provider)
    await turn(pipeline, Session(), "We must support 2,000 writes per second.", "Noted " * 10)
    assert provider.events.index("start:analysis") < provider.events.index("end:generation")
    # (the analysis is read up to its closing brace, so its last event is its first token)
    analysed = max(i for i, e in enumerate(provider.events) if e.endswith(":analysis"))
    assert provider.events.index("start:judge") > analysed


async def test_failed_generation_keeps_the_message_and_stores_no_reply() -> None:
    provider = ScriptedProvider(
        {"generation": [ProviderError("openai: cannot connect (refused)", "connection")]}
    )
    pipeline, events = make(provider)
    session = Session()
    outcome = await turn(pipeline, session, "Hello there, can you help with a schema?")
    assert not outcome.ok and "cannot connect" in (outcome.error or "")
    assert [m.role for m in session.messages] == ["user"]
    assert session.pending_user_turn is not None
    assert session.quality == []
    failed = [e for e in events if isinstance(e, TurnFailed)]
    assert failed and failed[0].kind == "connection"


async def test_malformed_judge_falls_back_to_heuristics_for_that_step_only() -> None:
    provider = ScriptedProvider({"judge": ["I think it is great!!"]})
    pipeline, _events = make(provider, max_refinement_attempts=0)
    session = Session()
    outcome = await turn(pipeline, session, "Which index suits time-range queries?",
                         "A BRIN index on created_at suits append-only time ranges.")
    assert outcome.ok
    judge = next(c for c in session.calls if c.purpose == "judge")
    assert judge.fallback and judge.error
    assert session.quality[0].judge == "heuristic"
    assert session.metrics.fallbacks >= 1


async def test_malformed_analysis_is_retried_once_then_falls_back() -> None:
    provider = ScriptedProvider({"analysis": ["not json", "{broken"], "judge": [GOOD_JUDGE]})
    pipeline, _events = make(provider)
    session = Session()
    await turn(pipeline, session, "Uploads must be limited to 20 MB.", "Set a 20 MB limit.")
    analysis_calls = [c for c in session.calls if c.purpose == "analysis"]
    assert len(analysis_calls) == 2 and analysis_calls[-1].fallback
    # the heuristic ledger still holds the requirement
    assert any("20 MB" in r.text for r in session.requirements)


async def test_ungrounded_llm_items_are_discarded_and_counted() -> None:
    invented = json.dumps({
        "requirements": [{"text": "Use Kubernetes with a service mesh"},
                         {"text": "limited to 20 MB"}],
        "rejections": [{"option": "Oracle", "reason": "licence"}],
        "pivot": False, "dialog_state": "problem_solving",
    })
    provider = ScriptedProvider({"analysis": [invented], "judge": [GOOD_JUDGE]})
    pipeline, _events = make(provider)
    session = Session()
    await turn(pipeline, session, "Uploads must be limited to 20 MB.", "OK, 20 MB it is.")
    texts = " ".join(r.text for r in session.requirements)
    assert "Kubernetes" not in texts
    assert not session.active_rejections()
    assert session.metrics.grounding_discarded == 2


async def test_readvocacy_is_caught_refined_and_the_clean_reply_kept() -> None:
    provider = ScriptedProvider()
    pipeline, _events = make(provider, llm_judge=False)
    session = Session()
    await turn(pipeline, session,
               "No Redis, please — we don't want another stateful service. Keep it in "
               "PostgreSQL.", "Understood, no Redis. A sessions table in PostgreSQL works.")
    await turn(pipeline, session, "How do we clean up expired rows?",
               "The simplest path is to move sessions into Redis and let its TTL expire them.")
    record = session.quality_for(2)
    assert record is not None
    assert record.readvocated == ["Redis"]
    assert record.readvocated_final == []
    assert record.attempts >= 2 and record.shown_attempt >= 2
    final = [m for m in session.messages if m.role == "assistant"][-1]
    assert "move sessions into Redis" not in final.content


async def test_status_block_at_the_interval_is_parsed_into_the_log() -> None:
    provider = ScriptedProvider()
    pipeline, _events = make(provider, status_interval=2, llm_judge=False)
    session = Session()
    await turn(pipeline, session, "Let's not use MongoDB; we need SQL reporting.", "OK.")
    await turn(pipeline, session, "Where are we?", "PostgreSQL with SQL reporting.")
    assert session.metrics.status_turns == [2]
    block = session.status_blocks[0]
    assert block.turn == 2 and any("MongoDB" in r for r in block.rejected)
    generation = [r for r in provider.log if r.purpose == "generation"][-1]
    assert "[STATUS]" in generation.messages[-1].content


async def test_consolidation_runs_in_the_background_at_the_interval() -> None:
    provider = ScriptedProvider()
    pipeline, _events = make(provider, consolidation_interval=3, llm_judge=False)
    session = Session()
    for text in ("We need audit logs for every change.", "Reads must not slow writes.",
                 "What about backups?"):
        await turn(pipeline, session, text, "Noted.")
    await pipeline.drain()
    assert session.metrics.consolidation_turns == [3]
    assert session.consolidated_context and session.consolidated_through_turn == 3
    # the summary request extends the conversation itself (a cacheable prefix)
    request = next(r for r in provider.log if r.purpose == "consolidation")
    assert request.messages[0].content == provider.log[0].messages[0].content
    assert [m.content for m in request.messages[1:7:2]] == [
        "We need audit logs for every change.", "Reads must not slow writes.",
        "What about backups?"]


async def test_solidify_names_every_rejected_option_even_if_the_model_forgets() -> None:
    provider = ScriptedProvider({"solidify": ["CONCLUSION: a modular monolith in Django."]})
    pipeline, _events = make(provider, llm_judge=False)
    session = Session()
    await turn(pipeline, session, "Forget microservices — a modular monolith is the way to go.",
               "Agreed.")
    block = await pipeline.solidify(session)
    assert "modular monolith" in block.text and "microservices" in block.text
    assert session.solidified is block


async def test_solidify_falls_back_to_the_ledger_when_the_model_fails() -> None:
    provider = ScriptedProvider({"solidify": [ProviderError("timeout", "timeout")]})
    pipeline, _events = make(provider, llm_judge=False)
    session = Session()
    await turn(pipeline, session, "We're not doing gRPC at all; use plain REST.", "Fine.")
    block = await pipeline.solidify(session)
    assert block.fallback and "gRPC" in block.text


async def test_cancelling_mid_stream_keeps_the_message_and_no_reply() -> None:
    provider = ScriptedProvider(delay=0.05, chunk=2)
    pipeline, events = make(provider)
    session = Session()
    session.messages.append(Message(role="user", content="Explain sharding.", turn=1))
    with scripted_reply("x" * 200):
        task = asyncio.create_task(pipeline.run_turn(session, "Explain sharding."))
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [m.role for m in session.messages] == ["user"]
    assert any(isinstance(e, StageChanged) and e.stage == "cancelled" for e in events)


async def test_plain_mode_makes_one_call_and_injects_no_ledger() -> None:
    provider = ScriptedProvider()
    pipeline, events = make(provider, reliability=False)
    session = Session()
    await turn(pipeline, session, "Let's not use MongoDB.", "OK")
    await turn(pipeline, session, "What database then?", "MongoDB would be ideal.")
    assert [r.purpose for r in provider.log] == ["generation", "generation"]
    assert all("ledger" not in m.content for r in provider.log for m in r.messages)
    # measured, not acted upon: the baseline still records the re-advocacy
    assert session.quality_for(2).readvocated_final == ["MongoDB"]  # type: ignore[union-attr]
    assert sum(isinstance(e, ReplyShown) for e in events) == 2


async def test_call_records_are_emitted_for_the_inspector() -> None:
    provider = ScriptedProvider({"judge": [GOOD_JUDGE]})
    pipeline, events = make(provider)
    await turn(pipeline, Session(), "We need CSV exports.", "Use COPY to CSV.")
    calls = [e.call for e in events if isinstance(e, CallFinished)]
    generation = next(c for c in calls if c.purpose == "generation")
    assert generation.prompt and generation.prompt[-1]["role"] == "user"
    assert "prefix: system prompt" in generation.note
    request = next(r for r in provider.log if r.purpose == "generation")
    assert generation.prompt_tokens == provider.count_tokens(request) > 100
    assert generation.cached_tokens == 40


async def test_a_question_stays_open_until_a_reply_covers_it() -> None:
    provider = ScriptedProvider()
    pipeline, _events = make(provider, llm_judge=False)
    session = Session()
    await turn(pipeline, session, "How should we shard the postings table?", "Not sure yet.")
    assert session.memory.open_questions
    await turn(pipeline, session, "Any idea?",
               "Shard the postings table by account id with hash sharding.")
    assert not any("shard" in q.lower() for q in session.memory.open_questions)


async def test_refinement_stops_when_a_rewrite_does_not_help() -> None:
    bad = "Maybe. " * 3
    provider = ScriptedProvider({"refinement": [bad, bad, bad]})
    pipeline, _events = make(provider, llm_judge=False, quality_threshold=0.99)
    session = Session()
    await turn(pipeline, session, "Which queue should we use for the billing events?", bad)
    record = session.quality_for(1)
    assert record is not None and record.attempts == 2  # one rewrite, no gain, stop


async def test_over_budget_consolidates_only_when_the_summary_is_stale() -> None:
    provider = ScriptedProvider()
    pipeline, _events = make(provider, llm_judge=False, llm_analysis=False,
                             consolidation_interval=0,
                             budget=Budget(900, 200, 2))
    session = Session()
    for i in range(14):
        await turn(pipeline, session, f"Step {i}: " + "details " * 30, "Noted. " * 20)
        await pipeline.drain()
    consolidations = session.metrics.consolidation_turns
    assert consolidations, "over budget, the context must be consolidated"
    assert len(consolidations) < 14 // 2
    request = next(c for c in session.calls if c.purpose == "consolidation")
    assert len(request.prompt) == 1 and "summarise" in request.prompt[0]["content"]


async def test_a_one_call_backend_never_sees_two_calls_at_once() -> None:
    """Background consolidation and the next reply take turns on a one-call backend."""
    provider = ScriptedProvider(delay=0.002, parallel_calls=False)
    active = 0
    overlaps = 0
    inner = provider.stream

    async def counting(request):  # type: ignore[no-untyped-def]
        nonlocal active, overlaps
        active += 1
        overlaps += active > 1
        try:
            async for event in inner(request):
                yield event
        finally:
            active -= 1

    provider.stream = counting  # type: ignore[method-assign]
    pipeline, _events = make(provider, consolidation_interval=1)
    session = Session()
    for text in ("We need audit logs.", "Reads must not slow writes.", "CSV exports too."):
        await turn(pipeline, session, text, "Noted, with details. " * 10)
    await pipeline.drain()
    assert session.metrics.consolidation_turns and overlaps == 0


class WindowedProvider(ScriptedProvider):
    """Refuses any prompt longer than its window, worded as llama.cpp's llama-server does,
    counting tokens at three characters each (a tokenizer our estimate undercounts)."""

    window: int = 1400

    def count_tokens(self, request):  # type: ignore[no-untyped-def,override]
        return sum(len(m.content) for m in request.messages) // 3

    async def stream(self, request):  # type: ignore[no-untyped-def,override]
        counted = self.count_tokens(request)
        if counted > self.window:
            self.log.append(request)
            raise ProviderError(
                f"anthropic: the server refused the request (400): request ({counted} tokens) "
                f"exceeds the available context size ({self.window} tokens)",
                "context_overflow",
                overflow=context_overflow_in(
                    f"request ({counted} tokens) exceeds the available context size "
                    f"({self.window} tokens)"
                ),
            )
        async for event in super().stream(request):
            yield event


async def test_a_server_context_overflow_is_learned_and_the_turn_still_answers() -> None:
    provider = WindowedProvider()
    pipeline, events = make(provider, budget=Budget(6000, 768, 6))
    session = Session()
    for i in range(6):
        outcome = await turn(pipeline, session, f"Point {i}: " + "the upload path details " * 30,
                             "Noted. " * 40)
        await pipeline.drain()
        assert outcome.ok, outcome.error
    assert pipeline.settings.budget.total < provider.window
    refused = [c for c in session.calls if c.error and "context size" in c.error]
    assert refused, "the window is learned from a refusal, not known up front"
    # Learned once: after the first refusal, generation prompts fit.
    assert all(c.turn == refused[0].turn for c in refused if c.purpose == "generation")
    assert [m.role for m in session.messages] == ["user", "assistant"] * 6
    notices = [e.text for e in events if isinstance(e, Notice)]
    assert any("context window is 1400 tokens" in n for n in notices)


async def test_an_overflow_the_budget_cannot_fix_fails_the_turn_cleanly() -> None:
    provider = WindowedProvider()
    provider.window = 20
    pipeline, events = make(provider)
    session = Session()
    outcome = await turn(pipeline, session, "Explain the upload flow " * 10)
    assert not outcome.ok and outcome.error_kind == "context_overflow"
    assert [m.role for m in session.messages] == ["user"]
    assert any(isinstance(e, TurnFailed) for e in events)


@pytest.mark.parametrize(("message", "window", "prompt"), [
    ("request (2097 tokens) exceeds the available context size (2048 tokens), try increasing",
     2048, 2097),
    ("Requested tokens (5000) exceed context window of 4096", 4096, 5000),
    ("This model's maximum context length is 8192 tokens. However, your messages resulted in "
     "9013 tokens. Please reduce the length of the messages.", 8192, 9013),
    ("This model's maximum context length is 16385 tokens.", 16385, None),
    ("prompt is too long: 210000 tokens > 200000 maximum", 200000, 210000),
])
def test_context_overflow_wordings_are_recognised(message: str, window: int,
                                                  prompt: int | None) -> None:
    overflow = context_overflow_in(message)
    assert overflow is not None
    assert (overflow.window, overflow.prompt_tokens) == (window, prompt)


def test_other_errors_are_not_taken_for_overflow() -> None:
    assert context_overflow_in("rate limited, retry in 10 tokens of time") is None
    assert context_overflow_in("model not found") is None


# -- the as-sent ledger layout and the lean profile --------------------------------------------
def generations(provider: ScriptedProvider) -> list[list[ChatMessage]]:
    return [r.messages for r in provider.log if r.purpose == "generation"]


async def test_as_sent_layout_makes_every_prompt_extend_the_previous_one() -> None:
    provider = ScriptedProvider(parallel_calls=False)  # a one-call backend: auto → as_sent
    pipeline, _events = make(provider, llm_analysis=False, llm_judge=False,
                             consolidation_interval=0)
    session = Session()
    for text in ("We need strict ACID transactions for the payments ledger.",
                 "Let's not use MongoDB, it is off the table because of compliance.",
                 "How should accounts be modelled?"):
        await turn(pipeline, session, text, "Noted; here is a short answer.")
    first, second, third = generations(provider)
    # The previous prompt plus its reply is the start of the next: the KV cache serves it.
    assert second[: len(first)] == first
    assert third[: len(second)] == second
    assert first[-1].content.startswith("[Conversation ledger — authoritative]")
    assert second[-1].content.startswith("[Ledger of turn 1 above still holds]")
    # Rejected in that very message: named, its reason left to the message right below.
    block, _sep, message = second[-1].content.partition("\n\n")
    assert "- MongoDB" in block.splitlines() and "compliance" in message
    # Requirements stated in view are not repeated; the rejected names are, briefly.
    assert "ACID" not in third[-1].content.split("\n\n")[0]
    assert "Do not propose: MongoDB" in third[-1].content
    users = [m for m in session.messages if m.role == "user"]
    assert all(m.ledger_sent for m in users)


async def test_as_sent_layout_restates_the_full_ledger_when_due_or_retracted() -> None:
    provider = ScriptedProvider(parallel_calls=False)
    pipeline, _events = make(provider, llm_analysis=False, llm_judge=False,
                             consolidation_interval=0, ledger_refresh_turns=2)
    session = Session()
    await turn(pipeline, session, "We need audit logs for every transfer.", "Noted.")
    await turn(pipeline, session, "Let's not use Redis, it is not durable enough.", "Noted.")
    await turn(pipeline, session, "What about exports?", "CSV works.")
    full = "[Conversation ledger — authoritative]"
    blocks = [m[-1].content for m in generations(provider)]
    assert blocks[0].startswith(full) and not blocks[1].startswith(full)
    assert blocks[2].startswith(full)  # two turns after the last full block
    await turn(pipeline, session, "Let's reconsider Redis after all.", "Redis again, then.")
    assert not session.active_rejections()
    # The full block of turn 3 said "do not propose Redis": that no longer holds.
    assert generations(provider)[-1][-1].content.startswith(full)


async def test_every_turn_layout_on_a_parallel_backend_keeps_history_plain() -> None:
    provider = ScriptedProvider({"judge": [GOOD_JUDGE] * 4})
    pipeline, _events = make(provider)
    session = Session()
    for text in ("We need audit logs.", "Exports as CSV, please."):
        await turn(pipeline, session, text, "Noted.")
    second = generations(provider)[1]
    assert second[1].content == "We need audit logs."
    assert second[-1].content.startswith("[Conversation ledger — authoritative]")


class SmallModel(ScriptedProvider):
    parameter_count: int = 135_000_000


async def test_lean_profile_spends_calls_on_the_reply_only() -> None:
    provider = SmallModel(parallel_calls=False)
    pipeline, _events = make(provider, consolidation_interval=1)
    assert pipeline.lean  # auto: below small_model_params
    session = Session()
    await turn(pipeline, session, "We need audit logs; let's not use MongoDB, no transactions.",
               "Noted: audit logs, and MongoDB is out.")
    await turn(pipeline, session, "Which database then?", "MongoDB would be my pick here.")
    await pipeline.drain()
    purposes = [r.purpose for r in provider.log]
    assert set(purposes) <= {"generation", "refinement"}
    assert purposes.count("refinement") >= 1  # the re-advocacy still gets its rewrite
    refine = next(r for r in provider.log if r.purpose == "refinement")
    # A fresh sample of the reply's own prompt (tests/core/test_small_model_layout.py)
    assert refine.messages == [r for r in provider.log if r.purpose == "generation"][1].messages
    assert session.consolidated_context  # summarised without a model call
    assert session.quality[0].judge == "heuristic"
    said = [e.text for e in _events if isinstance(e, Notice) and "lean profile" in e.text]
    assert said == ["lean profile: scripted-model has 135M parameters; analysis, scores and "
                    'summaries use the heuristics (profile = "full" to use the model for them '
                    'too)']


async def test_lean_profile_does_not_rewrite_a_merely_weak_reply() -> None:
    provider = SmallModel()
    pipeline, _events = make(provider, quality_threshold=0.99)
    await turn(pipeline, Session(), "Tell me about backups.", "Backups: nightly snapshots.")
    assert [r.purpose for r in provider.log] == ["generation"]
    full_pipeline, _ = make(ScriptedProvider(), quality_threshold=0.99, llm_judge=False,
                            llm_analysis=False, profile="full")
    assert not full_pipeline.lean


async def test_calibration_learns_the_backends_tokens_per_estimate() -> None:
    provider = WindowedProvider()  # three characters a token: more than our estimate
    pipeline, _events = make(provider, llm_analysis=False, llm_judge=False)
    await turn(pipeline, Session(), "A short question about uploads?", "Short answer.")
    assert pipeline.settings.budget.scale > 1.1


async def test_lean_as_sent_sends_no_block_when_nothing_is_new() -> None:
    provider = SmallModel(parallel_calls=False)
    pipeline, _events = make(provider)
    session = Session()
    await turn(pipeline, session, "Let's not use MongoDB, it is off the table for compliance.",
               "Understood, MongoDB is out.")
    await turn(pipeline, session, "How do we model accounts?", "One table per account type.")
    second = generations(provider)[-1]
    # No reminder of the rejected name for a small model (it echoes it): the message alone.
    assert second[-1].content == "How do we model accounts?"


async def test_as_sent_layout_restates_the_ledger_only_when_its_block_leaves_the_prompt() -> None:
    provider = ScriptedProvider(parallel_calls=False)
    pipeline, _events = make(provider, llm_analysis=False, llm_judge=False,
                             consolidation_interval=0, ledger_refresh_turns=50,
                             budget=Budget(1600, 200, 2))
    session = Session()
    await turn(pipeline, session, "We need audit logs for every transfer.", "Noted.")
    full = "[Conversation ledger — authoritative]"
    blocks = []
    for i in range(12):
        await turn(pipeline, session, f"Detail {i}: " + "the export format matters " * 12,
                   "Understood. " * 30)
        prompt = generations(provider)[-1]
        blocks.append(prompt[-1].content)
        in_view = any(m.content.startswith(full) for m in prompt[:-1] if m.role == "user")
        # Exactly one of: a full block still in view, or a full block now.
        assert in_view != blocks[-1].startswith(full), i
    assert any(b.startswith(full) for b in blocks), "the turn-1 block was summarised away"


async def test_a_repeated_reply_is_flagged_and_rewritten_warmer() -> None:
    provider = ScriptedProvider()
    pipeline, _events = make(provider, llm_analysis=False, llm_judge=False, profile="full",
                             quality_threshold=0.0)
    session = Session()
    same = "Happy to help. Which document store do you use today, and at what volume?"
    await turn(pipeline, session, "We need a database for the ledger.", same)
    pipeline.settings.quality_threshold = 0.95
    await turn(pipeline, session, "How should we model transfers?", same)
    # Turn 1 scored above its threshold (0.0): the only rewrite is turn 2's.
    rewrite = next(r for r in provider.log if r.purpose == "refinement")
    assert "repeats the previous answer" in rewrite.messages[-1].content
    assert rewrite.temperature == 0.8
    first = next(r for r in provider.log if r.purpose == "generation")
    assert first.temperature == 0.2


async def test_lean_profile_samples_again_when_a_reply_only_parrots_the_ledger() -> None:
    provider = SmallModel({"refinement": ["PostgreSQL: ACID transactions, and it is SQL."]},
                          parallel_calls=False)
    pipeline, _events = make(provider)
    session = Session()
    outcome = await turn(
        pipeline, session, "We need strict ACID transactions for the payments ledger.",
        "[Conversation ledger — authoritative]\nRequirements to respect:\n- R1: We need "
        "strict ACID transactions for the payments ledger\n[/ledger]")
    first, again = provider.log[0], next(r for r in provider.log if r.purpose == "refinement")
    # No copy to rewrite: the same prompt again, warmer, without showing the copy back.
    assert again.messages == first.messages
    assert again.temperature == 0.8
    assert outcome.reply == "PostgreSQL: ACID transactions, and it is SQL."

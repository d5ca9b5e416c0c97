"""Every model call of a turn, recorded with its figures for the inspector and the metrics."""

from __future__ import annotations

import time

from .. import call_text
from ..call_context import CallContext, calling
from ..context import AssembledPrompt, messages_tokens
from ..events import CallFinished
from ..llm import ChatMessage, LLMProvider, LLMRequest, ProviderError, Usage
from ..models import CallRecord, Session, TurnCost
from .budget import fit_window
from .engine import Engine

# Call records keep their prompt and response text for this many recent turns; older turns
# keep only their figures, so a 200-turn session file stays small and fast to save.
CALL_TEXT_TURNS = 30
RESPONSE_KEEP_CHARS = 8000


def record_call(engine: Engine, session: Session, record: CallRecord, usage: Usage) -> None:
    record.prompt_tokens = usage.prompt_tokens
    record.completion_tokens = usage.completion_tokens
    record.cached_tokens = usage.cached_tokens
    record.response = record.response[:RESPONSE_KEEP_CHARS]
    session.calls.append(record)
    cost = turn_cost(session, record.turn)
    cost.calls += 1
    cost.prompt_tokens += usage.prompt_tokens
    cost.completion_tokens += usage.completion_tokens
    cost.cached_tokens += usage.cached_tokens
    totals = session.metrics.tokens
    totals.prompt += usage.prompt_tokens
    totals.completion += usage.completion_tokens
    totals.cached += usage.cached_tokens
    if record.fallback:
        session.metrics.fallbacks += 1
    _prune_call_text(session)
    engine.emit(CallFinished(record))


async def call(
    engine: Engine,
    session: Session,
    number: int,
    provider: LLMProvider,
    request: LLMRequest,
    context: CallContext,
    *,
    attempt: int = 1,
    prefix_note: str = "",
    shown_messages: list[ChatMessage] | None = None,
) -> tuple[str, CallRecord, Usage]:
    """A non-streamed call, recorded. Raises ProviderError after recording the failure.
    `context` is what the call is about, for a provider without a model (the demo)."""
    record = CallRecord(
        turn=number,
        purpose=request.purpose,
        attempt=attempt,
        model=provider.model,
        prompt=call_text.dump_prompt(session, number, shown_messages or request.messages),
        note=prefix_note,
    )
    started = time.perf_counter()
    try:
        with calling(context):
            result = await engine.backend.complete(session, provider, request, record)
    except ProviderError as exc:
        record.ms = (time.perf_counter() - started) * 1000
        record.error = exc.message
        record_call(engine, session, record, Usage())
        fit_window(engine, exc, messages_tokens(request.messages), step_down=False)
        raise
    record.ms = result.ms
    record.ttft_ms = result.ttft_ms
    record.response = result.text
    record_call(engine, session, record, result.usage)
    return result.text, record, result.usage


def turn_cost(session: Session, turn: int) -> TurnCost:
    # From the newest: the running turn's entry is last (this runs for every call).
    for cost in reversed(session.metrics.llm_calls):
        if cost.turn == turn:
            return cost
        if cost.turn < turn:
            break  # entries are in turn order: the turn has none yet (no pass over them all)
    cost = TurnCost(turn=turn)
    session.metrics.llm_calls.append(cost)
    return cost


def prefix_note(prompt: AssembledPrompt) -> str:
    parts = ["prefix: system prompt"]
    if prompt.summarised_through:
        parts.append(f"summary of turns 1–{prompt.summarised_through}")
    verbatim = len(prompt.prefix) - (2 if prompt.summarised_through else 1)
    if verbatim > 0:
        parts.append(f"{verbatim // 2} turn(s) verbatim from turn {prompt.verbatim_from_turn}")
    return " + ".join(parts) + f" (~{prompt.tokens} tokens in all)"


def _prune_call_text(session: Session) -> None:
    call_text.prune(session, session.turn - CALL_TEXT_TURNS)

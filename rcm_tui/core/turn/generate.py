"""A reply streamed to the screen: the turn's first draft or a refinement of it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .. import call_text
from ..call_context import calling
from ..context import AssembledPrompt, messages_tokens
from ..echo import strip_copied_ledger
from ..events import ReplyDelta, ReplyStarted, Stage, StageChanged
from ..llm import LLMRequest, ProviderError, TextDelta, Usage
from ..models import CallRecord, Session
from .budget import calibrate, fit_window
from .calls import prefix_note, record_call, turn_cost
from .engine import Engine
from .state import Draft, Turn


@dataclass
class _Streamed:
    """What one streamed call has brought so far."""

    record: CallRecord
    started: float = field(default_factory=time.perf_counter)
    parts: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)

    @property
    def ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000


async def stream_draft(
    engine: Engine, turn: Turn, request: LLMRequest, revising: Draft | None = None
) -> str:
    """Stream one attempt at the reply (the first, or a revision of `revising`), recorded;
    the text the model added to what it copied.

    Raises ProviderError (after recording it) when the call fails or the reply is empty.
    """
    attempt = 1 if revising is None else revising.attempt + 1
    stage: Stage = "generating" if attempt == 1 else "refining"
    limit = engine.settings.max_refinement_attempts
    engine.emit(StageChanged(turn.number, stage, attempt - 1, limit))
    engine.emit(ReplyStarted(turn.number, attempt))
    streamed = _Streamed(
        CallRecord(
            turn=turn.number,
            purpose=request.purpose,
            attempt=attempt,
            model=engine.generator.model,
            prompt=call_text.dump_prompt(
                turn.session, turn.number, request.messages[len(turn.prompt.prefix) :]
            ),
            note=prefix_note(turn.prompt),
        )
    )
    record = streamed.record
    try:
        with calling(turn.context(draft=revising.text if revising else "")):
            await _receive(engine, turn, request, streamed)
    except ProviderError as exc:
        record.error = exc.message
        record.response = "".join(streamed.parts)
        record.ms = streamed.ms
        record_call(engine, turn.session, record, streamed.usage)
        fit_window(engine, exc, messages_tokens(request.messages), step_down=True)
        raise
    calibrate(engine, request.messages, streamed.usage)
    text = "".join(streamed.parts).strip()
    record.ms = streamed.ms
    record.response = text
    if not text:  # recorded as failed too, so the inspector shows why the turn failed
        record.error = f"{engine.generator.name}: the model returned an empty reply"
    record_call(engine, turn.session, record, streamed.usage)
    if record.error:
        raise ProviderError(record.error, kind="invalid_response")
    return _own_text(turn, request, text)


async def _receive(engine: Engine, turn: Turn, request: LLMRequest, streamed: _Streamed) -> None:
    attempt = streamed.record.attempt
    while True:
        async with engine.gate.call() as gated:
            try:
                async for event in engine.generator.stream(request):
                    if isinstance(event, TextDelta):
                        _delta(engine, turn, streamed, event.text)
                    else:
                        streamed.usage = event.usage
                return
            except ProviderError as exc:
                if not engine.backend.resend_alone(turn.session, exc, gated, streamed.record):
                    raise
        # Cut off by another call: the cut text leaves the screen, the reply is resent.
        streamed.parts.clear()
        engine.emit(ReplyStarted(turn.number, attempt))


def _delta(engine: Engine, turn: Turn, streamed: _Streamed, text: str) -> None:
    record = streamed.record
    if not streamed.parts:
        record.ttft_ms = streamed.ms
        if record.attempt == 1:
            turn_cost(turn.session, turn.number).ttft_ms = round(record.ttft_ms, 2)
    streamed.parts.append(text)
    engine.emit(ReplyDelta(turn.number, record.attempt, text))


def _own_text(turn: Turn, request: LLMRequest, text: str) -> str:
    # The inspector keeps what the model wrote; the user sees (and the scores read) only
    # what it added to the ledger it copied, if it copied one; a rewrite may copy the
    # rewrite request's list of issues instead.
    blocks = _sent_blocks(turn.session, turn.prompt)
    messages = request.messages
    if request.purpose == "refinement" and messages[-1] is not turn.prompt.messages[-1]:
        blocks.append(messages[-1].content)
    return strip_copied_ledger(text, blocks, turn.user_text).text


def _sent_blocks(session: Session, prompt: AssembledPrompt) -> list[str]:
    """The ledger blocks a reply to `prompt` may have copied: the newest and those in the
    verbatim history it carried, each once. Not those of summarised turns: the model never saw
    them, and gathering them made every reply of a long session cost more than the last."""
    blocks = [prompt.ledger_text] if prompt.ledger_text else []
    for message in reversed(session.messages):
        if message.turn < prompt.verbatim_from_turn:
            break
        if message.role == "user" and message.ledger_sent:
            blocks.append(message.ledger_sent)
    return list(dict.fromkeys(blocks))

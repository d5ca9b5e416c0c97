"""A reply streamed to the screen: the turn's first draft or a refinement of it."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from .. import call_text
from ..call_context import calling
from ..context import AssembledPrompt, messages_tokens
from ..echo import strip_copied_ledger
from ..events import ReplyDelta, ReplyStarted, Stage, StageChanged
from ..heuristics.option_phrases import NAME_MARK_RE
from ..llm import LLMRequest, ProviderError, StreamEvent, TextDelta, Usage
from ..models import CallRecord, Session
from .budget import calibrate, fit_window
from .calls import prefix_note, record_call, turn_cost
from .early_stop import ProposalWatch, proposal_watch
from .engine import Engine
from .state import Draft, Turn


@dataclass
class _Streamed:
    """What one streamed call has brought so far."""

    record: CallRecord
    started: float = field(default_factory=time.perf_counter)
    parts: list[str] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    # Reads the sample as it streams; set when it may be stopped at a proposal.
    watch: ProposalWatch | None = None

    @property
    def ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000


def avoided_names(engine: Engine, turn: Turn) -> tuple[str, ...]:
    """The rejected options a small model's sampling must not start: named ones only (a
    product, a place, a brand), since banning the words of a category ("cloud storage") would
    take common words from the whole reply. A small model re-advocates what it just read;
    every flagged sample costs a full further one (the first answer of the tmux check took
    four), and a capable model follows the ledger without this."""
    if not (engine.settings.reliability and engine.lean):
        return ()
    options = (r.option for r in turn.session.active_rejections())
    return tuple(dict.fromkeys(o for o in options if NAME_MARK_RE.search(o)))


async def stream_draft(
    engine: Engine, turn: Turn, request: LLMRequest, revising: Draft | None = None
) -> str:
    """Stream one attempt at the reply (the first, or a revision of `revising`), recorded;
    the text the model added to what it copied.

    Raises ProviderError (after recording it) when the call fails or the reply is empty.
    An attempt stopped at a proposal of a rejected option (early_stop.py) returns the text up
    to that sentence and is listed in `turn.stopped`.
    """
    attempt = 1 if revising is None else revising.attempt + 1
    request.avoid = request.avoid or avoided_names(engine, turn)
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
    # The inspector keeps what the model wrote; the user sees (and the scores and the early
    # stop read) only what it added to the ledger it copied, if it copied one; a rewrite may
    # copy the rewrite request's list of issues instead.
    blocks = _sent_blocks(turn.session, turn.prompt)
    if request.purpose == "refinement" and request.messages[-1] is not turn.prompt.messages[-1]:
        blocks.append(request.messages[-1].content)
    streamed.watch = proposal_watch(
        engine, turn, attempt, lambda text: strip_copied_ledger(text, blocks, turn.user_text).text
    )
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
    record.ms = streamed.ms
    record.response = "".join(streamed.parts).strip()
    text = _kept_text(engine, turn, request, streamed)
    if not text:  # recorded as failed too, so the inspector shows why the turn failed
        record.error = f"{engine.generator.name}: the model returned an empty reply"
    record_call(engine, turn.session, record, streamed.usage)
    if record.error:
        raise ProviderError(record.error, kind="invalid_response")
    return strip_copied_ledger(text, blocks, turn.user_text).text


def _kept_text(engine: Engine, turn: Turn, request: LLMRequest, streamed: _Streamed) -> str:
    """What the attempt wrote: all of it, or up to the sentence it was stopped at."""
    watch = streamed.watch
    if watch is None or not watch.stopped:
        calibrate(engine, request.messages, streamed.usage)
        return streamed.record.response
    turn.stopped[streamed.record.attempt] = watch.proposed
    streamed.usage = _stopped_usage(engine, turn, request, streamed)
    streamed.record.note += f"; stopped at a sentence proposing {', '.join(watch.proposed)}"
    return watch.kept.strip()


async def _receive(engine: Engine, turn: Turn, request: LLMRequest, streamed: _Streamed) -> None:
    attempt = streamed.record.attempt
    while True:
        async with engine.gate.call() as gated:
            events = engine.generator.stream(request)
            try:
                async for event in events:
                    if isinstance(event, TextDelta):
                        if _delta(engine, turn, streamed, event.text):
                            return
                    else:
                        streamed.usage = event.usage
                return
            except ProviderError as exc:
                if not engine.backend.resend_alone(turn.session, exc, gated, streamed.record):
                    raise
            finally:
                # Now, not at garbage collection: a stopped sample must stop decoding before
                # the gate lets the next call in.
                await _close(events)
        # Cut off by another call: the cut text leaves the screen, the reply is resent.
        streamed.parts.clear()
        if streamed.watch is not None:
            streamed.watch.reset()
        engine.emit(ReplyStarted(turn.number, attempt))


def _delta(engine: Engine, turn: Turn, streamed: _Streamed, text: str) -> bool:
    """Show a streamed piece; True when the sample is to stop there (it proposed an option)."""
    record = streamed.record
    if not streamed.parts:
        record.ttft_ms = streamed.ms
        if record.attempt == 1:
            turn_cost(turn.session, turn.number).ttft_ms = round(record.ttft_ms, 2)
    streamed.parts.append(text)
    engine.emit(ReplyDelta(turn.number, record.attempt, text))
    return streamed.watch is not None and streamed.watch.feed(text)


async def _close(events: AsyncIterator[StreamEvent]) -> None:
    close = getattr(events, "aclose", None)
    if close is not None:
        await close()


def _stopped_usage(engine: Engine, turn: Turn, request: LLMRequest, streamed: _Streamed) -> Usage:
    """A stopped stream reports no usage: estimated. A later attempt resends the turn's prompt,
    which the KV cache holds whole; a first one finds the history the last turn left there."""
    scale = engine.settings.budget.scale
    prompt = round(messages_tokens(request.messages) * scale)
    resent = streamed.record.attempt > 1 and request.messages == turn.prompt.messages
    cached = prompt if resent else round(messages_tokens(turn.prompt.prefix) * scale)
    return Usage(
        prompt_tokens=prompt,
        completion_tokens=len(streamed.parts),
        cached_tokens=min(cached, prompt),
        estimated=True,
    )


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

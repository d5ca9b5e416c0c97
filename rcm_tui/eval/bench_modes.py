"""The bench's modes on the real controller (plain and rcm_tui) and their latency-injected
provider: what a user waits for, turn by turn.

Time to first token (TTFT) is measured from `send()` to the first `ReplyDelta` event, which is
when text appears on screen. Between two turns the background consolidation is allowed to
finish outside the clock, as it does while a user reads the reply and types the next message.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from ..config import LoadedSettings, OfflineSettings
from ..controller import Controller, ProviderPair
from ..core.context import messages_tokens
from ..core.events import PipelineEvent, ReplyDelta
from ..core.llm import Finished, LLMProvider, LLMRequest, StreamEvent, TextDelta, Usage
from ..core.models import Session
from ..providers.offline import OfflineProvider, scripted_reply
from ..store import SessionStore
from .packaged import bench_conversation

CONVERSATION = bench_conversation()


class BenchError(ValueError):
    """The benchmark cannot run or a turn failed; the message is one line for the user."""


@dataclass
class TurnSample:
    ttft_ms: float
    turn_ms: float
    calls: int = 0
    prompt_processed: int = 0


@dataclass
class ModeRun:
    samples: list[TurnSample] = field(default_factory=list)
    # What the layer decided about the backend: the profile it ran and why, and whether it
    # fell back to one call at a time (a real bench reports both with its figures).
    profile: str = ""
    one_call_at_a_time: str = ""

    def summary(self, with_tokens: bool = False) -> dict[str, Any]:
        calls = [s.calls for s in self.samples]
        data: dict[str, Any] = {
            "ttft_ms_p50": ms(statistics.median(s.ttft_ms for s in self.samples)),
            "turn_ms_p50": ms(statistics.median(s.turn_ms for s in self.samples)),
            "calls_per_turn": {"mean": round(statistics.fmean(calls), 2), "max": max(calls)},
        }
        if with_tokens:
            processed = [s.prompt_processed for s in self.samples]
            data["prompt_tokens_processed_per_turn"] = round(statistics.fmean(processed), 1)
            data["profile"] = self.profile
            data["one_call_at_a_time"] = self.one_call_at_a_time
        return data


def ms(value: float) -> float:
    return round(value, 2)


def conversation(turns: int) -> list[tuple[str, str]]:
    """`turns` scripted (user, assistant) pairs, cycling the built-in conversation."""
    return [CONVERSATION[i % len(CONVERSATION)] for i in range(turns)]


class CappedProvider:
    """Stops a stream at the request's `max_tokens`, as every real backend does.

    The offline demo ignores `max_tokens`: its consolidation "summary" is the first sentence of
    every turn so far (about 40 KB by turn 200), which no real summariser returns and which
    would make a long session look slower and larger than it is with a model.
    """

    def __init__(self, inner: LLMProvider) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.label = inner.label

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        limit = request.max_tokens
        count = 0
        events = self.inner.stream(request)
        try:
            async for event in events:
                if isinstance(event, TextDelta):
                    count += 1
                    if limit is not None and count > limit:
                        usage = Usage(messages_tokens(request.messages), limit)
                        yield Finished(usage, "length")
                        return
                yield event
        finally:
            close = getattr(events, "aclose", None)
            if close is not None:
                await close()

    async def aclose(self) -> None:
        await self.inner.aclose()


def latency_provider(latency_ms: float, token_ms: float) -> LLMProvider:
    """The offline provider with a fixed latency per call and a delay per streamed token."""
    # model_construct: the settings model holds whole milliseconds for the config file; the
    # provider only divides by 1000, so fractional bench flags are honoured as given.
    settings = OfflineSettings.model_construct(
        latency_ms=latency_ms,  # type: ignore[arg-type]
        token_ms=token_ms,  # type: ignore[arg-type]
    )
    return CappedProvider(OfflineProvider(settings))


def _turn_costs(session: Session) -> dict[int, tuple[int, int]]:
    """turn -> (LLM calls, prompt tokens the model had to process, i.e. not cached)."""
    return {
        c.turn: (c.calls, max(c.prompt_tokens - c.cached_tokens, 0))
        for c in session.metrics.llm_calls
    }


# -- plain and rcm_tui: the real controller ---------------------------------------------------
class _FirstDelta:
    """Records when the first reply text of a turn reached the event stream."""

    def __init__(self) -> None:
        self.at: float | None = None

    def __call__(self, event: PipelineEvent) -> None:
        if self.at is None and isinstance(event, ReplyDelta):
            self.at = time.perf_counter()


async def run_controller_mode(
    loaded: LoadedSettings,
    pair: ProviderPair,
    turns: list[tuple[str, str | None]],
    *,
    reliability: bool,
    store: SessionStore,
    tick: Callable[[int], None],
) -> ModeRun:
    first = _FirstDelta()
    controller = Controller(loaded, store, reliability=reliability, on_event=first, providers=pair)
    controller.session.title = f"bench: {'rcm_tui' if reliability else 'plain'}"
    run = ModeRun()
    try:
        for number, (user, reply) in enumerate(turns, start=1):
            first.at = None
            started = time.perf_counter()
            with scripted_reply(reply):
                outcome = await controller.send(user)
            ended = time.perf_counter()
            if not outcome.ok:
                raise BenchError(f"turn {outcome.turn} failed: {outcome.error}")
            shown = first.at if first.at is not None else ended
            run.samples.append(TurnSample((shown - started) * 1000, (ended - started) * 1000))
            # The user reads and types meanwhile: background consolidation is off the clock.
            await controller.drain()
            tick(number)
    finally:
        controller.release()
    _note_decisions(run, controller, reliability)
    costs = _turn_costs(controller.session)
    for number, sample in enumerate(run.samples, start=1):
        sample.calls, sample.prompt_processed = costs.get(number, (0, 0))
    return run


def _note_decisions(run: ModeRun, controller: Controller, reliability: bool) -> None:
    serial = controller.session.one_call_at_a_time
    if serial is not None:
        run.one_call_at_a_time = f"learnt on turn {serial.turn}: {serial.reason}"
    if reliability:
        profile = controller.pipeline().profile
        run.profile = f"{profile.name} profile: {profile.reason}"

"""Client-side bounds on one streamed call: a server that never ends its reply cannot hold a
turn forever.

The read timeout of the SDKs only fires when a server goes *silent*; one that keeps sending
(a broken server, a runaway model ignoring `max_tokens`) would stream for ever. So the
characters of the reply are counted as they arrive, and the whole call — retries and their
waits included — has a wall-clock deadline. Either ends the stream with one `ProviderError`
that says which bound was hit; what was streamed so far is not kept as a reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass

from ..core.llm import ProviderError, StreamEvent, TextDelta

# A token is about 4 characters of English, but one token can be far longer: the longest in
# SmolLM2's vocabulary is 81 characters (a newline and 80 spaces; a run of 80 "#"), and a small
# model that degenerates repeats such tokens. A server that honours `max_tokens` must never be
# stopped as runaway, so the bound allows 128 characters for every token; a runaway stream
# still ends, and the call's deadline bounds the time.
CHARS_PER_TOKEN_BOUND = 128
# The derived bound never goes below this: a short call (a 4-token warm-up, a yes/no) answered
# by a server that ignores `max_tokens` is long-winded, not runaway.
MIN_DERIVED_CHARS = 4096


@dataclass(frozen=True)
class StreamBounds:
    max_chars: int
    deadline: float  # seconds for the whole call

    @classmethod
    def of(cls, max_tokens: int, max_reply_chars: int, deadline: float) -> StreamBounds:
        """`max_reply_chars` 0 means: derive the bound from the call's `max_tokens`."""
        derived = max(max_tokens * CHARS_PER_TOKEN_BOUND, MIN_DERIVED_CHARS)
        return cls(max_reply_chars or derived, deadline)


async def bounded(
    name: str, events: AsyncGenerator[StreamEvent, None], bounds: StreamBounds
) -> AsyncGenerator[StreamEvent, None]:
    """Pass `events` through until they end, the reply outgrows `bounds.max_chars`, or the
    deadline passes (then the pending read is cancelled, so a stalled read ends too)."""
    when = asyncio.get_running_loop().time() + bounds.deadline
    streamed = 0
    async with aclosing(events):
        while True:
            try:
                # Only the read is under the deadline: the consumer's own work between
                # events must never be cancelled by it.
                async with asyncio.timeout_at(when):
                    event = await anext(events)
            except StopAsyncIteration:
                return
            except TimeoutError:
                raise ProviderError(
                    f"{name}: the reply did not end within {bounds.deadline:g} s "
                    f"(deadline; {streamed:,} characters received); stopped",
                    "timeout",
                    retryable=True,
                ) from None
            if isinstance(event, TextDelta):
                streamed += len(event.text)
                if streamed > bounds.max_chars:
                    raise ProviderError(
                        f"{name}: the reply passed {bounds.max_chars:,} characters without "
                        "ending, more than its max_tokens allow; stopped",
                        "invalid_response",
                        retryable=True,
                    )
            yield event

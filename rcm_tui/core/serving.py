"""Servers that serve one request at a time, learnt from how they fail.

A local server started with its defaults may serve one request at a time: llama-cpp-python's
server cuts a streaming reply off when a second request arrives; llama.cpp's llama-server
shares one KV cache between its slots and answers 500 ("failed to find free space in the KV
cache") when concurrent calls fill it; Ollama answers 503 "server busy" past its queue. The
pipeline runs its analysis beside the reply, so on such a server a turn fails for no fault of
the user's.

`CallGate` runs every model call of one pipeline. While parallel it lets calls overlap; when a
call fails the way such servers fail while another call is running, it turns serial for good
and tells the caller to send that call again, alone. As with the context window
(`llm.context_overflow_in`), the server's behaviour teaches the layer instead of a setting;
`[providers.openai] parallel_calls = false` still starts the gate serial.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Callable

from .events import Notice, PipelineEvent
from .llm import Completion, LLMProvider, LLMRequest, ProviderError
from .models import CallRecord, SerialCalls, Session
from .structured_calls import complete_structured

# How servers word "I cannot take another request now" (status 500/503 bodies).
_BUSY_WORDING = re.compile(
    r"kv[ -]?cache|no (?:free |idle |available )?slots?\b|slots? (?:is |are )?(?:busy|unavailable)"
    r"|all slots|server (?:is )?busy|maximum pending requests|too many (?:concurrent |pending )?"
    r"requests",
    re.IGNORECASE,
)
# A stream that ends before its end marker, or a connection dropped mid-answer: what
# llama-cpp-python's server does to a running stream when a second request arrives.
_CUT_WORDING = re.compile(
    r"stream was cut|ended the stream early|connection (?:lost|reset|closed by the server)",
    re.IGNORECASE,
)


def one_at_a_time_failure(error: ProviderError) -> bool:
    """Does this failure look like a server refusing or cutting a call because of another?

    Only meaningful while another call runs: alone, the same words mean a broken server or
    network, and resending would not help.
    """
    if error.kind == "connection":
        return bool(_CUT_WORDING.search(error.message))
    if error.kind == "server":
        return bool(_BUSY_WORDING.search(error.message)) or "(503)" in error.message
    return False


class GatedCall:
    """One call through the gate (the gate knows which calls are running)."""


class CallGate:
    """Lets a pipeline's calls run together until the server shows it serves one at a time."""

    def __init__(self, serial: bool = False) -> None:
        self.serial = serial
        # Why the gate turned serial at run time (None while parallel, or serial by setting).
        self.learnt_from: str | None = None
        self._lock = asyncio.Lock()
        self._live: list[GatedCall] = []
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def call(self) -> AsyncIterator[GatedCall]:
        async with contextlib.AsyncExitStack() as stack:
            if self.serial:
                await stack.enter_async_context(self._lock)
                # Calls that started before the gate turned serial finish first: a resent call
                # must not cut them off in turn.
                await self._idle.wait()
            call = GatedCall()
            self._live.append(call)
            self._idle.clear()
            try:
                yield call
            finally:
                self._live.remove(call)
                if not self._live:
                    self._idle.set()

    def resend_alone(self, error: ProviderError, call: GatedCall) -> bool:
        """After `call` failed with `error`: turn serial if it is a one-at-a-time failure.

        Asked while `call` is still in the gate. True means: send the call again (it will
        run alone). A call that ran alone is never resent, so this cannot loop.
        """
        running_beside = any(other is not call for other in self._live)
        if not running_beside or not one_at_a_time_failure(error):
            return False
        if not self.serial:
            self.serial = True
            self.learnt_from = error.message
        return True


class BackendFacts:
    """What a pipeline learns about its server while it runs, and what it does about it.

    Holds the gate, remembers a learnt "one call at a time" in the session document (so a
    resumed session starts serial), says so once, and asks a remote provider once for the
    model's size (the "auto" profile reads it).
    """

    def __init__(self, gate: CallGate, emit: Callable[[PipelineEvent], None]) -> None:
        self.gate = gate
        self._emit = emit
        self._announced = False
        self._probed = False

    async def prepare(self, session: Session, generator: LLMProvider) -> None:
        """Before a turn: bring the gate and the session's memory of it in line; probe once."""
        if session.one_call_at_a_time is not None:
            self.gate.serial = True
        elif self.gate.learnt_from is not None:
            session.one_call_at_a_time = SerialCalls(
                turn=session.turn, reason=self.gate.learnt_from
            )
        if not self._probed:
            self._probed = True
            probe = getattr(generator, "probe_model_size", None)
            if probe is not None:
                await probe()

    async def complete(
        self, session: Session, provider: LLMProvider, request: LLMRequest, record: CallRecord
    ) -> Completion:
        """A non-streamed call through the gate, resent alone if another call cut it off."""
        while True:
            async with self.gate.call() as gated:
                try:
                    return await complete_structured(provider, request)
                except ProviderError as exc:
                    if not self.resend_alone(session, exc, gated, record):
                        raise

    def resend_alone(
        self, session: Session, error: ProviderError, gated: GatedCall, record: CallRecord
    ) -> bool:
        """Should a failed call be sent again, alone? Learns, remembers and says so once."""
        if not self.gate.resend_alone(error, gated):
            return False
        record.note = f"{record.note} · resent alone after: {error.message}".strip(" ·")
        if session.one_call_at_a_time is None:
            session.one_call_at_a_time = SerialCalls(turn=session.turn, reason=error.message)
        if not self._announced:
            self._announced = True
            self._emit(
                Notice(
                    "this server serves one request at a time "
                    f"({error.message}): the layer now sends its calls one after another "
                    "for this session and sent the interrupted call again "
                    "([providers.openai] parallel_calls = false starts that way)",
                    "warning",
                )
            )
        return True

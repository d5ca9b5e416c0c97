"""The small async protocol every model backend implements.

The engine talks to models only through `LLMProvider`; the SDKs live in `rcm_tui.providers`
and are never imported here. A provider streams `TextDelta`s and finishes with exactly one
`Finished` carrying the token usage; failures are `ProviderError`s with a human message.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from .models import CallPurpose

ErrorKind = Literal[
    "timeout", "connection", "auth", "rate_limit", "server", "bad_request", "cancelled",
    "not_installed", "invalid_response", "unknown", "context_overflow",
]


@dataclass(frozen=True)
class ChatMessage:
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass
class LLMRequest:
    messages: list[ChatMessage]
    purpose: CallPurpose
    max_tokens: int | None = None
    # Low by default: small models invent facts at higher temperatures.
    temperature: float = 0.2
    # A JSON schema the answer must follow; providers use JSON mode or a grammar when they can.
    json_schema: dict[str, Any] | None = None
    stop: list[str] | None = None
    # Names the reply must not write (options the user rejected). A provider that can steer
    # sampling (the local one: it bans the tokens that start them) does; the others ignore it.
    avoid: tuple[str, ...] = ()


@dataclass
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    # Prompt tokens the server did not have to evaluate again (prefix / KV cache hits).
    cached_tokens: int = 0
    # True when the backend reported no usage and these are estimates from the text.
    estimated: bool = False


def estimated_usage(request: LLMRequest, text: str) -> Usage:
    """~4 characters per token, for backends that report no usage."""
    prompt_chars = sum(len(m.content) for m in request.messages)
    return Usage(
        prompt_tokens=prompt_chars // 4 + 4 * len(request.messages),
        completion_tokens=max(1, len(text) // 4) if text else 0,
        estimated=True,
    )


@dataclass
class TextDelta:
    text: str


@dataclass
class Finished:
    usage: Usage
    finish_reason: str = "stop"


StreamEvent = TextDelta | Finished


class ProviderError(Exception):
    """A model call failed; `message` is one line a user can act on."""

    def __init__(
        self,
        message: str,
        kind: ErrorKind = "unknown",
        retryable: bool = False,
        *,
        overflow: ContextOverflow | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.retryable = retryable
        # Set when the backend refused the prompt as longer than its context window.
        self.overflow = overflow


@dataclass(frozen=True)
class ContextOverflow:
    """What a backend said when a prompt did not fit: its window and, if given, the count."""

    window: int
    prompt_tokens: int | None = None


# How the backends word "the prompt is longer than the context window"; (prompt, window) groups.
_OVERFLOW_PATTERNS = (
    # llama.cpp's llama-server
    re.compile(
        r"request \((?P<prompt>\d+) tokens\) exceeds the available context size "
        r"\((?P<window>\d+) tokens\)"
    ),
    # llama-cpp-python (in-process and its server)
    re.compile(r"Requested tokens \((?P<prompt>\d+)\) exceed context window of (?P<window>\d+)"),
    # OpenAI and compatible servers
    re.compile(
        r"maximum context length is (?P<window>\d+) tokens.{0,80}?"
        r"(?:resulted in|requested) (?P<prompt>\d+) tokens",
        re.S,
    ),
    re.compile(r"maximum context length is (?P<window>\d+) tokens"),
    # Anthropic
    re.compile(r"prompt is too long: (?P<prompt>\d+) tokens > (?P<window>\d+) maximum"),
)


def context_overflow_in(message: str) -> ContextOverflow | None:
    """The window (and prompt size) named in a backend's context-overflow error, if it is one."""
    for pattern in _OVERFLOW_PATTERNS:
        found = pattern.search(message)
        if found:
            prompt = found.groupdict().get("prompt")
            return ContextOverflow(int(found["window"]), int(prompt) if prompt else None)
    return None


@runtime_checkable
class LLMProvider(Protocol):
    name: str
    model: str
    # Shown in the header; the offline provider says plainly that it is a demo.
    label: str
    # Optional attribute `parallel_calls: bool` (default True): False for a backend known to
    # serve one call at a time, so the pipeline does not queue analysis before generation
    # (one that says nothing is found out by how it fails: core/serving.py). Optional
    # `parameter_count` (and `parameter_source`), and `async probe_model_size()` to learn
    # them, feed the "auto" profile (core/profile.py).

    def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        """Stream the answer. Cancelling the consuming task cancels the call."""
        ...

    async def aclose(self) -> None: ...


@dataclass
class Completion:
    text: str
    usage: Usage
    ttft_ms: float | None
    ms: float


async def complete(provider: LLMProvider, request: LLMRequest) -> Completion:
    """Run a request to the end and collect its text (for the non-streamed steps)."""
    import time

    started = time.perf_counter()
    first: float | None = None
    parts: list[str] = []
    usage = Usage()
    async for event in provider.stream(request):
        if isinstance(event, TextDelta):
            if first is None:
                first = time.perf_counter()
            parts.append(event.text)
        else:
            usage = event.usage
    ended = time.perf_counter()
    ttft = None if first is None else (first - started) * 1000
    return Completion("".join(parts), usage, ttft, (ended - started) * 1000)

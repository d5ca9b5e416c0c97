"""The `anthropic` provider: the official async SDK, streaming the Messages API.

Also works with Anthropic-compatible servers (llama.cpp's llama-server) through `base_url`.
Retries are done by `base.stream_with_retries`, not by the SDK.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from typing import Any, Literal

import anthropic
import httpx2
from anthropic.types import (
    AssistantMessageParam,
    MessageDeltaUsage,
    MessageParam,
    RawMessageStreamEvent,
    UserMessageParam,
)

from ..config import AnthropicSettings
from ..core import prompts
from ..core.llm import (
    ChatMessage,
    Finished,
    LLMRequest,
    StreamEvent,
    TextDelta,
    Usage,
)
from .base import (
    Failure,
    SDKProvider,
    StreamEndedEarly,
)
from .model_size import ModelSizeProbe

KEY_HINT = "set ANTHROPIC_API_KEY or providers.anthropic.api_key"
# The Messages API has no plain JSON mode, so a schema becomes an instruction.
# The API wants the first message from the user; used when a conversation opens otherwise.
OPENING_USER_TURN = "Continue."
# Stop reasons in the vocabulary the rest of the app uses (OpenAI's).
FINISH_REASONS = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}
# The status an error event inside a 200 stream stands for, by its `error.type`.
ERROR_EVENT_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}


class AnthropicProvider(ModelSizeProbe, SDKProvider[AnthropicSettings]):
    name = "anthropic"

    def _make_client(self, **options: Any) -> anthropic.AsyncAnthropic:
        return anthropic.AsyncAnthropic(**options)

    async def _attempt(self, request: LLMRequest) -> AsyncGenerator[StreamEvent, None]:
        events = await self._client.messages.create(
            model=self.model,
            messages=alternating_messages(request.messages),
            max_tokens=request.max_tokens or self._cfg.max_tokens,
            # No temperature: SDK 2.x has no sampling parameters, and the API version it speaks
            # (2026-10-21) answers 400 to temperature, top_p or top_k at any value.
            stream=True,
            **_optional_params(request),
        )
        tally = _Tally()
        async with events:
            async for event in events:
                text = tally.read(event)
                if text:
                    yield TextDelta(text)
        if not tally.stopped:
            raise StreamEndedEarly
        yield Finished(tally.usage(), tally.finish_reason)

    def _classify(self, exc: Exception) -> Failure:
        # Mid-stream transport errors reach us as raw httpx2 exceptions: unlike the openai SDK,
        # this SDK does not wrap what happens while the body is read.
        if isinstance(exc, anthropic.APIConnectionError | httpx2.TransportError):
            timed_out = isinstance(exc, anthropic.APITimeoutError | httpx2.TimeoutException)
            return self._transport_failure(exc, timed_out=timed_out)
        if isinstance(exc, anthropic.APIStatusError):
            status = exc.status_code
            if status < 400:
                # An `error` event inside a 200 stream; its type says what really happened.
                status = ERROR_EVENT_STATUS.get(str(exc.type or ""), 500)
            return self._status_failure(
                status, exc.response.headers, exc.api_message or "", KEY_HINT
            )
        return self._unexpected(exc)


class _Tally:
    """Follows one message's stream events: its text, its usage and how it ended."""

    def __init__(self) -> None:
        self.input_tokens = 0
        self.output_tokens = 0
        self.cache_read = 0
        self.cache_creation = 0
        self.finish_reason = "stop"
        self.stopped = False

    def read(self, event: RawMessageStreamEvent) -> str:
        """Update from one event; return the text it carries, if any."""
        if event.type == "message_start":
            usage = event.message.usage
            self.input_tokens = usage.input_tokens or 0
            self.output_tokens = usage.output_tokens or 0
            self.cache_read = usage.cache_read_input_tokens or 0
            self.cache_creation = usage.cache_creation_input_tokens or 0
        elif event.type == "content_block_delta":
            # Thinking and tool-input deltas are not part of the answer.
            if event.delta.type == "text_delta":
                return event.delta.text
        elif event.type == "message_delta":
            self._read_delta_usage(event.usage)
            if event.delta.stop_reason is not None:
                reason = str(event.delta.stop_reason)
                self.finish_reason = FINISH_REASONS.get(reason, reason)
        elif event.type == "message_stop":
            self.stopped = True
        return ""

    def _read_delta_usage(self, usage: MessageDeltaUsage) -> None:
        # message_delta counts are cumulative; all but output_tokens may be absent.
        self.output_tokens = usage.output_tokens or self.output_tokens
        if usage.input_tokens is not None:
            self.input_tokens = usage.input_tokens
        if usage.cache_read_input_tokens is not None:
            self.cache_read = usage.cache_read_input_tokens
        if usage.cache_creation_input_tokens is not None:
            self.cache_creation = usage.cache_creation_input_tokens

    def usage(self) -> Usage:
        # input_tokens excludes cached prompt tokens; the app's prompt_tokens counts them all,
        # as OpenAI's does.
        return Usage(
            prompt_tokens=self.input_tokens + self.cache_read + self.cache_creation,
            completion_tokens=self.output_tokens,
            cached_tokens=self.cache_read,
        )


def system_prompt(request: LLMRequest) -> str:
    parts = [m.content for m in request.messages if m.role == "system" and m.content.strip()]
    if request.json_schema is not None:
        schema = json.dumps(request.json_schema, ensure_ascii=False)
        parts.append(prompts.JSON_ONLY_INSTRUCTION.format(schema=schema))
    return "\n\n".join(parts)


def alternating_messages(messages: list[ChatMessage]) -> list[MessageParam]:
    """User/assistant turns that alternate and open with the user, as the API requires.

    System messages are left out (they go in `system`), empty ones are dropped (the API
    rejects empty text) and consecutive messages of one role are joined.
    """
    turns: list[tuple[Literal["user", "assistant"], str]] = []
    for message in messages:
        if message.role == "system" or not message.content.strip():
            continue
        if turns and turns[-1][0] == message.role:
            turns[-1] = (message.role, f"{turns[-1][1]}\n\n{message.content}")
        else:
            turns.append((message.role, message.content))
    if not turns or turns[0][0] != "user":
        turns.insert(0, ("user", OPENING_USER_TURN))
    return [_turn(role, content) for role, content in turns]


def _turn(role: Literal["user", "assistant"], content: str) -> MessageParam:
    if role == "user":
        return UserMessageParam(role="user", content=content)
    return AssistantMessageParam(role="assistant", content=content)


def _optional_params(request: LLMRequest) -> dict[str, Any]:
    params: dict[str, Any] = {}
    system = system_prompt(request)
    if system:
        params["system"] = system
    # The API rejects stop sequences that are only whitespace (e.g. "\n\n").
    stops = [s for s in request.stop or [] if s.strip()]
    if stops:
        params["stop_sequences"] = stops
    return params

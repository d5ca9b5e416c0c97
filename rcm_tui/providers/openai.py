"""The `openai` provider: the official async SDK, streaming chat completions.

Works with api.openai.com and with any OpenAI-compatible server (`base_url`), such as
llama-cpp-python's. Retries are done by `base.stream_with_retries`, not by the SDK.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any, Literal

import httpx2
import openai
from openai.types.chat import ChatCompletionChunk, ChatCompletionMessageParam

from ..config import OpenAISettings
from ..core.llm import (
    Finished,
    LLMRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    Usage,
    estimated_usage,
)
from .base import (
    Failure,
    RetryPolicy,
    SDKProvider,
    StreamEndedEarly,
)
from .model_size import ModelSizeProbe

JsonMode = Literal["json_schema", "json_object", "none"]
# Strongest first. Many OpenAI-compatible servers reject `json_schema` (or any response_format)
# with a 400, so a request falls back one step at a time.
JSON_MODES: tuple[JsonMode, ...] = ("json_schema", "json_object", "none")
KEY_HINT = "set OPENAI_API_KEY or providers.openai.api_key"


class OpenAIProvider(ModelSizeProbe, SDKProvider[OpenAISettings]):
    name = "openai"

    def __init__(
        self,
        cfg: OpenAISettings,
        *,
        model: str | None = None,
        base_url: str | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        super().__init__(cfg, model=model, base_url=base_url, retry=retry)
        # False for a server that serves one request at a time: the pipeline then never
        # sends its analysis while the reply streams (llama-cpp-python's server would cut the
        # reply off to serve it).
        self.parallel_calls = cfg.parallel_calls
        # The strongest JSON mode this server has accepted; later requests start from it.
        self._json_mode: JsonMode = JSON_MODES[0]

    def _make_client(self, **options: Any) -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(**options)

    async def _attempt(self, request: LLMRequest) -> AsyncGenerator[StreamEvent, None]:
        chunks = await self._open(request)
        usage = Usage()
        texts: list[str] = []
        finish_reason: str | None = None
        async with chunks:
            async for chunk in chunks:
                if chunk.usage is not None:
                    usage = _usage_of(chunk)
                for choice in chunk.choices:
                    if choice.delta.content:
                        texts.append(choice.delta.content)
                        yield TextDelta(choice.delta.content)
                    if choice.finish_reason is not None:
                        finish_reason = choice.finish_reason
        # The SDK swallows `[DONE]`; a stream without a finish reason was truncated.
        if finish_reason is None:
            raise StreamEndedEarly
        if usage.prompt_tokens == 0:
            # Some compatible servers (llama-cpp-python's) ignore include_usage: estimate,
            # and say so, rather than report a free call.
            usage = estimated_usage(request, "".join(texts))
        yield Finished(usage, finish_reason)

    async def _open(self, request: LLMRequest) -> openai.AsyncStream[ChatCompletionChunk]:
        """Start the stream, stepping down the JSON modes while the server says 400."""
        modes = (
            JSON_MODES[JSON_MODES.index(self._json_mode) :] if request.json_schema else ("none",)
        )
        for mode in modes:
            try:
                chunks = await self._client.chat.completions.create(
                    model=self.model,
                    messages=_messages(request),
                    stream=True,
                    stream_options={"include_usage": True},
                    max_tokens=request.max_tokens or self._cfg.max_tokens,
                    temperature=request.temperature,
                    **_optional_params(request, mode),
                )
            except openai.APIStatusError as exc:
                if mode == modes[-1] or not _rejects_json_mode(exc):
                    raise
                continue
            if request.json_schema:
                self._json_mode = mode
            return chunks
        raise AssertionError("unreachable: the last mode re-raises")

    def _classify(self, exc: Exception) -> Failure:
        # APITimeoutError is an APIConnectionError, so it is checked first.
        if isinstance(exc, openai.APIConnectionError | httpx2.TransportError):
            timed_out = isinstance(exc, openai.APITimeoutError | httpx2.TimeoutException)
            return self._transport_failure(exc, timed_out=timed_out)
        if isinstance(exc, openai.APIStatusError):
            return self._status_failure(
                exc.status_code, exc.response.headers, _server_message(exc), KEY_HINT
            )
        if isinstance(exc, openai.APIError):
            # An error event inside a 200 stream.
            message = f"{self.name}: the server reported an error: {self._detail(exc.message)}"
            return Failure(ProviderError(message, "server", retryable=True))
        return self._unexpected(exc)


def _messages(request: LLMRequest) -> list[ChatCompletionMessageParam]:
    messages: list[ChatCompletionMessageParam] = []
    for message in request.messages:
        if message.role == "system":
            messages.append({"role": "system", "content": message.content})
        elif message.role == "assistant":
            messages.append({"role": "assistant", "content": message.content})
        else:
            messages.append({"role": "user", "content": message.content})
    return messages


def _optional_params(request: LLMRequest, mode: JsonMode) -> dict[str, Any]:
    params: dict[str, Any] = {}
    if request.stop:
        params["stop"] = list(request.stop)
    if request.json_schema and mode == "json_schema":
        params["response_format"] = {
            "type": "json_schema",
            # Not strict: strict mode rejects schemas that do not list every property as
            # required, and the pipeline validates answers itself anyway.
            "json_schema": {"name": "answer", "schema": request.json_schema, "strict": False},
        }
    elif request.json_schema and mode == "json_object":
        # llama-cpp-python's server compiles `schema` into a grammar; others ignore it.
        params["response_format"] = {"type": "json_object", "schema": request.json_schema}
    return params


def _rejects_json_mode(exc: openai.APIStatusError) -> bool:
    """Did the server refuse the response_format (rather than fail for another reason)?

    OpenAI and most servers answer 400; llama-cpp-python's server answers 500 or 422 with a
    validation error that names `response_format`.
    """
    if exc.status_code == 400:
        return True
    if exc.status_code in (422, 500):
        return "response_format" in _server_message(exc) or "json_schema" in _server_message(exc)
    return False


def _usage_of(chunk: ChatCompletionChunk) -> Usage:
    usage = chunk.usage
    if usage is None:
        return Usage()
    details = usage.prompt_tokens_details
    cached = details.cached_tokens if details is not None else None
    return Usage(
        prompt_tokens=usage.prompt_tokens or 0,
        completion_tokens=usage.completion_tokens or 0,
        cached_tokens=cached or 0,
    )


def _server_message(exc: openai.APIStatusError) -> str:
    body = exc.body
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
        if isinstance(error, str):
            return error
    return body if isinstance(body, str) else ""

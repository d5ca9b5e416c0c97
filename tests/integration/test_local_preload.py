"""The embedded model loads before the first message, with the system prompt already read,
on each engine installed (conftest's `local_engine`)."""

from __future__ import annotations

import asyncio

import pytest

from rcm_tui.config import LocalSettings
from rcm_tui.core import prompts
from rcm_tui.core.llm import ChatMessage, LLMRequest
from rcm_tui.providers.local import LocalProvider

from .conftest import collect

pytestmark = pytest.mark.integration

# A context size of its own for each engine: a model no other test has warmed (models are shared
# per path, context size and threads).
N_CTX = {"llama-cpp-python": 1536, "xllamacpp": 1792}
SYSTEM = ChatMessage("system", prompts.SYSTEM_PROMPT)


@pytest.fixture
def provider(local_engine: str) -> LocalProvider:
    settings = LocalSettings(n_ctx=N_CTX[local_engine], n_threads=1, max_tokens=16,
                             engine=local_engine)  # fmt: skip
    return LocalProvider(settings)


async def test_the_first_prompt_finds_the_system_prompt_in_the_cache(
    provider: LocalProvider,
) -> None:
    await asyncio.to_thread(provider.preload, [SYSTEM])

    first = await collect(provider, LLMRequest([SYSTEM, ChatMessage("user", "Hi!")], "generation"))

    assert first.finished is not None
    usage = first.finished.usage
    # Everything up to the user's turn was read during the load, not on the first message.
    assert usage.cached_tokens > 100
    assert usage.prompt_tokens - usage.cached_tokens < 20


async def test_preloading_again_after_a_generation_still_reads_the_head(
    provider: LocalProvider,
) -> None:
    # Every replay and eval arm preloads; the model is shared and has answered before.
    await collect(provider, LLMRequest([ChatMessage("user", "Say hi.")], "generation"))
    await asyncio.to_thread(provider.preload, [SYSTEM])

    again = await collect(provider, LLMRequest([SYSTEM, ChatMessage("user", "Hi!")], "generation"))
    assert again.finished is not None and again.finished.usage.cached_tokens > 100

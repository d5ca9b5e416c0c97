"""The embedded model on the compiler-free engine (xllamacpp), run for real.

test_local_provider.py runs the engine "auto" picks (llama-cpp-python where the test command
installed it); these run the same provider on xllamacpp, which is what a user who ran the
README's run command has. Its own context size keeps its model apart in the module cache.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from rcm_tui.config import LocalSettings
from rcm_tui.core.llm import ChatMessage, LLMRequest, TextDelta
from rcm_tui.providers import local, local_xllamacpp
from rcm_tui.providers.local import LocalProvider

from .conftest import collect, expect_error

pytestmark = pytest.mark.integration

SETTINGS = LocalSettings(n_ctx=2304, n_threads=1, max_tokens=32, engine="xllamacpp")
SYSTEM = ChatMessage("system", "You are a concise assistant. Answer in one or two sentences.")
WORKER_THREAD = "rcm-local-llm"


def ask(text: str, **kwargs: object) -> LLMRequest:
    return LLMRequest([SYSTEM, ChatMessage("user", text)], "generation", **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def provider() -> LocalProvider:
    return LocalProvider(SETTINGS)


def shared_model() -> local._SharedModel:
    path = local.bundled_model_path()
    return local._MODELS[(str(path), SETTINGS.n_ctx, SETTINGS.n_threads)]


async def _wait_for_workers_to_exit(deadline_s: float) -> None:
    import threading

    deadline = time.perf_counter() + deadline_s
    while any(t.name == WORKER_THREAD for t in threading.enumerate()):
        assert time.perf_counter() < deadline, "the cancelled generation is still running"
        await asyncio.sleep(0.02)


async def test_streams_deltas_and_usage_through_the_gguf_template(provider: LocalProvider) -> None:
    outcome = await collect(provider, ask("Name three fruits."))

    assert len(outcome.deltas) >= 3 and outcome.text.strip()
    assert "<|im" not in outcome.text
    assert outcome.finished is not None and outcome.events_after_finish == 0
    usage = outcome.finished.usage
    assert usage.prompt_tokens > 10 and 0 < usage.completion_tokens <= SETTINGS.max_tokens
    assert outcome.finished.finish_reason in ("stop", "length")
    assert "xllamacpp" in type(shared_model().llm).__module__
    assert provider.parameter_count == 134_515_008  # SmolLM2-135M, as llama.cpp counts it


async def test_max_tokens_bounds_the_answer(provider: LocalProvider) -> None:
    outcome = await collect(provider, ask("Write a long essay about the sea.", max_tokens=5))

    assert outcome.finished is not None
    assert outcome.finished.usage.completion_tokens == 5
    assert outcome.finished.finish_reason == "length"


async def test_a_follow_up_reuses_the_cached_prefix_and_reports_it_honestly() -> None:
    provider = LocalProvider(SETTINGS)
    first = await collect(provider, ask("What is a river?"))
    assert first.finished is not None
    follow_up = LLMRequest(
        [
            SYSTEM,
            ChatMessage("user", "What is a river?"),
            ChatMessage("assistant", first.text),
            ChatMessage("user", "And a lake?"),
        ],
        "generation",
    )

    second = await collect(LocalProvider(SETTINGS), follow_up)

    assert second.finished is not None
    usage = second.finished.usage
    assert usage.cached_tokens >= first.finished.usage.prompt_tokens - 1
    assert usage.cached_tokens < usage.prompt_tokens
    other = await collect(
        provider,
        LLMRequest(
            [ChatMessage("system", "Reply in French."), ChatMessage("user", "Bonjour")],
            "generation",
        ),
    )
    assert other.finished is not None and other.finished.usage.cached_tokens < 8


async def test_json_schema_answers_parse_and_follow_the_schema(provider: LocalProvider) -> None:
    schema = {
        "type": "object",
        "properties": {
            "topic": {"type": "string", "maxLength": 40},
            "is_question": {"type": "boolean"},
        },
        "required": ["topic", "is_question"],
    }
    request = LLMRequest(
        [
            ChatMessage("system", "Classify the user's message. Reply with JSON only."),
            ChatMessage("user", "How do I bake bread at home?"),
        ],
        "analysis",
        max_tokens=80,
        json_schema=schema,
        temperature=0.0,
    )

    text = (await collect(provider, request)).text
    data = json.loads(text)

    assert "\n" not in text  # no indentation for a 135M model to lose its way in
    assert isinstance(data["topic"], str) and data["topic"]
    assert isinstance(data["is_question"], bool)


async def test_generating_leaves_the_event_loop_free(provider: LocalProvider) -> None:
    # Loading holds the GIL (about 0.3 s, see local_xllamacpp.py); generating must not.
    await asyncio.to_thread(provider.preload, [SYSTEM])
    lags: list[float] = []
    done = asyncio.Event()

    async def tick() -> None:
        while not done.is_set():
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - started - 0.01)

    ticker = asyncio.create_task(tick())
    outcome = await collect(provider, ask("Write a poem about the sea.", max_tokens=64))
    done.set()
    await ticker

    assert outcome.finished is not None and outcome.finished.usage.completion_tokens > 10
    assert len(lags) > 10 and max(lags) < 0.25


async def test_cancelling_mid_stream_stops_generation_and_the_model_stays_usable(
    provider: LocalProvider,
) -> None:
    seen: list[str] = []
    three = asyncio.Event()

    async def consume() -> None:
        request = ask("Write a very long story about a dragon and a knight.", max_tokens=1500)
        async for event in provider.stream(request):
            if isinstance(event, TextDelta):
                seen.append(event.text)
                if len(seen) == 3:
                    three.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(three.wait(), timeout=60)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The worker waits for the engine's call to return: 1500 tokens would take 20 s or more.
    await _wait_for_workers_to_exit(deadline_s=5.0)
    assert shared_model().llm.meter.completion_tokens <= len(seen) + 10

    after = await collect(provider, ask("Say hello."))
    assert after.finished is not None and after.text.strip()


async def test_cancelling_during_a_long_prompt_does_not_wait_for_the_prompt(
    provider: LocalProvider,
) -> None:
    long_text = uuid.uuid4().hex + " " + "The quick brown fox jumps over the lazy dog. " * 150
    task = asyncio.create_task(collect(provider, ask(long_text, max_tokens=8)))
    await asyncio.sleep(0.3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    await _wait_for_workers_to_exit(deadline_s=3.0)
    model = shared_model()
    assert model.llm.n_tokens < model.llm.meter.prompt_tokens  # stopped inside the prompt

    after = await collect(provider, ask("Say hello."))
    assert after.finished is not None and after.text.strip()


async def test_a_prompt_longer_than_the_context_window_is_a_clear_error(
    provider: LocalProvider,
) -> None:
    error = await expect_error(provider, ask("hello " * (SETTINGS.n_ctx + 100)))

    assert error.kind == "context_overflow"
    assert error.overflow is not None and error.overflow.window == SETTINGS.n_ctx
    assert "context window (2304 tokens)" in error.message
    assert "providers.local.n_ctx" in error.message


async def test_a_broken_model_file_is_a_clear_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + bytes(60))
    settings = LocalSettings(model_path=str(broken), engine="xllamacpp")

    error = await expect_error(LocalProvider(settings), ask("hi"))

    assert "cannot load the local model" in error.message and str(broken) in error.message
    assert "bad GGUF version" in error.message  # llama.cpp's own reason


SESSION_SCRIPT = """
import asyncio, json
from rcm_tui.config import LocalSettings
from rcm_tui.core.llm import ChatMessage, LLMRequest, complete
from rcm_tui.providers.local import LocalProvider

SYSTEM = ChatMessage("system", "You are a concise assistant. Answer in one or two sentences.")
settings = LocalSettings(n_ctx=2048, n_threads=1, max_tokens=32, engine="xllamacpp")

async def session():
    provider = LocalProvider(settings)
    await complete(provider, LLMRequest([SYSTEM, ChatMessage("user", "Name three fruits.")],
                                        "generation"))
    dragon = ChatMessage("user", "Invent a name for a dragon and describe it.")
    request = LLMRequest([SYSTEM, dragon], "generation", max_tokens=24, temperature=1.0)
    answer = await complete(provider, request)
    retried = await complete(provider, request)
    return [answer.text, retried.text]

print(json.dumps(asyncio.run(session())))
"""


def run_session(tmp_path: Path) -> tuple[list[str], bytes]:
    done = subprocess.run(
        [sys.executable, "-c", SESSION_SCRIPT], capture_output=True, timeout=120, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return json.loads(done.stdout), done.stderr


def test_a_retry_samples_afresh_a_session_replays_and_the_terminal_stays_clean(
    tmp_path: Path,
) -> None:
    (answer, retried), stderr = run_session(tmp_path)
    replayed, _ = run_session(tmp_path)

    assert answer and retried != answer
    assert replayed == [answer, retried]
    # Loading and generating print nothing over the TUI (llama.cpp logs to fd 2).
    assert stderr == b""


async def test_an_engine_that_does_not_load_here_names_the_compiled_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # What importing a wheel built for a newer C library raises on an older one.
    def fail(*args: object, **kwargs: object) -> None:
        raise ImportError("/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found")

    monkeypatch.setattr(local_xllamacpp.ServerModel, "__init__", fail)
    settings = LocalSettings(n_ctx=1280, n_threads=1, engine="xllamacpp")

    error = await expect_error(LocalProvider(settings), ask("hi"))

    assert error.kind == "not_installed"
    assert "GLIBC_2.38" in error.message and "rcm-tui[local-compiled]" in error.message

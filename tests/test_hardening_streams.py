"""Streams that never end: a server that keeps streaming, or sends 5 MB, is stopped on the
client side by the call's deadline and its character bound, with one clear error; the user's
message stays saved."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rcm_tui.config import OpenAISettings, sessions_dir
from rcm_tui.core.llm import ChatMessage, LLMRequest
from rcm_tui.providers.openai import OpenAIProvider

from .providers.conftest import run
from .providers.fake_server import FakeServer, Reply, openai_stream

KEY = "sk-test-7f3a9c1e5b2d4f60"


def endless(text: str = "more ") -> Any:
    """The chunks of a chat completion that never finishes: the same delta for ever."""
    head, delta = openai_stream(["start "], finish_reason=None, done=False)
    return itertools.chain([head, delta], itertools.repeat(openai_stream([text])[1]))


def five_megabytes() -> list[bytes]:
    piece = "x" * 50_000
    return openai_stream([piece] * 100)  # 100 deltas of 50 kB, then a clean end


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


def provider(server: FakeServer, **cfg: Any) -> OpenAIProvider:
    settings = OpenAISettings(**{"api_key": KEY, "max_retries": 0, "timeout": 5, **cfg})
    return OpenAIProvider(settings, model="gpt-test", base_url=f"{server.url}/v1")


def ask() -> LLMRequest:
    return LLMRequest(messages=[ChatMessage("user", "Hello?")], purpose="generation")


async def test_an_endless_stream_ends_at_the_call_deadline(server: FakeServer) -> None:
    server.push(Reply.sse(endless(), event_delay=0.002))
    client = provider(server, call_deadline=1.5, max_reply_chars=10**9)
    started = time.monotonic()
    outcome = await run(client, ask())
    elapsed = time.monotonic() - started
    await client.aclose()

    assert outcome.error is not None and outcome.finished is None
    assert "did not end within 1.5 s" in outcome.error.message
    assert outcome.error.kind == "timeout"
    assert 1.4 <= elapsed < 4.0


async def test_a_five_megabyte_reply_stops_at_the_character_bound(server: FakeServer) -> None:
    server.push(Reply.sse(five_megabytes()))
    client = provider(server, max_tokens=1024)
    outcome = await run(client, ask())
    await client.aclose()

    assert outcome.error is not None and outcome.finished is None
    assert "passed 131,072 characters without ending" in outcome.error.message
    assert len(outcome.text) <= 131_072


async def test_a_bounded_reply_under_the_limits_is_untouched(server: FakeServer) -> None:
    server.push(Reply.sse(openai_stream(["Hel", "lo"])))
    client = provider(server, max_tokens=16, call_deadline=5)
    outcome = await run(client, ask())
    await client.aclose()

    assert outcome.error is None and outcome.text == "Hello"


def test_replay_against_an_endless_server_ends_with_one_line_and_keeps_the_message(
    server: FakeServer, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        "llm_analysis = false\nllm_judge = false\nmax_refinement_attempts = 0\n"
        "[providers.openai]\nmax_retries = 1\ntimeout = 8\ncall_deadline = 3\n"
        "max_reply_chars = 1000000000\n",
        encoding="utf-8",
    )
    script = tmp_path / "script.jsonl"
    script.write_text(json.dumps({"user": "Tell me everything"}) + "\n", encoding="utf-8")
    server.push(Reply.sse(endless(), event_delay=0.002))
    env = dict(os.environ, OPENAI_API_KEY=KEY)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "rcm_tui", "replay", str(script), "--provider", "openai",
         "--base-url", f"{server.url}/v1", "--config", str(config)],
        capture_output=True, text=True, env=env, timeout=120,
    )
    elapsed = time.monotonic() - started

    assert proc.returncode == 1
    errors = [line for line in proc.stderr.splitlines() if "did not end within 3 s" in line]
    assert len(errors) == 1, proc.stderr
    assert "keeps the message" in errors[0]
    assert elapsed < 30  # the deadline (3 s) plus the interpreter's start-up
    [path] = [p for p in sessions_dir().glob("*.json") if p.name != "index.json"]
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert [m["content"] for m in doc["messages"]] == ["Tell me everything"]

"""The anthropic provider against a scripted Messages API server on loopback."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from rcm_tui.config import AnthropicSettings
from rcm_tui.core.llm import ChatMessage, LLMRequest, TextDelta
from rcm_tui.providers.anthropic import AnthropicProvider, alternating_messages

from .conftest import RecordingSleep, recorded_policy, run
from .fake_server import FakeServer, Reply, anthropic_stream, closed_port_url, sse_event

KEY = "sk-ant-test-0c4e8a2f6b1d9e73"
SCHEMA = {"type": "object", "properties": {"score": {"type": "number"}}}

MakeProvider = Callable[..., AnthropicProvider]


@pytest.fixture
async def make_provider(server: FakeServer, sleeps: RecordingSleep) -> AsyncIterator[MakeProvider]:
    made: list[AnthropicProvider] = []

    def make(base_url: str | None = None, **cfg: Any) -> AnthropicProvider:
        settings = AnthropicSettings(**{"api_key": KEY, "max_retries": 3, **cfg})
        provider = AnthropicProvider(
            settings,
            model="claude-test",
            base_url=base_url or server.url,
            retry=recorded_policy(sleeps, settings.max_retries),
        )
        made.append(provider)
        return provider

    yield make
    for provider in made:
        await provider.aclose()


def ask(text: str = "Hello?", **options: Any) -> LLMRequest:
    return LLMRequest(messages=[ChatMessage("user", text)], purpose="generation", **options)


def ok_stream(*texts: str) -> Reply:
    return Reply.sse(anthropic_stream(list(texts or ["ok"])))


def overloaded_event() -> bytes:
    error = {"type": "overloaded_error", "message": "Overloaded"}
    return sse_event("error", {"type": "error", "error": error})


async def test_deltas_arrive_in_order_with_usage_and_cached_tokens(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    events = anthropic_stream(
        ["Hel", "lo, ", "world"], input_tokens=10, output_tokens=7, cache_read=4, cache_creation=2
    )
    server.push(Reply.sse(events))
    provider = make_provider()

    outcome = await run(provider, ask())

    assert outcome.error is None
    assert outcome.deltas == ["Hel", "lo, ", "world"]
    assert outcome.finished is not None
    assert outcome.finished.finish_reason == "stop"
    usage = outcome.finished.usage
    # The API's input_tokens leaves out cache reads and writes; prompt_tokens counts them all.
    assert (usage.prompt_tokens, usage.completion_tokens, usage.cached_tokens) == (16, 7, 4)
    assert provider.label == "anthropic · claude-test"


async def test_request_carries_model_max_tokens_and_stop_sequences(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(ok_stream())

    await run(make_provider(), ask(max_tokens=77, stop=["END", "\n\n"], temperature=0.2))

    (sent,) = server.requests
    assert sent.path == "/v1/messages"
    body = sent.json
    assert body["model"] == "claude-test"
    assert body["max_tokens"] == 77
    assert body["stream"] is True
    # Whitespace-only stop sequences are refused by the API, so they are left out.
    assert body["stop_sequences"] == ["END"]
    # API version 2026-10-21 answers 400 to any sampling parameter.
    assert "temperature" not in body
    assert "system" not in body


async def test_max_tokens_falls_back_to_config_and_max_tokens_stop_means_length(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.sse(anthropic_stream(["cut sho"], stop_reason="max_tokens")))

    outcome = await run(make_provider(max_tokens=321), ask())

    assert server.requests[0].json["max_tokens"] == 321
    assert outcome.finished is not None
    assert outcome.finished.finish_reason == "length"


async def test_system_messages_go_to_system_and_roles_alternate(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(ok_stream())
    request = LLMRequest(
        messages=[
            ChatMessage("system", "You are terse."),
            ChatMessage("user", "u1"),
            ChatMessage("user", "u2"),
            ChatMessage("assistant", "a1"),
            ChatMessage("system", "Ledger: keep it short."),
            ChatMessage("assistant", "a2"),
            ChatMessage("user", ""),
            ChatMessage("user", "u3"),
        ],
        purpose="generation",
    )

    await run(make_provider(), request)

    body = server.requests[0].json
    assert body["system"] == "You are terse.\n\nLedger: keep it short."
    assert body["messages"] == [
        {"role": "user", "content": "u1\n\nu2"},
        {"role": "assistant", "content": "a1\n\na2"},
        {"role": "user", "content": "u3"},
    ]


def test_a_conversation_must_open_with_the_user() -> None:
    messages = alternating_messages(
        [
            ChatMessage("system", "s"),
            ChatMessage("assistant", "Welcome back."),
            ChatMessage("user", "Thanks"),
        ]
    )

    assert [m["role"] for m in messages] == ["user", "assistant", "user"]
    assert messages[1]["content"] == "Welcome back."
    assert alternating_messages([ChatMessage("system", "only a system prompt")])[0]["role"] == (
        "user"
    )


async def test_json_schema_becomes_a_system_instruction(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(ok_stream('{"score": 1}'))
    request = LLMRequest(
        messages=[ChatMessage("system", "Judge the answer."), ChatMessage("user", "Answer: 4")],
        purpose="judge",
        json_schema=SCHEMA,
    )

    outcome = await run(make_provider(), request)

    assert outcome.text == '{"score": 1}'
    system = server.requests[0].json["system"]
    assert system.startswith("Judge the answer.\n\n")
    assert "JSON" in system
    assert json.dumps(SCHEMA) in system


async def test_429_waits_as_long_as_retry_after_says(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    limited = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    server.push(Reply.json(429, limited, {"Retry-After": "1"}), ok_stream("after the wait"))

    outcome = await run(make_provider(), ask())

    assert outcome.text == "after the wait"
    assert sleeps.waits == [1.0]
    assert len(server.requests) == 2


async def test_server_errors_are_retried_with_exponential_backoff(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    server.push(Reply.json(529, overloaded), Reply.json(500, {}), ok_stream("third time"))

    outcome = await run(make_provider(), ask())

    assert outcome.text == "third time"
    assert sleeps.waits == [0.5, 1.0]
    assert len(server.requests) == 3


async def test_only_max_retries_retries_then_an_overloaded_error(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    server.push(*[Reply.json(529, overloaded) for _ in range(3)])

    outcome = await run(make_provider(max_retries=1), ask())

    assert outcome.error is not None
    assert outcome.error.kind == "server"
    assert outcome.error.message == (
        "anthropic: the server is overloaded (529): Overloaded; gave up after 1 retry"
    )
    assert len(server.requests) == 2


async def test_401_is_an_auth_error_not_retried_and_hides_the_key(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    denied = {"type": "error", "error": {"type": "authentication_error", "message": KEY}}
    server.push(Reply.json(401, denied))

    outcome = await run(make_provider(), ask())

    assert outcome.error is not None
    assert outcome.error.kind == "auth"
    assert outcome.error.message == "anthropic: the API key was rejected (401)"
    assert KEY not in str(outcome.error)
    assert len(server.requests) == 1
    assert sleeps.waits == []


async def test_api_key_travels_only_as_a_bearer_header(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(ok_stream())

    await run(make_provider(), ask())

    (sent,) = server.requests
    # SDK 2.x sends the key as a bearer token, not as x-api-key.
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    others = {name: value for name, value in sent.headers.items() if name != "authorization"}
    assert KEY not in repr(others)
    assert KEY not in sent.path
    assert KEY.encode() not in sent.raw_body


async def test_connection_refused_fails_fast_with_the_url(
    make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    url = closed_port_url()

    started = time.monotonic()
    outcome = await run(make_provider(base_url=url, max_retries=1), ask())

    assert time.monotonic() - started < 3.0
    assert outcome.error is not None
    assert outcome.error.kind == "connection"
    assert outcome.error.message == (
        f"anthropic: cannot connect to {url} (connection refused); gave up after 1 retry"
    )


async def test_a_slow_server_times_out(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(Reply.sse(anthropic_stream(["late"]), delay=3.0))

    started = time.monotonic()
    outcome = await run(make_provider(timeout=0.5), ask())

    assert 0.4 < time.monotonic() - started < 2.5
    assert outcome.error is not None
    assert outcome.error.kind == "timeout"
    assert outcome.error.message == f"anthropic: no answer from {server.url} within 0.5 s (timeout)"
    assert len(server.requests) == 1


async def test_a_stream_that_stalls_after_text_is_cut_not_retried(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    # message_start, block start, ping, "Hi", then a pause longer than the read timeout.
    pieces: list[bytes | float] = list(anthropic_stream(["Hi", " there"]))
    server.push(Reply.sse([*pieces[:4], 2.0, *pieces[4:]]))

    outcome = await run(make_provider(timeout=0.5), ask())

    assert outcome.deltas == ["Hi"]
    assert outcome.error is not None
    assert outcome.error.kind == "connection"
    assert outcome.error.message == (
        "anthropic: the stream was cut after 2 characters (no data before the timeout)"
    )
    assert len(server.requests) == 1
    assert sleeps.waits == []


async def test_a_stream_cut_after_some_text_is_an_error_and_not_retried(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    # message_start, block start, ping, "Hello", " wor", then the connection drops.
    server.push(Reply.sse(anthropic_stream(["Hello", " wor", "ld"]), cut_after=5))
    server.push(ok_stream("must not be fetched"))

    outcome = await run(make_provider(), ask())

    assert outcome.deltas == ["Hello", " wor"]
    assert outcome.finished is None
    assert outcome.error is not None
    assert outcome.error.kind == "connection"
    assert outcome.error.message == (
        "anthropic: the stream was cut after 9 characters (connection lost)"
    )
    assert len(server.requests) == 1
    assert sleeps.waits == []


async def test_a_stream_without_message_stop_counts_as_cut(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.sse(anthropic_stream(["half"], complete=False)))

    outcome = await run(make_provider(), ask())

    assert outcome.deltas == ["half"]
    assert outcome.error is not None
    assert "the stream was cut after 4 characters" in outcome.error.message


async def test_an_overloaded_event_before_any_text_is_retried(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(Reply.sse([overloaded_event()]), ok_stream("recovered"))

    outcome = await run(make_provider(), ask())

    assert outcome.error is None
    assert outcome.text == "recovered"
    assert sleeps.waits == [0.5]


async def test_an_overloaded_event_after_text_cuts_the_stream(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    pieces = [*anthropic_stream(["partial"], complete=False), overloaded_event()]
    server.push(Reply.sse(pieces), ok_stream("must not be fetched"))

    outcome = await run(make_provider(), ask())

    assert outcome.deltas == ["partial"]
    assert outcome.error is not None
    assert outcome.error.message == (
        "anthropic: the stream was cut after 7 characters (server error)"
    )
    assert len(server.requests) == 1


async def test_cancelling_the_consumer_closes_the_http_stream(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    reply = Reply.sse(anthropic_stream([f"w{i} " for i in range(200)]), event_delay=0.02)
    server.push(reply)
    provider = make_provider()
    first_delta = asyncio.Event()

    async def consume() -> None:
        async for event in provider.stream(ask()):
            if isinstance(event, TextDelta):
                first_delta.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(first_delta.wait(), timeout=5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert await asyncio.to_thread(reply.disconnected.wait, 3.0)


async def test_closing_the_stream_early_closes_the_http_stream(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    reply = Reply.sse(anthropic_stream([f"w{i} " for i in range(200)]), event_delay=0.02)
    server.push(reply)
    events = make_provider().stream(ask())

    async for event in events:
        if isinstance(event, TextDelta):
            break
    await events.aclose()

    assert await asyncio.to_thread(reply.disconnected.wait, 3.0)

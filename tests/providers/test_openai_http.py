"""The openai provider against a scripted OpenAI-compatible server on loopback."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from rcm_tui.config import OpenAISettings
from rcm_tui.core.llm import ChatMessage, LLMRequest, TextDelta, complete
from rcm_tui.providers.openai import OpenAIProvider

from .conftest import RecordingSleep, recorded_policy, run
from .fake_server import FakeServer, Reply, closed_port_url, openai_stream, openai_usage

KEY = "sk-test-7f3a9c1e5b2d4f60"
SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}

MakeProvider = Callable[..., OpenAIProvider]


@pytest.fixture
async def make_provider(server: FakeServer, sleeps: RecordingSleep) -> AsyncIterator[MakeProvider]:
    made: list[OpenAIProvider] = []

    def make(base_url: str | None = None, record_sleeps: bool = True, **cfg: Any) -> OpenAIProvider:
        settings = OpenAISettings(**{"api_key": KEY, "max_retries": 3, **cfg})
        policy = recorded_policy(sleeps, settings.max_retries) if record_sleeps else None
        provider = OpenAIProvider(
            settings,
            model="gpt-test",
            base_url=base_url or f"{server.url}/v1",
            retry=policy,
        )
        made.append(provider)
        return provider

    yield make
    for provider in made:
        await provider.aclose()


def ask(text: str = "Hello?", **options: Any) -> LLMRequest:
    return LLMRequest(messages=[ChatMessage("user", text)], purpose="generation", **options)


def ok_stream(*texts: str) -> Reply:
    return Reply.sse(openai_stream(list(texts or ["ok"]), usage=openai_usage(5, 1)))


async def test_deltas_arrive_in_order_with_usage_and_cached_tokens(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.sse(openai_stream(["Hel", "lo, ", "world"], usage=openai_usage(12, 3, 8))))
    provider = make_provider()

    outcome = await run(provider, ask())

    assert outcome.error is None
    assert outcome.deltas == ["Hel", "lo, ", "world"]
    assert outcome.text == "Hello, world"
    assert outcome.finished is not None
    assert outcome.finished.finish_reason == "stop"
    usage = outcome.finished.usage
    assert (usage.prompt_tokens, usage.completion_tokens, usage.cached_tokens) == (12, 3, 8)
    assert provider.label == "openai · gpt-test"


async def test_request_carries_model_messages_and_sampling_options(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(ok_stream())
    request = LLMRequest(
        messages=[ChatMessage("system", "Be brief."), ChatMessage("user", "Hi")],
        purpose="judge",
        max_tokens=77,
        temperature=0.1,
        stop=["END"],
    )

    await run(make_provider(), request)

    (sent,) = server.requests
    assert sent.path == "/v1/chat/completions"
    body = sent.json
    assert body["model"] == "gpt-test"
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
    ]
    assert body["max_tokens"] == 77
    assert body["temperature"] == 0.1
    assert body["stop"] == ["END"]
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert "response_format" not in body


async def test_max_tokens_falls_back_to_config_and_usage_without_cache_details(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.sse(openai_stream(["x"], finish_reason="length", usage=openai_usage(9, 4))))

    outcome = await run(make_provider(max_tokens=321), ask())

    assert server.requests[0].json["max_tokens"] == 321
    assert outcome.finished is not None
    assert outcome.finished.finish_reason == "length"
    assert outcome.finished.usage.cached_tokens == 0
    assert outcome.finished.usage.prompt_tokens == 9


async def test_complete_collects_the_whole_answer(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(ok_stream("one ", "two"))

    completion = await complete(make_provider(), ask())

    assert completion.text == "one two"
    assert completion.ttft_ms is not None


async def test_429_waits_as_long_as_retry_after_says(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(
        Reply.json(429, {"error": {"message": "slow down"}}, {"Retry-After": "1"}),
        ok_stream("after the wait"),
    )

    outcome = await run(make_provider(), ask())

    assert outcome.error is None
    assert outcome.text == "after the wait"
    assert sleeps.waits == [1.0]
    assert len(server.requests) == 2


async def test_429_really_sleeps_for_retry_after(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.json(429, {"error": {"message": "slow down"}}, {"Retry-After": "1"}))
    server.push(ok_stream("late"))
    provider = make_provider(record_sleeps=False)

    started = time.monotonic()
    outcome = await run(provider, ask())
    elapsed = time.monotonic() - started

    assert outcome.text == "late"
    assert elapsed >= 1.0
    assert elapsed < 5.0


async def test_retry_after_is_capped(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(Reply.json(429, {}, {"Retry-After": "600"}), ok_stream())

    await run(make_provider(), ask())

    assert sleeps.waits == [20.0]


async def test_server_errors_are_retried_with_exponential_backoff(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(
        Reply.json(500, {"error": {"message": "boom"}}),
        Reply.json(503, {"error": {"message": "busy"}}),
        ok_stream("third time"),
    )

    outcome = await run(make_provider(), ask())

    assert outcome.text == "third time"
    assert sleeps.waits == [0.5, 1.0]
    assert len(server.requests) == 3


async def test_only_max_retries_retries_then_a_server_error(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(*[Reply.json(500, {"error": {"message": "boom"}}) for _ in range(4)])

    outcome = await run(make_provider(max_retries=2), ask())

    assert outcome.error is not None
    assert outcome.error.kind == "server"
    assert outcome.error.message == "openai: server error (500): boom; gave up after 2 retries"
    assert len(server.requests) == 3
    assert len(sleeps.waits) == 2


async def test_default_policy_takes_max_retries_from_config(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.json(500, {}), Reply.json(500, {}))

    outcome = await run(make_provider(max_retries=0, record_sleeps=False), ask())

    assert outcome.error is not None
    assert outcome.error.kind == "server"
    assert len(server.requests) == 1


async def test_401_is_an_auth_error_not_retried_and_hides_the_key(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(Reply.json(401, {"error": {"message": f"Incorrect API key provided: {KEY}"}}))

    outcome = await run(make_provider(), ask())

    assert outcome.error is not None
    assert outcome.error.kind == "auth"
    assert outcome.error.message == "openai: the API key was rejected (401)"
    assert KEY not in str(outcome.error)
    assert len(server.requests) == 1
    assert sleeps.waits == []


async def test_without_a_key_a_placeholder_is_sent_and_a_401_says_what_to_set(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.json(401, {"error": {"message": "key required"}}))

    outcome = await run(make_provider(api_key=""), ask())

    assert server.requests[0].headers["authorization"] == "Bearer sk-no-key"
    assert outcome.error is not None
    assert outcome.error.kind == "auth"
    assert "none is set" in outcome.error.message
    assert "OPENAI_API_KEY" in outcome.error.message


async def test_api_key_travels_only_in_the_authorization_header(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.json(400, {"error": {"message": f"bad things about {KEY}"}}))

    outcome = await run(make_provider(), ask("my text mentions nothing secret"))

    (sent,) = server.requests
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    others = {name: value for name, value in sent.headers.items() if name != "authorization"}
    assert KEY not in repr(others)
    assert KEY not in sent.path
    assert KEY.encode() not in sent.raw_body
    assert outcome.error is not None
    assert outcome.error.kind == "bad_request"
    assert KEY not in outcome.error.message
    assert "***" in outcome.error.message


async def test_connection_refused_fails_fast_with_the_url(
    make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    url = closed_port_url() + "/v1"

    started = time.monotonic()
    outcome = await run(make_provider(base_url=url, max_retries=2), ask())

    assert time.monotonic() - started < 3.0
    assert outcome.error is not None
    assert outcome.error.kind == "connection"
    assert outcome.error.message == (
        f"openai: cannot connect to {url} (connection refused); gave up after 2 retries"
    )
    assert sleeps.waits == [0.5, 1.0]


async def test_a_slow_server_times_out_without_automatic_retry(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(Reply.sse(openai_stream(["late"]), delay=3.0))

    started = time.monotonic()
    outcome = await run(make_provider(timeout=0.5), ask())
    elapsed = time.monotonic() - started

    assert outcome.error is not None
    assert outcome.error.kind == "timeout"
    assert outcome.error.message == f"openai: no answer from {server.url}/v1 within 0.5 s (timeout)"
    assert 0.4 < elapsed < 2.5
    assert len(server.requests) == 1
    assert sleeps.waits == []


async def test_a_stream_cut_after_some_text_is_an_error_and_not_retried(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    # Pieces: role chunk, "Hello", " wor", then the connection drops.
    server.push(Reply.sse(openai_stream(["Hello", " wor", "ld"]), cut_after=3))
    server.push(ok_stream("must not be fetched"))

    outcome = await run(make_provider(), ask())

    assert outcome.deltas == ["Hello", " wor"]
    assert outcome.finished is None
    assert outcome.error is not None
    assert outcome.error.kind == "connection"
    assert (
        outcome.error.message == "openai: the stream was cut after 9 characters (connection lost)"
    )
    assert len(server.requests) == 1
    assert sleeps.waits == []


async def test_a_stream_that_ends_without_a_finish_reason_counts_as_cut(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.sse(openai_stream(["half"], finish_reason=None, done=False)))

    outcome = await run(make_provider(), ask())

    assert outcome.deltas == ["half"]
    assert outcome.error is not None
    assert "the stream was cut after 4 characters" in outcome.error.message


async def test_a_stream_that_breaks_before_any_text_is_retried(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(Reply.sse(openai_stream(["never"]), cut_after=1), ok_stream("fine"))

    outcome = await run(make_provider(), ask())

    assert outcome.error is None
    assert outcome.text == "fine"
    assert sleeps.waits == [0.5]


async def test_json_schema_is_sent_as_response_format(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(ok_stream('{"ok": true}'))

    outcome = await run(make_provider(), ask(json_schema=SCHEMA))

    assert outcome.text == '{"ok": true}'
    assert server.requests[0].json["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": SCHEMA, "strict": False},
    }


async def test_a_400_on_json_schema_falls_back_to_json_object_and_is_remembered(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    rejected = Reply.json(400, {"error": {"message": "response_format json_schema unsupported"}})
    server.push(rejected, ok_stream("{}"), ok_stream("{}"), ok_stream("plain"))
    provider = make_provider()

    first = await run(provider, ask(json_schema=SCHEMA))
    second = await run(provider, ask(json_schema=SCHEMA))
    plain = await run(provider, ask())

    assert first.text == "{}" and second.text == "{}" and plain.text == "plain"
    formats = [r.json.get("response_format") for r in server.requests]
    assert formats == [
        {
            "type": "json_schema",
            "json_schema": {"name": "answer", "schema": SCHEMA, "strict": False},
        },
        {"type": "json_object", "schema": SCHEMA},
        {"type": "json_object", "schema": SCHEMA},
        None,
    ]
    assert sleeps.waits == []


async def test_a_500_naming_response_format_steps_down_without_retrying(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    """llama-cpp-python's server answers an unsupported json_schema with a 500."""
    rejected = Reply.json(500, {"error": {"message": "1 validation error: response_format.type"}})
    server.push(rejected, ok_stream("{}"))

    outcome = await run(make_provider(), ask(json_schema=SCHEMA))

    assert outcome.text == "{}"
    assert server.requests[1].json["response_format"]["type"] == "json_object"
    assert sleeps.waits == []


async def test_a_plain_500_is_retried_not_taken_for_a_json_refusal(
    server: FakeServer, make_provider: MakeProvider, sleeps: RecordingSleep
) -> None:
    server.push(Reply.json(500, {"error": {"message": "internal"}}), ok_stream("{}"))

    await run(make_provider(), ask(json_schema=SCHEMA))

    assert server.requests[1].json["response_format"]["type"] == "json_schema"
    assert len(sleeps.waits) == 1


async def test_json_falls_back_to_no_response_format_when_both_modes_are_rejected(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    rejected = Reply.json(400, {"error": {"message": "unknown field response_format"}})
    server.push(rejected, rejected, ok_stream("{}"), ok_stream("{}"))
    provider = make_provider()

    await run(provider, ask(json_schema=SCHEMA))
    await run(provider, ask(json_schema=SCHEMA))

    formats = [r.json.get("response_format", "absent") for r in server.requests]
    assert formats[1:] == [{"type": "json_object", "schema": SCHEMA}, "absent", "absent"]


async def test_a_400_without_json_is_a_bad_request_and_sent_once(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    server.push(Reply.json(400, {"error": {"message": "context too long"}}))

    outcome = await run(make_provider(), ask())

    assert outcome.error is not None
    assert outcome.error.kind == "bad_request"
    assert outcome.error.message == "openai: the server refused the request (400): context too long"
    assert len(server.requests) == 1


async def test_cancelling_the_consumer_closes_the_http_stream(
    server: FakeServer, make_provider: MakeProvider
) -> None:
    reply = Reply.sse(openai_stream([f"w{i} " for i in range(200)]), event_delay=0.02)
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
    reply = Reply.sse(openai_stream([f"w{i} " for i in range(200)]), event_delay=0.02)
    server.push(reply)
    events = make_provider().stream(ask())

    async for event in events:
        if isinstance(event, TextDelta):
            break
    await events.aclose()

    assert await asyncio.to_thread(reply.disconnected.wait, 3.0)


def test_an_error_page_becomes_its_title_in_one_line() -> None:
    from rcm_tui.providers.base import one_line

    page = "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>\n"
    assert one_line(page) == "502 Bad Gateway"
    assert one_line("<html><body><h1>Oops</h1> try later</body></html>") == "Oops try later"
    assert one_line("x < 3 and y > 2") == "x < 3 and y > 2"  # not markup: left alone

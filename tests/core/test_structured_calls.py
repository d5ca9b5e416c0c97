"""Structured calls read up to the brace that closes their JSON, and ask for what it needs."""

from __future__ import annotations

from rcm_tui.core import prompts
from rcm_tui.core.llm import ChatMessage, LLMRequest
from rcm_tui.core.structured_calls import JsonObjectEnd, capped, complete_structured

from .fakes import ScriptedProvider


def closes(*pieces: str) -> str | None:
    end = JsonObjectEnd()
    for piece in pieces:
        if end.feed(piece):
            assert end.closed_at is not None
            return end.text[: end.closed_at]
    return None


def test_the_object_ends_at_its_own_brace_not_at_braces_in_strings_or_prose() -> None:
    assert closes('{"a": "}{\\"}"', ', "b": {"c": 1}}', " and then some") == (
        '{"a": "}{\\"}", "b": {"c": 1}}'
    )
    assert closes("Use {name} here: ", '{"ok": true}', "!") == 'Use {name} here: {"ok": true}'
    assert closes('{"unclosed": [1, 2') is None


async def test_a_structured_call_stops_reading_after_its_json() -> None:
    answer = '```json\n{"clarity": 0.9}\n```' + " I hope this helps!" * 50
    provider = ScriptedProvider({"judge": [answer]}, chunk=4)
    request = LLMRequest([ChatMessage("user", "judge")], "judge", max_tokens=300,
                         json_schema=prompts.JUDGE_SCHEMA)
    result = await complete_structured(provider, request)
    assert result.text == '```json\n{"clarity": 0.9}'
    assert "end:judge" not in provider.events  # the stream was closed, not read to its end
    assert result.usage.completion_tokens > 0


def test_max_tokens_never_exceeds_what_the_schema_allows_nor_what_was_asked() -> None:
    unbounded = LLMRequest([], "judge", max_tokens=None, json_schema=prompts.JUDGE_SCHEMA)
    assert 100 < (capped(unbounded).max_tokens or 0) < 1024
    asked = LLMRequest([], "judge", max_tokens=50, json_schema=prompts.JUDGE_SCHEMA)
    assert capped(asked).max_tokens == 50
    tiny = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    assert (capped(LLMRequest([], "analysis", max_tokens=400, json_schema=tiny)).max_tokens
            or 0) < 40

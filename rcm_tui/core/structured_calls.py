"""Structured calls (analysis, judge) that cost what their JSON needs, and not a token more.

A small model asked for JSON often keeps going after the closing brace (prose, a second copy,
a Markdown lecture) until `max_tokens`: measured on SmolLM2-135M behind llama-server's
Anthropic endpoint, judge and analysis calls ran to 1,024 tokens for an answer of about 200,
which made a turn take 100 seconds. Two bounds stop that: `max_tokens` sized to the schema's
own limits, and a stream read only up to the brace that closes the first valid JSON object.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from .llm import (
    Completion,
    Finished,
    LLMProvider,
    LLMRequest,
    Usage,
    complete,
    estimated_usage,
)

# JSON splits finely (quotes, braces, short keys): about three characters a token.
JSON_CHARS_PER_TOKEN = 3
# Layout the model may add around every value (indentation, a newline, a space).
WHITESPACE_PER_VALUE = 4
# What a schema without bounds is allowed per string and per array.
UNBOUNDED_STRING_CHARS = 120
UNBOUNDED_ITEMS = 4
# Room for a Markdown fence or a few words before the object.
PREAMBLE_TOKENS = 16
# Whitespace after the closing brace that is still read, in the hope of the usage that ends a
# stream; text after it is not read at all.
TRAILING_LAYOUT_CHARS = 8


def schema_max_tokens(schema: dict[str, Any]) -> int:
    """Tokens enough for the longest answer the schema allows (its maxItems and maxLength)."""
    return math.ceil(_json_chars(schema) / JSON_CHARS_PER_TOKEN) + PREAMBLE_TOKENS


def _json_chars(schema: dict[str, Any]) -> int:
    if "enum" in schema:
        return max(len(json.dumps(value)) for value in schema["enum"])
    kind = schema.get("type")
    if kind == "object":
        fields = schema.get("properties", {})
        return 2 + sum(
            len(json.dumps(name)) + 2 + WHITESPACE_PER_VALUE + _json_chars(value)
            for name, value in fields.items()
        )
    if kind == "array":
        items = int(schema.get("maxItems", UNBOUNDED_ITEMS))
        item = _json_chars(schema.get("items", {}))
        return 2 + items * (item + 2 + WHITESPACE_PER_VALUE)
    if kind == "string":
        # Escapes and non-ASCII text take more than a character each: a margin of a quarter.
        return 2 + math.ceil(int(schema.get("maxLength", UNBOUNDED_STRING_CHARS)) * 1.25)
    if kind in ("number", "integer"):
        return 6
    if kind == "boolean":
        return 5
    return UNBOUNDED_STRING_CHARS


class JsonObjectEnd:
    """Follows streamed text and finds where its first complete JSON object closes."""

    def __init__(self) -> None:
        self.text = ""
        # Index just past the closing brace, once the object is complete.
        self.closed_at: int | None = None
        self._pos = 0
        self._reset(None)

    def _reset(self, start: int | None) -> None:
        self._start = start
        self._depth = 0 if start is None else 1
        self._in_string = self._escaped = False

    def feed(self, piece: str) -> bool:
        """Add `piece`; True once the object is complete (later text is not needed)."""
        self.text += piece
        while self.closed_at is None and self._pos < len(self.text):
            index = self._pos
            self._pos += 1
            if not self._closes(self.text[index], index):
                continue
            assert self._start is not None
            start = self._start
            if _is_object(self.text[start : index + 1]):
                self.closed_at = index + 1
            else:
                # A brace in prose, not JSON: a valid object may open right after it.
                self._reset(None)
                self._pos = start + 1
        return self.closed_at is not None

    def _closes(self, char: str, index: int) -> bool:
        """Advance by one character; True when it closes the outermost brace."""
        if self._start is None:
            if char == "{":
                self._reset(index)
            return False
        if self._in_string:
            if self._escaped:
                self._escaped = False
            elif char == "\\":
                self._escaped = True
            elif char == '"':
                self._in_string = False
            return False
        if char == '"':
            self._in_string = True
        elif char == "{":
            self._depth += 1
        elif char == "}":
            self._depth -= 1
            return self._depth == 0
        return False


def _is_object(candidate: str) -> bool:
    try:
        return isinstance(json.loads(candidate), dict)
    except ValueError:
        return False


def capped(request: LLMRequest) -> LLMRequest:
    """The request with max_tokens no larger than its schema needs."""
    if request.json_schema is None:
        return request
    need = schema_max_tokens(request.json_schema)
    if request.max_tokens is not None and request.max_tokens <= need:
        return request
    request.max_tokens = need
    return request


async def complete_structured(provider: LLMProvider, request: LLMRequest) -> Completion:
    """`complete`, but a request with a schema stops reading at the close of its JSON object.

    Closing the stream early closes the HTTP request (or cancels the local generation), so
    the server stops generating too.
    """
    if request.json_schema is None:
        return await complete(provider, request)
    request = capped(request)
    started = time.perf_counter()
    first: float | None = None
    end = JsonObjectEnd()
    usage: Usage | None = None
    events = provider.stream(request)
    try:
        async for event in events:
            if isinstance(event, Finished):
                usage = event.usage
                break
            if first is None:
                first = time.perf_counter()
            if end.closed_at is not None:
                # Past the JSON: only a little layout may still come before the end (whose
                # usage is worth the wait); anything more is the model rambling on.
                trailing = end.text[end.closed_at :] + event.text
                end.text += event.text
                if trailing.strip() or len(trailing) > TRAILING_LAYOUT_CHARS:
                    break
            elif end.feed(event.text) and end.text[end.closed_at :].strip():
                break
    finally:
        close = getattr(events, "aclose", None)
        if close is not None:
            await close()
    text = end.text if end.closed_at is None else end.text[: end.closed_at]
    ended = time.perf_counter()
    ttft = None if first is None else (first - started) * 1000
    return Completion(text, usage or estimated_usage(request, text), ttft, (ended - started) * 1000)

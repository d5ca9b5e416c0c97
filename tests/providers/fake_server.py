"""A scripted HTTP server on loopback for testing the network providers at the wire level.

The SDKs talk real HTTP to it, so their request building, SSE parsing and error mapping are all
exercised; only the model is fake. Each request takes the next scripted `Reply`; every request
is recorded with its path, headers and JSON body.

Streams are sent with chunked transfer encoding, one SSE event per chunk, because that is what
real servers do and because it lets a test cut the connection mid-body in a way the client can
tell apart from a clean end.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any

from tests.loopback_http import LoopbackHTTP

# Where the providers ask for the model's size (providers/model_size.py).
MODEL_INFO_PATHS = ("/v1/models", "/api/show")


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    # A complete body, sent with Content-Length (used for error answers).
    body: bytes = b""
    # SSE pieces; when present the reply is streamed, one piece per chunk. A number instead of
    # bytes is a pause of that many seconds (a server that stalls mid-stream).
    events: Sequence[bytes | float] | None = None
    # Seconds to wait before the status line, to make a client time out.
    delay: float = 0.0
    # Seconds between streamed pieces.
    event_delay: float = 0.0
    # Drop the connection after this many items of `events`, without ending the chunked body.
    cut_after: int | None = None
    # Set when the client went away before the reply was fully written.
    disconnected: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def json(cls, status: int, payload: Any, headers: dict[str, str] | None = None) -> Reply:
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        return cls(status=status, headers=all_headers, body=json.dumps(payload).encode())

    @classmethod
    def sse(cls, events: Sequence[bytes | float], **options: Any) -> Reply:
        return cls(headers={"Content-Type": "text/event-stream"}, events=events, **options)


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    raw_body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.raw_body or b"null")


class FakeServer:
    """Start with `with FakeServer() as server:`; `server.url` is http://127.0.0.1:<port>."""

    def __init__(self) -> None:
        self.requests: list[RecordedRequest] = []
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._http = LoopbackHTTP(self._serve)

    @property
    def url(self) -> str:
        return self._http.url

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    def start(self) -> FakeServer:
        self._http.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._http.stop()

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _next_reply(self) -> Reply:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
        # A status no provider retries, so a test that under-scripts fails loudly and at once.
        return Reply.json(418, {"error": {"message": "fake server: no scripted reply left"}})

    def _serve(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        if handler.path.endswith(MODEL_INFO_PATHS):
            # The providers ask once for the model's size; this server knows none, and the
            # question takes no scripted reply (tests/test_local_servers.py covers answers).
            self._write(handler, Reply.json(404, {"error": {"message": "not found"}}))
            return
        headers = {key.lower(): value for key, value in handler.headers.items()}
        with self._lock:
            self.requests.append(RecordedRequest(handler.command, handler.path, headers, body))
        reply = self._next_reply()
        try:
            self._write(handler, reply)
        except (BrokenPipeError, ConnectionResetError):
            reply.disconnected.set()
            handler.close_connection = True

    def _write(self, handler: BaseHTTPRequestHandler, reply: Reply) -> None:
        if reply.delay and self._stopping.wait(reply.delay):
            return
        handler.send_response(reply.status)
        for name, value in reply.headers.items():
            handler.send_header(name, value)
        if reply.events is None:
            handler.send_header("Content-Length", str(len(reply.body)))
            handler.end_headers()
            handler.wfile.write(reply.body)
            handler.wfile.flush()
            return
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        handler.wfile.flush()
        for index, piece in enumerate(reply.events):
            if index == reply.cut_after:
                self._cut(handler)
                return
            if index and reply.event_delay and self._stopping.wait(reply.event_delay):
                return
            if isinstance(piece, float | int):
                if self._stopping.wait(piece):
                    return
                continue
            handler.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            handler.wfile.flush()
        if reply.cut_after is not None and reply.cut_after >= len(reply.events):
            self._cut(handler)
            return
        handler.wfile.write(b"0\r\n\r\n")
        handler.wfile.flush()

    @staticmethod
    def _cut(handler: BaseHTTPRequestHandler) -> None:
        handler.close_connection = True
        handler.connection.shutdown(socket.SHUT_RDWR)


def closed_port_url() -> str:
    """A loopback URL on which nothing listens, so connecting is refused at once."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


# --- wire formats ----------------------------------------------------------------------------
# Shaped after the SDKs' own types (openai.types.chat.ChatCompletionChunk and
# anthropic.types.RawMessageStreamEvent) so the SDKs parse them as they would a real server's.


def sse_data(payload: Any) -> bytes:
    return b"data: " + json.dumps(payload).encode() + b"\n\n"


def sse_event(name: str, payload: Any) -> bytes:
    return b"event: " + name.encode() + b"\n" + sse_data(payload)


def openai_stream(
    texts: list[str],
    *,
    model: str = "gpt-test",
    finish_reason: str | None = "stop",
    usage: dict[str, Any] | None = None,
    done: bool = True,
) -> list[bytes]:
    """chat.completion.chunk events: a role chunk, one chunk per text, a finish chunk, an
    optional usage chunk with empty choices (stream_options.include_usage), then [DONE]."""
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": int(time.time())}
    base["model"] = model

    def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return sse_data({**base, "choices": [choice]})

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"content": text}) for text in texts]
    if finish_reason is not None:
        events.append(chunk({}, finish_reason))
    if usage is not None:
        events.append(sse_data({**base, "choices": [], "usage": usage}))
    if done:
        events.append(b"data: [DONE]\n\n")
    return events


def openai_usage(prompt: int, completion: int, cached: int | None = None) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if cached is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": cached, "audio_tokens": 0}
    return usage


def anthropic_stream(
    texts: list[str],
    *,
    model: str = "claude-test",
    input_tokens: int = 10,
    output_tokens: int = 5,
    cache_read: int = 0,
    cache_creation: int = 0,
    stop_reason: str = "end_turn",
    complete: bool = True,
) -> list[bytes]:
    """message_start, content_block_start, a ping, text deltas, content_block_stop,
    message_delta (stop reason, cumulative output tokens), message_stop."""
    message: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {
            "input_tokens": input_tokens,
            "output_tokens": 1,
            "cache_read_input_tokens": cache_read,
            "cache_creation_input_tokens": cache_creation,
        },
    }
    events = [
        sse_event("message_start", {"type": "message_start", "message": message}),
        sse_event(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": 0,
                "content_block": {"type": "text", "text": ""},
            },
        ),
        sse_event("ping", {"type": "ping"}),
    ]
    for text in texts:
        delta = {"type": "text_delta", "text": text}
        events.append(
            sse_event(
                "content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}
            )
        )
    if not complete:
        return events
    events += [
        sse_event("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse_event(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            },
        ),
        sse_event("message_stop", {"type": "message_stop"}),
    ]
    return events

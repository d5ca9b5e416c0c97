"""A fake local model server that serves one request at a time, as real ones do by default.

It speaks the OpenAI chat API and the Anthropic Messages API over real HTTP (the SDKs parse
it), and reproduces what each real server does to a second request:

- "interrupt", llama-cpp-python's `python -m llama_cpp.server`: the running stream is ended
  with `[DONE]` and no finish reason (its `interrupt_requests` default), then the newcomer runs;
- "kv_cache", llama.cpp's `llama-server` when concurrent slots fill its shared KV cache: the
  newcomer gets 500 "failed to find free space in the KV cache";
- "busy", Ollama past its queue: the newcomer gets 503 "server busy, please try again.
  maximum pending requests exceeded".

`GET /v1/models` and `POST /api/show` answer what the test sets (the model-size signals of
llama-server and Ollama). Structured requests (a JSON schema in `response_format` or in the
system prompt) get one JSON object followed by a long tail of prose, as a small model writes
when nothing stops it.
"""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from types import TracebackType
from typing import Any, Literal

from tests.loopback_http import LoopbackHTTP
from tests.providers.fake_server import anthropic_stream, openai_stream

Mode = Literal["interrupt", "kv_cache", "busy"]

REPLY_WORDS = (
    "For Flask uploads, check the size first, then the type, then save the file under a "
    "generated name so nobody can overwrite another upload. "
).split(" ")
# Valid for both structured calls: the judge's and the analysis's required fields.
JSON_ANSWER = json.dumps({
    "clarity": 0.9, "completeness": 0.9, "assumptions": 0.1, "verbosity": 0.1,
    "middle_turn_reference": 0.9, "requirement_tracking": 0.9, "premature_attempt": False,
    "requirements": [], "rejections": [], "pivot": False, "dialog_state": "problem_solving",
})
RAMBLE = " I hope this helps! Let me know if you have any other questions."
RAMBLE_PIECES = 60
REFUSALS = {
    "kv_cache": (500, "failed to find free space in the KV cache"),
    "busy": (503, "server busy, please try again.  maximum pending requests exceeded"),
}


@dataclass
class Served:
    """One request as the server saw it."""

    path: str
    body: dict[str, Any]
    structured: bool
    outcome: str = "running"  # "done", "interrupted", "refused", "client left"
    pieces_sent: int = 0


@dataclass
class LocalServer:
    mode: Mode
    models: dict[str, Any] = field(default_factory=lambda: {"object": "list", "data": [
        {"id": "smollm2", "object": "model", "owned_by": "me", "permissions": []}]})
    show: dict[str, Any] | None = None
    piece_delay: float = 0.01
    served: list[Served] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._state = threading.Lock()
        self._model = threading.Lock()
        self._running: list[threading.Event] = []
        self._holder: socket.socket | None = None
        self._http = LoopbackHTTP(self.handle)

    @property
    def url(self) -> str:
        return self._http.url

    def __enter__(self) -> LocalServer:
        self._http.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._http.stop()

    def outcomes(self, structured: bool | None = None) -> list[str]:
        return [s.outcome for s in self.served if structured in (None, s.structured)]

    # -- serving -------------------------------------------------------------------------------
    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = json.loads(handler.rfile.read(length) or b"{}") if length else {}
        path = handler.path
        if path.endswith("/models"):
            return _send_json(handler, 200, self.models)
        if path.endswith("/api/show"):
            if self.show is None:
                return _send_json(handler, 404, {"error": "not found"})
            return _send_json(handler, 200, self.show)
        text = json.dumps(body)
        structured = "response_format" in body or "JSON schema" in text
        served = Served(path, body, structured)
        with self._state:
            self.served.append(served)
        if self.mode == "interrupt":
            self._interrupting(handler, served)
        elif self._model.acquire(blocking=False) or self._freed_by_a_client_that_left():
            self._holder = handler.connection
            try:
                self._stream(handler, served, None)
            finally:
                self._holder = None
                self._model.release()
        else:
            served.outcome = "refused"
            status, message = REFUSALS[self.mode]
            error = {"code": status, "message": message, "type": "server_error"}
            _send_json(handler, status, {"type": "error", "error": error})

    def _freed_by_a_client_that_left(self) -> bool:
        """A call whose client has gone is being stopped: its slot is free a moment later."""
        holder = self._holder
        return holder is not None and _gone(holder) and self._model.acquire(timeout=2)

    def _interrupting(self, handler: BaseHTTPRequestHandler, served: Served) -> None:
        with self._state:
            for running in self._running:
                running.set()
        stop = threading.Event()
        with self._model:
            with self._state:
                self._running.append(stop)
            try:
                self._stream(handler, served, stop)
            finally:
                with self._state:
                    self._running.remove(stop)

    def _stream(
        self, handler: BaseHTTPRequestHandler, served: Served, stop: threading.Event | None
    ) -> None:
        anthropic = served.path.endswith("/messages")
        if served.structured:
            texts = [JSON_ANSWER[i : i + 12] for i in range(0, len(JSON_ANSWER), 12)]
            texts += [RAMBLE] * RAMBLE_PIECES
        else:
            texts = [w + " " for w in REPLY_WORDS if w]
        events = anthropic_stream(texts) if anthropic else openai_stream(texts, model="smollm2")
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Transfer-Encoding", "chunked")
        handler.end_headers()
        try:
            for piece in events:
                if _gone(handler.connection):
                    # Real servers check the connection between tokens and stop.
                    served.outcome = "client left"
                    handler.close_connection = True
                    return
                if stop is not None and stop.is_set():
                    # llama-cpp-python's server: [DONE] at once, no finish reason.
                    served.outcome = "interrupted"
                    _chunk(handler, b"data: [DONE]\n\n")
                    break
                _chunk(handler, piece)
                served.pieces_sent += 1
                time.sleep(self.piece_delay)
            else:
                served.outcome = "done"
            handler.wfile.write(b"0\r\n\r\n")
            handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            served.outcome = "client left"
            handler.close_connection = True


def _gone(connection: socket.socket) -> bool:
    """Has the client closed its end (readable, and reading would return nothing)?"""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and connection.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


def _chunk(handler: BaseHTTPRequestHandler, piece: bytes) -> None:
    handler.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
    handler.wfile.flush()


def _send_json(handler: BaseHTTPRequestHandler, status: int, payload: Any) -> None:
    body = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)
    handler.wfile.flush()

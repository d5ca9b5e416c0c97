"""The embedded model run by xllamacpp: llama.cpp's own server engine, in-process.

PyPI has no prebuilt Linux wheel of llama-cpp-python, so installing it compiles llama.cpp (a
C++ toolchain and minutes of two cores). xllamacpp ships manylinux2014 wheels (glibc 2.17)
with llama.cpp built in, and runs llama-server's request handling inside this process: the
GGUF's chat template, prompt caching in its slot, JSON schema constraints, per-request seeds.

`LocalProvider` drives a loaded model through the small part of llama-cpp-python's `Llama`
it uses (`create_chat_completion`, `meter`, `interrupt`, `n_params`, `close`); `ServerModel`
offers exactly that part, so one provider serves either engine.

What differs from llama-cpp-python, measured on SmolLM2-135M: loading holds the GIL (about
0.3 s on 2 cores with a warm page cache, where llama-cpp-python releases it), so the TUI
stops drawing for that long once, in the background load. The engine also listens on a
loopback port (llama-server's HTTP front, which xllamacpp always starts); a random API key
known only to this process keeps other local users out of it.
"""

from __future__ import annotations

import json
import queue
import re
import secrets
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

# Prompt tokens decoded between two progress reports, i.e. between two looks at the cancel
# flag; llama-cpp-python's path decodes in chunks of the same size (local.CANCEL_CHUNK_TOKENS).
PROMPT_BATCH = 64
# Whole-turn bound for one call, far above any answer of a small model: a wedged engine ends
# the turn with an error instead of holding the model's lock forever.
CALL_TIMEOUT_S = 600.0
# Asking the engine's loopback server for the model's size.
MODELS_TIMEOUT_S = 5.0
# A failed load is run again in a child process with llama.cpp's log on, for its reason.
DIAGNOSE_TIMEOUT_S = 60.0
QUIET = -1
JSON_SPACING = {"whitespace_pattern": " ?"}
DIAGNOSE_VERBOSITY = 3

_DIAGNOSE = """
import sys, xllamacpp
p = xllamacpp.CommonParams()
p.model.path = sys.argv[1]; p.n_ctx = 512; p.warmup = False; p.fit_params = False
p.verbosity = int(sys.argv[2]); p.api_keys = [sys.argv[3]]
xllamacpp.Server(p)
"""

_END = object()
# "0.00.004.471 E gguf_init_from_reader: bad GGUF version: 0": llama.cpp's error lines.
_ERROR_LINE = re.compile(r"^[\d.]+ E (.+)$")


def available() -> bool:
    import importlib.util

    return importlib.util.find_spec("xllamacpp") is not None


class ServerModel:
    """One loaded GGUF and its single slot; one call at a time (the provider's lock)."""

    def __init__(
        self,
        path: str,
        n_ctx: int,
        n_threads: int,
        *,
        new_meter: Callable[[], Any],
        interrupted: type[Exception],
    ) -> None:
        import xllamacpp

        self._path = path
        self._key = secrets.token_urlsafe(24)
        self._interrupted = interrupted
        self._new_meter = new_meter
        # What the last call cost, as the engine reported it (local._Meter).
        self.meter = new_meter()
        # Set by the generation holding the model; read at every chunk the engine reports.
        self.interrupt = threading.Event()
        # Tokens in the KV cache as far as the engine reported: how far a cancelled prompt got.
        self.n_tokens = 0
        self.verbose = False
        params = xllamacpp.CommonParams()
        params.model.path = path
        params.n_ctx = n_ctx
        params.n_parallel = 1
        params.cpuparams.n_threads = n_threads
        params.cpuparams_batch.n_threads = n_threads
        params.n_batch = PROMPT_BATCH
        params.n_ubatch = PROMPT_BATCH
        # Fitting the context to free memory loads the model a second time (0.3 s more with
        # the GIL held); one CPU-only 135M model needs no fitting.
        params.fit_params = False
        params.warmup = False
        # llama.cpp's log goes to file descriptor 2, which is the TUI's screen.
        params.verbosity = QUIET
        params.api_keys = [self._key]
        self._server: Any = xllamacpp.Server(params)

    @classmethod
    def load(
        cls,
        path: str,
        n_ctx: int,
        n_threads: int,
        *,
        new_meter: Callable[[], Any],
        interrupted: type[Exception],
    ) -> ServerModel:
        """Load, or raise RuntimeError carrying llama.cpp's own reason for the failure."""
        try:
            return cls(path, n_ctx, n_threads, new_meter=new_meter, interrupted=interrupted)
        except RuntimeError as exc:
            raise RuntimeError(_failure_log(path) or str(exc)) from None

    def create_chat_completion(
        self, *, messages: list[dict[str, str]], stream: bool = False, **options: Any
    ) -> Any:
        body = _request_body(messages, options) | {"stream": stream}
        self.meter = self._new_meter()
        if not stream:
            reply = self._server.handle_chat_completions(body)
            self._raise_for_error(reply)
            self._record(reply)
            return reply
        return self._stream(body)

    def n_params(self) -> int:
        request = urllib.request.Request(
            f"{self._server.listening_address}/v1/models",
            headers={"Authorization": f"Bearer {self._key}"},
        )
        with urllib.request.urlopen(request, timeout=MODELS_TIMEOUT_S) as answer:
            models = json.load(answer)
        return int(models["data"][0]["meta"]["n_params"])

    def close(self) -> None:
        # Dropping the server stops its loop and frees the model and the context.
        self._server = None

    # --- streaming -----------------------------------------------------------------------

    def _stream(self, body: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """The engine calls back from its own thread; a queue turns that into an iterator.

        Returning True from the callback ends the request: that happens at the next chunk
        after the consumer stopped (generator closed) or the cancel flag was set, and the
        prompt reports progress every PROMPT_BATCH tokens, so a long prompt stops too.
        """
        chunks: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()

        def on_chunk(chunk: Any) -> bool:
            chunks.put(chunk)
            return stop.is_set() or self.interrupt.is_set()

        def call() -> None:
            try:
                self._server.handle_chat_completions(body, on_chunk)
            except Exception as exc:  # reaches the consumer, not a thread's stderr
                chunks.put(exc)
            finally:
                chunks.put(_END)

        caller = threading.Thread(target=call, name="rcm-local-engine", daemon=True)
        caller.start()
        try:
            while (chunk := chunks.get(timeout=CALL_TIMEOUT_S)) is not _END:
                if self.interrupt.is_set():
                    raise self._interrupted
                if isinstance(chunk, Exception):
                    raise chunk
                yield from self._choices(chunk)
        finally:
            stop.set()
            # Bounded like the wait above; xllamacpp documents its server as thread-safe.
            caller.join(timeout=CALL_TIMEOUT_S)

    def _choices(self, chunk: dict[str, Any]) -> Iterator[dict[str, Any]]:
        self._raise_for_error(chunk)
        progress = chunk.get("prompt_progress")
        if progress:
            self.meter.prompt_tokens = int(progress["total"])
            self.n_tokens = int(progress["cache"]) + int(progress["processed"])
        self._record(chunk)
        # The closing chunk carries only usage; the consumer reads choices[0].
        choices = chunk.get("choices")
        if not choices:
            return
        if choices[0].get("delta", {}).get("content"):
            # One token a chunk; the closing usage corrects the count, a cancelled call has none.
            self.meter.completion_tokens += 1
            self.n_tokens += 1
        yield chunk

    def _record(self, reply: dict[str, Any]) -> None:
        usage = reply.get("usage")
        if not usage:
            return
        cached = int((usage.get("prompt_tokens_details") or {}).get("cached_tokens", 0))
        self.meter.prompt_tokens = int(usage["prompt_tokens"])
        self.meter.prompt_evaluated = self.meter.prompt_tokens - cached
        self.meter.completion_tokens = int(usage["completion_tokens"])
        self.n_tokens = self.meter.prompt_tokens + self.meter.completion_tokens

    @staticmethod
    def _raise_for_error(reply: Any) -> None:
        error = reply.get("error") if isinstance(reply, dict) else None
        if error:
            # ValueError, as llama-cpp-python raises for a request it rejects; the message
            # keeps llama-server's wording, which core.llm reads a context overflow from.
            raise ValueError(str(error.get("message") or error))


def _request_body(messages: list[dict[str, str]], options: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "messages": messages,
        "stream_options": {"include_usage": True},
        "return_progress": True,
        "cache_prompt": True,
    }
    for name in ("max_tokens", "temperature", "repeat_penalty", "seed", "logprobs", "top_logprobs"):
        if options.get(name) is not None:
            body[name] = options[name]
    if options.get("stop"):
        body["stop"] = options["stop"]
    if options.get("logit_bias"):
        # llama-server's array form, by token id (its string form would ban every piece).
        body["logit_bias"] = [[int(t), float(b)] for t, b in options["logit_bias"].items()]
    response_format = options.get("response_format")
    if response_format and response_format.get("schema") is not None:
        body["grammar"] = _json_grammar(response_format["schema"])
    return body


def _json_grammar(schema: dict[str, Any]) -> str:
    """The schema as an llguidance grammar (xllamacpp's JSON engine) with tight whitespace.

    Given the schema as is, llguidance leaves whitespace to the model, and SmolLM2-135M spends
    its tokens on indentation and drifts (asked for a message's requirements at temperature 0:
    "no-cache-befault" three times); at most one space between tokens, what llama-cpp-python's
    grammar allows, gives its answer back (["ACID", "SQL"]).
    """
    return "%llguidance {}\nstart: %json " + json.dumps({**schema, "x-guidance": JSON_SPACING})


def _failure_log(path: str) -> str:
    """llama.cpp's errors from loading `path`, logged by a child process (this one keeps fd 2
    quiet), one a line without the time and level: "gguf_init_from_reader: bad GGUF version: 0"."""
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                _DIAGNOSE,
                path,
                str(DIAGNOSE_VERBOSITY),
                secrets.token_urlsafe(8),
            ],
            capture_output=True,
            timeout=DIAGNOSE_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    log = done.stderr.decode(errors="replace").splitlines()
    return "\n".join(found[1] for line in log if (found := _ERROR_LINE.match(line)))

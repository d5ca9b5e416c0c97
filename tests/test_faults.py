"""Provider faults, through the controller and the pipeline as a user meets them.

The real openai and anthropic providers talk HTTP to a scripted loopback server; the analysis
and judge steps get malformed answers from a scripted provider. Whatever fails, the user's text
stays in the session file, a failed generation stores no reply (and no canned text pretending
to be one), and the error is one line a person can act on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from rcm_tui import config
from rcm_tui.config import AnthropicSettings, LoadedSettings, OpenAISettings, Settings
from rcm_tui.controller import Controller, ProviderPair
from rcm_tui.core.events import Notice, PipelineEvent, TurnFailed
from rcm_tui.core.llm import LLMProvider, ProviderError
from rcm_tui.core.models import Session
from rcm_tui.core.turn import TurnOutcome
from rcm_tui.providers.anthropic import AnthropicProvider
from rcm_tui.providers.base import RetryPolicy
from rcm_tui.providers.offline import OFFLINE_TAG, OfflineProvider
from rcm_tui.providers.openai import OpenAIProvider
from rcm_tui.store import SessionStore

from .core.fakes import ScriptedProvider
from .providers.fake_server import (
    FakeServer,
    Reply,
    anthropic_stream,
    closed_port_url,
    openai_stream,
    openai_usage,
)

KEY = "sk-test-FAULTS-5d1c9e7a3b"
QUESTION = "Which queue should the invoice exporter use for retries?"
PARTIAL = "Use a dead-letter"
RETRIES = 2


class RecordingSleep:
    """Stands in for asyncio.sleep so retries cost no wall time and their waits can be read."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@dataclass
class Harness:
    controller: Controller
    events: list[PipelineEvent] = field(default_factory=list)

    async def send(self, text: str = QUESTION) -> TurnOutcome:
        return await self.controller.send(text)

    def on_disk(self) -> Session:
        return SessionStore().load(self.controller.session.id)


@pytest.fixture
async def server() -> AsyncIterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


@pytest.fixture
def sleeps() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
async def harness() -> AsyncIterator[Callable[..., Harness]]:
    made: list[Controller] = []

    def make(generator: LLMProvider, analyst: LLMProvider | None = None) -> Harness:
        # Refinement off: each scripted server reply then answers exactly one generation call.
        settings = Settings(provider="offline", max_refinement_attempts=0)
        loaded = LoadedSettings(settings, config.default_config_path())
        pair = ProviderPair(generator, analyst or OfflineProvider())
        h = Harness(Controller(loaded, SessionStore(), providers=pair))
        h.controller.on_event = h.events.append
        made.append(h.controller)
        return h

    yield make
    for controller in made:
        await controller.aclose()


def policy(sleeps: RecordingSleep) -> RetryPolicy:
    return RetryPolicy(max_retries=RETRIES, sleep=sleeps, random=lambda: 0.0)


def openai_provider(url: str, sleeps: RecordingSleep, timeout: float = 30.0) -> OpenAIProvider:
    cfg = OpenAISettings(api_key=KEY, timeout=timeout, max_retries=RETRIES)
    return OpenAIProvider(cfg, model="gpt-test", base_url=f"{url}/v1", retry=policy(sleeps))


def anthropic_provider(
    url: str, sleeps: RecordingSleep, timeout: float = 30.0
) -> AnthropicProvider:
    cfg = AnthropicSettings(api_key=KEY, timeout=timeout, max_retries=RETRIES)
    return AnthropicProvider(cfg, model="claude-test", base_url=url, retry=policy(sleeps))


BUILDERS = {"openai": openai_provider, "anthropic": anthropic_provider}


def error_body(backend: str, status: int, message: str) -> dict[str, Any]:
    if backend == "anthropic":
        kind = {401: "authentication_error", 429: "rate_limit_error"}.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": "server_error", "code": None}}


def cut_stream(backend: str) -> Reply:
    """A stream that delivers some text, then loses its connection without ending."""
    if backend == "anthropic":
        events = anthropic_stream([PARTIAL, " queue."], complete=False)
    else:
        events = openai_stream([PARTIAL, " queue."], finish_reason=None, done=False)
    return Reply.sse(events, cut_after=len(events))


def empty_stream(backend: str) -> Reply:
    """A well-formed, finished stream that carries no text at all."""
    if backend == "anthropic":
        return Reply.sse(anthropic_stream([]))
    return Reply.sse(openai_stream([], usage=openai_usage(20, 0)))


def proxy_page() -> Reply:
    page = b"<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>\n"
    return Reply(status=502, headers={"Content-Type": "text/html"}, body=page)


def good_stream(backend: str, text: str) -> Reply:
    if backend == "anthropic":
        return Reply.sse(anthropic_stream([text]))
    return Reply.sse(openai_stream([text], usage=openai_usage(20, 5)))


@dataclass(frozen=True)
class Fault:
    name: str
    expected: str  # what the one-line error must say
    replies: Callable[[str], list[Reply]] = lambda _backend: []
    timeout: float = 30.0
    refused: bool = False
    waits: tuple[float, ...] = ()  # the backoff the retry policy should have asked for


def http_error(status: int, headers: dict[str, str] | None = None) -> Callable[[str], list[Reply]]:
    def replies(backend: str) -> list[Reply]:
        body = error_body(backend, status, f"fault injected ({status})")
        return [Reply.json(status, body, headers) for _ in range(RETRIES + 1)]

    return replies


FAULTS = [
    Fault(
        "timeout",
        "(timeout)",
        lambda backend: [replace(good_stream(backend, "late"), delay=30.0)],
        timeout=0.5,
    ),
    Fault("connection refused", "connection refused", refused=True, waits=(0.5, 1.0)),
    Fault("401", "the API key was rejected (401)", http_error(401)),
    Fault(
        "429 with Retry-After",
        "rate limited by the server (429)",
        http_error(429, {"Retry-After": "7"}),
        waits=(7.0, 7.0),
    ),
    Fault("500", "server error (500)", http_error(500), waits=(0.5, 1.0)),
    Fault("stream cut", "the stream was cut after", lambda backend: [cut_stream(backend)]),
    Fault("empty reply", ": the model returned an empty reply", lambda b: [empty_stream(b)]),
    Fault(
        "502 html from a proxy",
        "(502)",
        lambda _b: [proxy_page()] * (RETRIES + 1),
        waits=(0.5, 1.0),
    ),
    Fault(
        "200 that is not a stream",
        "the server ended the stream early",
        lambda _b: [Reply.json(200, {"unexpected": True})] * (RETRIES + 1),
        waits=(0.5, 1.0),
    ),
]


def assert_one_line_error(outcome: TurnOutcome, expected: str) -> None:
    assert not outcome.ok
    assert outcome.error is not None
    assert "\n" not in outcome.error and len(outcome.error) <= 300, outcome.error
    assert outcome.error.startswith("generation failed: "), outcome.error
    assert expected in outcome.error
    assert "Traceback" not in outcome.error and KEY not in outcome.error
    assert "<" not in outcome.error, "no markup from an error page"


def assert_question_kept_without_answer(session: Session, question: str) -> None:
    assert [(m.role, m.content, m.turn) for m in session.messages] == [("user", question, 1)]
    assert session.pending_user_turn is not None
    assert session.quality == []
    assert session.metrics.answer_lengths == []


@pytest.mark.parametrize("backend", ["openai", "anthropic"])
@pytest.mark.parametrize("fault", FAULTS, ids=lambda f: f.name)
@pytest.mark.timeout(120)
async def test_a_failed_generation_keeps_the_question_and_stores_no_reply(
    backend: str,
    fault: Fault,
    server: FakeServer,
    sleeps: RecordingSleep,
    harness: Callable[..., Harness],
) -> None:
    server.push(*fault.replies(backend))
    url = closed_port_url() if fault.refused else server.url
    h = harness(BUILDERS[backend](url, sleeps, timeout=fault.timeout))

    outcome = await h.send()

    assert_one_line_error(outcome, fault.expected)
    assert outcome.reply == "" and outcome.quality is None
    assert tuple(sleeps.waits) == fault.waits
    if not fault.refused:  # the question really went out on the wire
        assert QUESTION in server.requests[0].raw_body.decode()
    failed = [e for e in h.events if isinstance(e, TurnFailed)]
    assert [(e.turn, e.message) for e in failed] == [(1, outcome.error)]

    saved = h.on_disk()
    assert_question_kept_without_answer(saved, QUESTION)
    generation = [c for c in saved.calls if c.purpose == "generation"]
    assert len(generation) == 1 and generation[0].error, "the failed call is not recorded"
    raw = SessionStore().path_for(saved.id).read_text("utf-8")
    assert OFFLINE_TAG not in raw  # nothing canned stands in for the missing reply
    assert KEY not in raw


@pytest.mark.parametrize("backend", ["openai", "anthropic"])
async def test_a_retry_after_429_is_honoured_and_the_turn_then_succeeds(
    backend: str, server: FakeServer, sleeps: RecordingSleep, harness: Callable[..., Harness]
) -> None:
    limited = error_body(backend, 429, "slow down")
    server.push(
        Reply.json(429, limited, {"Retry-After": "3"}), good_stream(backend, "Use SQS with a DLQ.")
    )
    h = harness(BUILDERS[backend](server.url, sleeps))

    outcome = await h.send()

    assert outcome.ok, outcome.error
    assert sleeps.waits == [3.0]
    saved = h.on_disk()
    assert [(m.role, m.content) for m in saved.messages] == [
        ("user", QUESTION),
        ("assistant", "Use SQS with a DLQ."),
    ]


@pytest.mark.parametrize("backend", ["openai", "anthropic"])
async def test_the_question_is_retried_after_a_failure_without_being_typed_again(
    backend: str, server: FakeServer, sleeps: RecordingSleep, harness: Callable[..., Harness]
) -> None:
    server.push(Reply.json(401, error_body(backend, 401, "bad key")))
    server.push(good_stream(backend, "Use SQS with a DLQ."))
    h = harness(BUILDERS[backend](server.url, sleeps))

    assert not (await h.send()).ok
    outcome = await h.controller.retry()

    assert outcome is not None and outcome.ok, outcome
    saved = h.on_disk()
    assert [(m.role, m.turn) for m in saved.messages] == [("user", 1), ("assistant", 1)]
    assert saved.messages[1].content == "Use SQS with a DLQ."


# -- malformed structured answers: the step falls back, the turn goes on --------------------

MALFORMED = [
    "",
    "Sure! The user clearly wants a queue with retries.",
    '{"requirements": [{"text": "retries"',
    "[1, 2, 3]",
    '{"requirements": "all of them", "clarity": "high"}',
    '{"requirements": [{"text": 5}], "clarity": 7, "completeness": 0.5}',
    '{"pivot": "maybe", "clarity": NaN}',
    '{"pivot": null, "clarity": null}',
    "{" * 5000,
    "\x00\x1b[2J```json\n{oops}\n```",
]
REPLY = "Put failed exports on a retry queue with exponential backoff."


@pytest.mark.parametrize("answer", MALFORMED, ids=lambda a: repr(a[:24]))
async def test_malformed_analysis_and_judge_fall_back_for_that_step_only(
    answer: str, harness: Callable[..., Harness]
) -> None:
    generator = ScriptedProvider(answers={"generation": [REPLY]})
    # The analysis is asked twice before it falls back; the judge once.
    analyst = ScriptedProvider(answers={"analysis": [answer, answer], "judge": [answer]})
    h = harness(generator, analyst)

    outcome = await h.send()

    assert outcome.ok, outcome.error
    saved = h.on_disk()
    assert [(m.role, m.content) for m in saved.messages] == [
        ("user", QUESTION),
        ("assistant", REPLY),
    ]
    (quality,) = saved.quality
    assert quality.judge == "heuristic"
    judge = [c for c in saved.calls if c.purpose == "judge"]
    analysis = [c for c in saved.calls if c.purpose == "analysis"]
    assert len(judge) == 1 and judge[0].fallback and judge[0].error
    assert len(analysis) == 2 and analysis[-1].fallback and analysis[-1].error
    assert saved.metrics.fallbacks >= 2
    warnings = [e.text for e in h.events if isinstance(e, Notice) and e.level == "warning"]
    for step in ("analysis", "judge"):
        assert any(w.startswith(f"{step}:") and "heuristics used" in w for w in warnings), warnings
    assert all("\n" not in w for w in warnings)


async def test_failing_analysis_and_judge_calls_fall_back_and_the_reply_is_kept(
    harness: Callable[..., Harness],
) -> None:
    down = ProviderError("scripted: cannot connect (connection refused)", "connection")
    analyst = ScriptedProvider(answers={"analysis": [down], "judge": [down]})
    h = harness(ScriptedProvider(answers={"generation": [REPLY]}), analyst)

    outcome = await h.send()

    assert outcome.ok, outcome.error
    saved = h.on_disk()
    assert saved.messages[-1].content == REPLY
    assert saved.quality[0].judge == "heuristic"
    assert {c.purpose for c in saved.calls if c.error} == {"analysis", "judge"}


# -- the command line against a server that is not there ------------------------------------

CLI_KEY = "sk-test-SECRET-4242"


def files_under(folder: Path) -> list[Path]:
    return [Path(root) / name for root, _dirs, names in os.walk(folder) for name in names]


@pytest.mark.timeout(120)
def test_cli_replay_against_a_closed_port_fails_in_one_line_and_keeps_the_question(
    tmp_path: Path, isolated_env: Path
) -> None:
    script = tmp_path / "one.jsonl"
    script.write_text(json.dumps({"user": QUESTION}) + "\n", "utf-8")
    url = closed_port_url() + "/v1"
    env = {**os.environ, "OPENAI_API_KEY": CLI_KEY}
    command = [sys.executable, "-m", "rcm_tui", "replay", str(script), "--provider", "openai"]

    started = time.monotonic()
    proc = subprocess.run(
        [*command, "--base-url", url], capture_output=True, text=True, env=env, timeout=90
    )
    elapsed = time.monotonic() - started

    assert elapsed < 60, f"took {elapsed:.1f} s to give up"
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "generation failed" in line]
    assert len(errors) == 1, proc.stderr
    assert "cannot connect to" in errors[0] and "connection refused" in errors[0]
    assert "keeps the message" in errors[0]

    (session_file,) = config.sessions_dir().glob("2*.json")
    saved = SessionStore().load(session_file.stem)
    assert_question_kept_without_answer(saved, QUESTION)

    # The key is nowhere on disk: data, config, cache, state (logs) all live under the home.
    for folder in (config.data_dir(), config.config_dir(), config.log_dir(), isolated_env):
        assert folder == isolated_env or isolated_env in folder.parents
    checked = files_under(isolated_env)
    assert session_file in checked and any(p.suffix == ".log" for p in checked)
    leaks = [p for p in checked if CLI_KEY.encode() in p.read_bytes()]
    assert leaks == []
    assert CLI_KEY not in proc.stdout + proc.stderr

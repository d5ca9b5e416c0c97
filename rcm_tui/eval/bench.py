"""`rcm-tui bench`: what the reliability layer costs a user, measured side by side.

The same scripted conversation runs through a latency-injected provider (the offline provider
with a fixed latency before each call's first token and a delay per streamed token) in three
modes:

- plain       no layer, one streamed call per turn: the floor;
- sequential  the order a naive layer uses: analyse, generate without streaming, judge; the
              reply is shown only after the judge;
- rcm_tui     the real controller with the layer on.

Time to first token (TTFT) is measured from `send()` to the first `ReplyDelta` event, which is
when text appears on screen; for `sequential` it is when the judged reply is shown. Between two
turns the background consolidation is allowed to finish outside the clock, as it does while a
user reads the reply and types the next message.

Beside the modes: the engine's own time per turn with provider time excluded, session save and
load times, listing a large session folder, and the TUI's first frame. With a real provider
(`--provider local`, ...) the user turns of a scenario script run as plain and rcm_tui, and the
prompt tokens the model actually had to process (not served from its cache) are reported too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import LoadedSettings, OfflineSettings, Settings
from ..controller import Controller, ProviderPair, pipeline_settings
from ..core import heuristics, prompts
from ..core.context import ledger_payload, messages_tokens, render_ledger
from ..core.events import PipelineEvent, ReplyDelta
from ..core.ledger import apply_analysis, ledger_view
from ..core.llm import (
    ChatMessage,
    Finished,
    LLMProvider,
    LLMRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    Usage,
    complete,
)
from ..core.llm_analysis import parse_analysis
from ..core.models import Message, Session
from ..core.pipeline import Pipeline
from ..core.quality import parse_judge
from ..core.structured import StructuredOutputError
from ..core.text_safety import visible_controls, visible_line
from ..providers.offline import OfflineProvider
from ..providers.registry import build_provider, choose_provider
from ..store import SessionStore, encode_document
from .progress import Progress

# Where `--provider local` finds its default script: <repo>/../shared/scenarios/.
DEFAULT_SCENARIO = (
    Path(__file__).resolve().parents[3] / "shared" / "scenarios" / "db-selection.jsonl"
)
OVERHEAD_TURNS = 200
LIST_SESSIONS = 1000
REPETITIONS = 20
FIRST_FRAME_TIMEOUT = 120
FIRST_FRAME_SIZE = (120, 40)

# A realistic design conversation with scripted replies. Turn 5 rejects an option and the reply
# at turn 13 proposes it again, as models do, so the layer's refinement is part of its cost.
CONVERSATION: tuple[tuple[str, str], ...] = (
    (
        "We need to add email and push notifications to our SaaS app. Where should I start?",
        "Start with three questions: what triggers a notification, how many do you expect per "
        "day, and does anything have to arrive within seconds? And which stack runs the backend?",
    ),
    (
        "It's a Django monolith on PostgreSQL. Roughly 200,000 notifications a day, with peaks of "
        "50 per second after deploys.",
        "At that volume a background job queue next to Django is enough. A broker-based queue or "
        "a queue stored in PostgreSQL would both handle 50 jobs per second comfortably.",
    ),
    (
        "Users must be able to opt out per channel.",
        "Keep the choices in a notification_preferences table keyed by user and channel, and "
        "check it in the worker right before sending, not when enqueuing, so an opt-out takes "
        "effect immediately.",
    ),
    (
        "What about Kafka for the event stream?",
        "Kafka gives you a durable log and replay, but it is a cluster to operate, and at 50 "
        "events per second it is far more than you need.",
    ),
    (
        "No Kafka, please: we do not want to run another cluster. Keep it simple.",
        "Agreed. A queue stored in PostgreSQL, such as Procrastinate, keeps everything in the "
        "database you already run and back up.",
    ),
    (
        "Emails must never be sent twice, even if a worker crashes.",
        "Give every notification an idempotency key, record the key in the same transaction that "
        "marks it sent, and let the worker skip keys it has already recorded.",
    ),
    (
        "How do retries work with the providers' rate limits?",
        "Retry with exponential backoff and jitter, honour the provider's Retry-After header, and "
        "stop after five attempts, marking the notification as failed.",
    ),
    (
        "We use Postmark for email and Firebase for push.",
        "Wrap each behind a small sender class with one interface, so the worker does not care "
        "which channel it serves; Postmark's message streams keep transactional mail apart from "
        "broadcasts.",
    ),
    (
        "Push notifications should be batched when a user gets more than three in a minute.",
        "Hold pending pushes per user for a one-minute window and send one summary when more "
        "than three arrive; a job that runs every minute flushes the windows.",
    ),
    (
        "How do we test all of this without sending real emails?",
        "Use Django's in-memory email backend in tests, a fake sender for push, and one test that "
        "runs a worker against the real queue tables inside a transaction.",
    ),
    (
        "The product team wants a daily digest email as an alternative.",
        "Add a digest choice to the preferences; a daily job groups the day's notifications into "
        "one email and skips users who opted out of email.",
    ),
    (
        "What should the database tables look like?",
        "notifications (id, user_id, channel, payload, status, idempotency_key, created_at), "
        "notification_preferences (user_id, channel, enabled, digest), plus the queue's own "
        "tables.",
    ),
    (
        "The queue tables will grow quickly. How do we keep them small?",
        "Kafka handles retention for you, so moving the queue to Kafka with a seven-day "
        "retention would keep PostgreSQL small without any cleanup jobs.",
    ),
    (
        "We need an audit of every notification sent, kept for one year.",
        "Treat the notifications table as the audit: never delete rows, move rows older than 90 "
        "days into a monthly partitioned archive, and drop archive partitions after a year.",
    ),
    (
        "How do we monitor failures?",
        "Export sent, failed and retried counts per channel as Prometheus metrics, and alert when "
        "the failure rate over fifteen minutes goes above two percent.",
    ),
    (
        "Deploys must not lose queued notifications.",
        "Because the queue lives in PostgreSQL, queued jobs survive a deploy; stop workers with "
        "SIGTERM so jobs in flight either finish or go back to the queue.",
    ),
    (
        "Can users see a history of their notifications in the app?",
        "Yes: an endpoint that pages through the notifications table for the current user, "
        "newest first, backed by an index on (user_id, created_at).",
    ),
    (
        "Push tokens expire. How do we clean them up?",
        "When Firebase reports a token as unregistered, delete it at once; a weekly job removes "
        "tokens that have not been seen for sixty days.",
    ),
    (
        "Summarise the design so far.",
        "Django enqueues notifications into a queue stored in PostgreSQL (Kafka was ruled out). "
        "Workers check per-channel opt-outs, send through Postmark or Firebase with idempotency "
        "keys and backoff, batch pushes above three a minute, offer a daily digest, and keep a "
        "year of audit history.",
    ),
    (
        "What's the rollout plan?",
        "Ship the tables and the queue behind a feature flag, send email to staff only for a "
        "week, then enable email for everyone, then push, watching the failure-rate alert at "
        "each step.",
    ),
)

# Targets of the issue; the synthetic ones were set for `--turns 12 --latency-ms 100`.
Target = tuple[str, str, float, str]  # (result key, "<=" or ">=", limit, label)
OFFLINE_TARGETS: tuple[Target, ...] = (
    ("ttft_ratio", "<=", 1.10, "TTFT rcm_tui ÷ plain"),
    ("sequential_ttft_ratio", ">=", 2.0, "TTFT sequential ÷ plain"),
    ("turn_ratio", "<=", 2.5, "turn time rcm_tui ÷ plain"),
    ("engine_overhead_ms_p50", "<=", 5.0, "engine overhead per turn, p50 (ms)"),
    ("save_ms_p50", "<=", 20.0, "save a 200-turn session, p50 (ms)"),
    ("sessions_list_ms", "<=", 500.0, "list 1,000 sessions, warm index (ms)"),
    ("tui_first_frame_ms", "<=", 600.0, "TUI first frame (ms)"),
)
REAL_TARGETS: tuple[Target, ...] = (
    ("ttft_ratio", "<=", 1.5, "TTFT rcm_tui ÷ plain"),
    ("turn_ratio", "<=", 3.0, "turn time rcm_tui ÷ plain"),
    ("prompt_tokens_ratio", "<=", 2.0, "prompt tokens processed rcm_tui ÷ plain"),
)


class BenchError(ValueError):
    """The benchmark cannot run or a turn failed; the message is one line for the user."""


@dataclass(frozen=True)
class BenchOptions:
    turns: int = 20
    latency_ms: float = 100.0
    token_ms: float = 2.0
    overhead_turns: int = OVERHEAD_TURNS
    list_sessions: int = LIST_SESSIONS
    repetitions: int = REPETITIONS
    first_frame: bool = True


@dataclass
class TurnSample:
    ttft_ms: float
    turn_ms: float
    calls: int = 0
    prompt_processed: int = 0


@dataclass
class ModeRun:
    samples: list[TurnSample] = field(default_factory=list)
    # What the layer decided about the backend: the profile it ran and why, and whether it
    # fell back to one call at a time (a real bench reports both with its figures).
    profile: str = ""
    one_call_at_a_time: str = ""

    def summary(self, with_tokens: bool = False) -> dict[str, Any]:
        calls = [s.calls for s in self.samples]
        data: dict[str, Any] = {
            "ttft_ms_p50": _ms(statistics.median(s.ttft_ms for s in self.samples)),
            "turn_ms_p50": _ms(statistics.median(s.turn_ms for s in self.samples)),
            "calls_per_turn": {"mean": round(statistics.fmean(calls), 2), "max": max(calls)},
        }
        if with_tokens:
            processed = [s.prompt_processed for s in self.samples]
            data["prompt_tokens_processed_per_turn"] = round(statistics.fmean(processed), 1)
            data["profile"] = self.profile
            data["one_call_at_a_time"] = self.one_call_at_a_time
        return data


# -- small helpers ------------------------------------------------------------------------------
def _ms(value: float) -> float:
    return round(value, 2)


def _percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: a value that was actually observed."""
    ordered = sorted(values)
    rank = max(math.ceil(fraction * len(ordered)), 1)
    return ordered[rank - 1]


def _ratio(a: float | None, b: float | None) -> float | None:
    if a is None or not b:
        return None
    return round(a / b, 3)


def conversation(turns: int) -> list[tuple[str, str]]:
    """`turns` scripted (user, assistant) pairs, cycling the built-in conversation."""
    return [CONVERSATION[i % len(CONVERSATION)] for i in range(turns)]


class CappedProvider:
    """Stops a stream at the request's `max_tokens`, as every real backend does.

    The offline demo ignores `max_tokens`: its consolidation "summary" is the first sentence of
    every turn so far (about 40 KB by turn 200), which no real summariser returns and which
    would make a long session look slower and larger than it is with a model.
    """

    def __init__(self, inner: LLMProvider) -> None:
        self.inner = inner
        self.name = inner.name
        self.model = inner.model
        self.label = inner.label

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        limit = request.max_tokens
        count = 0
        events = self.inner.stream(request)
        try:
            async for event in events:
                if isinstance(event, TextDelta):
                    count += 1
                    if limit is not None and count > limit:
                        usage = Usage(messages_tokens(request.messages), limit)
                        yield Finished(usage, "length")
                        return
                yield event
        finally:
            close = getattr(events, "aclose", None)
            if close is not None:
                await close()

    async def aclose(self) -> None:
        await self.inner.aclose()


def latency_provider(latency_ms: float, token_ms: float) -> LLMProvider:
    """The offline provider with a fixed latency per call and a delay per streamed token."""
    # model_construct: the settings model holds whole milliseconds for the config file; the
    # provider only divides by 1000, so fractional bench flags are honoured as given.
    settings = OfflineSettings.model_construct(latency_ms=latency_ms, token_ms=token_ms)
    return CappedProvider(OfflineProvider(settings))


def _turn_costs(session: Session) -> dict[int, tuple[int, int]]:
    """turn -> (LLM calls, prompt tokens the model had to process, i.e. not cached)."""
    return {
        c.turn: (c.calls, max(c.prompt_tokens - c.cached_tokens, 0))
        for c in session.metrics.llm_calls
    }


# -- plain and rcm_tui: the real controller ---------------------------------------------------
class _FirstDelta:
    """Records when the first reply text of a turn reached the event stream."""

    def __init__(self) -> None:
        self.at: float | None = None

    def __call__(self, event: PipelineEvent) -> None:
        if self.at is None and isinstance(event, ReplyDelta):
            self.at = time.perf_counter()


async def run_controller_mode(
    loaded: LoadedSettings,
    pair: ProviderPair,
    turns: list[tuple[str, str | None]],
    *,
    reliability: bool,
    store: SessionStore,
    tick: Callable[[int], None],
) -> ModeRun:
    first = _FirstDelta()
    controller = Controller(loaded, store, reliability=reliability, on_event=first, providers=pair)
    controller.session.title = f"bench: {'rcm_tui' if reliability else 'plain'}"
    run = ModeRun()
    try:
        for number, (user, reply) in enumerate(turns, start=1):
            first.at = None
            started = time.perf_counter()
            outcome = await controller.send(user, scripted_reply=reply)
            ended = time.perf_counter()
            if not outcome.ok:
                raise BenchError(f"turn {outcome.turn} failed: {outcome.error}")
            shown = first.at if first.at is not None else ended
            run.samples.append(TurnSample((shown - started) * 1000, (ended - started) * 1000))
            # The user reads and types meanwhile: background consolidation is off the clock.
            await controller.drain()
            tick(number)
    finally:
        controller.release()
    _note_decisions(run, controller, reliability)
    costs = _turn_costs(controller.session)
    for number, sample in enumerate(run.samples, start=1):
        sample.calls, sample.prompt_processed = costs.get(number, (0, 0))
    return run


def _note_decisions(run: ModeRun, controller: Controller, reliability: bool) -> None:
    serial = controller.session.one_call_at_a_time
    if serial is not None:
        run.one_call_at_a_time = f"learnt on turn {serial.turn}: {serial.reason}"
    if reliability:
        profile = controller.pipeline().profile
        run.profile = f"{profile.name} profile: {profile.reason}"


# -- sequential: the naive layer --------------------------------------------------------------
class NaiveLayer:
    """Analyse, then generate without streaming, then judge: the reply appears after the judge.

    It uses the same provider and the same prompts as the layer, and rebuilds the whole prompt
    (ledger in the system message) on every call, as a layer that does not think about
    latency or prefix caches would.
    """

    def __init__(self, provider: LLMProvider, store: SessionStore) -> None:
        self.provider = provider
        self.store = store
        self.session = Session(title="bench: sequential")

    async def turn(self, user: str, scripted: str | None) -> TurnSample:
        started = time.perf_counter()
        session = self.session
        turn = session.turn + 1
        session.messages.append(Message(role="user", content=user, turn=turn))
        self.store.save(session)
        await self._analyse(user, turn)
        messages = self._prompt(user)
        hints = self._hints(user, turn, scripted)
        reply = await complete(self.provider, LLMRequest(messages, "generation", hints=hints))
        await self._judge(messages, reply.text, hints)
        shown = time.perf_counter()
        session.messages.append(Message(role="assistant", content=reply.text.strip(), turn=turn))
        self.store.save(session)
        ended = time.perf_counter()
        return TurnSample((shown - started) * 1000, (ended - started) * 1000, calls=3)

    def _history(self) -> list[ChatMessage]:
        return [ChatMessage(m.role, m.content) for m in self.session.messages[:-1]]

    def _prompt(self, user: str) -> list[ChatMessage]:
        ledger = render_ledger(self.session, status_requested=False)
        system = ChatMessage("system", f"{prompts.SYSTEM_PROMPT}\n\n{ledger}")
        return [system, *self._history(), ChatMessage("user", user)]

    def _hints(self, user: str, turn: int, scripted: str | None) -> dict[str, Any]:
        return {
            "turn": turn,
            "user_message": user,
            "scripted_reply": scripted,
            "status_requested": False,
            "ledger": ledger_payload(self.session),
            "reliability": True,
        }

    async def _analyse(self, user: str, turn: int) -> None:
        session = self.session
        payload = ledger_payload(session)
        instruction = prompts.ANALYSIS_INSTRUCTION.format(
            requirements=prompts.format_requirements(payload["requirements"]),
            rejected=prompts.format_rejected(payload["rejected"]),
            message=user,
        )
        request = LLMRequest(
            [ChatMessage("system", prompts.SYSTEM_PROMPT), ChatMessage("user", instruction)],
            "analysis",
            temperature=0.0,
            json_schema=prompts.ANALYSIS_SCHEMA,
            hints=self._hints(user, turn, None),
        )
        result = await complete(self.provider, request)
        view = ledger_view(session)
        try:
            analysis = parse_analysis(result.text, user, view)
        except StructuredOutputError:
            analysis = heuristics.analyse_message(user, turn, view)
        apply_analysis(session, analysis, turn)

    async def _judge(self, messages: list[ChatMessage], reply: str, hints: dict[str, Any]) -> None:
        payload = ledger_payload(self.session)
        pending = [r for r in payload["requirements"] if r["status"] == "pending"]
        instruction = prompts.JUDGE_INSTRUCTION.format(
            requirements=prompts.format_requirements(pending),
            rejected=prompts.format_rejected(payload["rejected"]),
        )
        request = LLMRequest(
            [*messages, ChatMessage("assistant", reply), ChatMessage("user", instruction)],
            "judge",
            temperature=0.0,
            json_schema=prompts.JUDGE_SCHEMA,
            hints={**hints, "reply": reply},
        )
        result = await complete(self.provider, request)
        # A naive layer shows the reply even when the verdict is unusable; only time matters.
        with contextlib.suppress(StructuredOutputError):
            parse_judge(result.text, {p["id"] for p in pending})


async def run_sequential_mode(
    provider: LLMProvider,
    turns: list[tuple[str, str | None]],
    *,
    store: SessionStore,
    tick: Callable[[int], None],
) -> ModeRun:
    layer = NaiveLayer(provider, store)
    run = ModeRun()
    for number, (user, reply) in enumerate(turns, start=1):
        run.samples.append(await layer.turn(user, reply))
        tick(number)
    return run


# -- engine overhead: provider time excluded --------------------------------------------------
class Stopwatch:
    def __init__(self) -> None:
        self.seconds = 0.0


class TimedProvider:
    """Adds the wall time spent inside the wrapped provider's stream() to a stopwatch."""

    def __init__(self, inner: LLMProvider, watch: Stopwatch) -> None:
        self.inner = inner
        self.watch = watch
        self.name = inner.name
        self.model = inner.model
        self.label = inner.label
        self.parallel_calls = getattr(inner, "parallel_calls", True)

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        events = self.inner.stream(request).__aiter__()
        while True:
            started = time.perf_counter()
            try:
                event = await events.__anext__()
            except StopAsyncIteration:
                return
            finally:
                self.watch.seconds += time.perf_counter() - started
            yield event

    async def aclose(self) -> None:
        await self.inner.aclose()


@dataclass
class OverheadRun:
    critical_ms: list[float]
    background_ms: list[float]
    session: Session


async def measure_engine_overhead(
    settings: Settings, turns: int, tick: Callable[[int], None]
) -> OverheadRun:
    """Run `turns` turns through the pipeline with a zero-latency provider and no saving.

    What is left after subtracting the time spent inside the provider is the engine's own
    work: heuristics, prompt assembly, parsing, scoring, ledger updates and events.
    """
    watch = Stopwatch()
    generator = TimedProvider(latency_provider(0, 0), watch)
    analyst = TimedProvider(latency_provider(0, 0), watch)
    pipeline = Pipeline(generator, analyst, pipeline_settings(settings, True))
    session = Session(title="bench: engine overhead")
    critical: list[float] = []
    background: list[float] = []
    for number, (user, reply) in enumerate(conversation(turns), start=1):
        session.messages.append(Message(role="user", content=user, turn=number))
        watch.seconds = 0.0
        started = time.perf_counter()
        outcome = await pipeline.run_turn(session, user, scripted_reply=reply)
        critical.append((time.perf_counter() - started - watch.seconds) * 1000)
        if not outcome.ok:
            raise BenchError(f"overhead turn {number} failed: {outcome.error}")
        watch.seconds = 0.0
        started = time.perf_counter()
        await pipeline.drain()
        background.append((time.perf_counter() - started - watch.seconds) * 1000)
        tick(number)
    return OverheadRun(critical, background, session)


# -- the store ------------------------------------------------------------------------------
def measure_save_load(
    session: Session, repetitions: int, tick: Callable[[int], None]
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="rcm-bench-") as folder:
        store = SessionStore(Path(folder))
        saves: list[float] = []
        loads: list[float] = []
        for number in range(1, repetitions + 1):
            started = time.perf_counter()
            store.save(session)
            saves.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            store.load(session.id)
            loads.append((time.perf_counter() - started) * 1000)
            tick(number)
        size = store.path_for(session.id).stat().st_size
    return {
        "save_ms_p50": _ms(statistics.median(saves)),
        "load_ms_p50": _ms(statistics.median(loads)),
        "session_file_kb": round(size / 1024, 1),
    }


def _small_session(number: int) -> Session:
    session = Session(id=f"bench-{number:05d}", title=f"Design discussion {number}")
    for turn in range(1, 6):
        user, reply = CONVERSATION[(number + turn) % len(CONVERSATION)]
        session.messages.append(Message(role="user", content=user, turn=turn))
        session.messages.append(Message(role="assistant", content=reply, turn=turn))
    return session


def measure_listing(count: int) -> dict[str, Any]:
    """`list()` over `count` small sessions: cold (no index yet: every file is read and
    validated, then the index is written) and warm (the index is current)."""
    with tempfile.TemporaryDirectory(prefix="rcm-bench-") as folder:
        store = SessionStore(Path(folder))
        template = encode_document(_small_session(0))
        for number in range(count):
            sid = f"bench-{number:05d}"
            payload = template.replace(b"bench-00000", sid.encode())
            (store.root / f"{sid}.json").write_bytes(payload)
        started = time.perf_counter()
        listed = store.list()
        cold = (time.perf_counter() - started) * 1000
        warm: list[float] = []
        for _ in range(5):
            started = time.perf_counter()
            store.list()
            warm.append((time.perf_counter() - started) * 1000)
    if len(listed) != count or any(entry.broken for entry in listed):
        raise BenchError(f"listing returned {len(listed)} usable sessions of {count}")
    return {"sessions_list_ms": _ms(statistics.median(warm)), "sessions_list_cold_ms": _ms(cold)}


# -- the TUI's first frame ----------------------------------------------------------------------
FIRST_FRAME_PROBE = textwrap.dedent(
    """
    import time
    started = time.perf_counter()
    started_wall = time.time()
    import json
    import rcm_tui.ui.app as app_module
    from rcm_tui import cli

    imported = time.perf_counter()
    frames = []
    App = app_module.RcmApp
    original_run = App.run

    def on_ready(self):
        # Textual posts Ready once the first frame has been drawn.
        frames.append((time.perf_counter(), time.time()))
        self.exit(0)

    def run(self, *args, **kwargs):
        kwargs.update(headless=True, size=SIZE)
        return original_run(self, *args, **kwargs)

    # Patched on the real class (not a subclass): CSS paths stay relative to its module.
    App.on_ready = on_ready
    App.run = run
    code = cli.main(["--provider", "offline"])
    frame, frame_wall = frames[0]
    print(json.dumps({"code": code, "ms": (frame - started) * 1000,
                      "import_ms": (imported - started) * 1000,
                      "started_wall": started_wall, "frame_wall": frame_wall}))
    """
)


def tui_available() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("rcm_tui.ui.app") is not None
    except ImportError:
        return False


def measure_first_frame() -> dict[str, Any]:
    """Time to the first frame of the real `rcm-tui` start path, headless, in a fresh process.

    The first figure starts when the interpreter starts running our code (imports, settings,
    controller, app, first frame); the second also includes starting the interpreter.
    """
    if not tui_available():
        return _no_frame("the TUI (rcm_tui/ui/app.py) is not installed yet")
    code = FIRST_FRAME_PROBE.replace("SIZE", repr(FIRST_FRAME_SIZE))
    with tempfile.TemporaryDirectory(prefix="rcm-bench-") as home:
        # A private data and config folder: the probe must not touch the user's sessions.
        env = dict(
            os.environ,
            XDG_DATA_HOME=f"{home}/data",
            XDG_CONFIG_HOME=f"{home}/config",
            XDG_STATE_HOME=f"{home}/state",
        )
        spawned = time.time()
        try:
            proc = subprocess.run(
                [sys.executable, "-c", code],
                capture_output=True,
                text=True,
                env=env,
                timeout=FIRST_FRAME_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return _no_frame(f"no first frame within {FIRST_FRAME_TIMEOUT}s")
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        detail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return _no_frame(f"the TUI probe failed: {detail[:200]}")
    try:
        data = json.loads(lines[-1])
    except json.JSONDecodeError:
        return _no_frame("the TUI probe printed no measurement")
    return {
        "tui_first_frame_ms": _ms(data["ms"]),
        "tui_first_frame_with_interpreter_ms": _ms((data["frame_wall"] - spawned) * 1000),
        "tui_import_ms": _ms(data["import_ms"]),
    }


def _no_frame(note: str) -> dict[str, Any]:
    return {
        "tui_first_frame_ms": None,
        "tui_first_frame_with_interpreter_ms": None,
        "tui_import_ms": None,
        "note": note,
    }


# -- the whole benchmark --------------------------------------------------------------------
def _ticker(progress: Progress, phase: str, total: int) -> Callable[[int], None]:
    def tick(number: int) -> None:
        progress.advance(phase, f"turn {number}/{total}")

    return tick


def _scripted(turns: int) -> list[tuple[str, str | None]]:
    return [(user, reply) for user, reply in conversation(turns)]


async def _modes(
    loaded: LoadedSettings, options: BenchOptions, progress: Progress
) -> dict[str, ModeRun]:
    turns = _scripted(options.turns)
    runs: dict[str, ModeRun] = {}

    def pair() -> ProviderPair:
        return ProviderPair(
            latency_provider(options.latency_ms, options.token_ms),
            latency_provider(options.latency_ms, options.token_ms),
        )

    with tempfile.TemporaryDirectory(prefix="rcm-bench-") as folder:
        store = SessionStore(Path(folder))
        runs["plain"] = await run_controller_mode(
            loaded,
            pair(),
            turns,
            reliability=False,
            store=store,
            tick=_ticker(progress, "plain", options.turns),
        )
        runs["sequential"] = await run_sequential_mode(
            pair().generator,
            turns,
            store=store,
            tick=_ticker(progress, "sequential", options.turns),
        )
        runs["rcm_tui"] = await run_controller_mode(
            loaded,
            pair(),
            turns,
            reliability=True,
            store=store,
            tick=_ticker(progress, "rcm_tui", options.turns),
        )
    return runs


def run_offline_bench(
    loaded: LoadedSettings, options: BenchOptions, progress: Progress
) -> dict[str, Any]:
    runs = asyncio.run(_modes(loaded, options, progress))
    modes = {name: run.summary() for name, run in runs.items()}
    plain = modes["plain"]
    result: dict[str, Any] = {
        "provider": "offline (latency-injected)",
        "turns": options.turns,
        "latency_ms": options.latency_ms,
        "token_ms": options.token_ms,
        "modes": modes,
        "ttft_ratio": _ratio(modes["rcm_tui"]["ttft_ms_p50"], plain["ttft_ms_p50"]),
        "turn_ratio": _ratio(modes["rcm_tui"]["turn_ms_p50"], plain["turn_ms_p50"]),
        "sequential_ttft_ratio": _ratio(modes["sequential"]["ttft_ms_p50"], plain["ttft_ms_p50"]),
        "sequential_turn_ratio": _ratio(modes["sequential"]["turn_ms_p50"], plain["turn_ms_p50"]),
    }
    result.update(_engine_figures(loaded.settings, options, progress))
    result["targets"] = _targets(result, OFFLINE_TARGETS)
    return result


def _engine_figures(
    settings: Settings, options: BenchOptions, progress: Progress
) -> dict[str, Any]:
    def tick(n: int) -> None:
        progress.advance("engine overhead", f"turn {n}/{options.overhead_turns}")

    overhead = asyncio.run(measure_engine_overhead(settings, options.overhead_turns, tick))
    figures: dict[str, Any] = {
        "overhead_turns": options.overhead_turns,
        "engine_overhead_ms_p50": _ms(statistics.median(overhead.critical_ms)),
        "engine_overhead_ms_p99": _ms(_percentile(overhead.critical_ms, 0.99)),
        "consolidation_overhead_ms_p50": _ms(statistics.median(overhead.background_ms)),
    }

    def save_tick(n: int) -> None:
        progress.advance("save and load", f"{n}/{options.repetitions}")

    figures.update(measure_save_load(overhead.session, options.repetitions, save_tick))
    progress.advance("listing sessions", f"{options.list_sessions} sessions", steps=0)
    figures["list_sessions"] = options.list_sessions
    figures.update(measure_listing(options.list_sessions))
    progress.advance("listing sessions", f"{options.list_sessions} sessions")
    notes: list[str] = []
    if options.first_frame:
        progress.advance("TUI first frame", "", steps=0)
        frame = measure_first_frame()
        if "note" in frame:
            notes.append(frame.pop("note"))
        figures.update(frame)
        progress.advance("TUI first frame")
    else:
        figures.update(_no_frame("not measured (--no-first-frame)"))
        notes.append(figures.pop("note"))
    figures["notes"] = notes
    return figures


def _targets(result: dict[str, Any], targets: tuple[Target, ...]) -> dict[str, Any]:
    checked: dict[str, Any] = {}
    for key, op, limit, _label in targets:
        value = result.get(key)
        met = None if value is None else (value <= limit if op == "<=" else value >= limit)
        checked[key] = {"target": f"{op} {limit:g}", "value": value, "met": met}
    return checked


# -- on a real model --------------------------------------------------------------------------
def default_scenario() -> Path | None:
    return DEFAULT_SCENARIO if DEFAULT_SCENARIO.is_file() else None


def scenario_turns(path: Path | None, limit: int) -> tuple[list[tuple[str, str | None]], str]:
    """The user turns to replay (slash commands skipped) and where they came from."""
    from ..commands import is_command
    from .replay import load_script

    if path is None:
        return _scripted(min(limit, len(CONVERSATION))), "built-in conversation"
    lines = [line for line in load_script(path) if not is_command(line.user)]
    if not lines:
        raise BenchError(f"{path}: the script has no user turns")
    return [(line.user, None) for line in lines[:limit]], str(path)


def _build_pair(name: str, settings: Settings) -> ProviderPair:
    return ProviderPair(
        build_provider(name, settings), build_provider(name, settings, analysis=True)
    )


async def _warm_up(name: str, settings: Settings) -> None:
    """Load the model (or open the connection) before the clock starts for either mode."""
    pair = _build_pair(name, settings)
    request = LLMRequest([ChatMessage("user", "Say OK.")], "generation", max_tokens=4)
    try:
        await complete(pair.generator, request)
    finally:
        await pair.generator.aclose()
        await pair.analyst.aclose()


async def _real_modes(
    loaded: LoadedSettings,
    name: str,
    turns: list[tuple[str, str | None]],
    progress: Progress,
) -> dict[str, ModeRun]:
    settings = loaded.settings
    progress.advance("loading the model", "", steps=0)
    await _warm_up(name, settings)
    runs: dict[str, ModeRun] = {}
    with tempfile.TemporaryDirectory(prefix="rcm-bench-") as folder:
        store = SessionStore(Path(folder))
        for mode, reliability in (("plain", False), ("rcm_tui", True)):
            pair = _build_pair(name, settings)
            try:
                runs[mode] = await run_controller_mode(
                    loaded,
                    pair,
                    turns,
                    reliability=reliability,
                    store=store,
                    tick=_ticker(progress, mode, len(turns)),
                )
            finally:
                await pair.generator.aclose()
                await pair.analyst.aclose()
    return runs


def run_real_bench(
    loaded: LoadedSettings,
    name: str,
    turns: list[tuple[str, str | None]],
    source: str,
    progress: Progress,
) -> dict[str, Any]:
    runs = asyncio.run(_real_modes(loaded, name, turns, progress))
    modes = {mode: run.summary(with_tokens=True) for mode, run in runs.items()}
    plain, ours = modes["plain"], modes["rcm_tui"]
    result: dict[str, Any] = {
        "provider": name,
        "model": build_provider(name, loaded.settings).model,
        "scenario": source,
        "turns": len(turns),
        "latency_ms": None,
        "modes": modes,
        "ttft_ratio": _ratio(ours["ttft_ms_p50"], plain["ttft_ms_p50"]),
        "turn_ratio": _ratio(ours["turn_ms_p50"], plain["turn_ms_p50"]),
        "prompt_tokens_ratio": _ratio(
            ours["prompt_tokens_processed_per_turn"], plain["prompt_tokens_processed_per_turn"]
        ),
        "sequential_ttft_ratio": None,
    }
    result["targets"] = _targets(result, REAL_TARGETS)
    return result


# -- output -----------------------------------------------------------------------------------
def _fmt_ms(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value / 1000:,.1f} s" if value >= 10_000 else f"{value:,.1f} ms"


def _fmt_ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}×"


def _mode_rows(result: dict[str, Any]) -> list[str]:
    with_tokens = any("prompt_tokens_processed_per_turn" in m for m in result["modes"].values())
    head = f"{'mode':<12}{'TTFT p50':>12}{'turn p50':>12}{'calls/turn':>16}"
    head += f"{'prompt tokens/turn':>20}" if with_tokens else ""
    rows = [head]
    for name, mode in result["modes"].items():
        calls = mode["calls_per_turn"]
        row = (
            f"{name:<12}{_fmt_ms(mode['ttft_ms_p50']):>12}{_fmt_ms(mode['turn_ms_p50']):>12}"
            f"{calls['mean']:>10.2f} (max {calls['max']})"
        )
        if with_tokens:
            row += f"{mode['prompt_tokens_processed_per_turn']:>14,.0f}"
        rows.append(row)
    return rows


def _decision_rows(result: dict[str, Any]) -> list[str]:
    rows = []
    for name, mode in result["modes"].items():
        if mode.get("profile"):
            rows.append(f"{name}: {mode['profile']}")
        if mode.get("one_call_at_a_time"):
            rows.append(f"{name}: one call at a time, {mode['one_call_at_a_time']}")
    return rows


def _target_rows(result: dict[str, Any], targets: tuple[Target, ...]) -> list[str]:
    rows = [f"{'figure':<44}{'value':>12}  target"]
    for key, op, limit, label in targets:
        check = result["targets"][key]
        value = check["value"]
        shown = "n/a" if value is None else f"{value:,.2f}"
        verdict = {True: "met", False: "MISSED", None: "not measured"}[check["met"]]
        rows.append(f"{label:<44}{shown:>12}  {op} {limit:g}  {verdict}")
    return rows


def format_table(result: dict[str, Any]) -> str:
    if result["provider"] == "offline (latency-injected)":
        return _format_offline(result)
    return _format_real(result)


def _format_offline(r: dict[str, Any]) -> str:
    lines = [
        f"rcm-tui bench · latency-injected offline provider: {r['latency_ms']:g} ms per call, "
        f"{r['token_ms']:g} ms per token, {r['turns']} turns",
        "",
        *_mode_rows(r),
        "",
        f"TTFT ratio vs plain: rcm_tui {_fmt_ratio(r['ttft_ratio'])}, "
        f"sequential {_fmt_ratio(r['sequential_ttft_ratio'])}; "
        f"turn ratio: rcm_tui {_fmt_ratio(r['turn_ratio'])}, "
        f"sequential {_fmt_ratio(r['sequential_turn_ratio'])}",
        f"engine overhead per turn ({r['overhead_turns']}-turn session, provider time excluded): "
        f"p50 {_fmt_ms(r['engine_overhead_ms_p50'])}, p99 {_fmt_ms(r['engine_overhead_ms_p99'])}"
        f"; background consolidation p50 {_fmt_ms(r['consolidation_overhead_ms_p50'])}",
        f"save / load of that session ({r['session_file_kb']:,.0f} KB): "
        f"p50 {_fmt_ms(r['save_ms_p50'])} / {_fmt_ms(r['load_ms_p50'])}",
        f"list {r['list_sessions']:,} sessions: warm index {_fmt_ms(r['sessions_list_ms'])}, "
        f"cold (no index) {_fmt_ms(r['sessions_list_cold_ms'])}",
        f"TUI first frame (headless): {_fmt_ms(r['tui_first_frame_ms'])}"
        f" ({_fmt_ms(r['tui_first_frame_with_interpreter_ms'])} with interpreter start;"
        f" imports {_fmt_ms(r['tui_import_ms'])})",
        "",
        "targets (set for --turns 12 --latency-ms 100):",
        *_target_rows(r, OFFLINE_TARGETS),
    ]
    lines += [f"note: {note}" for note in r.get("notes", [])]
    return "\n".join(lines)


def _format_real(r: dict[str, Any]) -> str:
    lines = [
        f"rcm-tui bench · {r['provider']} · {r['model']} · {r['turns']} user turns of "
        f"{r['scenario']}",
        "",
        *_mode_rows(r),
        "",
        f"ratios vs plain: TTFT {_fmt_ratio(r['ttft_ratio'])}, turn {_fmt_ratio(r['turn_ratio'])}"
        f", prompt tokens processed {_fmt_ratio(r['prompt_tokens_ratio'])}",
        *_decision_rows(r),
        "",
        "targets:",
        *_target_rows(r, REAL_TARGETS),
    ]
    return "\n".join(lines)


# -- the command ------------------------------------------------------------------------------
def options_from(args: argparse.Namespace) -> BenchOptions:
    options = BenchOptions(
        turns=args.turns,
        latency_ms=args.latency_ms,
        token_ms=args.token_ms,
        overhead_turns=getattr(args, "overhead_turns", OVERHEAD_TURNS),
        list_sessions=getattr(args, "list_sessions", LIST_SESSIONS),
        repetitions=getattr(args, "repetitions", REPETITIONS),
        first_frame=not getattr(args, "no_first_frame", False),
    )
    for name in ("turns", "overhead_turns", "list_sessions", "repetitions"):
        if getattr(options, name) < 1:
            raise BenchError(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("latency_ms", "token_ms"):
        if not 0 <= getattr(options, name) <= 60_000:
            raise BenchError(f"--{name.replace('_', '-')} must be between 0 and 60000")
    return options


def _real_provider(args: argparse.Namespace, loaded: LoadedSettings) -> str | None:
    """The provider to bench for real: only when --provider names one that is not offline."""
    if not getattr(args, "provider", None) or args.provider == "offline":
        return None
    name = choose_provider(loaded.settings).name
    return None if name == "offline" else name


def run_bench_command(args: argparse.Namespace, loaded: LoadedSettings) -> int:
    if getattr(args, "long", False):
        from .bench_long import run_long_command

        return run_long_command(args, loaded)
    try:
        options = options_from(args)
        real = _real_provider(args, loaded)
        if real is None:
            total = 3 * options.turns + options.overhead_turns + options.repetitions + 2
            progress = Progress(total, "bench")
            result = run_offline_bench(loaded, options, progress)
        else:
            scenario = getattr(args, "scenario", None) or default_scenario()
            turns, source = scenario_turns(scenario, options.turns)
            progress = Progress(2 * len(turns), "bench")
            result = run_real_bench(loaded, real, turns, source, progress)
        progress.close()
    except (BenchError, ProviderError) as exc:
        message = exc.message if isinstance(exc, ProviderError) else str(exc)
        print(visible_line(f"rcm-tui: bench: {message}"), file=sys.stderr)
        return 2 if isinstance(exc, BenchError) and message.startswith("--") else 1
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(visible_controls(format_table(result)))
    return 0

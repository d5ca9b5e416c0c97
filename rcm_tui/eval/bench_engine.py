"""The bench's side figures: the engine's own time per turn (provider time excluded), saving
and loading a long session, and listing a large session folder."""

from __future__ import annotations

import math
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import Settings
from ..core.llm import LLMProvider, LLMRequest, StreamEvent
from ..core.models import Message, Session
from ..core.turn import Pipeline
from ..providers.offline import scripted_reply
from ..run_settings import pipeline_settings
from ..store import SessionStore, encode_document
from .bench_modes import CONVERSATION, BenchError, conversation, latency_provider, ms


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: a value that was actually observed."""
    ordered = sorted(values)
    rank = max(math.ceil(fraction * len(ordered)), 1)
    return ordered[rank - 1]


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
        with scripted_reply(reply):
            outcome = await pipeline.run_turn(session, user)
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
        "save_ms_p50": ms(statistics.median(saves)),
        "load_ms_p50": ms(statistics.median(loads)),
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
    return {"sessions_list_ms": ms(statistics.median(warm)), "sessions_list_cold_ms": ms(cold)}

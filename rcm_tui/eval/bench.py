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
import json
import statistics
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import LoadedSettings, Settings
from ..core import prompts
from ..core.llm import ChatMessage, LLMRequest, ProviderError, complete
from ..core.text_safety import visible_controls, visible_line
from ..providers.registry import build_provider, choose_provider
from ..run_settings import ProviderPair
from ..store import SessionStore
from .bench_engine import measure_engine_overhead, measure_listing, measure_save_load, percentile
from .bench_modes import (
    CONVERSATION,
    BenchError,
    ModeRun,
    conversation,
    latency_provider,
    ms,
    run_controller_mode,
)
from .bench_naive import run_sequential_mode
from .bench_report import OFFLINE_TARGETS, REAL_TARGETS, check_targets, format_table, ratio
from .first_frame import measure_first_frame, no_frame
from .packaged import DEFAULT_SCENARIO, scenarios_dir
from .progress import Progress

OVERHEAD_TURNS = 200
LIST_SESSIONS = 1000
REPETITIONS = 20


@dataclass(frozen=True)
class BenchOptions:
    turns: int = 20
    latency_ms: float = 100.0
    token_ms: float = 2.0
    overhead_turns: int = OVERHEAD_TURNS
    list_sessions: int = LIST_SESSIONS
    repetitions: int = REPETITIONS
    first_frame: bool = True


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
        for mode in ("plain", "sequential", "rcm_tui"):
            tick = _ticker(progress, mode, options.turns)
            if mode == "sequential":
                run = await run_sequential_mode(pair().generator, turns, store=store, tick=tick)
            else:
                reliability = mode == "rcm_tui"
                run = await run_controller_mode(
                    loaded, pair(), turns, reliability=reliability, store=store, tick=tick
                )
            runs[mode] = run
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
        "ttft_ratio": ratio(modes["rcm_tui"]["ttft_ms_p50"], plain["ttft_ms_p50"]),
        "turn_ratio": ratio(modes["rcm_tui"]["turn_ms_p50"], plain["turn_ms_p50"]),
        "sequential_ttft_ratio": ratio(modes["sequential"]["ttft_ms_p50"], plain["ttft_ms_p50"]),
        "sequential_turn_ratio": ratio(modes["sequential"]["turn_ms_p50"], plain["turn_ms_p50"]),
    }
    result.update(_engine_figures(loaded.settings, options, progress))
    result["targets"] = check_targets(result, OFFLINE_TARGETS)
    return result


def _engine_figures(
    settings: Settings, options: BenchOptions, progress: Progress
) -> dict[str, Any]:
    def tick(n: int) -> None:
        progress.advance("engine overhead", f"turn {n}/{options.overhead_turns}")

    overhead = asyncio.run(measure_engine_overhead(settings, options.overhead_turns, tick))
    figures: dict[str, Any] = {
        "overhead_turns": options.overhead_turns,
        "engine_overhead_ms_p50": ms(statistics.median(overhead.critical_ms)),
        "engine_overhead_ms_p99": ms(percentile(overhead.critical_ms, 0.99)),
        "consolidation_overhead_ms_p50": ms(statistics.median(overhead.background_ms)),
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
        figures.update(no_frame("not measured (--no-first-frame)"))
        notes.append(figures.pop("note"))
    figures["notes"] = notes
    return figures


# -- on a real model --------------------------------------------------------------------------
def default_scenario() -> Path | None:
    path = scenarios_dir() / DEFAULT_SCENARIO
    return path if path.is_file() else None


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
    request = LLMRequest([ChatMessage("user", prompts.WARM_UP_PROMPT)], "generation", max_tokens=4)
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
        "ttft_ratio": ratio(ours["ttft_ms_p50"], plain["ttft_ms_p50"]),
        "turn_ratio": ratio(ours["turn_ms_p50"], plain["turn_ms_p50"]),
        "prompt_tokens_ratio": ratio(
            ours["prompt_tokens_processed_per_turn"], plain["prompt_tokens_processed_per_turn"]
        ),
        "sequential_ttft_ratio": None,
    }
    result["targets"] = check_targets(result, REAL_TARGETS)
    return result


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

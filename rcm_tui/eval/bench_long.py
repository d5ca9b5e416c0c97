"""`rcm-tui bench --long`: does a turn cost the same at turn 1,000 as at turn 20?

One conversation of 1,000 turns (eval/long_session.py: a distinct need per user turn, ~600
character replies with a code block and a table) runs through the real controller, pipeline
and session store in a temporary folder, with the offline provider answering instantly, so
every millisecond measured is the layer's own work (the provider's too, which is tiny). At
each size (20, 200 and 1,000 turns by default) it reports:

- layer time per turn: send() plus the background work (consolidation), median of the last
  `SAMPLE` turns before the size;
- save time: each save of those turns (a journal append) and, amortised, all the time the
  store spent up to that size including the document rewrites, and one full rewrite;
- resume to the last turn: a fresh `rcm-tui --resume ID` process (headless TUI) until the
  newest reply is laid out on screen, beside an empty session's first frame in the same way;
- memory: the resident set of the replaying process and of the resumed TUI.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..config import LoadedSettings
from ..controller import Controller, ProviderPair
from ..core.models import Session
from ..providers.offline import OfflineProvider, scripted_reply
from ..store import SessionStore
from . import long_session
from .bench_modes import CappedProvider
from .progress import Progress

SIZES = (20, 200, 1000)
SAMPLE = 10
RESUME_RUNS = 5
RESUME_TIMEOUT = 120
RESUME_SIZE = (120, 40)
Target = tuple[str, float, str]  # (result key, upper limit, label)
TARGETS: tuple[Target, ...] = (
    ("turn_ratio", 2.0, "layer time per turn, largest ÷ smallest size"),
    ("save_ratio", 2.0, "save, largest ÷ smallest size"),
    ("resume_ratio", 1.5, "resume to the last turn, largest size ÷ first frame"),
)


class BenchLongError(ValueError):
    """The long benchmark cannot run; one line for the user."""


def rss_mb() -> float:
    """The resident set of this process now (not its peak), in MB."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


class TimedStore(SessionStore):
    """The real store, with the time of every save recorded (and whether it rewrote)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.saves: list[tuple[float, bool]] = []
        # The CPU time of each save (without the waits for the disk), in the same order.
        self.save_cpu: list[float] = []

    def save(self, session: Session) -> None:
        before = self._inode(session)
        started, cpu = time.perf_counter(), time.process_time()
        super().save(session)
        elapsed = (time.perf_counter() - started) * 1000
        self.save_cpu.append((time.process_time() - cpu) * 1000)
        # A rewrite renames a new file over the document: its inode changes.
        self.saves.append((elapsed, self._inode(session) != before))

    def _inode(self, session: Session) -> int | None:
        try:
            return self.path_for(session.id).stat().st_ino
        except FileNotFoundError:
            return None


def _ms(value: float) -> float:
    return round(value, 2)


async def replay_long(
    loaded: LoadedSettings,
    sizes: tuple[int, ...],
    folder: Path,
    tick: Callable[[int], None],
    needs: int = 0,
) -> tuple[dict[int, dict[str, Any]], str]:
    """Replay up to max(sizes) turns; the figures at each size and the session id. A copy of
    the closed session at each size is left in folder/<size>/ for the resume probe."""
    store = TimedStore(folder / "replay")
    # Capped as in `rcm-tui bench`: the demo's consolidation lists every requirement (~80 KB
    # at 1,000), where a model stops at the call's max_tokens.
    pair = ProviderPair(CappedProvider(OfflineProvider()), CappedProvider(OfflineProvider()))
    controller = Controller(loaded, store, providers=pair)
    figures: dict[int, dict[str, Any]] = {}
    turn_ms: list[float] = []
    cpu_ms: list[float] = []
    saves_per_turn: list[list[tuple[float, bool]]] = []
    save_cpu_per_turn: list[list[float]] = []
    try:
        conversation = long_session.script(max(sizes), needs)
        for number, (user, reply) in enumerate(conversation, start=1):
            before = len(store.saves)
            started, cpu = time.perf_counter(), time.process_time()
            with scripted_reply(reply):
                outcome = await controller.send(user)
            await controller.drain()
            turn_ms.append((time.perf_counter() - started) * 1000)
            cpu_ms.append((time.process_time() - cpu) * 1000)
            saves_per_turn.append(store.saves[before:])
            save_cpu_per_turn.append(store.save_cpu[before:])
            if not outcome.ok:
                raise BenchLongError(f"turn {number} failed: {outcome.error}")
            tick(number)
            if number in sizes:
                figures[number] = _figures_at(controller, store, turn_ms, saves_per_turn)
                figures[number]["turn_cpu_ms_p50"] = _ms(statistics.median(cpu_ms[-SAMPLE:]))
                figures[number]["save_cpu_ms_p50"] = _save_cpu(
                    saves_per_turn[-SAMPLE:], save_cpu_per_turn[-SAMPLE:]
                )
                _keep_copy(controller, folder / str(number))
    finally:
        await controller.aclose()
    return figures, controller.session.id


def _figures_at(
    controller: Controller,
    store: TimedStore,
    turn_ms: list[float],
    saves_per_turn: list[list[tuple[float, bool]]],
) -> dict[str, Any]:
    sample = turn_ms[-SAMPLE:]
    appends = [ms for turn in saves_per_turn[-SAMPLE:] for ms, rewrote in turn if not rewrote]
    every = [ms for ms, _ in store.saves]
    rewrites = [ms for ms, rewrote in store.saves if rewrote]
    path = store.path_for(controller.session.id)
    journal = path.with_suffix(".journal")
    return {
        "turn_ms_p50": _ms(statistics.median(sample)),
        "turn_ms_max": _ms(max(sample)),
        "save_ms_p50": _ms(statistics.median(appends or every[-SAMPLE:])),
        "save_ms_per_turn_amortised": _ms(sum(every) / len(turn_ms)),
        "rewrites_so_far": len(rewrites),
        "rewrite_ms": _ms(_rewrite_ms(controller.session, path.parent)),
        "document_kb": round(path.stat().st_size / 1024, 1),
        "journal_kb": round(journal.stat().st_size / 1024, 1) if journal.exists() else 0.0,
        "replay_rss_mb": rss_mb(),
        "requirements": len(controller.session.live_requirements()),
    }


def _save_cpu(saves: list[list[tuple[float, bool]]], cpu: list[list[float]]) -> float:
    """The CPU time of the sampled journal appends, p50 (what a save costs without fsync)."""
    appends = [ms for turn, times in zip(saves, cpu, strict=True)
               for (_wall, rewrote), ms in zip(turn, times, strict=True) if not rewrote]
    return _ms(statistics.median(appends or [ms for times in cpu for ms in times]))


def _rewrite_ms(session: Session, folder: Path) -> float:
    """One full rewrite of the document (what a compaction costs), into a scratch store."""
    scratch = folder.parent / "scratch"
    store = SessionStore(scratch)
    started = time.perf_counter()
    store.save(session.model_copy())
    elapsed = (time.perf_counter() - started) * 1000
    shutil.rmtree(scratch, ignore_errors=True)
    return elapsed


def _keep_copy(controller: Controller, target: Path) -> None:
    """The session as it is on disk mid-conversation (document and journal): resuming it
    replays the journal, the slower case (closing the app folds the journal in)."""
    sessions = target / "data" / "rcm-tui" / "sessions"
    sessions.mkdir(parents=True, mode=0o700)
    source = controller.store.path_for(controller.session.id)
    for path in (source, source.with_suffix(".journal")):
        if path.exists():
            shutil.copy2(path, sessions / path.name)


# -- resuming in the TUI ------------------------------------------------------------------------
RESUME_PROBE = textwrap.dedent(
    """
    import time
    started = time.perf_counter()
    import json, sys
    import rcm_tui.ui.app as app_module
    from rcm_tui import cli
    from rcm_tui.eval.bench_long import rss_mb

    LAST = int(sys.argv[1])
    shown = []
    App = app_module.RcmApp
    original_run = App.run

    def on_ready(self):
        def check():
            if shown:
                return
            from rcm_tui.ui.widgets.chat import ChatEntry

            replies = self.main.chat.query(ChatEntry).filter(".-assistant")
            if LAST == 0 or (replies and replies.last().turn == LAST
                             and replies.last().region.height > 0):
                shown.append((time.perf_counter(), rss_mb(), time.process_time()))
                self.call_after_refresh(self.exit, 0)

        check()
        self.set_interval(0.005, check)

    def run(self, *args, **kwargs):
        kwargs.update(headless=True, size=SIZE)
        return original_run(self, *args, **kwargs)

    App.on_ready = on_ready
    App.run = run
    # The TUI ends its process at once on quit (os._exit): here the probe reports first.
    cli._exit_at_once = lambda code: code
    code = cli.main(sys.argv[2:])
    frame, rss, cpu = shown[0]
    print(json.dumps({"code": code, "ms": (frame - started) * 1000, "rss_mb": rss,
                      "cpu_ms": cpu * 1000}))
    """
)


def resume_ms(home: Path, last_turn: int, args: list[str]) -> tuple[float, float, float]:
    """(ms until the last turn is on screen, RSS of the TUI then, CPU ms of the process until
    then) in a fresh process. The CPU time does not count the waits for a core, which on a
    shared machine make the wall time vary by ±50%."""
    code = RESUME_PROBE.replace("SIZE", repr(RESUME_SIZE))
    env = dict(
        os.environ,
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_STATE_HOME=str(home / "state"),
    )
    try:
        proc = subprocess.run(
            [sys.executable, "-c", code, str(last_turn), *args],
            capture_output=True, text=True, env=env, timeout=RESUME_TIMEOUT, check=False,
        )
    except subprocess.TimeoutExpired:
        raise BenchLongError(f"no frame within {RESUME_TIMEOUT}s") from None
    lines = proc.stdout.strip().splitlines()
    try:
        data = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        detail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchLongError(f"the resume probe failed: {detail[:200]}") from None
    return float(data["ms"]), float(data["rss_mb"]), float(data["cpu_ms"])


def _resume_figures(runs: list[tuple[float, float, float]]) -> dict[str, Any]:
    return {
        "ms_p50": _ms(statistics.median(ms for ms, _, _ in runs)),
        "cpu_ms_p50": _ms(statistics.median(cpu for _, _, cpu in runs)),
        "rss_mb": max(rss for _, rss, _ in runs),
    }


def measure_resumes(
    folder: Path, sizes: tuple[int, ...], session_id: str, tick: Callable[[str], None]
) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The empty session's first frame and each size's resume, interleaved run by run so
    that all of them see the same load on the machine."""
    empty = folder / "empty"
    empty.mkdir()
    frames: list[tuple[float, float, float]] = []
    resumes: dict[int, list[tuple[float, float, float]]] = {size: [] for size in sizes}
    for _ in range(RESUME_RUNS):
        frames.append(resume_ms(empty, 0, ["--provider", "offline"]))
        tick("empty session")
        for size in sizes:
            args = ["--provider", "offline", "--resume", session_id]
            resumes[size].append(resume_ms(folder / str(size), size, args))
            tick(f"{size} turns")
    return _resume_figures(frames), {size: _resume_figures(runs) for size, runs in resumes.items()}


# -- the command ----------------------------------------------------------------------------
def run_long_bench(
    loaded: LoadedSettings, sizes: tuple[int, ...] = SIZES, *, resume: bool = True, needs: int = 0
) -> dict[str, Any]:
    if not sizes or min(sizes) < 1:
        raise BenchLongError("--long-sizes must be positive turn counts")
    progress = Progress(max(sizes) + (len(sizes) + 1) * RESUME_RUNS * resume, "bench --long")
    with tempfile.TemporaryDirectory(prefix="rcm-bench-long-") as scratch:
        folder = Path(scratch)

        def tick(number: int) -> None:
            progress.advance("replaying", f"turn {number}/{max(sizes)}")

        figures, session_id = asyncio.run(replay_long(loaded, sizes, folder, tick, needs))
        first_frame: dict[str, Any] | None = None
        if resume:
            first_frame, resumes = measure_resumes(
                folder, sizes, session_id, lambda what: progress.advance("resuming", what)
            )
            for size in sizes:
                figures[size]["resume"] = resumes[size]
    progress.close()
    result = _result(sizes, figures, first_frame)
    result["needs"] = needs or "one new need per turn"
    return result


def _result(
    sizes: tuple[int, ...], figures: dict[int, dict[str, Any]], first_frame: dict[str, Any] | None
) -> dict[str, Any]:
    small, large = figures[min(sizes)], figures[max(sizes)]
    result: dict[str, Any] = {
        "sizes": {str(size): figures[size] for size in sizes},
        "first_frame": first_frame,
        "turn_ratio": round(large["turn_ms_p50"] / small["turn_ms_p50"], 2),
        # Without the waits for the disk (fsync), which are the same at every size.
        "turn_cpu_ratio": round(large["turn_cpu_ms_p50"] / small["turn_cpu_ms_p50"], 2),
        "save_ratio": round(large["save_ms_p50"] / small["save_ms_p50"], 2),
        "save_cpu_ratio": round(large["save_cpu_ms_p50"] / small["save_cpu_ms_p50"], 2),
        "resume_ratio": None,
        "resume_cpu_ratio": None,
    }
    if first_frame is not None:
        result["resume_ratio"] = round(large["resume"]["ms_p50"] / first_frame["ms_p50"], 2)
        result["resume_cpu_ratio"] = round(
            large["resume"]["cpu_ms_p50"] / first_frame["cpu_ms_p50"], 2
        )
    result["targets"] = {
        key: {"target": f"<= {limit:g}", "value": result[key],
              "met": None if result[key] is None else result[key] <= limit}
        for key, limit, _label in TARGETS
    }
    return result


def format_long(result: dict[str, Any]) -> str:
    sizes = list(result["sizes"])
    rows = [
        ("layer time per turn, p50", "turn_ms_p50", "ms"),
        ("  of it CPU (no disk waits), p50", "turn_cpu_ms_p50", "ms"),
        ("slowest of the sampled turns", "turn_ms_max", "ms"),
        ("save (journal append), p50", "save_ms_p50", "ms"),
        ("  of it CPU (no fsync), p50", "save_cpu_ms_p50", "ms"),
        ("store time per turn, amortised", "save_ms_per_turn_amortised", "ms"),
        ("full rewrite of the document", "rewrite_ms", "ms"),
        ("rewrites so far", "rewrites_so_far", ""),
        ("document on disk", "document_kb", "KB"),
        ("replaying process RSS", "replay_rss_mb", "MB"),
        ("requirements in the ledger", "requirements", ""),
    ]
    head = f"{'turns':<34}" + "".join(f"{size:>12}" for size in sizes)
    needs = result.get("needs")
    lines = [
        "rcm-tui bench --long · offline provider (instant), real controller, pipeline and store",
        f"the user states: {needs if isinstance(needs, str) else f'{needs} needs, in rotation'}",
        "",
        head,
    ]
    for label, key, unit in rows:
        cells = "".join(f"{_cell(result['sizes'][s][key], unit):>12}" for s in sizes)
        lines.append(f"{label:<34}{cells}")
    if result["first_frame"] is not None:
        resume = "".join(
            f"{_cell(result['sizes'][s]['resume']['ms_p50'], 'ms'):>12}" for s in sizes
        )
        cpu = "".join(
            f"{_cell(result['sizes'][s]['resume']['cpu_ms_p50'], 'ms'):>12}" for s in sizes
        )
        rss = "".join(f"{_cell(result['sizes'][s]['resume']['rss_mb'], 'MB'):>12}" for s in sizes)
        lines += [f"{'resume to the last turn (TUI)':<34}{resume}",
                  f"{'  of it CPU':<34}{cpu}", f"{'resumed TUI RSS':<34}{rss}"]
        frame = result["first_frame"]
        lines.append(f"empty session's first frame: {_cell(frame['ms_p50'], 'ms')}"
                     f" (CPU {_cell(frame['cpu_ms_p50'], 'ms')},"
                     f" RSS {_cell(frame['rss_mb'], 'MB')})")
    lines += ["", "CPU time, largest size ÷ smallest (÷ first frame for resume; reported beside"
              " the targets, which are on the wall time):"]
    for key, label in (("turn_cpu_ratio", "layer time per turn"), ("save_cpu_ratio", "save"),
                       ("resume_cpu_ratio", "resume to the last turn")):
        value = result.get(key)
        lines.append(f"  {label:<54}{'n/a' if value is None else f'{value:.2f}×':>8}")
    lines.append("targets:")
    for key, limit, label in TARGETS:
        check = result["targets"][key]
        verdict = {True: "met", False: "MISSED", None: "not measured"}[check["met"]]
        value = "n/a" if check["value"] is None else f"{check['value']:.2f}×"
        lines.append(f"  {label:<54}{value:>8}  <= {limit:g}×  {verdict}")
    return "\n".join(lines)


def _cell(value: float | int, unit: str) -> str:
    if unit == "":
        return f"{value:,}"
    return f"{value:,.1f} {unit}"


def run_long_command(args: Any, loaded: LoadedSettings) -> int:
    try:
        sizes = tuple(sorted({int(part) for part in str(args.long_sizes).split(",") if part}))
    except ValueError:
        print("rcm-tui: bench: --long-sizes takes turn counts like 20,200,1000", file=sys.stderr)
        return 2
    try:
        result = run_long_bench(loaded, sizes, resume=not getattr(args, "no_resume", False),
                                needs=max(0, getattr(args, "needs", 0)))
    except BenchLongError as exc:
        print(f"rcm-tui: bench: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=2) if args.json else format_long(result))
    return 0

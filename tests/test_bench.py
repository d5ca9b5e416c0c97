"""`rcm-tui bench`: the figures exist, have sane types, and keep their structural relations.

Timings are never asserted against targets here (two shared cores, other test runs): only
relations that follow from the latency injection itself, e.g. a reply shown after three
sequential calls cannot appear before one call's latency has passed three times.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from rcm_tui.cli import main
from rcm_tui.config import load_settings
from rcm_tui.core.llm import Finished, LLMRequest, StreamEvent, TextDelta, Usage, complete
from rcm_tui.core.models import Session
from rcm_tui.eval import bench, bench_engine, bench_naive
from rcm_tui.eval.progress import Progress
from rcm_tui.providers.offline import OfflineProvider, scripted_reply
from rcm_tui.store import SessionStore

FAST = ["--overhead-turns", "12", "--list-sessions", "25", "--repetitions", "3"]
MODES = ("plain", "sequential", "rcm_tui")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code = main(["bench", "--json", *argv])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def test_bench_figures_have_sane_types_and_structural_relations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    r = run_json(
        capsys, "--turns", "3", "--latency-ms", "20", "--token-ms", "1", *FAST, "--no-first-frame"
    )
    modes = r["modes"]
    for mode in MODES:
        figures = modes[mode]
        assert figures["ttft_ms_p50"] > 0
        assert figures["turn_ms_p50"] >= figures["ttft_ms_p50"]
        assert set(figures["calls_per_turn"]) == {"mean", "max"}
        assert figures["calls_per_turn"]["max"] >= figures["calls_per_turn"]["mean"] >= 1
    for key in (
        "ttft_ratio",
        "turn_ratio",
        "sequential_ttft_ratio",
        "engine_overhead_ms_p50",
        "engine_overhead_ms_p99",
        "save_ms_p50",
        "load_ms_p50",
        "sessions_list_ms",
        "sessions_list_cold_ms",
    ):
        assert isinstance(r[key], float) and r[key] > 0, key
    assert r["engine_overhead_ms_p99"] >= r["engine_overhead_ms_p50"]
    assert (r["turns"], r["latency_ms"], r["token_ms"]) == (3, 20, 1)
    assert (r["overhead_turns"], r["list_sessions"]) == (12, 25)
    assert r["tui_first_frame_ms"] is None
    assert set(r["targets"]) >= {"ttft_ratio", "sequential_ttft_ratio", "save_ms_p50"}

    # One streamed call per plain turn; the naive layer always makes three.
    assert modes["plain"]["calls_per_turn"] == {"mean": 1.0, "max": 1}
    assert modes["sequential"]["calls_per_turn"]["mean"] >= 3
    assert modes["rcm_tui"]["calls_per_turn"]["mean"] >= 3
    # Every call sleeps the latency before its first token and sleeps never end early, so the
    # naive layer cannot show its reply before three latencies have passed.
    assert modes["plain"]["ttft_ms_p50"] >= 20 * 0.95
    assert modes["sequential"]["ttft_ms_p50"] >= 3 * 20 * 0.95
    # How the two compare is the benchmark's figure, not an invariant: under load one plain
    # turn's p50 was 739 ms against the naive layer's 269 ms (CI of 250782a, a scorer beside it).
    assert r["sequential_ttft_ratio"] > 0


def test_the_table_names_every_mode_and_target(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["bench", "--turns", "2", "--latency-ms", "5", "--token-ms", "0", *FAST, "--no-first-frame"]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    for word in (*MODES, "engine overhead", "save / load", "list 25 sessions", "targets"):
        assert word in captured.out
    assert "bench: done" in captured.err  # progress goes to stderr, never into the results


def test_bench_cli_subprocess_prints_json(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "rcm_tui",
            "bench",
            "--json",
            "--turns",
            "2",
            "--latency-ms",
            "5",
            *FAST,
            "--no-first-frame",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["modes"]["plain"]["calls_per_turn"]["mean"] == 1.0
    assert data["tui_first_frame_ms"] is None and "--no-first-frame" in " ".join(data["notes"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--turns", "0"], "--turns must be at least 1"),
        (["--latency-ms", "-1"], "--latency-ms must be between"),
    ],
)
def test_bad_sizes_are_one_line_usage_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["bench", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_conversation_cycles_past_its_length() -> None:
    turns = bench.conversation(len(bench.CONVERSATION) + 3)
    assert turns[len(bench.CONVERSATION)] == bench.CONVERSATION[0]
    assert len({user for user, _reply in bench.CONVERSATION}) >= 20


def test_percentile_is_an_observed_value() -> None:
    values = [float(v) for v in range(1, 101)]
    assert bench_engine.percentile(values, 0.99) == 99.0
    assert bench_engine.percentile(values, 0.5) == 50.0
    assert bench_engine.percentile([7.0], 0.99) == 7.0


# -- the measuring parts --------------------------------------------------------------------
class RecordingProvider:
    """A provider that records the order of calls and streams a fixed answer per purpose."""

    name = "recording"
    model = "recording"
    label = "recording"

    def __init__(self, inner: OfflineProvider) -> None:
        self.inner = inner
        self.purposes: list[str] = []

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        self.purposes.append(request.purpose)
        async for event in self.inner.stream(request):
            yield event

    async def aclose(self) -> None:
        return None


async def test_naive_layer_analyses_generates_then_judges(tmp_path: Path) -> None:
    provider = RecordingProvider(OfflineProvider())
    layer = bench_naive.NaiveLayer(provider, SessionStore(tmp_path))
    sample = await layer.turn("Let's not use MongoDB, we need ACID.", "PostgreSQL then.")
    assert provider.purposes == ["analysis", "generation", "judge"]
    assert sample.calls == 3 and sample.turn_ms >= sample.ttft_ms
    assert [r.option for r in layer.session.active_rejections()] == ["MongoDB"]
    assert layer.session.messages[-1].content == "PostgreSQL then."


async def test_capped_provider_stops_at_max_tokens() -> None:
    provider = bench.latency_provider(0, 0)
    with scripted_reply("one two three four five six"):
        result = await complete(provider, LLMRequest([], "generation", max_tokens=3))
    assert result.text.split() == ["one", "two", "three"]
    assert result.usage.completion_tokens == 3
    with scripted_reply("a b c d"):
        unlimited = await complete(provider, LLMRequest([], "generation"))
    assert unlimited.text.split() == ["a", "b", "c", "d"]


class SlowProvider:
    name = model = label = "slow"

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        import asyncio

        await asyncio.sleep(0.02)
        yield TextDelta("x")
        yield Finished(Usage())

    async def aclose(self) -> None:
        return None


async def test_timed_provider_adds_the_time_spent_in_the_provider() -> None:
    watch = bench_engine.Stopwatch()
    timed = bench_engine.TimedProvider(SlowProvider(), watch)
    await complete(timed, LLMRequest([], "generation"))
    assert watch.seconds >= 0.019


async def test_engine_overhead_excludes_provider_latency() -> None:
    run = await bench.measure_engine_overhead(load_settings().settings, 4, lambda _n: None)
    assert len(run.critical_ms) == 4 and len(run.background_ms) == 4
    assert run.session.turn == 4 and len(run.session.quality) == 4
    assert all(ms >= 0 for ms in run.critical_ms)


def test_save_load_and_listing_measure_real_files() -> None:
    session = Session(title="bench")
    figures = bench.measure_save_load(session, 2, lambda _n: None)
    assert figures["save_ms_p50"] > 0 and figures["load_ms_p50"] > 0
    assert figures["session_file_kb"] > 0
    listing = bench.measure_listing(15)
    assert listing["sessions_list_ms"] > 0 and listing["sessions_list_cold_ms"] > 0


def test_first_frame_is_measured() -> None:
    frame = bench.measure_first_frame()
    assert isinstance(frame["tui_first_frame_ms"], float), frame.get("note")
    assert frame["tui_first_frame_with_interpreter_ms"] >= frame["tui_first_frame_ms"] * 0.9


# -- a real provider (faked: the shape of the report and the token arithmetic) ----------------
class CachingProvider(OfflineProvider):
    """Reports half of every prompt as served from a KV cache, as llama.cpp does."""

    name = "local"

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        async for event in super().stream(request):
            if isinstance(event, Finished):
                usage = event.usage
                event = Finished(
                    Usage(usage.prompt_tokens, usage.completion_tokens, usage.prompt_tokens // 2)
                )
            yield event


def test_real_provider_mode_reports_processed_prompt_tokens(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(
        bench, "build_provider", lambda name, settings, analysis=False: CachingProvider()
    )
    script = tmp_path / "s.jsonl"
    script.write_text(
        "\n".join(
            json.dumps({"user": u})
            for u in ["We need ACID.", "/status", "No MongoDB, please.", "And?"]
        )
    )
    r = run_json(capsys, "--provider", "local", "--scenario", str(script), "--turns", "2")
    assert r["provider"] == "local" and r["turns"] == 2 and r["scenario"] == str(script)
    assert set(r["modes"]) == {"plain", "rcm_tui"}
    plain, ours = r["modes"]["plain"], r["modes"]["rcm_tui"]
    assert plain["calls_per_turn"] == {"mean": 1.0, "max": 1}
    assert 0 < plain["prompt_tokens_processed_per_turn"] < ours["prompt_tokens_processed_per_turn"]
    assert r["prompt_tokens_ratio"] == pytest.approx(
        ours["prompt_tokens_processed_per_turn"] / plain["prompt_tokens_processed_per_turn"],
        abs=0.01,
    )
    assert set(r["targets"]) == {"ttft_ratio", "turn_ratio", "prompt_tokens_ratio"}


# -- the progress line ------------------------------------------------------------------------
class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal() -> None:
    stream = Terminal()
    progress = Progress(4, "bench", stream)
    progress.advance("plain", "turn 1/2")
    progress.advance("plain", "turn 2/2")
    progress.note("plain finished")
    progress.advance("rcm_tui", "turn 1/2", steps=2)
    progress.close()
    text = stream.getvalue()
    assert text.count("\r") >= 3 and "[" in text and "100%" in text
    assert "bench: plain finished\n" in text
    assert text.endswith("s\n") and "bench: done in " in text


def test_progress_prints_each_phase_once_in_a_log() -> None:
    stream = io.StringIO()
    progress = Progress(6, "eval", stream)
    for phase in ("a · plain", "b · plain", "a · plain", "b · plain"):
        progress.advance(phase, "turn 1")
    progress.close()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert lines[:2] == ["eval: a · plain", "eval: b · plain"]
    assert lines[-1].startswith("eval: done in ")

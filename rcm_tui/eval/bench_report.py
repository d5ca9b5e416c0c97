"""The bench's targets and its table."""

from __future__ import annotations

from typing import Any

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


def ratio(a: float | None, b: float | None) -> float | None:
    if a is None or not b:
        return None
    return round(a / b, 3)


def check_targets(result: dict[str, Any], targets: tuple[Target, ...]) -> dict[str, Any]:
    checked: dict[str, Any] = {}
    for key, op, limit, _label in targets:
        value = result.get(key)
        met = None if value is None else (value <= limit if op == "<=" else value >= limit)
        checked[key] = {"target": f"{op} {limit:g}", "value": value, "met": met}
    return checked


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

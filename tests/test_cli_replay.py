"""`rcm-tui replay` end to end through the CLI, on the scenarios that ship with the package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rcm_tui.config import sessions_dir
from rcm_tui.eval.packaged import scenarios_dir

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = scenarios_dir()  # a copy of shared/scenarios
needs_scenarios = pytest.mark.skipif(not SCENARIOS.is_dir(), reason="package data missing")


def rcm(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rcm_tui", *args], capture_output=True,
                          text=True, env=dict(os.environ), timeout=timeout)


def write_script(path: Path, lines: list[dict[str, str]]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


@needs_scenarios
def test_replay_file_upload_end_to_end() -> None:
    proc = rcm("replay", str(SCENARIOS / "file-upload.jsonl"), "--provider", "offline", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert sum(m["role"] == "user" for m in doc["messages"]) == 6
    assert len(doc["quality"]) == 6
    assert "[6/6]" in proc.stderr  # per-turn progress on stderr
    files = list(sessions_dir().glob("*.json"))
    files = [f for f in files if f.name != "index.json"]
    assert len(files) == 1 and files[0].stat().st_mode & 0o777 == 0o600
    listed = json.loads(rcm("sessions", "list", "--json").stdout)
    assert [e["id"] for e in listed] == [doc["id"]]
    markdown = rcm("sessions", "export", doc["id"], "--format", "md")
    assert markdown.returncode == 0 and "python-magic" in markdown.stdout
    unknown = rcm("sessions", "show", "no-such-session")
    assert unknown.returncode != 0 and "Traceback" not in unknown.stderr
    assert "no-such-session" in unknown.stderr and len(unknown.stderr.strip().splitlines()) == 1


@needs_scenarios
def test_replay_db_selection_has_every_metric() -> None:
    proc = rcm("replay", str(SCENARIOS / "db-selection.jsonl"), "--provider", "offline", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert len(doc["quality"]) == 16
    fields = {"clarity", "completeness", "assumptions", "verbosity", "premature_attempt",
              "middle_turn_reference", "requirement_tracking", "overall", "issues",
              "readvocated", "attempts"}
    assert all(fields <= set(q) for q in doc["quality"])
    metrics = doc["metrics"]
    assert len(metrics["answer_lengths"]) == 16 and metrics["bloat_ratio"] > 0
    assert 3 in metrics["consolidation_turns"] and metrics["status_turns"] == [12]
    assert len(metrics["llm_calls"]) == 16 and all(c["calls"] >= 1 for c in metrics["llm_calls"])
    assert doc["consolidated_context"].strip()
    assert doc["status_blocks"][0]["turn"] == 12
    assert [r["option"] for r in doc["rejected"] if r["reopened_turn"] is None] == ["MongoDB"]


@needs_scenarios
def test_solidify_after_the_pivots_names_microservices_as_rejected(tmp_path: Path) -> None:
    lines = [json.loads(x) for x in
             (SCENARIOS / "architecture-pivots.jsonl").read_text().splitlines()[:8]]
    script = write_script(tmp_path / "pivots.jsonl", [*lines, {"user": "/solidify"}])
    proc = rcm("replay", str(script), "--provider", "offline", "--json")
    assert proc.returncode == 0, proc.stderr
    solid = json.loads(proc.stdout)["solidified"]["text"]
    rejected_part = solid[solid.index("REJECTED"):]
    assert "microservices" in rejected_part.lower()


def test_unknown_slash_command_is_reported_not_sent(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.jsonl", [
        {"user": "We need audit logs.", "assistant": "Noted."},
        {"user": "/frobnicate now"},
        {"user": "/reject Kafka : too heavy to operate"},
    ])
    proc = rcm("replay", str(script), "--provider", "offline", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert "Unknown command /frobnicate" in proc.stderr
    assert all("frobnicate" not in m["content"] for m in doc["messages"])
    kafka = [r for r in doc["rejected"] if r["option"] == "Kafka"]
    assert kafka and kafka[0]["reason"] == "too heavy to operate" and kafka[0]["origin"] == "user"


def test_no_reliability_runs_plain_chat(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.jsonl", [
        {"user": "No Redis please.", "assistant": "OK."},
        {"user": "How to expire sessions?", "assistant": "Move them into Redis with a TTL."},
    ])
    proc = rcm("replay", str(script), "--provider", "offline", "--json", "--no-reliability")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [c["calls"] for c in doc["metrics"]["llm_calls"]] == [1, 1]
    assert doc["quality"][1]["readvocated_final"] == ["Redis"]
    assert doc["messages"][-1]["content"] == "Move them into Redis with a TTL."


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"user": "ok"}\nnot json\n', ":2: invalid JSON"),
        ('["a list"]\n', ':1: expected an object with a "user" string'),
        ("", "the script has no turns"),
    ],
)
def test_bad_scripts_give_one_line_errors(tmp_path: Path, content: str, expected: str) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(content, encoding="utf-8")
    proc = rcm("replay", str(script), "--provider", "offline")
    assert proc.returncode == 1 and expected in proc.stderr and "Traceback" not in proc.stderr


def test_missing_script_is_a_clear_error(tmp_path: Path) -> None:
    proc = rcm("replay", str(tmp_path / "nope.jsonl"), "--provider", "offline")
    assert proc.returncode == 1 and "no such file" in proc.stderr


def test_replay_prints_what_an_informational_command_says(tmp_path: Path) -> None:
    # A script runs /status or /requirements to see the ledger; "ok" alone told it nothing.
    script = write_script(tmp_path / "s.jsonl", [
        {"user": "We need 2,000 writes per second.", "assistant": "PostgreSQL fits."},
        {"user": "/requirements"},
        {"user": "/status"},
    ])
    proc = rcm("replay", str(script), "--provider", "offline")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  /requirements:"))
    assert any("2,000 writes per second" in line for line in lines[start:start + 3])
    assert any(line.startswith("  /status:") for line in lines)
    assert "/requirements: ok" not in proc.stderr

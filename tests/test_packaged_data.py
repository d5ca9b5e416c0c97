"""The bench conversation and the default scenarios ship with the package (issue 11): an
installed `rcm-tui eval` and `rcm-tui bench --provider local` need no `shared/` folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rcm_tui.cli import main
from rcm_tui.eval import bench, packaged

SHARED = Path(__file__).resolve().parents[2] / "shared" / "scenarios"


def test_the_packaged_scenarios_are_the_shared_ones() -> None:
    if not SHARED.is_dir():
        pytest.skip("shared/ not beside the repository")
    ours = {p.name: p.read_bytes() for p in packaged.scenarios_dir().iterdir()}
    theirs = {p.name: p.read_bytes() for p in SHARED.iterdir() if p.suffix in (".jsonl", ".json")}
    assert {name: ours.get(name) for name in theirs} == theirs


def test_the_bench_conversation_is_packaged_with_a_rejection_and_its_readvocacy() -> None:
    turns = packaged.bench_conversation()
    assert len(turns) == 20 and all(user and reply for user, reply in turns)
    assert "No Kafka" in turns[4][0] and "Kafka" in turns[12][1]


def test_the_real_bench_defaults_to_a_packaged_scenario() -> None:
    path = bench.default_scenario()
    assert path is not None and path.name == "db-selection.jsonl"
    turns, source = bench.scenario_turns(path, 3)
    assert len(turns) == 3 and source == str(path)


def test_eval_without_a_folder_runs_the_packaged_scenarios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["eval", "--provider", "offline", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["dir"] == str(packaged.scenarios_dir())
    assert set(report["scenarios"]) == {
        "architecture-pivots", "db-selection", "file-upload", "readvocacy"
    }
    assert report["errors"] == []

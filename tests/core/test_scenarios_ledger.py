"""The heuristic ledger alone meets the scenario targets that score-scenarios checks later."""

from __future__ import annotations

from typing import Any

import pytest

from .scenario_harness import SCENARIO_DIR, SCORER, replay, score_dir

pytestmark = pytest.mark.skipif(
    not (SCENARIO_DIR.is_dir() and SCORER.is_file()),
    reason=f"shared scenarios not found at {SCENARIO_DIR}",
)


@pytest.fixture(scope="module")
def scored() -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    return score_dir()


def test_every_scenario_was_scored(scored: tuple[dict[str, Any], dict[str, Any]]) -> None:
    rows, _ = scored
    assert len(rows) == len(list(SCENARIO_DIR.glob("*.expect.json")))


def test_rejections_are_complete_and_precise(scored: tuple[dict[str, Any], dict[str, Any]]) -> None:
    rows, summary = scored
    assert summary["rejection_recall"] == 1.0, rows
    assert summary["rejection_precision"] >= 0.9, rows
    assert {name: r["false_rejections"] for name, r in rows.items() if r["false_rejections"]} == {}


def test_requirements_are_found_without_chatter(
    scored: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    rows, summary = scored
    assert summary["requirement_recall"] >= 0.8, rows
    assert summary["false_requirements"] <= 2, rows


def test_readvocacy_is_caught_and_rejected_mentions_are_not(
    scored: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    rows, summary = scored
    assert summary["readvocacy_recall"] == 1.0, rows
    assert summary["readvocacy_false_turns"] == 0, rows


def test_the_category_rejection_merges_into_the_named_one() -> None:
    session, _ = replay(SCENARIO_DIR / "db-selection.jsonl")
    (entry,) = session.active_rejections()
    assert entry.option == "MongoDB"
    assert "document store" in entry.reason

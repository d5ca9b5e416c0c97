"""The ledger figures of issue 12: per language and family, false requirements per 10 turns."""

from __future__ import annotations

from pathlib import Path

from rcm_tui.eval.ab import Scenario
from rcm_tui.eval.ledger_figures import breakdown, scenario_counts

DOC = {
    "rejected": [
        {"option": "taxis", "reopened_turn": None},
        {"option": "Sintra", "reopened_turn": None},
    ],
    "requirements": [
        {"text": "4 nights in Lisbon", "status": "pending"},
        {"text": "What do you think", "status": "pending"},
    ],
}
EXPECT = {
    "rejected": [["taxi", "taxis"], ["Uber"]],
    "requirements_any": [["4 nights"], ["late May"]],
    "lang": "en",
    "families": ["aversion", "hedge_trap"],
}


def test_a_requirement_matching_no_expected_group_is_a_false_requirement() -> None:
    counts = scenario_counts(DOC, EXPECT, user_turns=5)
    assert counts["false_requirements"] == ["What do you think"]
    assert counts["missed_rejections"] == ["Uber"]
    assert counts["missed_requirements"] == ["late May"]


def test_figures_are_given_per_language_and_per_family() -> None:
    scenario = Scenario("trip", Path("trip.jsonl"), [], EXPECT)
    report = breakdown([(scenario, scenario_counts(DOC, EXPECT, user_turns=5))])
    assert report["lang"]["en"]["rejection_recall"] == 0.5
    assert report["lang"]["en"]["rejection_precision"] == 0.5
    assert report["family"]["hedge_trap"]["requirement_recall"] == 0.5
    assert report["all"]["false_requirements_per_10_turns"] == 2.0


def test_a_neutral_fragment_counts_neither_way_and_a_non_requirement_is_false() -> None:
    doc = {
        "requirements": [
            {"text": "I need movers for a two-bed flat", "status": "pending"},
            {"text": "4 nights, what do you think", "status": "pending"},
            {"text": "Under £40 a seat", "status": "pending"},
        ]
    }
    expect = {
        **EXPECT,
        "requirements_any": [["4 nights"]],
        "confirmed": [["£40"]],
        "neutral": ["need movers"],
        "non_requirements": ["what do you think"],
    }
    assert scenario_counts(doc, expect, user_turns=5)["false_requirements"] == [
        "4 nights, what do you think"
    ]

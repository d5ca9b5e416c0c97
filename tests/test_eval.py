"""`rcm-tui eval DIR`: both arms of every scenario, the A/B figures, the report and its errors.

The offline provider plays the scripted replies: the plain run shows a reply that proposes a
rejected option as written, the layered run catches and refines it. That is the difference the
eval must show.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rcm_tui.cli import main
from rcm_tui.core.models import Message, Requirement, Session
from rcm_tui.eval import ab
from rcm_tui.store import SessionStore

CACHE = [
    {
        "user": "We need a cache in front of our product catalogue API. Reads must stay under "
        "50 ms.",
        "assistant": "Which store do you run today, and how often does the catalogue change?",
    },
    {
        "user": "PostgreSQL, and prices change a few times an hour. Let's not use Redis: we do "
        "not want another service to operate.",
        "assistant": "Understood. An in-process cache per instance with a short TTL avoids "
        "another service.",
    },
    {
        "user": "How do we invalidate entries when a price changes?",
        "assistant": "I recommend Redis for this: publish price changes on a Redis channel and "
        "let every instance drop its entry.",
    },
    {
        "user": "The cache must survive a restart of one instance without a thundering herd.",
        "assistant": "Warm the in-process cache from PostgreSQL at start, in batches, before the "
        "instance takes traffic.",
    },
]
CACHE_EXPECT = {
    "rejected": [["Redis"]],
    "not_rejected": ["PostgreSQL"],
    "requirements_any": [["50 ms", "under 50"], ["survive a restart", "thundering herd"]],
    "readvocated": [{"turn": 3, "options": ["Redis"]}],
    "not_readvocated_turns": [2, 4],
}
QUEUE = [
    {
        "user": "We need background jobs for sending invoices from our Rails app.",
        "assistant": "How many invoices a day, and do they need to go out in order?",
    },
    {
        "user": "About 5,000 a day. No Kafka, please: it is far too heavy for this.",
        "assistant": "Agreed, Kafka is out. Sidekiq is enough for 5,000 jobs a day.",
    },
    {
        "user": "Every invoice must be sent exactly once.",
        "assistant": "Make the job idempotent: record the invoice id in a sent_invoices table and "
        "skip ids that are already there. Kafka was ruled out, so nothing changes "
        "there.",
    },
]
QUEUE_EXPECT = {
    "rejected": [["Kafka"]],
    "requirements_any": [["exactly once"]],
    "not_readvocated_turns": [2, 3],
}
ARM_KEYS = {
    "replies",
    "readvocacy_rate",
    "readvocated_replies",
    "readvocacy_caught",
    "requirement_coverage",
    "requirements_covered",
    "requirements_reference",
    "final_answer_coverage",
    "premature_rate",
    "premature_replies",
    "bloat_ratio",
    "calls_per_turn",
    "prompt_tokens_per_turn",
    "prompt_tokens_processed_per_turn",
    "completion_tokens_per_turn",
    "ledger",
}


def write_scenario(
    folder: Path, name: str, lines: list[dict[str, str]], expect: dict[str, Any] | None = None
) -> None:
    (folder / f"{name}.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    if expect is not None:
        (folder / f"{name}.expect.json").write_text(json.dumps(expect))


@pytest.fixture
def scenarios(tmp_path: Path) -> Path:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    write_scenario(folder, "cache", CACHE, CACHE_EXPECT)
    write_scenario(folder, "queue", QUEUE, QUEUE_EXPECT)
    return folder


def run_eval(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["eval", *argv, "--provider", "offline"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def eval_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run_eval(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_eval_json_has_both_arms_of_every_scenario_and_totals(
    capsys: pytest.CaptureFixture[str], scenarios: Path
) -> None:
    report = eval_json(capsys, str(scenarios))
    assert report["provider"] == "offline" and report["errors"] == []
    assert set(report["scenarios"]) == {"cache", "queue"}
    for entry in report["scenarios"].values():
        for arm in ("plain", "rcm_tui"):
            assert set(entry[arm]) >= ARM_KEYS, arm
            assert entry[arm]["error"] is None
    for arm in ("plain", "rcm_tui"):
        total = report["total"][arm]
        assert set(total) >= ARM_KEYS
        assert total["replies"] == len(CACHE) + len(QUEUE)
        assert set(total["ledger"]["summary"]) >= {
            "rejection_precision",
            "rejection_recall",
            "requirement_recall",
        }
    assert report["total"]["plain"]["calls_per_turn"] == 1.0
    assert report["total"]["rcm_tui"]["calls_per_turn"] >= 3


def test_the_baseline_shows_a_readvocacy_the_layer_refines_away(
    capsys: pytest.CaptureFixture[str], scenarios: Path
) -> None:
    cache = eval_json(capsys, str(scenarios))["scenarios"]["cache"]
    plain, layered = cache["plain"], cache["rcm_tui"]
    assert plain["readvocated_replies"] == 1 and plain["readvocacy_rate"] == 0.25
    assert layered["readvocated_replies"] == 0 and layered["readvocacy_rate"] == 0.0
    assert layered["readvocacy_caught"] == 1
    # Both arms detected the re-advocacy at turn 3 (same instrument), so detection recall is 1.
    for arm in (plain, layered):
        assert arm["ledger"]["summary"]["readvocacy_recall"] == 1.0
        assert arm["ledger"]["summary"]["rejection_recall"] == 1.0


def test_jobs_2_gives_the_same_figures_as_jobs_1(
    capsys: pytest.CaptureFixture[str], scenarios: Path
) -> None:
    def figures(report: dict[str, Any]) -> dict[str, Any]:
        for entry in report["scenarios"].values():
            for arm in ("plain", "rcm_tui"):
                entry[arm].pop("seconds")
                entry[arm].pop("seconds_per_turn")
                entry[arm].pop("session_id")
        for arm in ("plain", "rcm_tui"):
            report["total"][arm].pop("seconds_per_turn")
        return {"scenarios": report["scenarios"], "total": report["total"]}

    one = eval_json(capsys, str(scenarios), "--jobs", "1")
    two = eval_json(capsys, str(scenarios), "--jobs", "2")
    assert two["jobs"] == 2
    assert figures(one) == figures(two)


def test_table_and_markdown_report(
    capsys: pytest.CaptureFixture[str], scenarios: Path, tmp_path: Path
) -> None:
    target = tmp_path / "out" / "report.md"
    target.parent.mkdir()
    code, out, err = run_eval(capsys, str(scenarios), "--report", str(target), "--jobs", "2")
    assert code == 0, err
    assert "re-advocacy" in out and "total" in out and "cache" in out
    assert "25% (1/4)" in out  # the baseline's re-advocacy in the cache scenario
    text = target.read_text()
    assert text.startswith("# rcm-tui eval")
    assert "| scenario | arm | re-advocacy |" in text and "## Definitions" in text
    assert "--jobs 2" in text
    assert "eval: done" in err and str(target) in err


def test_sessions_are_temporary_unless_kept(
    capsys: pytest.CaptureFixture[str], scenarios: Path
) -> None:
    report = eval_json(capsys, str(scenarios))
    assert "temporary" in report["sessions"]
    assert SessionStore().list() == []
    kept = eval_json(capsys, str(scenarios), "--keep-sessions")
    titles = sorted(entry.title for entry in SessionStore().list())
    assert len(titles) == 4 and all(t.startswith("eval: ") for t in titles)
    assert "eval: cache · rcm_tui (layer on)" in titles
    ids = {kept["scenarios"]["cache"][arm]["session_id"] for arm in ("plain", "rcm_tui")}
    assert ids <= {entry.id for entry in SessionStore().list()}


def test_a_broken_scenario_is_reported_and_the_others_still_run(
    capsys: pytest.CaptureFixture[str], scenarios: Path
) -> None:
    (scenarios / "broken.jsonl").write_text('{"user": "fine"}\nnot json\n')
    code, out, _err = run_eval(capsys, str(scenarios), "--json")
    assert code == 1
    report = json.loads(out)
    assert set(report["scenarios"]) == {"cache", "queue"}
    assert any("broken.jsonl" in e and "invalid JSON" in e for e in report["errors"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["{missing}"], "not a folder"),
        (["{empty}"], "no scenario scripts"),
        (["{empty}", "--jobs", "0"], "--jobs must be between"),
    ],
)
def test_unusable_arguments_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    (tmp_path / "empty").mkdir()
    args = [a.format(missing=tmp_path / "missing", empty=tmp_path / "empty") for a in argv]
    code, _out, err = run_eval(capsys, *args)
    assert code == 2
    assert message in err and "Traceback" not in err


# -- the measures -----------------------------------------------------------------------------
def test_coverage_counts_replies_from_the_requirement_turn_on() -> None:
    session = Session()
    for turn, (user, reply) in enumerate(
        [
            ("Reads must stay under 50 ms.", "Reads stay under 50 ms with a local cache."),
            ("Invoices must go out exactly once.", "Use a queue."),
            ("Anything else?", "Deduplicate invoices so each goes out exactly once."),
        ],
        start=1,
    ):
        session.messages.append(Message(role="user", content=user, turn=turn))
        session.messages.append(Message(role="assistant", content=reply, turn=turn))
    reference = [
        Requirement(id="R1", text="Reads must stay under 50 ms", source_turn=1),
        Requirement(id="R2", text="Invoices must go out exactly once", source_turn=2),
        Requirement(id="R3", text="Audit log kept for a year", source_turn=2),
    ]
    covered, in_final = ab.coverage(session, reference)
    assert covered == 2  # R1 at turn 1, R2 at turn 3; R3 never
    assert in_final == 1  # only R2 is in the last reply


def test_score_follows_score_scenarios() -> None:
    doc = {
        "rejected": [
            {"option": "MongoDB", "reopened_turn": None},
            {"option": "stateful service", "reopened_turn": None},
            {"option": "Redis", "reopened_turn": 4},
        ],
        "requirements": [{"text": "2,000 writes per second"}, {"text": "What indexes"}],
        "quality": [{"turn": 3, "readvocated": ["MongoDB"]}, {"turn": 5, "readvocated": ["x"]}],
    }
    exp = {
        "rejected": [["Mongo", "MongoDB"]],
        "reopened": [["Redis"]],
        "requirements_any": [["writes per second"], ["audit"]],
        "non_requirements": ["What indexes"],
        "readvocated": [{"turn": 3, "options": ["MongoDB"]}],
        "not_readvocated_turns": [5],
    }
    result = ab.score(doc, exp)
    assert (result["rejected_found"], result["rejected_extracted"]) == (1, 2)
    assert result["false_rejections"] == ["stateful service"] and result["not_reopened"] == []
    assert (result["requirements_found"], result["false_requirements"]) == (1, ["What indexes"])
    assert (result["readvocated_found"], result["readvocated_false_turns"]) == (1, [5])
    summary = ab.ledger_summary([result])
    assert summary["rejection_precision"] == 0.5 and summary["rejection_recall"] == 1.0
    assert summary["requirement_recall"] == 0.5
    assert ab.score(doc, exp, readvocacy=False)["readvocated_expected"] == 0

"""Replay the shared scenario scripts through the heuristic ledger alone and score the result.

This measures the deterministic analyser and the ledger merge before (and independently of)
the full pipeline: each scripted user line goes through `analyse_message` + `apply_analysis`
on a fresh session, each scripted assistant reply is checked with `find_readvocacy` against
the rejections active at that point, and the resulting document is scored with the very
`score` function of `shared/tools/score-scenarios`.

Run it directly for a table: `python tests/core/scenario_harness.py [SCENARIO_DIR]`.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from rcm_tui.core.heuristics import analyse_message, find_readvocacy
from rcm_tui.core.ledger import apply_analysis, ledger_snapshot
from rcm_tui.core.models import Message, Session

# CI clones the repo next to a `shared/` folder; locally the checkout sits in /work/main.
SHARED_DIR = Path(__file__).resolve().parents[3] / "shared"
SCENARIO_DIR = SHARED_DIR / "scenarios"
SCORER = SHARED_DIR / "tools" / "score-scenarios"


def load_scorer(path: Path = SCORER) -> ModuleType:
    """Import the stdlib-only scorer script (it has no .py suffix) as a module."""
    loader = importlib.machinery.SourceFileLoader("score_scenarios", str(path))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def replay(script: Path) -> tuple[Session, dict[str, Any]]:
    """Run one scenario through the heuristic ledger; return the session and a scorer doc."""
    session = Session()
    quality: list[dict[str, Any]] = []
    for turn, line in enumerate(script.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        step = json.loads(line)
        session.messages.append(Message(role="user", content=step["user"], turn=turn))
        analysis = analyse_message(step["user"], turn, ledger_snapshot(session))
        apply_analysis(session, analysis, turn)
        reply = step.get("assistant", "")
        active = [r.option for r in session.active_rejections()]
        quality.append({"turn": turn, "readvocated": find_readvocacy(reply, active)})
        if reply:
            session.messages.append(Message(role="assistant", content=reply, turn=turn))
    doc = session.dump()
    doc["quality"] = quality
    return session, doc


def score_dir(
    scenario_dir: Path = SCENARIO_DIR, scorer: Callable[..., dict[str, Any]] | None = None
) -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    """Per-scenario results of `score` and the totals score-scenarios prints as its summary."""
    score = scorer or load_scorer().score
    rows: dict[str, dict[str, Any]] = {}
    for script in sorted(scenario_dir.glob("*.jsonl")):
        expect = script.with_suffix(".expect.json")
        if expect.exists():
            _, doc = replay(script)
            rows[script.stem] = score(doc, json.loads(expect.read_text(encoding="utf-8")))
    totals: dict[str, int] = {}
    for result in rows.values():
        for key, value in result.items():
            totals[key] = totals.get(key, 0) + (value if isinstance(value, int) else len(value))
    return rows, summarise(totals)


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def summarise(t: dict[str, int]) -> dict[str, Any]:
    """The same summary figures as score-scenarios."""
    return {
        "rejection_recall": _ratio(t.get("rejected_found", 0), t.get("rejected_expected", 0)),
        "rejection_precision": _ratio(
            t.get("rejected_true", 0) - t.get("not_reopened", 0), t.get("rejected_extracted", 0)
        ),
        "false_rejections": t.get("false_rejections", 0),
        "requirement_recall": _ratio(
            t.get("requirements_found", 0), t.get("requirements_expected", 0)
        ),
        "false_requirements": t.get("false_requirements", 0),
        "readvocacy_recall": _ratio(
            t.get("readvocated_found", 0), t.get("readvocated_expected", 0)
        ),
        "readvocacy_false_turns": t.get("readvocated_false_turns", 0),
    }


def main(argv: list[str]) -> int:
    directory = Path(argv[1]) if len(argv) > 1 else SCENARIO_DIR
    rows, summary = score_dir(directory)
    for name, r in rows.items():
        print(
            f"{name:22} rejected {r['rejected_found']}/{r['rejected_expected']}"
            f" extracted {r['rejected_extracted']} false {r['false_rejections']}"
            f"  requirements {r['requirements_found']}/{r['requirements_expected']}"
            f" (of {r['requirements_extracted']}, false {r['false_requirements']})"
            f"  readvocacy {r['readvocated_found']}/{r['readvocated_expected']}"
            f" false turns {r['readvocated_false_turns']}"
        )
    print("summary " + " ".join(f"{k}={v}" for k, v in summary.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

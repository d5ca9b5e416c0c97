"""Ledger figures per language and per family, the way issue 12 reports them.

`rcm-tui eval` and `shared/tools/score-scenarios` give one pooled line; a corpus built to
test how people talk needs more: rejection recall and precision, requirement recall and false
requirements per 10 user turns, each per language (`lang` in NAME.expect.json) and per family
(`families`). A requirement is false as `corpus/score.py` counts it: it holds a
`non_requirements` fragment, or it matches no `requirements_any` or `confirmed` group and no
`neutral` fragment (the request's goal or a genuinely ambiguous statement counts neither way).

    python -m rcm_tui.eval.ledger_figures DIR [DIR ...] [--json] [--jobs N] [--details]

Several folders are pooled into one report (`corpus/ledger/dev corpus/ledger/dev2`).

The layer's own arm is replayed in-process with the offline provider (scripted replies, the
heuristic analyser), in a temporary store, with the matching rules of score-scenarios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from ..config import load_settings
from ..store import SessionStore
from .ab import Scenario, find_scenarios, run_arm, score
from .matching import group_hits, matching_text
from .progress import Progress

TARGETS = {
    "rejection_recall": 0.80,
    "rejection_precision": 0.90,
    "requirement_recall": 0.75,
    "false_requirements_per_10_turns": 1.0,
}


def unmatched_requirements(doc: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    """False requirements: ledger lines that state a non-requirement, or that no expected
    requirement, confirmed requirement or neutral fragment names."""
    groups = expect.get("requirements_any", []) + expect.get("confirmed", [])
    neutral = expect.get("neutral", [])
    forbidden = [matching_text(f) for f in expect.get("non_requirements", []) if matching_text(f)]
    texts = [r.get("text", "") for r in doc.get("requirements", []) if r.get("status") != "dropped"]
    return [
        t
        for t in texts
        if any(f in matching_text(t) for f in forbidden)
        or not (any(group_hits(g, [t]) for g in groups) or group_hits(neutral, [t]))
    ]


def scenario_counts(doc: dict[str, Any], expect: dict[str, Any], user_turns: int) -> dict[str, Any]:
    base = score(doc, expect, readvocacy=False)
    false_reqs = unmatched_requirements(doc, expect)
    return {
        "rejected_expected": base["rejected_expected"],
        "rejected_found": base["rejected_found"],
        "rejected_extracted": base["rejected_extracted"],
        "rejected_true": base["rejected_true"] - len(base["not_reopened"]),
        "false_rejections": base["false_rejections"],
        "missed_rejections": [
            g[0]
            for g in expect.get("rejected", [])
            if not group_hits(g, [r.get("option", "") for r in _active(doc)])
        ],
        "requirements_expected": base["requirements_expected"],
        "requirements_found": base["requirements_found"],
        "missed_requirements": [
            g[0]
            for g in expect.get("requirements_any", [])
            if not group_hits(g, [r.get("text", "") for r in doc.get("requirements", [])])
        ],
        "false_requirements": false_reqs,
        "forbidden_requirements": base["false_requirements"],
        "user_turns": user_turns,
    }


def _active(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [r for r in doc.get("rejected", []) if r.get("reopened_turn") is None]


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 3) if whole else None


def figures(counts: list[dict[str, Any]]) -> dict[str, Any]:
    def total(key: str) -> int:
        return sum(v if isinstance(v := c[key], int) else len(v) for c in counts)

    turns = total("user_turns")
    return {
        "scenarios": len(counts),
        "user_turns": turns,
        "rejection_recall": _rate(total("rejected_found"), total("rejected_expected")),
        "rejection_precision": _rate(total("rejected_true"), total("rejected_extracted")),
        "requirement_recall": _rate(total("requirements_found"), total("requirements_expected")),
        "false_requirements_per_10_turns": round(10 * total("false_requirements") / turns, 2)
        if turns
        else None,
        "rejections": f"{total('rejected_found')}/{total('rejected_expected')}",
        "requirements": f"{total('requirements_found')}/{total('requirements_expected')}",
    }


def breakdown(rows: list[tuple[Scenario, dict[str, Any]]]) -> dict[str, Any]:
    by_lang: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_family: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for scenario, counts in rows:
        expect = scenario.expect or {}
        by_lang[str(expect.get("lang", "?"))].append(counts)
        for family in expect.get("families", []):
            by_family[str(family)].append(counts)
    # Chinese is reported pooled with the mixed conversations (a need stated in one language
    # and restated or confirmed in the other), as corpus/README.md quotes it.
    pooled = {"zh+mixed": by_lang.get("zh", []) + by_lang.get("mixed", [])}
    return {
        "all": figures([c for _, c in rows]),
        "lang": {
            **{k: figures(v) for k, v in sorted(by_lang.items())},
            **{k: figures(v) for k, v in pooled.items() if v},
        },
        "family": {k: figures(v) for k, v in sorted(by_family.items())},
    }


async def _run(
    folders: list[Path], jobs: int
) -> tuple[list[tuple[Scenario, dict[str, Any]]], list[str]]:
    scenarios: list[Scenario] = []
    errors: list[str] = []
    for folder in folders:
        found, failed = find_scenarios(folder)
        scenarios += [s for s in found if s.expect is not None]
        errors += failed
    loaded = load_settings(flags={"provider": "offline"})
    progress = Progress(sum(s.user_turns for s in scenarios), "ledger")
    gate = asyncio.Semaphore(jobs)
    rows: list[tuple[Scenario, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="rcm-ledger-") as tmp:
        store = SessionStore(Path(tmp))

        async def one(scenario: Scenario) -> None:
            async with gate:
                run = await run_arm(loaded, scenario, "rcm_tui", store, progress)
            if run.error or run.session is None:
                errors.append(f"{scenario.name}: {run.error}")
                return
            doc = run.session.model_dump(mode="json")
            rows.append(
                (scenario, scenario_counts(doc, scenario.expect or {}, scenario.user_turns))
            )

        await asyncio.gather(*(one(s) for s in scenarios))
    progress.close()
    rows.sort(key=lambda row: row[0].name)
    return rows, errors


def _line(name: str, f: dict[str, Any]) -> str:
    def cell(key: str) -> str:
        value = f[key]
        return "  n/a" if value is None else f"{value:5.2f}"

    return (
        f"{name:22} n={f['scenarios']:3} turns={f['user_turns']:4}  "
        f"rej R {cell('rejection_recall')}"
        f" ({f['rejections']:>7})  P {cell('rejection_precision')}  req R "
        f"{cell('requirement_recall')} ({f['requirements']:>7})  false req/10 turns "
        f"{cell('false_requirements_per_10_turns')}"
    )


def format_text(report: dict[str, Any], details: bool) -> str:
    lines = [_line("ALL", report["all"])]
    lines += [_line(f"lang {k}", v) for k, v in report["lang"].items()]
    lines += [_line(f"family {k}", v) for k, v in report["family"].items()]
    if details:
        for name, counts in report["scenarios"].items():
            misses = {
                k: counts[k]
                for k in (
                    "missed_rejections",
                    "false_rejections",
                    "missed_requirements",
                    "false_requirements",
                )
                if counts[k]
            }
            if misses:
                lines.append(f"-- {name}: {json.dumps(misses, ensure_ascii=False)}")
    lines += [f"ERROR {e}" for e in report["errors"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rcm_tui.eval.ledger_figures")
    parser.add_argument("dir", type=Path, nargs="+")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--details", action="store_true", help="list misses per scenario")
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args(argv)
    rows, errors = asyncio.run(_run(list(args.dir), max(1, args.jobs)))
    report = {
        **breakdown(rows),
        "targets": TARGETS,
        "errors": errors,
        "scenarios": {s.name: c for s, c in rows},
    }
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print(format_text(report, args.details))
    return 1 if errors else 0


__all__ = ["breakdown", "figures", "main", "scenario_counts", "unmatched_requirements"]

if __name__ == "__main__":
    sys.exit(main())

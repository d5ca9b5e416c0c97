"""`rcm-tui eval [DIR]`: every scenario twice, with the reliability layer and without it (A/B).

A scenario is DIR/NAME.jsonl (a replay script) with an optional DIR/NAME.expect.json (what the
ledger must hold afterwards; see shared/scenarios/README.md). Without DIR, the scenarios that
ship with the package (eval/data/scenarios, a copy of shared/scenarios) run. Each one runs
through the real controller as `rcm_tui` (layer on) and as `plain` (`--no-reliability`: one
streamed call per turn, no analysis call, judge or refinement). The deterministic checks
still score every reply of the plain run, so both arms are measured with the same instrument.

Measures, per scenario and in total (pooled over all replies or turns):

- re-advocacy rate: replies the user saw (`quality[].readvocated_final`) that propose an
  option the user had rejected, per assistant reply. Mentioning it as rejected does not count.
- requirement coverage: the reference requirements are the non-dropped requirements of the
  layered run's ledger (the same list for both arms). One counts as covered in an arm when a
  reply shown in that arm, at or after the turn the requirement was stated, addresses it by the
  engine's deterministic test (at least half of its content words appear in the reply). The
  judge's `addressed` status is not used: only the layered run has a judge.
  `final_answer_coverage` applies the same test to the last reply alone.
- premature-answer rate: replies flagged `premature_attempt`, per assistant reply.
- bloat ratio: the session's last answer length ÷ first (mean over scenarios in the total).
- ledger precision / recall against the expectations, scored like shared/tools/score-scenarios.
  `readvocated` expectations describe the scripted replies, so they are scored for the offline
  provider only (a model writes its own replies).
- LLM calls and tokens per turn (mean); processed prompt tokens exclude cached ones.

With the `offline` provider the scripted `assistant` replies are played: the plain run shows
them as written and the layered run refines the ones that re-advocate a rejected option, which
is the offline demonstration of the A/B.

Sessions are saved in a temporary folder that is removed afterwards, so repeated evals do not
fill the sessions browser; `--keep-sessions` saves them in the user's store instead, titled
"eval: NAME · arm", to inspect every call of a run in the TUI.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..config import LoadedSettings
from ..controller import Controller
from ..core.echo import copies_ledger
from ..core.events import PipelineEvent, TurnFailed, TurnFinished
from ..core.models import Requirement, Session
from ..core.quality import addressed_requirements
from ..core.text_safety import visible_controls, visible_line
from ..providers.registry import choose_provider
from ..safe_files import write_file
from ..store import SessionStore
from .ab_report import ARMS, format_markdown, format_table
from .matching import group_hits, matches, named_in
from .packaged import scenarios_dir
from .progress import Progress
from .replay import ScriptError, ScriptLine, load_script, replay

ARM_TITLES = {"plain": "plain (no layer)", "rcm_tui": "rcm_tui (layer on)"}
MAX_JOBS = 32


class EvalError(ValueError):
    """The eval cannot start (bad folder, bad flag); one line for the user."""


@dataclass(frozen=True)
class Scenario:
    name: str
    path: Path
    lines: list[ScriptLine]
    expect: dict[str, Any] | None

    @property
    def user_turns(self) -> int:
        from ..commands import is_command

        return sum(1 for line in self.lines if not is_command(line.user))


@dataclass
class ArmRun:
    session: Session | None = None
    error: str | None = None
    seconds: float = 0.0


@dataclass
class ScenarioRun:
    scenario: Scenario
    arms: dict[str, ArmRun] = field(default_factory=dict)


# -- finding scenarios ------------------------------------------------------------------------
def find_scenarios(folder: Path) -> tuple[list[Scenario], list[str]]:
    """The scenarios in `folder`, and one line per file that could not be read."""
    if not folder.is_dir():
        raise EvalError(f"{folder}: not a folder")
    scenarios: list[Scenario] = []
    errors: list[str] = []
    for path in sorted(folder.glob("*.jsonl")):
        try:
            scenarios.append(_load_scenario(path))
        except (ScriptError, ValueError, OSError) as exc:
            errors.append(f"{path.name}: {exc}")
    if not scenarios and not errors:
        raise EvalError(f"{folder}: no scenario scripts (*.jsonl)")
    return scenarios, errors


def _load_scenario(path: Path) -> Scenario:
    lines = load_script(path)
    expect_path = path.with_suffix(".expect.json")
    expect = None
    if expect_path.exists():
        try:
            expect = json.loads(expect_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"{expect_path.name}: invalid JSON ({exc})") from None
        if not isinstance(expect, dict):
            raise ValueError(f"{expect_path.name}: expected a JSON object")
    return Scenario(path.stem, path, lines, expect)


# -- running ------------------------------------------------------------------------------------
def _turn_counter(progress: Progress, name: str, arm: str) -> Callable[[PipelineEvent], None]:
    def on_event(event: PipelineEvent) -> None:
        if isinstance(event, TurnFinished | TurnFailed):
            progress.advance(f"{name} · {arm}", f"turn {event.turn}")

    return on_event


async def run_arm(
    loaded: LoadedSettings,
    scenario: Scenario,
    arm: str,
    store: SessionStore,
    progress: Progress,
) -> ArmRun:
    controller = Controller(
        loaded,
        store,
        reliability=arm == "rcm_tui",
        on_event=_turn_counter(progress, scenario.name, arm),
    )
    controller.session.title = f"eval: {scenario.name} · {ARM_TITLES[arm]}"
    started = time.perf_counter()
    run = ArmRun()
    try:
        result = await replay(controller, scenario.lines)
        run.error = None if result.ok else result.error
    except Exception as exc:  # one scenario that cannot run is reported, not the whole eval lost
        run.error = f"{type(exc).__name__}: {exc}"
    finally:
        try:
            await controller.aclose()
        except Exception as exc:  # closing must not hide the outcome
            run.error = run.error or f"closing failed: {exc}"
    run.session = controller.session
    run.seconds = time.perf_counter() - started
    return run


async def run_all(
    loaded: LoadedSettings,
    scenarios: list[Scenario],
    store: SessionStore,
    jobs: int,
    progress: Progress,
) -> list[ScenarioRun]:
    """Both arms of every scenario; at most `jobs` arms run at the same time."""
    gate = asyncio.Semaphore(jobs)
    runs = [ScenarioRun(s) for s in scenarios]

    async def one(run: ScenarioRun, arm: str) -> None:
        async with gate:
            run.arms[arm] = await run_arm(loaded, run.scenario, arm, store, progress)
            error = run.arms[arm].error
            progress.note(f"{run.scenario.name} · {arm}: " + (f"FAILED {error}" if error else "ok"))

    await asyncio.gather(*(one(run, arm) for run in runs for arm in ARMS))
    return runs


# -- measuring ------------------------------------------------------------------------------
def _replies(session: Session) -> list[tuple[int, str]]:
    return [(m.turn, m.content) for m in session.messages if m.role == "assistant"]


def reference_requirements(run: ScenarioRun) -> list[Requirement]:
    """What both arms are measured against: the layered run's ledger (plain's if it failed)."""
    for arm in ("rcm_tui", "plain"):
        session = run.arms[arm].session
        if session is not None and not run.arms[arm].error:
            return session.live_requirements()
    return []


def coverage(session: Session, reference: list[Requirement]) -> tuple[int, int]:
    """(requirements covered by some reply from their turn on, covered by the last reply)."""
    replies = _replies(session)
    covered = last = 0
    for req in reference:
        item = [(req.id, req.text, req.source_turn)]
        later = [text for turn, text in replies if turn >= req.source_turn]
        covered += any(addressed_requirements(text, item) for text in later)
        last += bool(replies) and bool(addressed_requirements(replies[-1][1], item))
    return covered, last


def ledger_copies_shown(session: Session) -> int:
    """Replies shown that still contain a line of a ledger block the session sent (or a marker)."""
    blocks = [m.ledger_sent for m in session.messages if m.role == "user" and m.ledger_sent]
    return sum(copies_ledger(text, blocks) for _turn, text in _replies(session))


def _cost(session: Session) -> dict[str, float]:
    costs = session.metrics.llm_calls
    return {
        "turns": len(costs),
        "turn_seconds": sum(c.seconds for c in costs),
        "calls": sum(c.calls for c in costs),
        "prompt_tokens": sum(c.prompt_tokens for c in costs),
        "prompt_processed": sum(max(c.prompt_tokens - c.cached_tokens, 0) for c in costs),
        "completion_tokens": sum(c.completion_tokens for c in costs),
    }


def arm_counts(
    session: Session, reference: list[Requirement], expect: dict[str, Any] | None, scripted: bool
) -> dict[str, Any]:
    """Raw counts for one arm; rates are derived from them (so totals can be pooled)."""
    quality = session.quality
    covered, last = coverage(session, reference)
    counts: dict[str, Any] = {
        "replies": len(quality),
        "readvocated_replies": sum(1 for q in quality if q.readvocated_final),
        "readvocacy_caught": sum(1 for q in quality if q.readvocated and not q.readvocated_final),
        "premature_replies": sum(1 for q in quality if q.premature_attempt),
        "ledger_copies_shown": ledger_copies_shown(session),
        "requirements_reference": len(reference),
        "requirements_covered": covered,
        "requirements_in_final_answer": last,
        "bloat_ratio": session.metrics.bloat_ratio,
        **_cost(session),
        "ledger": None,
    }
    if expect is not None:
        counts["ledger"] = score(session.dump(), expect, readvocacy=scripted)
    return counts


def _rate(part: float, whole: float, digits: int = 3) -> float | None:
    return round(part / whole, digits) if whole else None


def arm_figures(counts: dict[str, Any]) -> dict[str, Any]:
    """The reported figures of one arm (or a pooled total) from its counts."""
    turns = counts["turns"]
    ledger = counts["ledger"]
    return {
        "replies": counts["replies"],
        "readvocacy_rate": _rate(counts["readvocated_replies"], counts["replies"]),
        "readvocated_replies": counts["readvocated_replies"],
        "readvocacy_caught": counts["readvocacy_caught"],
        "requirement_coverage": _rate(
            counts["requirements_covered"], counts["requirements_reference"]
        ),
        "requirements_covered": counts["requirements_covered"],
        "requirements_reference": counts["requirements_reference"],
        "final_answer_coverage": _rate(
            counts["requirements_in_final_answer"], counts["requirements_reference"]
        ),
        "premature_rate": _rate(counts["premature_replies"], counts["replies"]),
        "premature_replies": counts["premature_replies"],
        "ledger_copies_shown": counts["ledger_copies_shown"],
        "bloat_ratio": counts["bloat_ratio"],
        "seconds_per_turn": _rate(counts["turn_seconds"], turns, 2),
        "calls_per_turn": _rate(counts["calls"], turns, 2),
        "prompt_tokens_per_turn": _rate(counts["prompt_tokens"], turns, 1),
        "prompt_tokens_processed_per_turn": _rate(counts["prompt_processed"], turns, 1),
        "completion_tokens_per_turn": _rate(counts["completion_tokens"], turns, 1),
        "ledger": None if ledger is None else {**ledger, "summary": ledger_summary([ledger])},
    }


def pool(all_counts: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals: counts summed (rates pooled over replies and turns), bloat averaged."""
    summed: dict[str, Any] = {}
    for key in (
        "replies",
        "readvocated_replies",
        "readvocacy_caught",
        "premature_replies",
        "ledger_copies_shown",
        "requirements_reference",
        "requirements_covered",
        "requirements_in_final_answer",
        "turns",
        "turn_seconds",
        "calls",
        "prompt_tokens",
        "prompt_processed",
        "completion_tokens",
    ):
        summed[key] = sum(c[key] for c in all_counts)
    bloats = [c["bloat_ratio"] for c in all_counts if c["bloat_ratio"] is not None]
    summed["bloat_ratio"] = round(sum(bloats) / len(bloats), 3) if bloats else None
    figures = arm_figures({**summed, "ledger": None})
    ledgers = [c["ledger"] for c in all_counts if c["ledger"] is not None]
    figures["ledger"] = {"summary": ledger_summary(ledgers)} if ledgers else None
    return figures


# -- ledger scoring (the rules of shared/tools/score-scenarios) ---------------------------------
def score(doc: dict[str, Any], exp: dict[str, Any], *, readvocacy: bool = True) -> dict[str, Any]:
    """Compare a session document with a scenario's expectations (case-insensitive substring
    matching in either direction, as score-scenarios does)."""
    rejected = doc.get("rejected", [])
    active = [r.get("option", "") for r in rejected if r.get("reopened_turn") is None]
    groups = exp.get("rejected", [])
    # `rejected_allowed`: options a user may be read as rejecting, but need not be (the offer a
    # user of a public dialogue set asked an alternative to): true if recorded, not expected.
    aliases = [t for g in groups for t in g] + list(exp.get("rejected_allowed", []))
    false_pos = [o for o in active if not any(matches(t, o) for t in aliases)]
    forbidden = [t for t in exp.get("not_rejected", []) if any(matches(t, o) for o in active)]
    reqs = [r.get("text", "") for r in doc.get("requirements", [])]
    req_groups = exp.get("requirements_any", [])
    result: dict[str, Any] = {
        "rejected_expected": len(groups),
        "rejected_found": sum(group_hits(g, active) for g in groups),
        "rejected_extracted": len(active),
        "rejected_true": sum(any(matches(t, o) for t in aliases) for o in active),
        "false_rejections": sorted(set(false_pos + forbidden)),
        "not_reopened": [g[0] for g in exp.get("reopened", []) if group_hits(g, active)],
        "requirements_expected": len(req_groups),
        "requirements_found": sum(group_hits(g, reqs) for g in req_groups),
        "requirements_extracted": len(reqs),
        "false_requirements": [f for f in exp.get("non_requirements", []) if named_in(f, reqs)],
        "readvocated_expected": 0,
        "readvocated_found": 0,
        "readvocated_false_turns": [],
    }
    if readvocacy:
        result.update(_readvocacy_score(doc, exp))
    return result


def _readvocacy_score(doc: dict[str, Any], exp: dict[str, Any]) -> dict[str, Any]:
    by_turn = {q.get("turn"): q for q in doc.get("quality", [])}
    expected = exp.get("readvocated", [])
    return {
        "readvocated_expected": len(expected),
        "readvocated_found": sum(
            group_hits(e["options"], by_turn.get(e["turn"], {}).get("readvocated", []) or [])
            for e in expected
        ),
        "readvocated_false_turns": [
            t for t in exp.get("not_readvocated_turns", []) if by_turn.get(t, {}).get("readvocated")
        ],
    }


def ledger_summary(scores: list[dict[str, Any]]) -> dict[str, Any]:
    """Precision and recall over one or more scored scenarios, as score-scenarios sums them."""

    def total(key: str) -> int:
        return sum(v if isinstance(v := s[key], int) else len(v) for s in scores)

    return {
        "rejection_recall": _rate(total("rejected_found"), total("rejected_expected")),
        "rejection_precision": _rate(
            total("rejected_true") - total("not_reopened"), total("rejected_extracted")
        ),
        "false_rejections": total("false_rejections"),
        "requirement_recall": _rate(total("requirements_found"), total("requirements_expected")),
        "false_requirements": total("false_requirements"),
        "readvocacy_recall": _rate(total("readvocated_found"), total("readvocated_expected")),
        "readvocacy_false_turns": total("readvocated_false_turns"),
    }


# -- the report -------------------------------------------------------------------------------
def build_report(
    runs: list[ScenarioRun], errors: list[str], meta: dict[str, Any]
) -> dict[str, Any]:
    scripted = meta["provider"] == "offline"
    scenarios: dict[str, Any] = {}
    pooled: dict[str, list[dict[str, Any]]] = {arm: [] for arm in ARMS}
    for run in runs:
        reference = reference_requirements(run)
        entry: dict[str, Any] = {"turns": run.scenario.user_turns, "error": None}
        failed = [f"{arm}: {run.arms[arm].error}" for arm in ARMS if run.arms[arm].error]
        for arm in ARMS:
            outcome = run.arms[arm]
            session = outcome.session
            if session is None:
                entry[arm] = None
                continue
            counts = arm_counts(session, reference, run.scenario.expect, scripted)
            entry[arm] = {
                **arm_figures(counts),
                "seconds": round(outcome.seconds, 2),
                "session_id": session.id,
                "error": outcome.error,
            }
            if not failed:
                pooled[arm].append(counts)
        if failed:
            entry["error"] = "; ".join(failed)
            errors.append(f"{run.scenario.name}: {entry['error']}")
        scenarios[run.scenario.name] = entry
    return {
        **meta,
        "scenarios": scenarios,
        "total": {arm: pool(pooled[arm]) if pooled[arm] else None for arm in ARMS},
        "errors": errors,
    }


# -- the command ------------------------------------------------------------------------------
@contextmanager
def _store(keep: bool) -> Iterator[tuple[SessionStore, str]]:
    if keep:
        store = SessionStore()
        yield store, f"kept in {store.root}, titled 'eval: NAME · arm'"
        return
    with tempfile.TemporaryDirectory(prefix="rcm-eval-") as folder:
        where = "temporary folder, removed afterwards (--keep-sessions keeps them)"
        yield SessionStore(Path(folder)), where


def _model_of(runs: list[ScenarioRun]) -> str:
    for run in runs:
        for outcome in run.arms.values():
            if outcome.session is not None:
                return outcome.session.provider.model
    return "n/a"


def _command_line(args: argparse.Namespace) -> str:
    parts = ["rcm-tui", "eval", *([str(args.dir)] if args.dir else [])]
    if getattr(args, "provider", None):
        parts += ["--provider", args.provider]
    if getattr(args, "model", None):
        parts += ["--model", args.model]
    parts += ["--jobs", str(args.jobs)]
    return " ".join(parts)


def run_eval_command(args: argparse.Namespace, loaded: LoadedSettings) -> int:
    try:
        if not 1 <= args.jobs <= MAX_JOBS:
            raise EvalError(f"--jobs must be between 1 and {MAX_JOBS}")
        folder = args.dir or scenarios_dir()
        scenarios, errors = find_scenarios(folder)
    except EvalError as exc:
        print(visible_line(f"rcm-tui: eval: {exc}"), file=sys.stderr)
        return 2
    progress = Progress(2 * sum(s.user_turns for s in scenarios), "eval")
    with _store(getattr(args, "keep_sessions", False)) as (store, where):
        runs = asyncio.run(run_all(loaded, scenarios, store, args.jobs, progress))
    progress.close()
    meta = {
        "dir": str(folder),
        "provider": choose_provider(loaded.settings).name,
        "model": _model_of(runs),
        "jobs": args.jobs,
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "sessions": where,
    }
    report = build_report(runs, errors, meta)
    # The table quotes scenario names and errors; JSON escapes every control already.
    print(json.dumps(report, indent=2) if args.json else visible_controls(format_table(report)))
    if args.report:
        markdown = format_markdown(report, _command_line(args))
        write_file(args.report, markdown.encode("utf-8"), overwrite=True)  # a link is replaced
        print(visible_line(f"rcm-tui: eval: report written to {args.report}"), file=sys.stderr)
    return 1 if report["errors"] else 0

#!/usr/bin/env python3
"""Score the ledger on the corpus, per split, language and family.

Usage: python corpus/score.py [dev|heldout|both] [--cmd "rcm-tui"] [--provider offline] [--json]

Replays every corpus/ledger/SPLIT/NAME.jsonl with `<cmd> replay NAME.jsonl --provider P --json`
in a fresh temporary XDG home (as shared/tools/score-scenarios does) and compares the session
document with NAME.expect.json. Matching is case-insensitive substring in either direction.

Figures:
- rejection recall: rejected groups matched by an active rejected option, overall, per
  language and per family (`rejected_families`);
- rejection precision: active rejected options that match a rejected alias, over all active
  ones; a trap option (`trap_families`) or a reopened option still active counts as false;
- trap false-rejection rate per trap family: trap terms that ended up rejected;
- requirement recall: `requirements_any` groups matched by some requirement's text;
- false requirements per 10 user turns: extracted requirements that match no requirement or
  confirmed group and no `neutral` fragment, or that contain a `non_requirements` fragment.
Decisions and confirmations are not scored here (where they land is the analyser's design).
Stdlib only. Report `heldout` figures; tune on `dev` only.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def norm(text: str) -> str:
    return " ".join(str(text).lower().split())


def matches(term: str, text: str) -> bool:
    a, b = norm(term), norm(text)
    return bool(a) and bool(b) and (a in b or b in a)


def replay(cmd: str, script: Path, provider: str) -> dict:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, XDG_DATA_HOME=f"{home}/data", XDG_CONFIG_HOME=f"{home}/config",
                   HOME=home)
        for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
            env.pop(key, None)
        argv = [*shlex.split(cmd), "replay", str(script), "--provider", provider, "--json"]
        proc = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return json.loads(proc.stdout)


def score_one(doc: dict, exp: dict, user_turns: int) -> dict:
    active = [r.get("option", "") for r in doc.get("rejected", [])
              if r.get("reopened_turn") is None]
    groups = exp["rejected"]
    aliases = [a for g in groups for a in g]
    hits = [any(matches(a, o) for a in g for o in active) for g in groups]
    traps = exp.get("trap_families", {})
    trapped = {t: any(matches(t, o) for o in active) for t in traps}
    reopened_active = sum(any(matches(a, o) for a in g for o in active) for g in exp["reopened"])
    true_rej = sum(any(matches(a, o) for a in aliases) and not any(
        matches(t, o) for t in exp["not_rejected"]) for o in active)
    reqs = [r.get("text", "") for r in doc.get("requirements", [])]
    req_groups = exp["requirements_any"]
    ok_groups = req_groups + exp.get("confirmed", [])
    false_reqs = [r for r in reqs
                  if any(norm(f) in norm(r) for f in exp["non_requirements"])
                  or not (any(matches(a, r) for g in ok_groups for a in g)
                          or any(matches(f, r) for f in exp.get("neutral", [])))]
    return {
        "rejected_hits": hits, "rejected_families": exp.get("rejected_families", []),
        "active": len(active), "true_rejections": max(0, true_rej - reopened_active),
        "trapped": trapped, "traps": traps,
        "req_expected": len(req_groups),
        "req_found": sum(any(matches(a, r) for a in g for r in reqs) for g in req_groups),
        "false_requirements": false_reqs, "user_turns": user_turns,
    }


def ratio(a: int, b: int) -> float | None:
    return round(a / b, 3) if b else None


def aggregate(rows: list[tuple[str, dict]]) -> dict:
    def block(selected: list[dict]) -> dict:
        rej = sum(len(r["rejected_hits"]) for r in selected)
        found = sum(sum(r["rejected_hits"]) for r in selected)
        active = sum(r["active"] for r in selected)
        turns = sum(r["user_turns"] for r in selected)
        false_reqs = sum(len(r["false_requirements"]) for r in selected)
        return {
            "conversations": len(selected),
            "rejection_recall": ratio(found, rej), "rejections_expected": rej,
            "rejection_precision": ratio(sum(r["true_rejections"] for r in selected), active),
            "rejections_extracted": active,
            "requirement_recall": ratio(sum(r["req_found"] for r in selected),
                                        sum(r["req_expected"] for r in selected)),
            "false_requirements_per_10_turns": ratio(10 * false_reqs, turns),
        }
    by_lang: dict[str, list[dict]] = defaultdict(list)
    fam_total: dict[str, int] = defaultdict(int)
    fam_found: dict[str, int] = defaultdict(int)
    trap_total: dict[str, int] = defaultdict(int)
    trap_hit: dict[str, int] = defaultdict(int)
    for lang, r in rows:
        by_lang[lang].append(r)
        by_lang["zh+mixed" if lang != "en" else "en_only"].append(r)
        for fam, hit in zip(r["rejected_families"], r["rejected_hits"], strict=True):
            fam_total[fam] += 1
            fam_found[fam] += int(hit)
        for term, fam in r["traps"].items():
            trap_total[fam] += 1
            trap_hit[fam] += int(r["trapped"][term])
    return {
        "all": block([r for _, r in rows]),
        "by_lang": {k: block(v) for k, v in sorted(by_lang.items()) if k != "en_only"},
        "rejection_recall_by_family": {
            f: f"{fam_found[f]}/{fam_total[f]}" for f in sorted(fam_total)},
        "traps_wrongly_rejected": {f: f"{trap_hit[f]}/{trap_total[f]}" for f in sorted(trap_total)},
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("split", nargs="?", default="both", choices=("dev", "heldout", "both"))
    ap.add_argument("--cmd", default="rcm-tui")
    ap.add_argument("--provider", default="offline")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    splits = ("dev", "heldout") if args.split == "both" else (args.split,)
    report, details = {}, {}
    for split in splits:
        rows, errors = [], []
        for script in sorted((HERE / "ledger" / split).glob("*.jsonl")):
            exp = json.loads(script.with_suffix(".expect.json").read_text())
            turns = sum(1 for line in script.read_text().splitlines() if line.strip())
            try:
                result = score_one(replay(args.cmd, script, args.provider), exp, turns)
            except Exception as exc:  # a conversation that cannot run is reported, not hidden
                errors.append(f"{script.name}: {exc}")
                continue
            rows.append((exp["lang"], result))
            details[f"{split}/{script.stem}"] = result
        report[split] = aggregate(rows) | {"errors": errors}
    if args.json:
        print(json.dumps({"report": report, "conversations": details}, ensure_ascii=False,
                         indent=1))
        return 0
    for split, rep in report.items():
        print(f"== {split}")
        for lang, block in [("all", rep["all"]), *rep["by_lang"].items()]:
            print(f"  {lang:9} " + "  ".join(f"{k}={v}" for k, v in block.items()))
        print("  rejection recall by family:", rep["rejection_recall_by_family"])
        print("  traps wrongly rejected:", rep["traps_wrongly_rejected"])
        for err in rep["errors"]:
            print("  ERROR", err)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Turn guard items into replay scripts that `score-scenarios` and `rcm-tui eval` can score.

Usage: python corpus/build_guard_replays.py dev|dev2|fresh|heldout [--mode given|e2e] [--out DIR]

For every item of corpus/guard/SPLIT.jsonl writes GID.jsonl + GID.expect.json into --out
(default: a new temporary folder, printed). The user turns are replayed with a short
acknowledgement as the scripted reply, and the item's reply is scripted for the last turn.

- `--mode given` (default) enters each rejected option with `/reject OPTION` before the last
  turn, so only the guard is measured (the issue's "rejections given" figure);
- `--mode e2e` leaves the ledger to find the rejections in the user's words (end to end).

Expectations: a `readvocates` item must list one of the proposed options (or an alias) in the
last turn's `readvocated`; `mention_only` and `clean` items must list nothing there. Score:
  ../shared/tools/score-scenarios OUT --json   (readvocacy_recall, readvocacy_false_turns)
precision = found / (found + false turns). Stdlib only.
"""
import argparse
import json
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ACK = {"en": "Understood.", "zh": "明白。"}


def is_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def script_for(item: dict, mode: str) -> tuple[list[dict], dict]:
    *earlier, last = item["conversation"]
    lines: list[dict] = []
    for turn in earlier:
        lines.append({"user": turn, "assistant": ACK["zh" if is_chinese(turn) else "en"]})
    if mode == "given":
        lines.extend({"user": f"/reject {r['option']}"} for r in item["rejected"])
    lines.append({"user": last, "assistant": item["reply"]})
    final_turn = len(item["conversation"])
    if item["kind"] == "readvocates":
        options = [alias for r in item["rejected"] if r["option"] in item["proposes"]
                   for alias in [r["option"], *r["aliases"]]]
        expect = {"readvocated": [{"turn": final_turn, "options": options}]}
    else:
        expect = {"not_readvocated_turns": [final_turn]}
    expect |= {"kind": item["kind"], "how": item["how"], "mode": mode}
    return lines, expect


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("split", choices=("dev", "dev2", "fresh", "heldout"))
    ap.add_argument("--mode", choices=("given", "e2e"), default="given")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix=f"guard-{args.split}-{args.mode}-"))
    out.mkdir(parents=True, exist_ok=True)
    items = [json.loads(line) for line in (HERE / "guard" / f"{args.split}.jsonl")
             .read_text().splitlines() if line.strip()]
    for item in items:
        lines, expect = script_for(item, args.mode)
        body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        (out / f"{item['id']}.jsonl").write_text(body)
        (out / f"{item['id']}.expect.json").write_text(
            json.dumps(expect, ensure_ascii=False, indent=1) + "\n")
    print(f"{len(items)} guard items written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

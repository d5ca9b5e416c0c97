#!/usr/bin/env python3
"""Score the analyser's rejections on single labelled messages (corpus/ledger/labels/*.jsonl).

    PYTHONPATH=. python scripts/score_labelled_messages.py FILE [FILE ...] [--tagger MODEL]
        [--encoder ADAPTER | --no-encoder] [--arms rules,tagger,both]

Each message is analysed as the first user turn after the assistant's reply in "context" (the
options on the table). A rejection found is right when it and a labelled rejected option contain
one another (case-insensitive, as the corpus scorers match); a labelled one is recalled when a
found one matches it. Arms: `rules` (rules and rejection model, the learned readers off),
`tagger` (the reader's REJ spans alone: the encoder when installed, else the CRF), `both` (the
analyser as shipped). `--no-encoder` reads with the CRF as a machine without the encoder's base
model does. Figures per language.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from train_rejection_tagger import load  # this folder: how label files are read, in one place

from rcm_tui.core.heuristics import rejection_encoder as re_
from rcm_tui.core.heuristics import rejection_tagger as rt
from rcm_tui.core.heuristics import tagged_rejections as tr
from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot
from rcm_tui.eval.matching import group_hits


def found_by(arm: str, item: dict) -> list[str]:
    if arm == "tagger":
        spans = tr.read_spans(item["text"], item["context"]).spans
        return [s.text for s in spans if s.label == rt.REJECTED]
    view = LedgerSnapshot(last_assistant_message=item["context"])
    saved = tr.ADD_FROM, tr.KEEP_FROM, tr.ENCODER_SETTINGS
    if arm == "rules":
        tr.ADD_FROM, tr.KEEP_FROM = 2.0, 2.0
        tr.ENCODER_SETTINGS = tr.JoinSettings(2.0, 2.0, 2.0, on_table=True)
    try:
        return [r.option for r in analyse_message(item["text"], 1, view).rejections]
    finally:
        tr.ADD_FROM, tr.KEEP_FROM, tr.ENCODER_SETTINGS = saved


def score(arm: str, items: list[dict]) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for item in items:
        c = out.setdefault(item.get("lang", "en"), Counter())
        found = found_by(arm, item)
        gold = item.get("rejected", [])
        c["gold"] += len(gold)
        c["hit"] += sum(group_hits([g], found) for g in gold)
        c["found"] += len(found)
        c["right"] += sum(group_hits(gold, [f]) for f in found)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--tagger", help="a tagger model file to use instead of the packaged one")
    parser.add_argument("--encoder", help="an encoder adapter file instead of the packaged one")
    parser.add_argument("--no-encoder", action="store_true", help="read with the CRF only")
    parser.add_argument("--arms", default="rules,tagger,both")
    parser.add_argument("--add", type=float, default=tr.ADD_FROM, help="ADD_FROM for `both`")
    parser.add_argument("--judged", type=float, default=tr.JUDGED_FROM, help="for `both`")
    parser.add_argument("--keep", type=float, default=tr.KEEP_FROM, help="for `both`")
    args = parser.parse_args()
    tr.ADD_FROM, tr.JUDGED_FROM = args.add, args.judged
    tr.KEEP_FROM = args.keep
    if args.tagger:
        rt.use_model(args.tagger)
    if args.encoder or args.no_encoder:
        re_.use_adapter(args.encoder or "")
    items = [item for path in args.files for item in load(path)]
    for arm in args.arms.split(","):
        for lang, c in sorted(score(arm, items).items()):
            r = c["hit"] / c["gold"] if c["gold"] else 0.0
            p = c["right"] / c["found"] if c["found"] else 0.0
            recall, precision = f"{c['hit']}/{c['gold']}", f"{c['right']}/{c['found']}"
            print(f"{arm:7} {lang}: rej R {r:.2f} ({recall})  P {p:.2f} ({precision})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Convert Schema-Guided Dialogue (SGD) into ledger replay scripts + expect files.

Usage: python corpus/build_sgd.py [--mirror DIR] [--sgd-split train|dev|test]
                                  [--out DIR] [--limit N]

Reads google-research-datasets/dstc8-schema-guided-dialogue from a local mirror (a bare
`git` directory as the project's `fetch` tool creates it, or a checkout) at measure time and
writes NAME.jsonl + NAME.expect.json into --out (default: a new temporary folder, printed).
Third-party text never enters this repository: commit nothing this script writes.

Split rule: tune on SGD `train`/`dev`, report on SGD `test` (its services differ in part
from train, which is the point).

Mapping from the gold annotations (user turns only):
- every INFORM slot value the user did not change later becomes one `requirements_any`
  group; short values ("2", "4") are widened with the next word of the utterance ("2
  people") so substring matching stays meaningful; values not written in the utterance
  (canonical forms) are skipped;
- a value the user changed (a different canonical value for the same slot later) is dropped
  from the requirements, even when the new value cannot be located in the text;
- a slot value the user replaced later (a change of mind) goes to `superseded`, not to
  `rejected`: changing "2 people" to "3 people" does not turn an option down;
- an option the system OFFERed and the user answered with REQUEST_ALTS ("anything else?")
  goes to `passed_over` (informational; SGD has no explicit rejection label);
- utterances that only REQUEST, THANK_YOU, GOODBYE, AFFIRM or NEGATE go to
  `non_requirements` (their first 40 characters);
- the utterance that states the intent ("I want to book a table") goes to `neutral`: an
  extracted requirement matching it counts neither as true nor as false;
- SELECT of an offered value sets `decision`.
Only dialogues with 4-10 user turns are converted. Stdlib only.
"""
import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

DEFAULT_MIRROR = "/work/.mirror/google-research-datasets+dstc8-schema-guided-dialogue/repo"
QUESTION_ONLY = {"REQUEST", "THANK_YOU", "GOODBYE", "AFFIRM", "NEGATE", "REQUEST_ALTS"}
TIME_SLOTS = ("time", "date", "number", "day", "seats", "people", "passengers", "rooms")


def read_split(mirror: Path, split: str) -> Iterator[dict]:
    """Dialogues of one SGD split, from a checkout or a bare mirror, file by file."""
    folder = mirror / split
    if folder.is_dir():
        for path in sorted(folder.glob("dialogues_*.json")):
            yield from json.loads(path.read_text())
        return
    names = subprocess.run(["git", "-C", str(mirror), "ls-tree", "--name-only", "HEAD",
                            f"{split}/"], capture_output=True, text=True, check=True)
    for name in sorted(n for n in names.stdout.split() if "/dialogues_" in n):
        blob = subprocess.run(["git", "-C", str(mirror), "show", f"HEAD:{name}"],
                              capture_output=True, text=True)
        if blob.returncode != 0:  # a snapshot may list its largest files without holding them
            print(f"skipped {name}: not in the mirror", file=sys.stderr)
            continue
        yield from json.loads(blob.stdout)


def widen(value: str, utterance: str) -> str | None:
    """The value as the user wrote it, widened by one word when it is too short to match."""
    low = utterance.lower()
    at = low.find(value.lower())
    if at < 0:
        return None
    if len(value) >= 4:
        return utterance[at:at + len(value)]
    rest = utterance[at + len(value):].split()
    return (utterance[at:at + len(value)] + (" " + rest[0].strip(".,!?") if rest else ""))


def user_acts(turn: dict) -> list[dict]:
    return [a for f in turn["frames"] for a in f["actions"]]


def convert(dialogue: dict) -> tuple[list[dict], dict] | None:
    turns = dialogue["turns"]
    script: list[dict] = []
    informed: dict[str, tuple[str, list[str]]] = {}  # slot -> (user wording, canonical)
    superseded: list[str] = []
    passed_over: list[str] = []
    non_reqs: list[str] = []
    neutral: list[str] = []
    families: set[str] = set()
    decision = None
    last_offer: list[str] = []
    for i, turn in enumerate(turns):
        if turn["speaker"] != "USER":
            last_offer = [v for a in user_acts(turn) if a["act"] == "OFFER" for v in a["values"]]
            continue
        text = turn["utterance"]
        reply = turns[i + 1]["utterance"] if i + 1 < len(turns) else "Goodbye!"
        script.append({"user": text, "assistant": reply})
        acts = user_acts(turn)
        kinds = {a["act"] for a in acts}
        if kinds and kinds <= QUESTION_ONLY:
            non_reqs.append(text[:40])
            families.add("question" if "REQUEST" in kinds else "small_talk")
        if "INFORM_INTENT" in kinds and "INFORM" not in kinds:
            neutral.append(text[:40])
        if "REQUEST_ALTS" in kinds:
            passed_over.extend(last_offer)
        if "SELECT" in kinds and last_offer:
            decision = last_offer[0]
            families.add("decision")
        informs = [a for a in acts if a["act"] == "INFORM"]
        if len(informs) >= 2:
            families.add("conjoined")
        for act in informs:
            canonical = [c.lower() for c in act.get("canonical_values", [])]
            for value in act["values"][:1]:
                old = informed.pop(act["slot"], None)
                if old and old[1] != canonical:
                    superseded.append(old[0])
                elif old:
                    informed[act["slot"]] = old
                wording = widen(value, text)
                if wording is not None and act["slot"] not in informed:
                    informed[act["slot"]] = (wording, canonical)
                families.add("quantity_time" if any(k in act["slot"] for k in TIME_SLOTS)
                             else "preference")
    if not 4 <= len(script) <= 10:
        return None
    expect = {
        "rejected": [], "not_rejected": [], "reopened": [],
        "requirements_any": [[w] for w, _ in informed.values()],
        "non_requirements": non_reqs, "neutral": neutral,
        "superseded": superseded, "passed_over": passed_over,
        "families": sorted(families), "lang": "en",
        "source": f"sgd:{dialogue['dialogue_id']}",
    }
    if decision:
        expect["decision"] = decision
    return script, expect


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirror", default=DEFAULT_MIRROR)
    ap.add_argument("--sgd-split", default="test", choices=("train", "dev", "test"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--limit", type=int, default=50)
    args = ap.parse_args()
    out = Path(args.out or tempfile.mkdtemp(prefix=f"sgd-{args.sgd_split}-"))
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for dialogue in read_split(Path(args.mirror), args.sgd_split):
        converted = convert(dialogue)
        if converted is None:
            continue
        script, expect = converted
        name = f"sgd-{dialogue['dialogue_id']}"
        lines = "".join(json.dumps(t, ensure_ascii=False) + "\n" for t in script)
        (out / f"{name}.jsonl").write_text(lines)
        (out / f"{name}.expect.json").write_text(json.dumps(expect, indent=1) + "\n")
        written += 1
        if written >= args.limit:
            break
    print(f"{written} conversations written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

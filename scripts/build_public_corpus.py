#!/usr/bin/env python3
"""Build ledger conversations from public dialogue-state-tracking data (issue 12).

    PYTHONPATH=. python scripts/build_public_corpus.py --sgd SGD --crosswoz CROSSWOZ --out DIR

SGD is google-research-datasets/dstc8-schema-guided-dialogue (English), CrossWOZ is
thu-coai/CrossWOZ (Chinese); each path is a clone or a bare mirror (the `fetch` tool's git
directory), read with `git show` when it has no work tree. Their text is third-party: it is
written under DIR (outside the repository) at measure time and never committed. What this
script commits is how their gold annotations become our expectations:

- a value the user INFORMs (SGD) / `Inform`s (CrossWOZ) is a requirement, matched as the
  scorers match (case-insensitive substring) by the words the user typed for it: the value
  itself when it is in the utterance, a short number with the word after it ("2 people"), a
  CrossWOZ facility by its name (酒店设施-叫醒服务 → 叫醒服务);
- a value the annotation gives but the user did not type ("zero bags" for 0, `True`), a
  request's goal (SGD INFORM_INTENT), a place the user names (CrossWOZ 名称, Select): the
  utterance is `neutral` — whatever the ledger takes from it counts neither way;
- what the system OFFERed (or asked to CONFIRM) just before the user asked for something else
  (REQUEST_ALTS) or said no (NEGATE), and what a user declines in words (SGD NEGATE_INTENT, a
  slot set to `None`: "with no subtitles"), may be recorded as rejected (`rejected_allowed`),
  but need not be: these users seldom reject, so a rejection anywhere else is false.
  The figures are requirement recall, false requirements per 10 turns and rejection precision.

The split is the datasets' own: SGD `dev` and CrossWOZ `val` are the part we may read (public
tune); SGD `test` (with services unseen in training) and CrossWOZ `test` are reported only
(public heldout). Dialogues are taken in the order of a hash of their id, so the sample is
fixed and not the files' first ones.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

SPLITS = {"tune": ("dev", "val"), "heldout": ("test", "test")}
SGD_FILES = 20  # SGD's dialogues_NNN.json files read per split (each holds about 100-130)
SHORT_VALUE = 2  # a value this short ("2") matches anything; the word after it is kept
YES_NO = ("是", "否")
FUNCTION_WORDS = frozenset("a an and at by for from in of on or the to with".split())


def read_source(root: Path, path: str) -> bytes:
    """One file of a clone, or of a bare mirror (no work tree) at HEAD."""
    if (root / path).is_file():
        return (root / path).read_bytes()
    return subprocess.run(
        ["git", "--git-dir", str(root), "show", f"HEAD:{path}"],
        check=True,
        capture_output=True,
    ).stdout


def listed(root: Path, folder: str) -> list[str]:
    if (root / folder).is_dir():
        return sorted(str(p.relative_to(root)) for p in (root / folder).glob("*.json"))
    out = subprocess.run(
        ["git", "--git-dir", str(root), "ls-tree", "--name-only", f"HEAD:{folder}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [f"{folder}/{name}" for name in sorted(out.split()) if name.endswith(".json")]


def sample_order(key: str) -> str:
    return hashlib.sha1(key.encode()).hexdigest()


def typed_as(value: str, utterance: str, slot: str = "") -> str | None:
    """The words the user typed for an annotated value, or None when they did not type it.
    A short value keeps the word after it, the one naming the slot when there are several
    ("a 3 star hotel … I need 3 rooms": number_of_rooms is "3 rooms")."""
    if value.lower() not in utterance.lower():
        return None
    if len(value) > SHORT_VALUE:
        return value
    value_re = rf"(?<![\w$.]){re.escape(value)}(?![\w.])"
    after = [m.group(0) for m in re.finditer(rf"{value_re}\s+[^\W\d_]+", utterance, re.I)]
    named = [f for f in after if f.split()[-1].lower().rstrip("s") in slot.lower()]
    # Else its unit ("4 star"), else the word before it ("a table for 2 in Oakland").
    units = [f for f in after if f.split()[-1].lower() not in FUNCTION_WORDS]
    before = [m.group(0) for m in re.finditer(rf"[^\W\d_]+\s+{value_re}", utterance, re.I)]
    return (named or units or before or [None])[0]


class Expectations:
    """One conversation's expectations, collected turn by turn."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.requirements: list[list[str]] = []
        self.neutral: list[str] = []
        self.allowed: list[str] = []

    def require(self, words: str) -> None:
        if not any(words.lower() == g[0].lower() for g in self.requirements):
            self.requirements.append([words])

    def as_json(self, source: str) -> dict[str, Any]:
        return {
            "rejected": [],
            "rejected_allowed": sorted({v for v in self.allowed if len(v) > SHORT_VALUE}),
            "not_rejected": [],
            "reopened": [],
            "requirements_any": self.requirements,
            "non_requirements": [],
            "neutral": sorted(set(self.neutral)),
            "families": ["task_oriented"],
            "lang": self.lang,
            "register": ["crowdsourced"],
            "source": source,
        }


# -- SGD ----------------------------------------------------------------------------------------
def sgd_dialogue(dialogue: dict[str, Any]) -> tuple[list[dict[str, str]], Expectations]:
    expect = Expectations("en")
    turns = dialogue["turns"]
    lines: list[dict[str, str]] = []
    offered: list[str] = []
    for i in range(0, len(turns), 2):
        user = turns[i]["utterance"]
        reply = turns[i + 1]["utterance"] if i + 1 < len(turns) else "Okay."
        acts = [a for frame in turns[i]["frames"] for a in frame["actions"]]
        for act in acts:
            _sgd_act(act, user, offered, expect)
        lines.append({"user": user, "assistant": reply})
        if i + 1 < len(turns):
            system_acts = [a for frame in turns[i + 1]["frames"] for a in frame["actions"]]
            offered = [
                v for a in system_acts if a["act"] in ("OFFER", "CONFIRM") for v in a["values"]
            ]
    return lines, expect


def _sgd_act(act: dict[str, Any], user: str, offered: list[str], expect: Expectations) -> None:
    if act["act"] == "INFORM_INTENT":
        expect.neutral.append(user)
    elif act["act"] in ("REQUEST_ALTS", "NEGATE"):
        expect.allowed += offered
    if act["act"] == "NEGATE_INTENT" or (act["act"] == "INFORM" and act["values"] == ["None"]):
        # "I don't want any reservations now", "with no subtitles": the user declines, in
        # their own words; what is rejected from this utterance is a true rejection.
        expect.allowed.append(user)
        return
    elif act["act"] == "INFORM" and _names_a_choice(act["slot"]):
        expect.neutral.append(user)
    elif act["act"] == "INFORM":
        for value in act["values"]:
            words = typed_as(value, user, act["slot"])
            if words:
                expect.require(words)
            else:
                expect.neutral.append(user)


def _names_a_choice(slot: str) -> bool:
    """A restaurant, hotel or film the user names is a choice (a decision), not a need."""
    return slot.endswith("_name") or slot in ("title", "movie_title")


def sgd_dialogues(root: Path, folder: str) -> list[dict[str, Any]]:
    dialogues: list[dict[str, Any]] = []
    for path in listed(root, folder)[:SGD_FILES]:
        if not Path(path).name.startswith("dialogues_"):
            continue
        try:
            dialogues += json.loads(read_source(root, path))
        except subprocess.CalledProcessError:
            # A mirror may list its largest files without holding them.
            print(f"{root}: {path} not in the mirror, skipped", file=sys.stderr)
    return dialogues


# -- CrossWOZ -----------------------------------------------------------------------------------
def crosswoz_dialogue(dialogue: dict[str, Any]) -> tuple[list[dict[str, str]], Expectations]:
    expect = Expectations("zh")
    messages = dialogue["messages"]
    lines: list[dict[str, str]] = []
    for i in range(0, len(messages), 2):
        user = messages[i]["content"]
        reply = messages[i + 1]["content"] if i + 1 < len(messages) else "好的。"
        for intent, _domain, slot, value in messages[i]["dialog_act"]:
            # Naming a place, choosing one, asking for one ("请给我推荐一家餐馆": the request's
            # goal) is no requirement either way.
            if intent == "Select" or (intent in ("Inform", "Request") and slot == "名称"):
                expect.neutral.append(user)
            elif intent == "Inform":
                words = slot.split("-")[-1] if value in YES_NO else value
                if words and words in user:
                    expect.require(words)
                else:
                    expect.neutral.append(user)
        lines.append({"user": user, "assistant": reply})
    return lines, expect


def crosswoz_dialogues(root: Path, split: str) -> list[tuple[str, dict[str, Any]]]:
    archive = zipfile.ZipFile(io.BytesIO(read_source(root, f"data/crosswoz/{split}.json.zip")))
    data = json.loads(archive.read(f"{split}.json"))
    return list(data.items())


# -- writing ------------------------------------------------------------------------------------
def write(out: Path, name: str, lines: list[dict[str, str]], expect: dict[str, Any]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    (out / f"{name}.jsonl").write_text(body, encoding="utf-8")
    (out / f"{name}.expect.json").write_text(
        json.dumps(expect, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )


def build(args: argparse.Namespace) -> None:
    for split, (sgd_folder, crosswoz_split) in SPLITS.items():
        target = args.out / split
        if args.sgd:
            dialogues = sgd_dialogues(args.sgd, sgd_folder)
            dialogues.sort(key=lambda d: sample_order(d["dialogue_id"]))
            for dialogue in dialogues[: args.per_source]:
                lines, expect = sgd_dialogue(dialogue)
                name = "sgd-" + dialogue["dialogue_id"].replace("_", "-")
                write(target, name, lines, expect.as_json(f"SGD {sgd_folder}"))
        if args.crosswoz:
            pairs = crosswoz_dialogues(args.crosswoz, crosswoz_split)
            pairs.sort(key=lambda p: sample_order(p[0]))
            source = f"CrossWOZ {crosswoz_split}"
            for key, dialogue in pairs[: args.per_source]:
                lines, expect = crosswoz_dialogue(dialogue)
                write(target, f"crosswoz-{key}", lines, expect.as_json(source))
        print(f"{target}: {len(list(target.glob('*.jsonl')))} conversations")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sgd", type=Path, help="dstc8-schema-guided-dialogue clone or mirror")
    parser.add_argument("--crosswoz", type=Path, help="CrossWOZ clone or mirror")
    parser.add_argument("--out", type=Path, required=True, help="folder for the conversations")
    parser.add_argument("--per-source", type=int, default=40, help="dialogues per source and split")
    args = parser.parse_args(argv)
    if not (args.sgd or args.crosswoz):
        parser.error("give --sgd, --crosswoz or both")
    build(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

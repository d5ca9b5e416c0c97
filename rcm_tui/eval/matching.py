"""How a ledger line is matched with an expected phrase: the rules of
`shared/tools/score-scenarios` (case-insensitive substring, in either direction), apostrophes
aside — the ledger restores the apostrophes typists leave out, so "dont" and "don't" are one
word."""

from __future__ import annotations

from typing import Any


def matching_text(text: Any) -> str:
    return " ".join(str(text).lower().replace("'", "").replace("’", "").split())


def matches(term: Any, text: Any) -> bool:
    a, b = matching_text(term), matching_text(text)
    return bool(a) and bool(b) and (a in b or b in a)


def named_in(term: Any, texts: list[str]) -> bool:
    return any(matching_text(term) in matching_text(t) for t in texts)


def group_hits(group: list[str], texts: list[str]) -> bool:
    return any(matches(t, x) for t in group for x in texts)

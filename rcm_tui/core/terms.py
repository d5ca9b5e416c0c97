"""Content words: what overlap checks between a reply, a requirement and a question compare."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_+#.-]*[A-Za-z0-9+#]|[A-Za-z]|\d[\d,.]*|[\u4e00-\u9fff]{2}")
_STOP = frozenset(
    "a an the and or but if of to in on for with at by from as is are was were be been it this "
    "that these those we you i our your my me us can could would should will shall do does did "
    "not no yes so too also just only very what which who how where when why there here then "
    "than them they their its about into over under up down out more most some any all each "
    "let lets let's use using need needs must have has had get make want please".split()
)


def content_terms(text: str) -> set[str]:
    """Lower-cased content words (and CJK bigrams) for overlap checks."""
    return {t.lower().rstrip(".,") for t in _WORD.findall(text) if t.lower() not in _STOP}


def overlap(needle: str, haystack_terms: set[str]) -> float:
    terms = content_terms(needle)
    if not terms:
        return 0.0
    return len(terms & haystack_terms) / len(terms)

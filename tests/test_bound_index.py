"""The bounded ledger block chosen from the index is the block a full scan chooses (issue 15:
choosing it read every requirement of a 1,000-requirement ledger at every message)."""

from __future__ import annotations

import heapq
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rcm_tui.core import bound_index
from rcm_tui.core.ledger_bound import (
    DISTINCTIVE_SHARE,
    _terms,
    bounded_requirements,
    bounded_with_ranges,
    id_ranges,
)
from rcm_tui.core.ledger_snapshot import RequirementItem
from rcm_tui.core.terms import content_terms

WORDS = ("Kafka", "Redis", "cache", "queue", "retries", "latency", "billing", "users",
         "export", "backups", "audit", "region", "checkout", "mobile", "platform")


def _full_scan(
    requirements: list[RequirementItem], limit: int, focus: str
) -> tuple[list[RequirementItem], list[RequirementItem]]:
    """The choice as ledger_bound made it before the index: a pass over every item."""
    def newest(items: list[RequirementItem], count: int) -> list[RequirementItem]:
        return heapq.nlargest(count, items, key=lambda r: r.source_turn)

    wanted = content_terms(focus)
    relevant: list[RequirementItem] = []
    if wanted:
        counts = Counter(t for r in requirements for t in _terms(r.text) & wanted)
        most = max(1, int(len(requirements) * DISTINCTIVE_SHARE))
        rare = {t for t, n in counts.items() if n <= most}
        relevant = [r for r in requirements if _terms(r.text) & rare]
    pinned = [r for r in requirements if r.origin == "user"]
    chosen = {r.id: r for r in pinned}
    ranked = [*newest([r for r in requirements if r.status == "pending"], limit),
              *newest(relevant, limit), *newest(requirements, limit + len(pinned))]
    for item in ranked:
        if len(chosen) >= max(limit, len(pinned)):
            break
        chosen.setdefault(item.id, item)
    return ([r for r in requirements if r.id in chosen],
            [r for r in requirements if r.id not in chosen])


item_st = st.builds(
    RequirementItem,
    id=st.one_of(st.integers(1, 400).map(lambda n: f"R{n}"),
                 st.sampled_from(["X1", "Q", "R", "R07", "R²"])),
    text=st.lists(st.sampled_from(WORDS), min_size=0, max_size=4).map(" ".join),
    status=st.sampled_from(["pending", "addressed", "confirmed"]),
    source_turn=st.integers(0, 30),
    origin=st.sampled_from(["heuristic", "heuristic", "heuristic", "user"]),
)
# One ledger followed through edits: items replaced in place (a status or text changed),
# appended, and the list cut short (a rewind), as the live requirements change turn by turn.
edit_st = st.one_of(
    st.tuples(st.just("append"), st.lists(item_st, min_size=1, max_size=8)),
    st.tuples(st.just("replace"), st.integers(0, 10_000), item_st),
    st.tuples(st.just("cut"), st.integers(0, 10_000)),
)


def _same(ledger: list[RequirementItem], limit: int, focus: str) -> None:
    expected_shown, expected_rest = _full_scan(ledger, limit, focus)
    shown, rest = bounded_requirements(ledger, limit, focus)
    assert shown == expected_shown
    assert rest == expected_rest
    try:
        expected_ranges = id_ranges(expected_rest) if expected_rest else ""
    except ValueError:  # "R²": digits that int() refuses, as before the index
        with pytest.raises(ValueError):
            bounded_with_ranges(ledger, limit, focus)
        return
    shown, count, ranges = bounded_with_ranges(ledger, limit, focus)
    assert shown == expected_shown
    assert count == len(expected_rest)
    assert ranges == expected_ranges


@settings(max_examples=150, deadline=None)
@given(
    start=st.lists(item_st, min_size=0, max_size=60),
    edits=st.lists(edit_st, max_size=12),
    limit=st.integers(1, 12),
    focus=st.lists(st.sampled_from(WORDS), max_size=3).map(" ".join),
)
def test_the_index_chooses_what_a_full_scan_chooses(
    start: list[RequirementItem], edits: list[tuple], limit: int, focus: str
) -> None:
    ledger = list(start)
    _same(ledger, limit, focus)
    for edit in edits:
        if edit[0] == "append":
            ledger += edit[1]
        elif edit[0] == "replace" and ledger:
            ledger[edit[1] % len(ledger)] = edit[2]
        elif edit[0] == "cut":
            del ledger[edit[1] % (len(ledger) + 1):]
        _same(list(ledger), limit, focus)


def test_a_long_ledger_is_followed_not_rebuilt() -> None:
    """The case of a long session: one requirement added and one answered per turn."""
    ledger = [RequirementItem(f"R{n}", f"need {WORDS[n % len(WORDS)]} {n}", "addressed", n)
              for n in range(1, 600)]
    _same(ledger, 40, "the Kafka part")
    index = bound_index.index_for(ledger, _terms)
    for n in range(600, 620):
        ledger = [*ledger, RequirementItem(f"R{n}", f"need Redis {n}", "pending", n)]
        ledger[-2] = replace(ledger[-2], status="addressed")
        _same(ledger, 40, f"checkout {n}")
    assert bound_index.index_for(ledger, _terms) is index
    _, count, ranges = bounded_with_ranges(ledger, 40, "checkout")
    assert count == len(ledger) - 40
    assert ranges.startswith("R1–R")


def test_ranges_split_around_the_shown_ones() -> None:
    numbers = [*range(1, 21), 30, 31, 40]
    assert list(bound_index._ranges(numbers, [5, 6, 20, 31])) == [
        "R1–R4", "R7–R19", "R30", "R40"]

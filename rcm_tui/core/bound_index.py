"""The bounded ledger block's choice (ledger_bound.py), kept up to date item by item.

Choosing the block read every requirement of the ledger at every new message: which the user
pinned, which are pending, how many requirements share each word of the message, the newest
(a heap over all of them), the ids of the rest as ranges — ~2 ms a turn at 1,000
requirements, for a block of 40. This index holds those facts per item and follows the list of
items it was built from: the items are frozen, so an item that changed is a different object,
and the positions that changed are found by one identity comparison in C. A choice then costs
what the block shows, not what the ledger holds. `tests/test_bound_index.py` checks it against
the full scan on random ledgers.
"""

from __future__ import annotations

import bisect
import heapq
import operator
from collections.abc import Callable, Iterator
from itertools import compress
from typing import Any

from .ledger_snapshot import RequirementItem

# More changed positions than this (or a shorter list): build the index again.
_MAX_PATCHED = 64
_CACHED_INDEXES = 3
# text -> its content terms (the caller caches them: requirement texts repeat).
TermsOf = Callable[[str], frozenset[str]]


def _order(turn: int, position: int) -> tuple[int, int]:
    # heapq.nlargest by source_turn keeps the earlier item first among equal turns.
    return (-turn, position)


class BoundIndex:
    """Per-item facts of one list of requirement items (the live ones, or the pending ones)."""

    def __init__(self, terms_of: TermsOf) -> None:
        self._terms_of = terms_of
        self.items: list[RequirementItem] = []
        self._postings: dict[str, set[int]] = {}
        self._by_id: dict[str, set[int]] = {}
        self.pinned: set[int] = set()
        self._pending: list[tuple[int, int]] = []
        self._newest: list[tuple[int, int]] = []
        # "R<digits>" ids as numbers (sorted, with repeats) and the other ids' positions.
        self._numbers: list[int] = []
        self._others: list[int] = []
        # An id the ranges cannot be read from quickly (a repeated number, int() refusing
        # the digits): then the caller spells the ranges out from the items.
        self.irregular = 0

    # -- following the list ---------------------------------------------------------------
    def follow(self, items: list[RequirementItem]) -> bool:
        """Bring the index up to `items`; False when it cannot be patched (build a new one)."""
        shared = len(self.items)
        if len(items) < shared:
            return False
        changed = list(compress(range(shared), map(operator.is_not, items, self.items)))
        if len(changed) > _MAX_PATCHED:
            return False
        for position in changed:
            self._remove(position)
            self._add(position, items[position])
        for position in range(shared, len(items)):
            self.items.append(items[position])
            self._add(position, items[position])
        return True

    def _add(self, position: int, item: RequirementItem) -> None:
        self.items[position] = item
        for term in self._terms_of(item.text):
            self._postings.setdefault(term, set()).add(position)
        self._by_id.setdefault(item.id, set()).add(position)
        if item.origin == "user":
            self.pinned.add(position)
        key = _order(item.source_turn, position)
        if item.status == "pending":
            bisect.insort(self._pending, key)
        bisect.insort(self._newest, key)
        number = _number(item.id)
        if number is None:
            bisect.insort(self._others, position)
        elif number < 0:
            self.irregular += 1
        else:
            at = bisect.bisect_left(self._numbers, number)
            if at < len(self._numbers) and self._numbers[at] == number:
                self.irregular += 1
            self._numbers.insert(at, number)

    def _remove(self, position: int) -> None:
        item = self.items[position]
        for term in self._terms_of(item.text):
            held = self._postings[term]
            held.discard(position)
            if not held:
                del self._postings[term]
        ids = self._by_id[item.id]
        ids.discard(position)
        if not ids:
            del self._by_id[item.id]
        self.pinned.discard(position)
        key = _order(item.source_turn, position)
        if item.status == "pending":
            _discard_sorted(self._pending, key)
        _discard_sorted(self._newest, key)
        number = _number(item.id)
        if number is None:
            _discard_sorted(self._others, position)
        elif number < 0:
            self.irregular -= 1
        else:
            at = bisect.bisect_left(self._numbers, number)
            del self._numbers[at]
            if self._numbers[at : at + 1] == [number] or self._numbers[at - 1 : at] == [number]:
                self.irregular -= 1

    # -- what the choice reads --------------------------------------------------------------
    def pending_newest(self, count: int) -> list[RequirementItem]:
        return [self.items[p] for _turn, p in self._pending[:count]]

    def newest(self, count: int) -> list[RequirementItem]:
        return [self.items[p] for _turn, p in self._newest[:count]]

    def sharing_rare(self, wanted: set[str], most: int) -> list[int]:
        """Positions of the items holding a wanted term that at most `most` items hold."""
        found: set[int] = set()
        for term in wanted:
            held = self._postings.get(term)
            if held and len(held) <= most:
                found |= held
        return list(found)

    def newest_of(self, positions: list[int], count: int) -> list[RequirementItem]:
        items = self.items
        best = heapq.nsmallest(count, positions, key=lambda p: _order(items[p].source_turn, p))
        return [items[p] for p in best]

    def positions_of(self, ids: list[str]) -> list[int]:
        """Every position holding one of `ids`, in ledger order."""
        found: set[int] = set()
        for item_id in ids:
            found |= self._by_id.get(item_id, set())
        return sorted(found)

    def rest_ranges(self, shown: list[int], most: int) -> str:
        """id_ranges (ledger_bound.py) of the items not at the `shown` positions."""
        excluded = sorted(n for p in shown if (n := _number(self.items[p].id)) is not None)
        parts = list(_take(_ranges(self._numbers, excluded), most + 1))
        if len(parts) <= most:
            shown_set = set(shown)
            others = (self.items[p].id for p in self._others if p not in shown_set)
            parts += _take(others, most + 1 - len(parts))
        return ", ".join(parts[:most]) + (", …" if len(parts) > most else "")


def _take(parts: Iterator[str], count: int) -> list[str]:
    taken: list[str] = []
    for part in parts:
        if len(taken) >= count:
            break
        taken.append(part)
    return taken


def _number(item_id: str) -> int | None:
    """The number of an "R<digits>" id; None for another id; -1 for digits int() refuses."""
    head, number = item_id[:1], item_id[1:]
    if head != "R" or not number.isdigit():
        return None
    try:
        return int(number)
    except ValueError:
        return -1


def _discard_sorted(values: list[Any], value: Any) -> None:
    at = bisect.bisect_left(values, value)
    if at < len(values) and values[at] == value:
        del values[at]


def _run_end(numbers: list[int], start: int) -> int:
    """The last index of the run of consecutive numbers from `start` (distinct numbers:
    numbers[i] - i only grows, and stays the same along a run)."""
    low, high = start, len(numbers) - 1
    step = numbers[start] - start
    while low < high:
        middle = (low + high + 1) // 2
        if numbers[middle] - middle == step:
            low = middle
        else:
            high = middle - 1
    return low


def _ranges(numbers: list[int], excluded: list[int]) -> Iterator[str]:
    """The consecutive ranges of `numbers` without `excluded` (a subset), formatted as
    id_ranges does, lazily: a run is crossed in one binary search."""
    index = 0
    while index < len(numbers):
        end = _run_end(numbers, index)
        low, high = numbers[index], numbers[end]
        cut = bisect.bisect_left(excluded, low)
        while low <= high:
            stop = excluded[cut] - 1 if cut < len(excluded) and excluded[cut] <= high else high
            if stop >= low:
                yield f"R{low}" if low == stop else f"R{low}–R{stop}"
            low = stop + 2
            cut += 1
        index = end + 1


_indexes: list[BoundIndex] = []


def index_for(items: list[RequirementItem], terms_of: TermsOf) -> BoundIndex:
    """The index of `items`, patched from the cached one that holds the most of them."""
    for index in _indexes:
        if index.items[:1] == items[:1] and index.items[:1] and index.follow(items):
            _indexes.remove(index)
            _indexes.insert(0, index)
            return index
    index = BoundIndex(terms_of)
    index.follow(items)
    _indexes.insert(0, index)
    del _indexes[_CACHED_INDEXES:]
    return index

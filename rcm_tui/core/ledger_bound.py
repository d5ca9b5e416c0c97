"""Which requirements a prompt shows in full when the ledger is long.

Every requirement goes into every prompt while the ledger is short. A session where the user
states a new need every turn reaches 1,000 requirements (~90 KB, ~22,000 tokens): more than
the whole prompt budget, so the history was crowded out and every turn (prompt, analysis,
stored call records) cost more than the last. Past `limit` requirements the block keeps in
full what a demanding user expects the model to have in front of it, in this order:

1. what the user set by hand (origin "user": added or edited in the panel) — always, all;
2. what is still pending (not yet answered) — the newest first;
3. what the current message is about: requirements sharing a distinctive word with it (a
   word that few requirements use, like "Kafka" or "checkout", not "need" or "platform") —
   when the user talks about the Kafka part, every Kafka need is in view;
4. the most recently stated or updated.

The rest are not dropped from the ledger (the panel, the judge's bookkeeping and the
SOLIDIFIED block still have them): the block names them by count and id range, so the model
knows they exist and that they still hold. Rejected options and the SOLIDIFIED block are never
bounded: they are few and proposing a rejected option again is the failure that costs most.
"""

from __future__ import annotations

import functools
import heapq
import operator
from collections import Counter
from collections.abc import Iterable

from .ledger_snapshot import RequirementItem
from .terms import content_terms

# The share of the requirements a word may appear in and still be distinctive.
DISTINCTIVE_SHARE = 0.05


@functools.lru_cache(maxsize=8192)
def _terms(text: str) -> frozenset[str]:
    # Requirement texts repeat from turn to turn: read each once.
    return frozenset(content_terms(text))


def _newest_first(items: Iterable[RequirementItem], count: int) -> list[RequirementItem]:
    # The `count` newest, without sorting the whole ledger: this runs a few times a turn.
    return heapq.nlargest(count, items, key=lambda r: r.source_turn)


def _relevant(items: list[RequirementItem], focus: str) -> list[RequirementItem]:
    wanted = content_terms(focus)
    if not wanted:
        return []
    counts = Counter(term for r in items for term in _terms(r.text) & wanted)
    most = max(1, int(len(items) * DISTINCTIVE_SHARE))
    rare = {term for term, n in counts.items() if n <= most}
    return [r for r in items if _terms(r.text) & rare]


Bounded = tuple[list[RequirementItem], list[RequirementItem]]
# The last few choices: the block is chosen several times a turn (prompt, instructions, the
# judge) over the same ledger, whose items are the same objects while unchanged.
_chosen: list[tuple[tuple[int, str], list[RequirementItem], Bounded]] = []
_CACHED_CHOICES = 8


def bounded_requirements(
    requirements: list[RequirementItem], limit: int, focus: str = ""
) -> Bounded:
    """(shown in full, in ledger order; the rest). Everything is shown up to `limit`."""
    if limit <= 0 or len(requirements) <= limit:
        return requirements, []
    for key, items, result in _chosen:
        if key == (limit, focus) and len(items) == len(requirements) and all(
            map(operator.is_, items, requirements)
        ):
            return list(result[0]), list(result[1])
    result = _choose(requirements, limit, focus)
    _chosen.insert(0, ((limit, focus), list(requirements), result))
    del _chosen[_CACHED_CHOICES:]
    return list(result[0]), list(result[1])


def _choose(requirements: list[RequirementItem], limit: int, focus: str) -> Bounded:
    pinned = [r for r in requirements if r.origin == "user"]
    chosen: dict[str, RequirementItem] = {r.id: r for r in pinned}
    ranked = [
        *_newest_first((r for r in requirements if r.status == "pending"), limit),
        *_newest_first(_relevant(requirements, focus), limit),
        *_newest_first(requirements, limit + len(pinned)),
    ]
    for item in ranked:
        if len(chosen) >= max(limit, len(pinned)):
            break
        chosen.setdefault(item.id, item)
    shown = [r for r in requirements if r.id in chosen]
    return shown, [r for r in requirements if r.id not in chosen]


def id_ranges(items: list[RequirementItem], most: int = 8) -> str:
    """"R1–R940, R960" for ids like R<number>; at most `most` ranges, then "…"."""
    numbered: list[int] = []
    other: list[str] = []
    for item in items:
        head, number = item.id[:1], item.id[1:]
        if head == "R" and number.isdigit():
            numbered.append(int(number))
        else:
            other.append(item.id)
    ranges: list[tuple[int, int]] = []
    for n in sorted(numbered):
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1] = (ranges[-1][0], n)
        else:
            ranges.append((n, n))
    parts = [f"R{a}" if a == b else f"R{a}–R{b}" for a, b in ranges] + other
    return ", ".join(parts[:most]) + (", …" if len(parts) > most else "")

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
import itertools
import operator
from dataclasses import dataclass

from .bound_index import index_for
from .ledger_snapshot import RequirementItem
from .terms import content_terms

# The share of the requirements a word may appear in and still be distinctive.
DISTINCTIVE_SHARE = 0.05
# Id ranges a block names before "…".
RANGES_SHOWN = 8


@functools.lru_cache(maxsize=8192)
def _terms(text: str) -> frozenset[str]:
    # Requirement texts repeat from turn to turn: read each once.
    return frozenset(content_terms(text))


Bounded = tuple[list[RequirementItem], list[RequirementItem]]


@dataclass
class _Choice:
    shown: list[RequirementItem]
    rest: list[RequirementItem]
    # The rest named by id ranges, as `id_ranges` names them (read from the index); None
    # when the index cannot tell (repeated numbers): then they are read from the rest.
    ranges: str | None


# The last few choices: the block is chosen several times a turn (prompt, instructions, the
# judge) over the same ledger, whose items are the same objects while unchanged.
_chosen: list[tuple[tuple[int, str], list[RequirementItem], _Choice]] = []
_CACHED_CHOICES = 8


def bounded_requirements(
    requirements: list[RequirementItem], limit: int, focus: str = ""
) -> Bounded:
    """(shown in full, in ledger order; the rest). Everything is shown up to `limit`."""
    if limit <= 0 or len(requirements) <= limit:
        return requirements, []
    choice = _cached_choice(requirements, limit, focus)
    return list(choice.shown), list(choice.rest)


def bounded_with_ranges(
    requirements: list[RequirementItem], limit: int, focus: str = ""
) -> tuple[list[RequirementItem], int, str]:
    """(shown in full, how many are not, their ids as `id_ranges` names them)."""
    if limit <= 0 or len(requirements) <= limit:
        return requirements, 0, ""
    choice = _cached_choice(requirements, limit, focus)
    ranges = id_ranges(choice.rest) if choice.ranges is None else choice.ranges
    return list(choice.shown), len(choice.rest), ranges


def _cached_choice(requirements: list[RequirementItem], limit: int, focus: str) -> _Choice:
    for key, items, choice in _chosen:
        if key == (limit, focus) and len(items) == len(requirements) and all(
            map(operator.is_, items, requirements)
        ):
            return choice
    choice = _choose(requirements, limit, focus)
    _chosen.insert(0, ((limit, focus), list(requirements), choice))
    del _chosen[_CACHED_CHOICES:]
    return choice


def _choose(requirements: list[RequirementItem], limit: int, focus: str) -> _Choice:
    """The choice, read from the index of the list (bound_index.py) rather than a scan."""
    index = index_for(requirements, _terms)
    pinned = [index.items[p] for p in sorted(index.pinned)]
    chosen: dict[str, RequirementItem] = {r.id: r for r in pinned}
    wanted = content_terms(focus)
    most = max(1, int(len(requirements) * DISTINCTIVE_SHARE))
    relevant = index.sharing_rare(wanted, most) if wanted else []
    ranked = [
        *index.pending_newest(limit),
        *index.newest_of(relevant, limit),
        *index.newest(limit + len(pinned)),
    ]
    for item in ranked:
        if len(chosen) >= max(limit, len(pinned)):
            break
        chosen.setdefault(item.id, item)
    shown = index.positions_of(list(chosen))
    rest: list[RequirementItem] = []
    bounds = [-1, *shown, len(requirements)]
    for start, stop in itertools.pairwise(bounds):
        rest += requirements[start + 1 : stop]  # slice by slice, in C

    # Read now: the index follows the next list it is given.
    named = None if index.irregular else index.rest_ranges(shown, RANGES_SHOWN)
    return _Choice([requirements[p] for p in shown], rest, named)


def id_ranges(items: list[RequirementItem], most: int = RANGES_SHOWN) -> str:
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

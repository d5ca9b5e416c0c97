"""The requirements by id, followed as the ledger grows, for the lookups made every turn.

Marking the requirements a reply addressed, finding one by id and choosing the next id each
read every requirement (~0.3 ms a turn at 1,000 requirements, and more with each turn). Ids
are only ever set by assignment, which `Requirement.__setattr__` logs: this keeps the ids of
the requirements seen, where each id is, and the largest "R" number, and reads again only the
requirements added or written to since. `tests/test_requirement_ids.py` checks it against the
scans it replaces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .models import Requirement
from .requirement_writes import Position, followed_entry, position, written_since
from .tracked_lists import Seen, kept_prefix, seen

PREFIX = "R"


@dataclass
class RequirementIds:
    requirements: list[Requirement]
    items: list[Requirement] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    where: dict[int, int] = field(default_factory=dict)
    # lower-cased id -> positions, in ledger order
    by_id: dict[str, list[int]] = field(default_factory=dict)
    # the numbers of the "R<digits>" ids (next_id's reading of them)
    numbers: list[int] = field(default_factory=list)
    # an "R" id whose digits int() refuses ("R²"): next_id fails on it as before
    refused: str | None = None
    writes: Position = field(default_factory=position)
    seen: Seen | None = None

    def add(self, req: Requirement) -> None:
        at = len(self.items)
        self.items.append(req)
        self.ids.append(req.id)
        self.where[id(req)] = at
        self.by_id.setdefault(req.id.lower(), []).append(at)
        tail = req.id[len(PREFIX) :]
        if req.id.startswith(PREFIX) and tail.isdigit():
            if tail.isdecimal():
                self.numbers.append(int(tail))
            else:
                self.refused = tail

    def positions(self, wanted: set[str]) -> list[int]:
        """Positions of the requirements whose lower-cased id is in `wanted`, in order."""
        return sorted(at for key in wanted for at in self.by_id.get(key, ()))

    def next_id(self) -> str:
        if self.refused is not None:
            int(self.refused)  # raises, as next_id's reading of every id did
        return f"{PREFIX}{max(self.numbers, default=0) + 1}"


_followed: list[RequirementIds] = []
_CACHED = 4


def requirement_ids(requirements: list[Requirement]) -> RequirementIds:
    """The ids of `requirements` as they stand now."""
    writes = position()  # first: a write while the ids are read is seen next time
    now = seen(requirements)
    held = followed_entry(
        _followed,
        requirements,
        lambda h: _still_holds(h, requirements),
        lambda: RequirementIds(requirements),
        _CACHED,
    )
    for req in requirements[len(held.items) :]:
        held.add(req)
    held.writes = writes
    held.seen = now
    return held


def _still_holds(held: RequirementIds, requirements: list[Requirement]) -> bool:
    if len(requirements) < len(held.items):
        return False
    written = written_since(held.writes)
    if written is None or not kept_prefix(requirements, held.seen, held.items):
        return False
    for req in written:
        at = held.where.get(id(req))
        if at is not None and held.items[at] is req and req.id != held.ids[at]:
            return False
    return True

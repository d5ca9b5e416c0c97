"""Which requirements a new statement can merge with, without comparing it with all of them.

Merging a finding compared its text with every requirement in the ledger: at 1,000
requirements that was most of a turn's bookkeeping. `requirement_similarity` reaches the merge
threshold (0.6) only in a few shapes, and each shape implies that the two texts share terms
this index can look up:

- neither carries a number that the other lacks (same numbers, or one side has none): the
  Dice overlap of their content tokens is >= 0.6, so they share at least 3/7 of the new
  text's tokens and (by pigeonhole) one of its rarest; or one side's tokens all lie in the
  other's, found through the new text's rarest token or the old one's designated token;
- their numbers differ: the words without the numbers overlap >= 0.8 and one side's words lie
  in the other's — all the new text's words (the intersection of their postings), or the old
  one's designated word;
- an old requirement found through its designated token matters only when all the words it
  was chosen from (its numbers, if it has no words) lie in the new text: the other shapes are
  found through the new text's tokens, so the others are dropped before any scoring (a common
  designated term, an area or a platform, named ~70 of 1,000 long-session needs);
- one is in Chinese and the other not: they share a quantity key ("7天" / "7 days");
- a text without content tokens matches only itself, so those are always candidates.

The candidates are then scored with `requirement_similarity` in ledger order, so the merge is
the one a full scan finds (`tests/test_ledger_index.py` checks it on randomised ledgers). The
index follows the ledger by comparing the requirement texts it indexed with the current ones
(a list comparison, no scoring), so any edit — a merge, a rewind, the user's own — is seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .heuristics.quantities import quantity_keys
from .heuristics.text import content_tokens
from .ledger_snapshot import RequirementItem, note_derived
from .models import Requirement, RequirementStatus
from .requirement_writes import Position, followed_entry, position, written_since
from .tracked_lists import Seen, kept_prefix, seen

# The merge threshold's consequence for the overlap: Dice >= 0.6 means a shared count of at
# least 3/7 of either side's tokens.
_DICE_SHARE = 3 / 7


def _numbers(tokens: frozenset[str]) -> frozenset[str]:
    return frozenset(t for t in tokens if t[0].isdigit())


class _Postings:
    """token -> positions of the requirements holding it."""

    def __init__(self) -> None:
        self.by_token: dict[object, set[int]] = {}

    def add(self, keys: Iterable[object], position: int) -> None:
        for key in keys:
            self.by_token.setdefault(key, set()).add(position)

    def get(self, key: object) -> set[int]:
        return self.by_token.get(key, _EMPTY)

    def sharing(self, tokens: frozenset[str], at_least: int) -> set[int]:
        """Every position sharing >= at_least of `tokens`, and others: one of the
        len(tokens) - at_least + 1 rarest tokens is in each of them (pigeonhole)."""
        rarest = sorted(tokens, key=lambda t: len(self.get(t)))[: len(tokens) - at_least + 1]
        found: set[int] = set()
        for token in rarest:
            found |= self.get(token)
        return found

    def holding_all(self, tokens: frozenset[str]) -> set[int]:
        """Every position holding all of `tokens` (an intersection, from the rarest)."""
        postings = sorted((self.get(t) for t in tokens), key=len)
        found = set(postings[0]) if postings else set()
        for more in postings[1:]:
            if not found:
                break
            found &= more
        return found


_EMPTY: set[int] = set()


class RequirementIndex:
    """The requirements of one ledger by content token, numbers, designated term and
    quantity; `candidates(text)` holds every requirement a full scan could merge `text` with."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        # Per position, what its designated term is chosen from: its words, or its numbers
        # when it has none (nothing for a text without content tokens).
        self._pools: list[frozenset[str]] = []
        self._all = _Postings()  # every content token of every requirement
        self._plain = _Postings()  # the tokens of requirements without numbers
        self._numbered_words = _Postings()  # the words of requirements with numbers
        self._by_numbers: dict[frozenset[str], set[int]] = {}
        self._designated = _Postings()  # one fixed term per requirement, its rarest
        self._quantities = _Postings()
        self._tokenless: set[int] = set()

    def add(self, text: str) -> None:
        position = len(self.texts)
        self.texts.append(text)
        tokens = content_tokens(text)
        if not tokens:
            self._tokenless.add(position)
            self._pools.append(frozenset())
            return
        numbers = _numbers(tokens)
        words = tokens - numbers
        self._pools.append(words or numbers)
        self._all.add(tokens, position)
        if numbers:
            self._numbered_words.add(words, position)
            self._by_numbers.setdefault(numbers, set()).add(position)
        else:
            self._plain.add(tokens, position)
        # Chosen once: a requirement whose terms all lie in a new text is found through it.
        pool = words or numbers
        self._designated.add([min(pool, key=lambda t: (len(self._all.get(t)), t))], position)
        self._quantities.add(quantity_keys(text), position)

    def candidates(self, text: str) -> list[int] | None:
        """Positions (ascending) that may reach the merge threshold with `text`; None when
        `text` has no content tokens (then only a full comparison tells)."""
        tokens = content_tokens(text)
        if not tokens:
            return None
        numbers = _numbers(tokens)
        words = tokens - numbers
        found = set(self._tokenless)
        for token in tokens:
            # Found through its designated term, a requirement matches only when the words it
            # was chosen from all lie in the text (old ⊆ new, or its words in the new words
            # with other numbers); the other shapes are found below. A shared common term
            # (a platform, an area) named ~70 of 1,000 long-session needs to score.
            pools = self._pools
            found.update(p for p in self._designated.get(token) if pools[p] <= tokens)
        for key in quantity_keys(text):
            found |= self._quantities.get(key)
        at_least = max(1, int(len(tokens) * _DICE_SHARE))
        if numbers:
            found |= self._by_numbers.get(numbers, _EMPTY)
            if words and at_least <= len(words):
                # A requirement without numbers shares them among the words.
                found |= self._plain.sharing(words, at_least)
            if words:
                # Other numbers: the words must lie one side in the other (the other way
                # round is the designated term above).
                found |= self._numbered_words.holding_all(words)
        else:
            found |= self._all.sharing(tokens, at_least)
        return sorted(found)


@dataclass
class _Indexed:
    """An index and what it was last brought up to: the requirement objects (and where each
    is) and where the write log stood: a text changes by assignment, which the log records."""

    requirements: list[Requirement]
    index: RequirementIndex
    items: list[Requirement] = field(default_factory=list)
    where: dict[int, int] = field(default_factory=dict)
    writes: Position = field(default_factory=position)
    seen: Seen | None = None


_cache: list[_Indexed] = []
_CACHED_LEDGERS = 4


def index_of(requirements: list[Requirement]) -> RequirementIndex:
    """The index of this list of requirements, brought up to date with their texts."""
    writes = position()  # first: a write while the texts are read is seen next time
    now = seen(requirements)
    entry = followed_entry(
        _cache,
        requirements,
        lambda e: _texts_kept(e, requirements),
        lambda: _Indexed(requirements, RequirementIndex()),
        _CACHED_LEDGERS,
    )
    index = entry.index
    if not kept_prefix(requirements, entry.seen, entry.items):
        entry.items = []  # the same texts in other objects: follow those
        entry.where = {}
    for at in range(len(entry.items), len(requirements)):
        req = requirements[at]
        if at >= len(index.texts):
            index.add(req.text)
        entry.items.append(req)
        entry.where[id(req)] = at
    entry.writes = writes
    entry.seen = now
    return index


def _texts_kept(entry: _Indexed, requirements: list[Requirement]) -> bool:
    """Do the requirements still hold the texts indexed, in order (new ones may follow)?
    Only those written to since the last time are read again."""
    texts = entry.index.texts
    if len(requirements) < len(texts):
        return False
    written = written_since(entry.writes)
    if written is None or not kept_prefix(requirements, entry.seen, entry.items):
        return [r.text for r in requirements[: len(texts)]] == texts
    for req in written:
        at = entry.where.get(id(req))
        if at is not None and entry.items[at] is req and req.text != texts[at]:
            return False
    return True


# -- the snapshot's requirement items ----------------------------------------------------------

_ItemKey = tuple[str, str, RequirementStatus, int, str]
_items_cache: dict[_ItemKey, RequirementItem] = {}
_CACHED_ITEMS = 20_000


@dataclass
class _Items:
    """The items last built: for which requirement objects (a copy, grown in place), where
    each is, and where the write log and the list stood."""

    requirements: list[Requirement]
    items: tuple[RequirementItem, ...]
    writes: Position
    seen: Seen | None = None
    where: dict[int, int] = field(default_factory=dict)


_last_items = _Items([], (), position())


def _item(req: Requirement) -> RequirementItem:
    key: _ItemKey = (req.id, req.text, req.status, req.source_turn, req.origin)
    return _items_cache.get(key) or _items_cache.setdefault(key, RequirementItem(*key))


def requirement_items(requirements: list[Requirement]) -> tuple[RequirementItem, ...]:
    """The snapshot's view of the requirements. A snapshot is taken several times a turn and a
    frozen item costs ~4 µs to build (4 ms a snapshot at 1,000 requirements): the items of the
    last snapshot are kept, and only the requirements written to since (the write log of
    `requirement_writes`) or added are read again; an unchanged ledger keeps its very tuple
    (which lets the bounded block be reused too)."""
    global _last_items
    writes = position()  # first: a write while the items are read is seen next time
    now = seen(requirements)
    last = _last_items
    written = written_since(last.writes)
    if written is None or not kept_prefix(requirements, last.seen, last.requirements):
        if len(_items_cache) > _CACHED_ITEMS:
            _items_cache.clear()
        items = tuple(map(_item, requirements))
        where = dict(zip(map(id, requirements), range(len(requirements)), strict=True))
        _last_items = _Items(list(requirements), items, writes, now, where)
        return items
    last.items = _grown_items(last, requirements, written)
    last.writes, last.seen = writes, now
    return last.items


def _grown_items(
    last: _Items, requirements: list[Requirement], written: list[Requirement]
) -> tuple[RequirementItem, ...]:
    """The last items with those of the requirements written to since rebuilt and the new ones
    added (the requirements before them are the same objects as last time)."""
    shared = len(last.requirements)
    changed: dict[int, RequirementItem] = {}
    for req in written:
        index = last.where.get(id(req))
        if index is not None and last.requirements[index] is req:
            item = _item(req)
            if item is not last.items[index]:
                changed[index] = item
    added = requirements[shared:]
    if not (changed or added):
        return last.items
    rebuilt = list(last.items)
    for index, item in changed.items():
        rebuilt[index] = item
    rebuilt += map(_item, added)
    last.requirements += added
    last.where.update(zip(map(id, added), range(shared, len(requirements)), strict=True))
    items = tuple(rebuilt)
    note_derived(items, last.items, sorted(changed))
    return items

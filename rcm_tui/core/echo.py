"""Replies that copy the prompt back: found, and the copy cut out before it is shown or scored.

A small model (SmolLM2-135M) often answers by repeating the ledger block it was sent, and then
the user's own message, before (or instead of) an answer of its own. The copied lines are not
the model's answer: shown, they read as the layer talking to the user; scored, the rejected
options they list read as proposals and the requirements they list as addressed. So they are
removed from the reply, and only what the model added is shown and scored. A reply that was
nothing but the copy is left empty, which the pipeline treats as no answer.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from . import prompts

# A copied line cut short by max_tokens still counts when it is this long and a ledger
# line starts with it; shorter fragments ("- R1") are too common to be a copy.
MIN_FRAGMENT = 16
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_CLOSING = "[/ledger]"


@dataclass(frozen=True)
class Uncopied:
    text: str
    # Lines (or a whole block) of the ledger were found and removed.
    copied: bool


def _norm(line: str) -> str:
    return " ".join(_BULLET.sub("", line).split()).casefold()


def ledger_lines(blocks: list[str]) -> set[str]:
    """The normalised lines of the ledger blocks a prompt carried."""
    return {n for block in blocks for line in block.splitlines() if len(n := _norm(line)) > 3}


_MARKERS = tuple(m.casefold() for m in prompts.LEDGER_MARKERS)


class _Known:
    """The normalised ledger lines, also in order: a fragment cut short is looked up by
    bisection (a ledger of 1,000 requirements made each reply line scan all of them)."""

    def __init__(self, blocks: list[str]) -> None:
        self.lines = ledger_lines(blocks)
        self.ordered = sorted(self.lines)

    def starts_with(self, fragment: str) -> bool:
        at = bisect.bisect_left(self.ordered, fragment)
        return at < len(self.ordered) and self.ordered[at].startswith(fragment)


def _is_ledger_line(line: str, known: _Known) -> bool:
    norm = _norm(line)
    if any(marker in norm for marker in _MARKERS):
        return True
    if not norm:
        return False
    if norm in known.lines:
        return True
    return len(norm) >= MIN_FRAGMENT and known.starts_with(norm)


def _without_block(reply: str) -> str:
    """Everything up to the last closing tag of a copied block goes, on one line or many."""
    head, closing, tail = reply.rpartition(_CLOSING)
    if closing and prompts.LEDGER_HEADER in head:
        return tail
    if prompts.LEDGER_HEADER in reply and not closing:
        # Cut short before its closing tag: drop the header's line, the rest line by line.
        before, _header, after = reply.partition(prompts.LEDGER_HEADER)
        return before + after.partition("\n")[2]
    return reply


def _without_user_text(reply: str, user_text: str) -> str:
    """The user's message repeated at the start of the reply (after a copied block) goes too."""
    words = user_text.split()
    if not words:
        return reply
    repeated = re.match(r"\s*" + r"\s+".join(map(re.escape, words)), reply, re.IGNORECASE)
    return reply[repeated.end() :].strip() if repeated else reply


@functools.lru_cache(maxsize=4096)
def _copy_pattern(known: str) -> re.Pattern[str] | None:
    """A ledger line as a pattern matching its copy at the start of a line (cached: the same
    lines come back in every reply's blocks)."""
    words = _BULLET.sub("", known).split()
    if len(" ".join(words)) < MIN_FRAGMENT:
        return None
    return re.compile(_BULLET.pattern + r"\s+".join(map(re.escape, words)), re.IGNORECASE)


# A copy pattern can only match a line whose first word (after its bullet) starts like the
# ledger line's: the patterns are filed under that many lowercased characters of it.
_KEY = 4


class _CopyPatterns:
    """The ledger lines as copy patterns, filed by how their first word starts, so that a reply
    line is tried against the few that could match rather than every line of the ledger."""

    def __init__(self, blocks: list[str]) -> None:
        self.by_start: dict[str, list[tuple[int, re.Pattern[str]]]] = {}
        # Non-ASCII starts: case-insensitive matching is more than lower() there; always tried.
        self.always: list[tuple[int, re.Pattern[str]]] = []
        lines = dict.fromkeys(known for block in blocks for known in block.splitlines())
        for order, known in enumerate(lines):
            pattern = _copy_pattern(known)
            if pattern is None:
                continue
            start = _BULLET.sub("", known).split()[0][:_KEY]
            if start.isascii():
                self.by_start.setdefault(start.lower(), []).append((order, pattern))
            else:
                self.always.append((order, pattern))

    def candidates(self, line: str) -> list[re.Pattern[str]]:
        """The patterns that may match `line`, in the order of the ledger lines."""
        bullet = _BULLET.match(line)
        if bullet is None:
            return []  # every pattern starts with a bullet
        words = line[bullet.end() :].split(maxsplit=1)
        first = words[0] if words else ""
        found = list(self.always)
        if first.isascii():
            for size in range(1, min(_KEY, len(first)) + 1):
                found += self.by_start.get(first[:size].lower(), [])
        else:
            found = [entry for entries in self.by_start.values() for entry in entries] + found
        return [pattern for _order, pattern in sorted(found, key=lambda entry: entry[0])]


def _without_copied_start(line: str, patterns: _CopyPatterns) -> str:
    """A line that opens with a whole ledger line and goes on ('- proposes X, which the user
    rejected. This is…') keeps only what follows the copy."""
    for pattern in patterns.candidates(line):
        copy = pattern.match(line)
        if copy:
            return line[copy.end() :].lstrip(" .;:,")
    return line


def strip_copied_ledger(reply: str, blocks: list[str], user_text: str) -> Uncopied:
    """The reply without the ledger lines it copied from `blocks` (and the user's message
    repeated right after them)."""
    known = _Known(blocks)
    patterns = _CopyPatterns(blocks)
    cut = _without_block(reply)
    copied = cut != reply
    kept: list[str] = []
    for line in cut.splitlines():
        rest = _without_copied_start(line, patterns)
        if line.strip() and (not rest.strip() or _is_ledger_line(rest, known)):
            copied = True
            continue
        copied = copied or rest != line
        kept.append(rest)
    text = "\n".join(kept).strip()
    if copied:
        text = _without_user_text(text, user_text)
    return Uncopied(text, copied)


def copies_ledger(reply: str, blocks: list[str]) -> bool:
    """Does a reply (as shown) still contain a line of the ledger blocks or a block marker?"""
    known = _Known(blocks)
    return any(_is_ledger_line(line, known) for line in reply.splitlines())

"""The answered turns of a session and their token counts, followed message by message.

Every prompt (the turn's, a consolidation's) paired every user message with its replies and
looked up the tokens of every pair: a pass over the whole history, a few times a turn (~1 ms
a turn at 1,000 turns). The pairs only change when messages are added, or when a message is
written to (`Message.__setattr__` logs it: the ledger block a user message was sent with is
set after the prompt is planned). This keeps the pairs, their token counts and the running
sums of those, and reads only the new messages and the written ones; a rearranged history (a
rewind, a branch) is paired again from the start. `tests/test_answered_index.py` checks it
against the full pass.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field

from .models import Message
from .requirement_writes import Position, position, written_since
from .tracked_lists import Seen, kept_prefix, seen

Pair = tuple[Message, Message]
_CACHED = 4


@dataclass
class AnsweredTurns:
    """The pairs of a history before some turn, their tokens and the sums of those
    (`sums[i]` is the tokens of the first i pairs)."""

    pairs: list[Pair]
    tokens: list[int]
    sums: list[int]


@dataclass
class _Followed:
    messages: list[Message] = field(default_factory=list)
    writes: Position = field(default_factory=position)
    users: dict[int, Message] = field(default_factory=dict)
    pairs: list[Pair] = field(default_factory=list)
    tokens: list[int] = field(default_factory=list)
    sums: list[int] = field(default_factory=lambda: [0])
    # (role, turn) of each message as paired: a write that changes them re-pairs all.
    shapes: list[tuple[str, int]] = field(default_factory=list)
    # id(message) -> the pairs it is in; id(message) -> its index.
    in_pairs: dict[int, list[int]] = field(default_factory=dict)
    index_of: dict[int, int] = field(default_factory=dict)
    # Pair turns never go down (the usual order): a prefix is found by bisection.
    ordered: bool = True
    seen: Seen | None = None

    def add(self, message: Message, tokens_of: Callable[[Pair], int]) -> None:
        self.index_of[id(message)] = len(self.messages)
        self.messages.append(message)
        self.shapes.append((message.role, message.turn))
        if message.role == "user":
            self.users[message.turn] = message
            return
        user = self.users.get(message.turn)
        if user is None:
            return
        if self.pairs and self.pairs[-1][0].turn > user.turn:
            self.ordered = False
        at = len(self.pairs)
        self.pairs.append((user, message))
        count = tokens_of((user, message))
        self.tokens.append(count)
        self.sums.append(self.sums[-1] + count)
        self.in_pairs.setdefault(id(user), []).append(at)
        self.in_pairs.setdefault(id(message), []).append(at)

    def follow(self, messages: list[Message], tokens_of: Callable[[Pair], int]) -> bool:
        """Catch up with `messages`; False when they are not this history grown."""
        writes = position()
        now = seen(messages)
        shared = len(self.messages)
        written = written_since(self.writes)
        if written is None or not kept_prefix(messages, self.seen, self.messages):
            return False
        recount: set[int] = set()
        for message in written:
            index = self.index_of.get(id(message))
            if index is None or self.messages[index] is not message:
                continue
            if self.shapes[index] != (message.role, message.turn):
                return False
            recount.update(self.in_pairs.get(id(message), ()))
        self.writes = writes
        for at in sorted(recount):
            self.tokens[at] = tokens_of(self.pairs[at])
        if recount:
            start = min(recount)
            for at in range(start, len(self.pairs)):
                self.sums[at + 1] = self.sums[at] + self.tokens[at]
        for message in messages[shared:]:
            self.add(message, tokens_of)
        self.seen = now
        return True

    def before(self, turn: int) -> AnsweredTurns:
        if self.ordered:
            count = bisect.bisect_left(self.pairs, turn, key=_pair_turn)
            return AnsweredTurns(self.pairs[:count], self.tokens[:count],
                                 self.sums[: count + 1])
        kept = [at for at, pair in enumerate(self.pairs) if pair[0].turn < turn]
        tokens = [self.tokens[at] for at in kept]
        sums = [0]
        for count in tokens:
            sums.append(sums[-1] + count)
        return AnsweredTurns([self.pairs[at] for at in kept], tokens, sums)


def _pair_turn(pair: Pair) -> int:
    return pair[0].turn


_followed: list[_Followed] = []


def answered(
    messages: list[Message], before_turn: int, tokens_of: Callable[[Pair], int]
) -> AnsweredTurns:
    """(user, assistant) pairs of the turns before `before_turn` that were answered (an
    interrupted turn has no pair), with `tokens_of` each pair, as a pass over `messages`
    finds them: a user message pairs with the replies of its turn that follow it."""
    for held in _followed:
        if held.follow(messages, tokens_of):
            _followed.remove(held)
            _followed.insert(0, held)
            return held.before(before_turn)
    held = _Followed()
    held.follow(messages, tokens_of)
    _followed.insert(0, held)
    del _followed[_CACHED:]
    return held.before(before_turn)

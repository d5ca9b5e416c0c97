"""The answered turns followed message by message are the pairs and token counts a full pass
over the history finds (issue 15: every prompt paired the whole history again)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rcm_tui.core import context
from rcm_tui.core.answered_index import answered
from rcm_tui.core.models import Message


def _full_pass(messages: list[Message], before_turn: int) -> list[tuple[Message, Message]]:
    """answered_turns as it was: one pass over every message."""
    users: dict[int, Message] = {}
    pairs = []
    for m in messages:
        if m.turn >= before_turn:
            continue
        if m.role == "user":
            users[m.turn] = m
        elif m.turn in users:
            pairs.append((users[m.turn], m))
    return pairs


message_st = st.builds(
    Message,
    role=st.sampled_from(["user", "assistant"]),
    content=st.sampled_from(["hi", "a longer reply. with two sentences", "数据保留7天", ""]),
    turn=st.integers(1, 8),
)
edit_st = st.one_of(
    st.tuples(st.just("append"), st.lists(message_st, min_size=1, max_size=4)),
    st.tuples(st.just("content"), st.integers(0, 999), st.sampled_from(["x", "new text here"])),
    st.tuples(st.just("ledger"), st.integers(0, 999), st.sampled_from(["[ledger]\n- R1", None])),
    st.tuples(st.just("turn"), st.integers(0, 999), st.integers(1, 8)),
    st.tuples(st.just("cut"), st.integers(0, 999)),
)


def _check(messages: list[Message], before_turn: int) -> None:
    expected = _full_pass(messages, before_turn)
    found = answered(messages, before_turn, context._pair_tokens)
    assert [(id(u), id(a)) for u, a in found.pairs] == [(id(u), id(a)) for u, a in expected]
    tokens = [context._pair_tokens(p) for p in expected]
    assert found.tokens == tokens
    assert found.sums == [sum(tokens[:i]) for i in range(len(tokens) + 1)]


@settings(max_examples=200, deadline=None)
@given(
    start=st.lists(message_st, max_size=20),
    edits=st.lists(edit_st, max_size=10),
    before_turn=st.integers(1, 10),
)
def test_followed_pairs_are_those_of_a_full_pass(
    start: list[Message], edits: list[tuple], before_turn: int
) -> None:
    messages = list(start)
    _check(messages, before_turn)
    for edit in edits:
        kind = edit[0]
        if kind == "append":
            messages += edit[1]
        elif kind == "cut":
            del messages[edit[1] % (len(messages) + 1):]
        elif messages:
            target = messages[edit[1] % len(messages)]
            if kind == "content":
                target.content = edit[2]
            elif kind == "ledger":
                target.ledger_sent = edit[2]
            else:
                target.turn = edit[2]
        _check(messages, before_turn)
        _check(messages, 99)


def _first_cut_as_it_was(pair_tokens: list[int], room: int, step: int, last: int) -> int:
    remaining = sum(pair_tokens)
    cut = 0
    while cut < last:
        nxt = min(last, cut + step)
        remaining -= sum(pair_tokens[cut:nxt])
        if remaining <= room:
            return cut
        cut = nxt
    return max(0, last - step)


@settings(max_examples=300, deadline=None)
@given(
    tokens=st.lists(st.integers(1, 50), max_size=40),
    room=st.integers(0, 800),
    step=st.integers(1, 5),
    keep=st.integers(0, 10),
)
def test_the_first_cut_by_bisection_is_the_one_of_the_walk(
    tokens: list[int], room: int, step: int, keep: int
) -> None:
    last = len(tokens) - min(len(tokens), keep)
    sums = [0]
    for count in tokens:
        sums.append(sums[-1] + count)
    assert context._first_cut(sums, room, step, last) == _first_cut_as_it_was(
        tokens, room, step, last
    )

"""Chinese chat that separates clauses with spaces ("Uber 太贵了 不考虑"): the verdict piece is
read with the piece typed just before it (issue 12, session 24; heuristics/spaced_verdicts.py)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _rejected(text: str) -> list[str]:
    return [r.option for r in analyse_message(text, 2, LedgerSnapshot()).rejections]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("Uber 太贵了 不考虑", "Uber"),
        ("Notion 太慢了 换掉", "Notion"),
        ("plug-in 的 也不太行", "plug-in"),
        ("keelboat 那种大船 都不要", "keelboat"),
        ("我们看了几家。Notion 太慢了 换掉", "Notion"),
        # One sentence: a latin name of a few words, a space, then the verdict.
        ("他们那个 packaging service 用不着", "packaging service"),
        ("那个 Costco membership 不需要", "Costco membership"),
    ],
)
def test_a_verdict_piece_turns_down_the_piece_before_it(text: str, option: str) -> None:
    assert option in _rejected(text)


@pytest.mark.parametrize(
    "text",
    [
        # A piece that comments on the one before it is no topic ("排队" is why, not what).
        "海底捞 排队太久 算了",
        # A piece that tells what happens names nothing to refuse.
        "每天早上送孩子能急死 算了",
        # No topic judged before the verdict: a plan, not a thing.
        "我们周六去 不行",
    ],
)
def test_no_topic_piece_turns_nothing_down(text: str) -> None:
    assert _rejected(text) == []

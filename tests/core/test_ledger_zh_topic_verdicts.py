"""A Chinese verdict that points back at a topic named clauses before it (issue 12, session 26).

Formal and chat Chinese alike name the topic first ("兼职会计一事，…", "Notion在国内…"), tell the
story, and end on a verdict with no object of its own or with an anaphor ("此方案不再考虑",
"亦不在考虑范围内"). The verdict turns down the topic.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.constraint_clauses import forget_dropped
from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.heuristics.rejections import RejectionHit, RejectionScan
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _rejected(text: str) -> list[str]:
    return [r.option for r in analyse_message(text, 1, LedgerSnapshot()).rejections]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        # A clause that only names the topic, then an anaphor opening the verdict.
        ("众包平台一事，我们前年合作过，交付拖了两个月，此方案不再考虑。", "众包平台"),
        ("年会包场那个，预算根本不够，这个就别提了。", "年会包场"),
        # A Latin name opening the clause is its topic, whatever the clause says of it.
        ("Trello以个人用户为主，亦不在考虑范围内。", "Trello"),
        ("Airtable只能存五万行，也不考虑。", "Airtable"),
    ],
)
def test_a_verdict_pointing_back_turns_the_topic_down(text: str, option: str) -> None:
    assert option in _rejected(text)


@pytest.mark.parametrize(
    "text",
    [
        "这个方案不错，就这么定了。",
        "Trello以个人用户为主，我们团队也能用。",
        "外包团队一事，我们下周再开会讨论。",
        "Notion在国内用得很好，不考虑别的了。",
    ],
)
def test_without_a_bare_verdict_nothing_is_turned_down(text: str) -> None:
    assert _rejected(text) == []


def _hit(option: str, sentence: int, clause: int) -> RejectionHit:
    return RejectionHit(option, "", sentence, clause, False, "", False, "design")


def test_a_withdrawn_hit_leaves_its_clauses_to_be_read() -> None:
    """A hit the model, the tagger or a later filter withdrew must not leave its clause marked
    as rejecting: the clause would be read neither as a rejection nor as what it says."""
    gone, stays = _hit("zulip", 0, 0), _hit("Jira", 1, 0)
    scan = RejectionScan(
        hits=[stays],
        clauses={(0, 0): "", (1, 0): ""},
        reason_clauses={(0, 1), (1, 1)},
    )
    forget_dropped(scan, [gone, stays])
    assert scan.clauses == {(1, 0): ""}
    assert scan.reason_clauses == {(1, 1)}

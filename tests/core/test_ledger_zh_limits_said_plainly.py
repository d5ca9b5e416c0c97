"""Chinese limits said plainly, and stories that limit nothing (issue 12, session 28).

Found among the missed and false requirements of the tuning splits dev14 … dev16: "所以只能用电"
was read as picking 电 and kept as the trajectory only; 得 meaning "must" ("车得是能上牌的") and a
body that cannot ("爬不了楼梯", "搬不动") stated no need; an ordinal (第二天), "those few" (那几个)
and a story's year (去年) read as amounts. The sentences are written for the test, not taken
from the corpus.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

_REPLY = "可以考虑燃气款或者电动款，也可以看看二手的。"


def _requirements(text: str) -> list[str]:
    analysis = analyse_message(text, 3, LedgerSnapshot(last_assistant_message=_REPLY))
    return [r.text for r in analysis.requirements]


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("物业不让用明火，所以只能用电", "只能用电"),
        ("所以车得是能合法上牌的", "车得是能合法上牌的"),
        ("房子得有电梯", "房子得有电梯"),
        ("我爸爬不了楼梯", "我爸爬不了楼梯"),
        ("我这手不灵便，太沉的箱子搬不动", "太沉的箱子搬不动"),
    ],
)
def test_a_plain_limit_is_a_requirement(text: str, limit: str) -> None:
    assert limit in _requirements(text)


def test_only_one_way_is_a_limit_not_a_pick() -> None:
    analysis = analyse_message("那就只能用电了", 3, LedgerSnapshot(last_assistant_message=_REPLY))
    assert analysis.trajectory == ""
    assert [r.text for r in analysis.requirements] == ["那就只能用电了"]


@pytest.mark.parametrize(
    "text",
    [
        "去年去了个夏令营，第二天就哭着打电话回来了",
        "我那几个舅舅不打麻将会难受的",
        "我觉得是个好主意",
        "他跑得有点快",
    ],
)
def test_a_story_or_an_opinion_states_no_requirement(text: str) -> None:
    assert _requirements(text) == []


@pytest.mark.parametrize(
    ("text", "need"),
    [
        # An illness, where one is, when: each narrows every answer.
        ("我有糖尿病，十多年了。", "我有糖尿病"),
        ("坐标成都，大概20桌", "坐标成都"),
        ("人在成都，想学车", "人在成都"),
        ("下个月入职上海", "下个月入职上海"),
        ("我晕针", "我晕针"),
        # Cantonese: what the flat lacks, a cap said with 唔好.
        ("我哋層樓冇煤氣喉", "我哋層樓冇煤氣喉"),
        ("連安裝唔好超過四千", "連安裝唔好超過四千"),
    ],
)
def test_a_fact_that_narrows_the_answer_is_a_requirement(text: str, need: str) -> None:
    assert need in _requirements(text)

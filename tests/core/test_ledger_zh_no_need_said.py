"""Chinese clauses that state no need, and the needs beside them that stay (issue 12, session 30).

Found among the false requirements of the tuning splits dev10 … dev18: what the user will do
on a day with the topic said first ("护照我下周二去办", "两套房子我周日先去看看"), trying
something first ("先订一个月试试"), putting a matter off ("等明年孩子大点了再说"); what happened
within a span ("不到三个月屏幕就花了"); a guess ("应该来得及吧") or a rhetorical question
("我总不能天天请假吧", "头一年能赚多少钱啊"); someone's routine ("我俩都要上班"), what is only
guessed ("那家好像要排队两周") and asking what it takes ("办签证要带啥"); a price in another
currency ("一晚都两三万日元"); thinking, not wanting ("你帮我想想", "我也想过"). The look-alikes
keep their need: a trip on a day is no errand ("下周五春游去植物园"), a limit said with 就是
("一天一万步就是极限了"), what is enough ("两个小时以内就够了"), a firm modal ("周末必须去看
房"), a wish ("想换个安静点的"), the planned-for person's own wish ("她说要粉色的", "我老婆说了
每年要回老家两三趟"), a need in a long run-on. Session 31 adds complaints ("这几天家里真的太乱了"),
the bare goal that opens a conversation ("公司需要一个团队网盘") and half-hearted wants ("我不太想
…"), which turn the option down. The sentences are written for the test, not taken from the corpus.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.heuristics.next_steps import states_a_plan
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _read(text: str, reply: str) -> tuple[list[str], list[str]]:
    """The options turned down and the requirements read in `text`, said after `reply`."""
    analysis = analyse_message(text, 2, LedgerSnapshot(last_assistant_message=reply))
    return [h.option for h in analysis.rejections], [r.text for r in analysis.requirements]


def _requirements(text: str) -> list[str]:
    return _read(text, "有什么要求吗？")[1]


@pytest.mark.parametrize(
    "text",
    [
        "护照我下周二去办",
        "两套房子我周日先去看看",
        "儿童座椅这周六去店里试试",
        "周末我再去商场逛逛看看实物",
        "先订一个月试试",
        "周末先把去年的账导进去试试",
        "等明年孩子大点了再说",
    ],
)
def test_what_the_user_will_do_is_a_plan(text: str) -> None:
    assert states_a_plan(text)
    assert _requirements(text) == []


@pytest.mark.parametrize(
    "text",
    ["下周五春游去植物园", "周末必须去看房", "周五出发周日回", "我们办公室周末没人"],
)
def test_a_trip_a_firm_need_or_a_fact_on_a_day_is_no_plan(text: str) -> None:
    assert not states_a_plan(text)


@pytest.mark.parametrize(
    "text",
    [
        "不到三个月屏幕就花了",
        "买了不到半年电池就鼓了",
        "应该来得及吧",
        "我总不能天天请假吧",
        "头一年能赚多少钱啊",
        "我俩都要上班",
        "那家好像要排队两周",
        "听说那边只能刷卡",
        "办签证要带啥",
        "一晚都两三万日元起",
        "你帮我想想",
        "租车我也想过",
        # Session 31: a complaint says how bad things are, not what is wanted; the goal that
        # opens a conversation names what the talk is about, as "帮我推荐一个酒店" does.
        "这几天家里真的太乱了",
        "装修完三年了甲醛味一直有",
        "晚上楼上的小孩老是跑来跑去",
        "周末景区真的太挤了",
        "游客多到走不动",
        "公司需要一个团队网盘",
        "想买辆电动车上下班",
        "我需要一台笔记本",
    ],
)
def test_a_story_a_guess_hearsay_or_a_question_is_no_requirement(text: str) -> None:
    assert _requirements(text) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("一天一万步就是极限了", "极限"),
        ("两个小时以内就够了", "两个小时"),
        ("想换个安静点的", "安静"),
        ("她说要粉色的", "粉色"),
        ("下周五春游去植物园", "下周五"),
        ("我老婆说了每年要回老家两三趟", "两三趟"),
        ("我想问一下我爸今年七十三了跟他说话得喊好几遍预算的话五千以内", "五千以内"),
        # Session 31: a limit or a wish beside a complaint, a narrowed goal, a quality wanted.
        ("预算真的太紧了最多三千", "最多三千"),
        ("老是加班所以要离地铁近", "地铁近"),
        ("我想要安静一点的", "安静"),
        ("需要一个能坐七个人的车", "七个人"),
        ("想买辆两万以内的电动车", "两万以内"),
        ("需要安静", "安静"),
    ],
)
def test_the_need_beside_them_stays(text: str, kept: str) -> None:
    assert any(kept in r for r in _requirements(text))


# Cantonese 唔得 is "won't do": a verdict, never the written modal 不得 ("must not") that made
# "食物全部唔得" a requirement; 唔得閒 is "not free"; 呢 before a classifier is "this", no name;
# 有冇 X is "with or without X", no option.
_STALL_REPLY = "可以賣食物、玩具或者二手衫。"


def _read_hk(text: str) -> tuple[list[str], list[str]]:
    return _read(text, _STALL_REPLY)


@pytest.mark.parametrize(
    ("text", "option"), [("今次義賣，二手衫唔得", "二手衫"), ("玩具唔得", "玩具")]
)
def test_cantonese_wont_do_turns_the_option_down(text: str, option: str) -> None:
    rejected, required = _read_hk(text)
    assert rejected == [option] and required == []


@pytest.mark.parametrize("text", ["有冇包裝都唔得", "呢個價錢唔得", "呢種唔得"])
def test_cantonese_look_alikes_name_no_option(text: str) -> None:
    assert _read_hk(text) == ([], [])


def test_not_free_is_no_refusal() -> None:
    assert _read_hk("我星期三唔得閒")[0] == []


# A want said half-heartedly ("不太想", "不是很想") turns the option down (session 31).
@pytest.mark.parametrize(
    ("text", "reply", "option"),
    [
        ("可乐鸡翅我不太想做", "有什么要求吗？", "可乐鸡翅"),
        ("我不是很想坐飞机", "可以坐飞机或者高铁。", "飞机"),
        ("迪士尼我不怎么想去", "可以去迪士尼或者海洋公园。", "迪士尼"),
    ],
)
def test_a_half_hearted_want_turns_the_option_down(text: str, reply: str, option: str) -> None:
    rejected, required = _read(text, reply)
    assert rejected == [option] and required == []

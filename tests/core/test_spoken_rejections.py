"""Rejections as people type them in chat and dictate them (issue 12, found in the dev11
writers' conversations; sentences of our own here): imperative refusals ("pass on X", "give
X a miss"), an object put first and set aside ("Football for now I leave it"), Chinese topic
comments (不碰, 不敢找, 死活不同意, 可以划掉了, 就算啦, 唔使上啦), plans given up (那就不出国了)
and the same in unpunctuated voice input. Look-alikes beside each stay silent."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

OFFER = (
    "Options: the ferry, a cruise, buildkite, padel, Breeze rides, Algolia, Hill's k/d, "
    "Teamtailor, an onboarding module, "
    "TDMQ, 白天鹅, 学而思, 哈弗, 头部主播, 出国游, 自建 RocketMQ."
)


def _analyse(text: str):
    return analyse_message(text, 2, LedgerSnapshot(last_assistant_message=OFFER))


def _rejected(text: str) -> list[str]:
    return [r.option for r in _analyse(text).rejections]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("pass on buildkite, the agents page me at 2am.", "buildkite"),
        ("We'll give the ferry a miss, I get seasick.", "ferry"),
        ("Football for now I leave it, my physio was very clear.", "Football"),
        ("Breeze I cannot join, I am a man haha.", "Breeze"),
        ("Padel we'll skip.", "Padel"),
        ("那 Hill's 就不考虑了，鸡肉风险太大。", "Hill's"),
        ("那Hill's就不考虑了。", "Hill's"),
        ("她只吃 pâté，chunks 一律不碰。", "chunks"),
        ("鱼我是不碰的。", "鱼"),
        ("酒我一滴都不沾。", "酒"),
        ("白天鹅就算啦 一围成万蚊", "白天鹅"),
        ("炸嘢就唔使上啦 佢咬唔郁", "炸嘢"),
        ("TDMQ可以划掉了。", "TDMQ"),
        ("学而思他爸死活不同意，说推销电话太多。", "学而思"),
        ("比亚迪我媳妇儿不乐意。", "比亚迪"),
        ("川菜火锅那种别给我推。", "川菜火锅"),
        ("路边的师傅我是一个都不敢找。", "路边的师傅"),
        ("纯外教的以后都不考虑了，娃接不住。", "纯外教"),
        ("公公膝盖不好，爬山基本不行。", "爬山"),
        ("好的，那就不自建了，直接上托管版。", "自建"),
        ("那就不出国了。", "出国"),
        ("不找头部主播；所有内容需提前过法务。", "头部主播"),
        ("麦富迪之前囤过两袋，主子吃完吐了三天。", "麦富迪"),
        ("VIPKID我们报过，娃一句听不懂就在那发呆。", "VIPKID"),
        ("Out of scope: onboarding module (HiBob covers this).", "onboarding module"),
        ("Our CFO would veto Teamtailor on sight.", "Teamtailor"),
        # Voice input with no punctuation: the topic keeps its comment.
        ("哈弗我不太感冒以前单位那辆H6三天两头进修理厂那就银河L7吧", "哈弗"),
        ("贴小广告那种师傅我是一个都不敢找之前我爸找过一个收了钱人就跑了", "贴小广告那种师傅"),
    ],
)
def test_the_option_is_turned_down(text: str, option: str) -> None:
    options = _rejected(text)
    assert option in options, options


@pytest.mark.parametrize(
    "text",
    [
        "I passed on the info to my boss.",
        "The kids I can't leave alone.",
        "那就不麻烦你了。",
        "那就不考虑那么多了。",
        "找不找中介都行。",
        "记得8月15号之前笔记就要开始铺，别等上市了才发。",
        "甲方那边死活不同意。",
        "剩下的课时钱还退不了。",
        "空调少不了。",
        "另外佢牙唔好，啲菜要煮得腍啲。",
    ],
)
def test_look_alikes_turn_nothing_down(text: str) -> None:
    assert _rejected(text) == []


def test_a_bound_on_a_time_is_a_limit_not_an_option() -> None:
    analysis = _analyse("晚上八点以后的也不行，九点必须睡觉。")
    assert analysis.rejections == []
    assert any("八点以后" in r.text for r in analysis.requirements)


def test_main_yao_shi_is_no_if_in_voice_input() -> None:
    """主要是 holds 要是 ("if") but opens no clause: the limit before it is kept whole."""
    text = "想换个新能源的家里有充电桩预算二十万以内主要是上下班通勤偶尔回老家跑个长途"
    needs = [r.text for r in _analyse(text).requirements]
    assert not any(n.endswith("主") for n in needs), needs
    assert any("预算二十万以内" in n for n in needs), needs


def test_an_excluding_label_states_no_need() -> None:
    analysis = _analyse("Out of scope: onboarding module (HiBob covers this).")
    assert analysis.requirements == []


def test_a_bold_title_line_of_a_paste_is_no_requirement() -> None:
    text = (
        "Pasting our doc:\n\n**ATS Selection - Requirements (v2, signed off 14 May)**\n"
        "1. Budget: <= £15k/year all-in.\n**Must be idempotent**"
    )
    needs = [r.text for r in _analyse(text).requirements]
    assert not any("Selection" in n or "signed off" in n for n in needs), needs
    assert any("15k" in n for n in needs) and any("idempotent" in n for n in needs), needs


def test_a_recap_after_a_rejection_is_not_its_reason() -> None:
    """Seen in tmux: "Pass on buildkite. To recap…" gave buildkite the recap as its reason."""
    analysis = _analyse("Pass on buildkite. To recap for my husband: under 300 a month.")
    [rejection] = analysis.rejections
    assert rejection.option == "buildkite" and "recap" not in rejection.reason


def test_an_option_read_by_the_model_loses_its_trailing_dots() -> None:
    reply = "Good low-impact options are swimming, cycling, Pilates."
    text = "So padel also no. Swimming... honestly water and me are not friends, ha."
    analysis = analyse_message(text, 2, LedgerSnapshot(last_assistant_message=reply))
    options = [r.option for r in analysis.rejections]
    assert "Swimming" in options and not any(o.endswith(".") for o in options), options

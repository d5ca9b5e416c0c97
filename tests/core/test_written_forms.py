"""Forms found in the dev12 writers' conversations (issue 12), in sentences of our own: a topic
set up and then turned down ("As for the camera, there is no need"), a price past the user's
means, "vetoing", "won't hear of", "is not happening", an exception to a kind ("除了X，其他都
可以"), 可以排除, 与其…更倾向, 不安排, negated traps (并无成见, "no objections to"), the user's own
next steps, stories counted (吐了好几天), a vendor's e-mail quoted, Traditional Chinese, and
lower-case chat split after an acronym. Look-alikes beside each stay as they were."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.sentences import split_sentences
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

OFFER = "Here are a few ideas to start from."


def _analyse(text: str, reply: str = OFFER):
    return analyse_message(text, 2, LedgerSnapshot(last_assistant_message=reply))


def _rejected(text: str, reply: str = OFFER) -> list[str]:
    return [r.option for r in _analyse(text, reply).rejections]


def _needs(text: str, reply: str = OFFER) -> list[str]:
    return [r.text for r in _analyse(text, reply).requirements]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("Regarding the extended warranty, we don't need it.", "extended warranty"),
        ("Re the fog machine: the hall doesn't allow them anyway.", "fog machine"),
        ("As for the sauna add-on, no need, we have one at the gym.", "sauna add-on"),
        ("The Enterprise tier at 90 is way past what we can swing.", "Enterprise tier"),
        ("The Pro plan is well over our budget.", "Pro plan"),
        ("My husband is vetoing marble, it stains if you look at it.", "marble"),
        ("Mum will not hear of a cruise, she gets seasick on ferries.", "cruise"),
        ("We're not hosting Kafka ourselves, nobody wants that pager.", "Kafka"),
        ("My wife said the trampoline thing is absolutely not happening.", "trampoline"),
        ("婚纱照工作室除了铂爵 其他都可以看看 我表姐在那拍的翻车了", "铂爵"),
        ("还有除了顶楼 其他楼层都行 顶楼夏天太热", "顶楼"),
        ("英国我想先申G5以外的，曼大那种。", "G5"),
        ("Redis可以排除，数据量太小。", "Redis"),
        ("与其为Oracle单独采购授权，我们更倾向于开源方案。", "Oracle"),
        ("4. 不安排拼酒环节", "拼酒环节"),
        ("香港想了想就不申了。", "香港"),
        ("我个人是真的受够了 Slack, 通知太多。", "Slack"),
        ("我老公说 boarding 的学校也别推荐了。", "boarding 的学校"),
        ("hmm OK 那 Zoom 算了, 不稳定。", "Zoom"),
        ("Lightroom之前试过 调色挺顺手 但导出老是崩 卡了三次", "Lightroom"),
        ("比如那个led灯带我们用不上。", "led灯带"),
        ("只要开会, 不需要整套 office suite.", "office suite"),
        ("MySQL、MariaDB等开源数据库一律无法使用。", "开源数据库"),
        ("先装个试用版 Notion卸了 笔记走飞书", "Notion"),
        ("那种必须连WiFi才能用的也别推荐了，我妈不会弄。", "必须连WiFi才能用"),
        ("No US hosting, our data has to stay in the EU.", "US hosting"),
        ("No West Highland Way, we walked it in 2019.", "West Highland Way"),
        # Traditional Chinese reads as Simplified and keeps the user's characters.
        ("台大就不要了啦 之前等了快三個小時", "台大"),
        ("那個貓砂我真的受夠了，粉塵超大。", "貓砂"),
    ],
)
def test_the_option_is_turned_down(text: str, option: str) -> None:
    options = _rejected(text)
    assert option in options, options


@pytest.mark.parametrize(
    "text",
    [
        "As for hotels, we'd love something near the beach.",
        "Regarding the budget, it's about 2k.",
        "We're not running late, see you at 8.",
        "字幕识别挺准的。",
        "他个别时候会闹。",
        "OceanBase我们并无成见，只是想多了解一下。",
        "CT不是不能做，就是想问问辐射。",
        "死活不同意，唉。",
        "我女儿说不要去。",
        "I have no strong feelings either way.",
        "这个我已经退订了。",
        "我删了两张照片。",
    ],
)
def test_look_alikes_turn_nothing_down(text: str) -> None:
    assert _rejected(text) == []


def test_a_kind_with_an_exception_keeps_the_kind() -> None:
    reply = "婚纱照可以看看铂爵、海马体或者小众工作室。"
    options = _rejected("婚纱照工作室除了铂爵 其他都可以看看", reply)
    assert options == ["铂爵"], options


def test_no_objection_keeps_a_proposed_option() -> None:
    reply = "For tracing: Honeycomb, Tempo or Jaeger; for the rest, Grafana Cloud or New Relic."
    text = "new relic, nah, prefer grafana over it. no objections to honeycomb later though."
    assert _rejected(text, reply) == ["new relic"]


def test_a_price_past_the_means_still_states_the_budget() -> None:
    analysis = _analyse("The annex is beyond our budget, which is £9,000 all in.")
    assert [r.option for r in analysis.rejections] == ["annex"]
    assert any("£9,000" in n.text for n in analysis.requirements)


@pytest.mark.parametrize(
    "text",
    [
        "Will book the tour this week.",
        "I believe I shall proceed with the index fund through my bank.",
        "We will book the Lakes trip with a local outfit, 5 nights.",
        "周末去看",
        "我现在就去 order",
        "那我先打电话约王医生好了",
        "先坚持两周看看",
    ],
)
def test_the_users_next_step_is_no_requirement(text: str) -> None:
    assert _needs(text) == []


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("We will need two rooms.", "two rooms"),
        ("I'll be travelling with my two kids.", "two kids"),
        ("周末必须去看房", "必须"),
        ("孩子今年六岁了，预算两千", "六岁"),
        ("侄子下个月过十岁生日，想送个礼物", "十岁"),
    ],
)
def test_a_need_said_in_the_future_or_with_a_count_stays(text: str, need: str) -> None:
    needs = _needs(text)
    assert any(need in n for n in needs), needs


@pytest.mark.parametrize(
    "text",
    ["上次做过一回，难受得很，吐了好几天。", "顾问中途离职 前后换了三个人", "排队等了快三个小时"],
)
def test_a_story_counted_is_no_requirement(text: str) -> None:
    assert _needs(text) == []


def test_a_vendors_email_quoted_states_no_need_but_a_relayed_demand_does() -> None:
    vendor = (
        "Here's what the caterer wrote:\n\n> Hi Jo! Happy to hold the 14th for you. My standard "
        "menu serves 60. I can add a dessert table for $300 if you'd like.\n\nIs that normal?"
    )
    assert _needs(vendor) == []
    boss = "Our lead sent this:\n> Builds must finish in under 10 minutes.\nThoughts?"
    assert any("10 minutes" in n for n in _needs(boss))


def test_lower_case_chat_splits_after_an_acronym_and_drops_a_header_word() -> None:
    text = (
        "need a queue before we go GA. context: ~12 services on EKS, 2 of us on call. "
        "hard cap $800/mo all in. options?"
    )
    assert split_sentences(text)[-1] == "options?"
    needs = _needs(text)
    assert any("$800" in n for n in needs) and not any(n == "Context" for n in needs), needs


def test_traditional_chinese_keeps_the_users_characters_in_what_is_read() -> None:
    analysis = _analyse("犬貓都看的那種我不太想 她超怕狗。單程最好不要超過40分鐘")
    assert "犬貓都看" in [r.option for r in analysis.rejections]
    assert any("超過40分鐘" in r.text for r in analysis.requirements)


def test_a_written_xu_states_a_need_beside_a_refusal() -> None:
    """需 alone is the written modal ("所有内容需提前过法务"): a need of its own after "；"."""
    analysis = _analyse("不找代理商；所有合同需提前过法务。")
    assert [r.option for r in analysis.rejections] == ["代理商"]
    assert any("需提前过法务" in r.text for r in analysis.requirements)
    assert _needs("这个需求很简单。") == [] and _needs("无需安装，打开就能用。") == []


def test_a_topic_turned_down_survives_the_encoders_veto_after_a_reply() -> None:
    """The encoder reads clause by clause and gave "the camera" a low chance of being refused;
    after any assistant reply its veto removed the rule's reading."""
    reply = "Common approaches: graduated departures, puzzle toys, doggy daycare twice a week."
    text = "As for the camera, there is no need, my neighbour is home all day."
    assert _rejected(text, reply) == ["camera"]

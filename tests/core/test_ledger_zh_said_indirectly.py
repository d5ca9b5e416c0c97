"""Chinese rejections said indirectly, and readings that turned nothing down (issue 12,
session 29).

Found among the missed and false rejections of the tuning splits dev16 … dev18: a verdict on
"that one" sentences after the name ("GL8老款我二舅开过 … 那个就算了"; "…？我妈应该撑不住，这个先
跳过"), what does not fit ("…的…放不下"), a topic complained of and the other one chosen
("…太折腾了，还是专车吧"; in English "The train is too much hassle, let's just drive"), a name taken
up by "that one" and complained of ("塑料那种不结实"), plain verdicts the rules had no word for
("就不用排了", "先不加了", "没必要再开了", "一律不接", "用不着", "我家人超反对", "最憎", "X no") and
readings that were no option: a person's guess ("我妈应该撑(不住)"), the hassle itself ("不想折腾"),
"that set" in a name, an A-not-A question ("靠不靠谱"), what one would rather do ("宁可饿一天"), a
degree complement ("烦得要死"), "not much cheaper" (比较省), nothing wrong with it
(没得啥子不好), "a history of allergy" (有过敏史), "can't catch it" (接不住) and a story
("同事骑了半年电池就不行了"). The sentences are written for the test, not taken from the corpus.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.constructions_zh import zh_option_core
from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

_REPLY = "可以看看这几个：海尔、美的、史密斯，也可以考虑高铁或者专车。"


def _read(text: str) -> tuple[list[str], list[str]]:
    analysis = analyse_message(text, 3, LedgerSnapshot(last_assistant_message=_REPLY))
    return [h.option for h in analysis.rejections], [r.text for r in analysis.requirements]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("双开门的冰箱我家厨房放不下", "双开门"),
        ("七座的我家车库根本停不下", "七座"),
        ("要立式的，chest 的太占地了我们那屋根本放不下", "chest"),
        ("火车的话太折腾了，还是专车吧", "火车"),
        ("民宿太远了，那还是住酒店吧", "民宿"),
        ("扶手要不锈钢的，塑料那种不结实", "塑料"),
        ("史密斯那个不是说不好就是太贵了", "史密斯"),
        ("SigNoz那套用不上，只要日志。", "SigNoz"),
        ("The train is too much hassle, let's just drive.", "train"),
        ("Honestly the Dyson is way too loud, I'll go with the Shark.", "Dyson"),
        ("The sofa bed is too bulky, we'll go with the futon.", "sofa bed"),
    ],
)
def test_the_option_is_turned_down(text: str, option: str) -> None:
    assert _read(text)[0] == [option]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("环球影城就不用排了，我们家没人玩得动那些。", "环球影城"),
        ("保健品先不加了", "保健品"),
        ("MinIO 就不另外搭了。", "MinIO"),
        ("蝉妈妈就没必要再开了。", "蝉妈妈"),
        ("私下合作一律不接", "私下合作"),
        ("SaaS 这条线整个可以划掉了。", "SaaS"),
        ("transactional message 我们用不着，打算自己做 outbox。", "transactional message"),
        ("電動的我家人超反對", "電動"),
        ("換電池嗰啲我最憎", "換電池"),
        ("行 那x3d就不惦记了 钱都砸显卡上", "x3d"),
        ("迷你倉唔使喇 新屋大過舊屋", "迷你倉"),
        ("母婴博主 no，粉丝画像全是宝妈", "母婴博主"),
    ],
)
def test_a_plain_verdict_the_rules_had_no_word_for(text: str, option: str) -> None:
    assert _read(text)[0] == [option]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        (
            "GL8老款我二舅开过 大是真大 坐七个人都宽敞 就是百公里十三四个油 那个就算了",
            "GL8",
        ),
        ("伏见稻荷那个千本鸟居不是要一路爬上山吗？我妈应该撑不住，这个先跳过。", "伏见稻荷"),
        ("Notion挺好用的 就是贵 这个就算了吧", "Notion"),
    ],
)
def test_a_verdict_on_that_one_points_back_at_the_name(text: str, option: str) -> None:
    assert _read(text)[0] == [option]


def test_the_kind_described_after_do_not_set_up() -> None:
    refused = _read("笔试可以加 但是别整那种回家做三天的大作业 人早跑光了")[0]
    assert len(refused) == 1 and refused[0].endswith("大作业")


def test_a_complaint_settled_by_the_other_is_no_need() -> None:
    assert _read("火车的话太折腾了，还是专车吧")[1] == []


@pytest.mark.parametrize(
    "text",
    [
        "伏见稻荷那个千本鸟居不是要一路爬上山吗？我妈应该撑不住，这个先跳过。",
        "手动挡太难了不想折腾",
        "吊柜做到顶吧，东西多放不下",
        "天气太热了，还是室内吧",
        "这家太贵了，还是那家吧",
        "海尔那个不错，就它了",
        "美的那个有什么问题吗",
        "It's too far, let's drive.",
        "The price is too high, so let's get the smaller one.",
        "打针注浆又是啥子原理哦 靠不靠谱",
        "人家闻了一下扭头就走 宁可饿一天都不碰",
        "说每个月都有人打电话推销别的业务烦得要死后来退了",
        "我爸说电池月租算一算根本没比较省",
        "雨虹也没得啥子不好 不过工人说他们用K11顺手",
        "博主得是真敏感肌，有过敏史的加分。",
        "纯外教的以后都不考虑了 娃接不住。",
        "这样就不用担心了",
        "孩子就不开心了",
        "我同事骑了半年电池就不行了",
    ],
)
def test_no_person_guess_hassle_or_weather_is_an_option(text: str) -> None:
    refused = _read(text)[0]
    assert not any(
        word in option
        for option in refused
        for word in (
            "妈", "应该", "折腾", "东西", "天气", "这家", "海尔", "美的", "far", "price", "靠",
            "宁可", "烦", "退", "省", "比较", "雨虹", "有", "娃", "用", "开心", "同事",
        )
    ), refused


@pytest.mark.parametrize(
    ("phrase", "core"),
    [
        ("我妈推荐的那家店", "推荐的那家店"),
        ("我家的猫粮", "猫粮"),
        ("SigNoz那套", "SigNoz"),
        ("海尔那款", "海尔"),
    ],
)
def test_who_and_that_one_are_no_part_of_the_name(phrase: str, core: str) -> None:
    assert zh_option_core(phrase) == core

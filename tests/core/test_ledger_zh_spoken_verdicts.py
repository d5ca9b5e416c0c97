"""Chinese verdicts as people say them in chat, dialect and formal letters (issue 12, session 27).

Found on the dev16 tuning split (written by two new writers, measured untouched first): a
topic, then who judged and how ("…我看就算了吧"), a spoken filler ("…嘛嗯还是算了"), netizens'
verdicts ("告辞", "先跳过", "已拉黑"), a formal "本次不再列入", northern 整 ("别再整…"),
Cantonese (除咗…乜都得, 唔肯, 老豆), dread on sight ("见到都怕"), "as for X, …, 可不予考虑".
The sentences here are written for the test, not taken from the corpus.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.analysis import Analysis
from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _rejected(text: str) -> list[str]:
    return [r.option for r in analyse_message(text, 1, LedgerSnapshot()).rejections]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("那个网红款我看就算了吧", "网红款"),
        ("小米嘛嗯还是算了", "小米"),
        ("蔚来已拉黑。", "蔚来"),
        ("星巴克告辞。", "星巴克"),
        ("迪士尼那个排队太久，这个先跳过。", "迪士尼"),
        ("别再整Jenkins了。", "Jenkins"),
        ("我婆婆唔肯请钟点工", "钟点工"),
        ("我对露营是真的无感", "露营"),
        ("三文鱼我老豆见到都怕", "三文鱼"),
        ("除咗芒果其他乜都得", "芒果"),
        ("至于短视频平台，转化率偏低，可不予考虑。", "短视频平台"),
        ("龙虾好贵，算啦，换成花甲吧。", "龙虾"),
    ],
)
def test_a_spoken_or_formal_verdict_turns_the_option_down(text: str, option: str) -> None:
    assert _rejected(text) == [option]


def test_a_formal_no_longer_listed_names_no_verb_as_the_option() -> None:
    """'本次不再列入' turns down the topic of the sentence; 列入 is the verb, not an option."""
    assert _rejected("顺丰此前合作过，时效不稳定，本次不再列入。") == ["顺丰"]


@pytest.mark.parametrize(
    "text",
    [
        "这家好吃，算了不说了",
        "除了周末其他时间都得上班",
        "他不肯说",
        "这个价格我看还行",
        "我们去那个地方，算了",
        # A formal "kindly", a double negation (Cantonese too), a negated exclusion, "this road".
        "现将需求整理如下，烦请协助推荐合适方案：",
        "唔係唔考慮安心，只係佢個網站寫到亂晒。",
        "Poly方案报价偏高，但并非完全排除。",
        "个工人签咗约又话唔嚟，白白等多两个月，呢条路我唔行喇。",
    ],
)
def test_look_alikes_turn_nothing_down(text: str) -> None:
    assert _rejected(text) == []


def _analysis(text: str, reply: str = "") -> Analysis:
    return analyse_message(text, 2, LedgerSnapshot(last_assistant_message=reply))


def test_a_topic_cut_off_in_unpunctuated_speech_goes_back_to_its_verdict() -> None:
    """Voice input with no punctuation: the run-on splitter cuts before 我, so "那个X的" ended
    the piece before the verdict and "我看就算了吧" had no topic."""
    text = "楼下那家店我去过两回了味道一般般价钱也不便宜那个烤鸭的我看就算了吧"
    assert _rejected(text) == ["烤鸭"]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("小米的话嗯还是算了", "小米"),
        ("蔚来的话，我表哥去年提的车，异响修了三回，已拉黑。", "蔚来"),
    ],
)
def test_a_name_before_de_hua_is_the_topic(text: str, option: str) -> None:
    assert _rejected(text) == [option]


@pytest.mark.parametrize(
    "text",
    ["天气热的话就算了", "预算不够的话，游泳课就算了", "如果下雨的话就算了"],
)
def test_a_condition_before_de_hua_turns_nothing_down(text: str) -> None:
    assert _rejected(text) == []


def test_a_semicolon_ends_one_topics_clauses() -> None:
    """Two topics in one formal sentence, each with its own verdict, after a label."""
    text = (
        "经讨论：钉钉因数据须存本地，暂不纳入本次选型范围；飞书此前试用过一个月，"
        "审批流不够灵活，本次不再列入。"
    )
    assert _rejected(text) == ["钉钉", "飞书"]


def test_a_verdict_after_a_spaced_clause_and_a_closing_mark() -> None:
    assert _rejected("想想还是自己做吧～ 奶油蛋糕太腻了 拒绝🙅‍♀️ 水果挞可以！！") == ["奶油蛋糕"]


def test_a_latin_verdict_closing_a_clause_is_cut_from_the_next() -> None:
    analysis = _analysis("iPad直接pass 我们要用的软件只有windows版")
    assert [r.option for r in analysis.rejections] == ["iPad"]


def test_a_numbered_list_quoted_from_a_document_keeps_its_items_whole() -> None:
    """'> 1. …' was read as the sentence '1' and the item after it."""
    analysis = _analysis("需求文档原文：\n> 1. 日志保留不少于30天\n> 2. 支持按trace_id检索")
    texts = [r.text for r in analysis.requirements]
    assert texts == ["日志保留不少于30天", "支持按trace_id检索"]


def test_one_character_is_no_name_picked_from_the_reply() -> None:
    """'ok 定了' after a reply that says 定 somewhere was read as picking the option '定'."""
    analysis = _analysis("ok 定了 我下午拉个会同步一下", "那就定 ClickHouse，我把方案整理一下。")
    assert "使用定" not in [r.text for r in analysis.requirements]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("Chapter 我看了 £260 一周起, can't afford that lol.", "Chapter"),
        ("Rusholme，学长说晚上有点乱, nah.", "Rusholme"),
    ],
)
def test_an_english_verdict_typed_in_a_chinese_message(text: str, option: str) -> None:
    assert _rejected(text) == [option]

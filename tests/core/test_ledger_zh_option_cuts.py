"""Issue 12, Chinese rejection precision: what the Chinese rules cut from a refusal is an
option, never a pronoun, laughter, a verb of thinking or a unit torn from its number; and the
"don't even think of it" verdicts (想都别想, 别寻思了, 甭想了) turn their topic down. Sentences
written for this file (in no corpus)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def rejected(text: str, reply: str = "") -> list[str]:
    view = LedgerSnapshot(last_assistant_message=reply)
    return [r.option for r in analyse_message(text, 2, view).rejections]


@pytest.mark.parametrize(
    ("text", "junk"),
    [
        ("Vue 就算了，去年被它坑惨了，我是不会再碰它了", "它"),
        ("这款太丑了不要哈哈", "哈哈"),
        ("日志保留30天这条别漏了，合规要查", "天这条"),
        ("备份就靠它了，别动它", "它"),
    ],
)
def test_no_pronoun_laugh_or_torn_unit_is_rejected(text: str, junk: str) -> None:
    assert all(junk not in option for option in rejected(text)), rejected(text)


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("公有云的想都别想，数据必须留在本地。", "公有云"),
        ("进口的那些就别寻思了，预算就五百。", "进口"),
        ("邮轮就甭想了，我妈晕船。", "邮轮"),
    ],
)
def test_dont_even_think_of_it_rejects_its_topic(text: str, option: str) -> None:
    assert any(option in o for o in rejected(text)), rejected(text)


def test_the_named_option_before_the_pronoun_is_still_rejected() -> None:
    assert any("Vue" in o for o in rejected("Vue 就算了，去年被它坑惨了，我是不会再碰它了"))


@pytest.mark.parametrize("text", ["Redshift 之前用过，太折腾了，不想再来一次。", "再也不去了"])
def test_never_again_in_chinese_is_no_requirement(text: str) -> None:
    view = LedgerSnapshot(last_assistant_message="")
    assert analyse_message(text, 2, view).requirements == []


@pytest.mark.parametrize(
    ("text", "option"),
    [
        # A latin name set off by spaces, after a leading "then".
        ("Memcached 就拉倒吧，上次缓存雪崩把库打挂了。", "Memcached"),
        ("那 Notion 就算了吧。", "Notion"),
        # "Not needed", "void" and Cantonese 唔好 verdicts.
        ("婴儿床就不必了，我妈家有一张。", "婴儿床"),
        ("那 Redis 集群这方案作废。", "Redis"),
        ("迪士尼就唔好啦，人多到爆。", "迪士尼"),
        # The verb of removing first, then what goes.
        ("那就换掉宜家，用源氏木语的。", "宜家"),
    ],
)
def test_more_chinese_verdicts_reject_their_topic(text: str, option: str) -> None:
    assert any(option in o for o in rejected(text)), rejected(text)


@pytest.mark.parametrize("text", ["Redis 也不是不行，再看看。", "婴儿床必须有护栏。"])
def test_a_hedge_or_a_need_rejects_nothing(text: str) -> None:
    assert rejected(text) == []


def test_bold_inside_chinese_keeps_the_clause_whole() -> None:
    view = LedgerSnapshot(last_assistant_message="")
    analysis = analyse_message("要求：\n- **不要**再用 Ant 写构建脚本", 2, view)
    assert "不要" not in [r.text for r in analysis.requirements]
    assert any("Ant" in r.option for r in analysis.rejections)


def test_moving_away_from_rejects_it() -> None:
    assert any("Travis" in o for o in rejected("我们准备把构建从 Travis 迁走，要求如下"))

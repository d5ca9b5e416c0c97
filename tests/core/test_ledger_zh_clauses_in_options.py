"""Chinese forms found in corpus/ledger/dev13 (issue 12), in sentences of our own: a word that
turns the talk ("对了", "还有") before a topic that is turned down is no part of it, and a phrase
in which a person says or does something ("大家都说这牌子", "这个我没…", "跟俺…") is a clause,
never an option. Look-alikes beside each stay as they were: a brand that holds a pronoun's
character (爱他美), the same refusal without the turning word. The bridge the guard reads
Chinese with keeps a name WordNet knows whole ("master of ceremonies" for 司仪)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.bridge_zh import english_names
from rcm_tui.core.heuristics.option_shapes import names_no_thing
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

_VIEW = LedgerSnapshot(last_assistant_message="可以先看看这几款。")


def _rejected(text: str) -> list[str]:
    return [r.option for r in analyse_message(text, 2, _VIEW).rejections]


@pytest.mark.parametrize(
    "text",
    [
        "对了麦克风不用，我们不唱歌，光放音乐跳。",
        "还有麦克风不用，我们不唱歌。",
        "麦克风不用，我们不唱歌。",
    ],
)
def test_a_turning_word_before_the_topic_is_no_part_of_it(text: str) -> None:
    assert _rejected(text) == ["麦克风"]


@pytest.mark.parametrize(
    "option", ["大家都说这牌子", "吉利银河这个我没", "界面跟俺八字", "他们也说那家", "你不"]
)
def test_a_person_saying_or_doing_something_names_no_option(option: str) -> None:
    assert names_no_thing(option)


@pytest.mark.parametrize("option", ["爱他美", "麦克风", "先科", "我的世界", "其他品牌"])
def test_names_with_a_pronouns_character_are_still_options(option: str) -> None:
    assert not names_no_thing(option)


def test_a_reported_verdict_rejects_no_clause() -> None:
    found = _rejected("上回买的那个小音箱用了不到半年就破音了，大家都说这牌子不行")
    assert not any("大家" in option or "说" in option for option in found)


def test_a_brand_holding_a_pronouns_character_is_still_rejected() -> None:
    assert _rejected("爱他美就算了，太贵了。") == ["爱他美"]


@pytest.mark.parametrize(
    ("word", "name"),
    [("司仪", "master of ceremonies"), ("五斗柜", "chest of drawers")],
)
def test_the_bridge_keeps_a_name_wordnet_knows_whole(word: str, name: str) -> None:
    assert name in english_names(word)


def test_the_bridge_still_cuts_a_postmodifier_off_a_plain_head() -> None:
    assert "master" not in english_names("司仪")

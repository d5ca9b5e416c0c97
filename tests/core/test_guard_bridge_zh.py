"""The guard across languages: a Chinese word is read as the English nouns it means.

Sentences written here, in no corpus.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy
from rcm_tui.core.heuristics.bridge_zh import chinese_words, english_names


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], as_reply=True)


@pytest.mark.parametrize(("option", "reply"), [
    ("taxis", "从机场坐的士过去最快，二十分钟。"),           # the word itself, in Chinese
    ("taxis", "建议直接叫网约车，三十元左右。"),            # another Chinese word for it
    ("酒", "送他一瓶茅台，逢年过节也有面子。"),             # a kind of it: Maotai is a liquor
    ("酒", "A bottle of single malt whisky would make a lovely gift."),  # its English name
    ("desserts", "生日可以订一个提拉米苏，孩子们都喜欢。"),  # tiramisu is a dessert
])
def test_a_chinese_word_or_an_english_name_proposes_what_it_means(
    option: str, reply: str
) -> None:
    assert flags(reply, option) == [option]


@pytest.mark.parametrize(("option", "reply"), [
    ("taxis", "不坐的士的话，地铁二号线最快。"),
    ("酒", "考虑到你不喝酒，酒吧街就跳过了，推荐去看川剧。"),
    ("taxis", "地铁二号线直达，四十分钟，最方便。"),  # nothing that is a taxi
])
def test_a_chinese_mention_that_excludes_or_names_nothing_does_not_flag(
    option: str, reply: str
) -> None:
    assert flags(reply, option) == []


def test_only_the_head_of_a_gloss_counts() -> None:
    # 车站 is a station or a bus stop: a stop, not a bus.
    assert flags("到了车站再走五分钟就到，很方便。", "buses") == []


def test_words_are_found_longest_first() -> None:
    words = [w for w, _s, _e in chinese_words("我们坐出租车去机场")]
    assert words == ["出租车", "机场"]  # not 出租 (to rent); 我们 has no noun to mean
    assert "wine" in english_names("酒") and english_names("taxis") == ()


@pytest.mark.parametrize(("option", "reply"), [
    ("买酒", "送他一瓶茅台，逢年过节也有面子。"),
    ("安排出租车", "从机场坐的士过去最快，二十分钟。"),
])
def test_a_chinese_option_phrase_is_matched_by_its_object(option: str, reply: str) -> None:
    # The ledger may keep the verb ("买酒", "安排出租车"): the option is what is bought, booked.
    assert flags(reply, option) == [option]


def test_a_chinese_word_of_its_own_keeps_its_meaning() -> None:
    # 打车 is "take a taxi", not 打 + 车 (a car, a vehicle, a machine).
    assert flags("自己开车过去，停车很方便。", "打车") == []


def test_a_chinese_option_phrase_with_its_subject_is_matched_by_its_object() -> None:
    # "新娘对芒果过敏" may reach the ledger as "新娘对芒果": the option is 芒果.
    assert flags("甜品推荐芒果班戟，颜色喜庆。", "新娘对芒果") == ["新娘对芒果"]


def test_a_chinese_word_written_with_latin_letters_is_read_too() -> None:
    assert flags("- **包一个卡拉OK大厅**，大家轮流上台唱歌。", "karaoke") == ["karaoke"]


def test_a_word_newer_than_the_old_dictionary_is_read() -> None:
    # 尤克里里 (ukulele) came with the CC-CEDICT release of 2023; ukulele is a musical instrument.
    reply = (
        "可以考虑这些：\n- **社区合唱团**：每周排练一次。\n"
        "- **尤克里里班**：只有四根弦，一个月就能弹唱简单的歌。"
    )
    assert flags(reply, "乐器") == ["乐器"]

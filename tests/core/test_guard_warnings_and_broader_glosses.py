"""What corpus/guard/dev4 (issue 12, session 22) showed the guard still misread in replies that
only mention a rejected option, in replies of our own: a bold warning ("**Watch out:** …",
"**提醒**：" over its items) names what to watch for, not what is offered; an unsuitability's
reason in brackets ("X不适合你（酒精含量高）"), a denial ("这类不是刺激性酒精") and a conditional
"put it back" ("出现乙醇就放下") mention the option to keep it out; and a dictionary gloss cut to
its head ("racing bicycle" → bicycle for 公路车) names the option but is broader than it, so a
kind of the head (a mountain bike) is no kind of the option. Look-alikes: a tip ("**Tip:**",
"**小提醒**") still offers, the option itself offered is still flagged, and a reply's word read
through its cut head (茅台 → liquor) still proposes a rejected 酒."""

from __future__ import annotations

from rcm_tui.core.heuristics import find_readvocacy
from rcm_tui.core.heuristics.bridge_zh import broader_names, english_names
from rcm_tui.core.heuristics.reply_lines import reply_lines


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], as_reply=True)


def test_a_bold_warning_line_names_what_to_watch_for() -> None:
    reply = (
        "A few ideas around $100:\n\n"
        "1. **A tea set** with a glass teapot.\n"
        "2. **A potted orchid** delivered to the office.\n\n"
        "**One thing to watch:** many gourmet boxes come with items like peanut brittle."
    )
    assert flags(reply, "peanuts") == []


def test_a_bold_tip_still_offers() -> None:
    reply = (
        "A few ideas around $100:\n\n"
        "1. **A tea set** with a glass teapot.\n\n"
        "**Tip:** a jar of peanut brittle makes a lovely add-on."
    )
    assert flags(reply, "peanut brittle") == ["peanut brittle"]


def test_items_under_a_chinese_warning_heading_are_warned_of() -> None:
    reply = (
        "建议找专业翻译公司，或者持证的法律译员。\n\n"
        "**提醒**：\n"
        "- 有些平台报价特别低，是因为先用机器翻译出初稿再人工润色，下单前一定要问清楚\n"
        "- 要求对方出具翻译盖章\n"
    )
    assert flags(reply, "机器翻译") == []


def test_items_under_a_small_tip_heading_still_offer() -> None:
    reply = (
        "建议找专业翻译公司。\n\n"
        "**小提醒**：\n"
        "- 预算紧的话，可以先用机器翻译出初稿，再请律师审一遍\n"
    )
    assert flags(reply, "机器翻译") == ["机器翻译"]


def test_the_reason_in_brackets_after_an_unsuitability_mentions_it() -> None:
    reply = (
        "1. **洁面**：珂润泡沫洁面，氨基酸很温和。\n"
        "2. **防晒**：**安热沙小金瓶**不适合你（酒精含量高），换成**薇诺娜清透防晒乳**。\n"
    )
    assert flags(reply, "含酒精的护肤品") == []


def test_a_denial_and_a_put_it_back_mention_it() -> None:
    reply = (
        "**看配料表的小技巧**：\n"
        "- 出现**乙醇**、**变性乙醇（Alcohol Denat.）**就放下\n"
        "- **丁二醇**这类不是刺激性酒精，是正常保湿成分\n"
    )
    assert flags(reply, "含酒精的护肤品") == []


def test_skincare_with_alcohol_offered_is_still_flagged() -> None:
    reply = "1. **爽肤水**：推荐这款含酒精的爽肤水，清爽控油。\n"
    assert flags(reply, "含酒精的爽肤水") != []


def test_a_gloss_cut_to_its_head_is_broader_than_the_option() -> None:
    assert "bicycle" in english_names("公路车")
    assert "bicycle" in broader_names("公路车")
    assert "mountain bike" not in broader_names("山地车")


def test_a_mountain_bike_is_no_road_bike() -> None:
    reply = (
        "12公里还带土路，3000元预算推荐：\n"
        "1. **硬尾山地车**：崔克 Marlin 4，胎宽抓地好，土路很稳。\n"
        "2. **配件**：打气筒、前后灯、U型锁。\n"
    )
    assert flags(reply, "公路车") == []


def test_a_road_bike_offered_is_still_flagged() -> None:
    reply = "3000元预算推荐：\n1. **公路车**：喜德盛 RS350，轻快省力。\n"
    assert flags(reply, "公路车") == ["公路车"]


def test_a_word_read_through_its_cut_head_still_proposes() -> None:
    # 茅台 is glossed "Maotai liquor": its head, liquor, is a kind of what 酒 names.
    reply = "送礼的话：\n1. **飞天茅台**：一瓶一千五左右，体面。\n"
    assert flags(reply, "酒") != []


def test_a_chinese_warning_glued_to_other_words_heads_a_section() -> None:
    lines = reply_lines("**注意避坑：**\n- 有些平台先用机器翻译出初稿\n")
    assert lines[1].warned


def test_an_exclusion_heading_excludes_without_warning() -> None:
    lines = reply_lines("What to avoid:\n- machine translation drafts\n")
    assert lines[1].excluded
    assert not lines[1].warned

"""Forms found in the guard's fourth round (corpus/guard/dev3, issue 12), in sentences of our
own: a reply in Traditional characters, a comparison that measures the offer against the
rejected option (比青旅安静, 和生酮不同), an exclusion that points back at what the sentence
lists ("…都含芒果，不要混进来", "…所以没放进来"), 无 before an adjective (无痛胃镜), an item whose
description says "dropped stitches"; and on the ledger's side "I tried X and hated it", "we are
killing X", "don't say X", "Not a dog though", "No big cities this time", 不坐飞机, 不想再用X了,
别搞X了, 不想做X. Look-alikes beside each stay as they were."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message, find_readvocacy
from rcm_tui.core.heuristics.replies import find_readvocacy_evidence
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], as_reply=True)


def _rejected(text: str) -> list[str]:
    view = LedgerSnapshot(last_assistant_message="Here are a few ideas to start from.")
    return [r.option for r in analyse_message(text, 2, view).rejections]


@pytest.mark.parametrize(("option", "reply"), [
    # Traditional characters are read as Simplified: 避開 is 避开, 沒列進來 is 没列进来.
    ("巧克力", "- **鳳梨酥**：很受歡迎。\n\n我刻意避開了巧克力類，像 **Godiva、金莎**都沒列進來。"),
    # A comparison measures the offer against the option.
    ("青旅", "1. **公寓式酒店**：比青旅安静得多，独立卫浴，住四天很方便。"),
    ("生酮", "3. **适度控碳**：主食减到三分之二。和生酮不同，它不需要把碳水压到极低。"),
    # What the sentence lists, it lists to leave out.
    ("芒果", "⚠️ **过敏提醒**：**杨枝甘露、芒果班戟**这类单品都含芒果，不要混进来。"),
    ("布艺沙发", "另外，商家常推荐的**科技布**本质上还是布艺沙发，只是更耐磨，所以没放进来。"),
    ("peanuts", "Satay and **peanut noodles** are classic here — I skipped anything like that."),
])
def test_a_mention_that_compares_or_leaves_out_is_not_flagged(option: str, reply: str) -> None:
    assert flags(reply, option) == []


@pytest.mark.parametrize(("option", "reply"), [
    ("巧克力", "- **金莎巧克力禮盒**：長輩都喜歡，一盒八百元。"),
    ("青旅", "1. **青旅**：比酒店便宜得多，交朋友也方便。"),
    ("生酮", "3. **生酮饮食**：和低碳类似，见效快。"),
    ("芒果", "- **芒果班戟**：小朋友最爱，做十个就够。"),
    ("peanuts", "Satay with **peanut sauce** is the crowd favourite — order two plates."),
])
def test_the_same_options_offered_are_still_flagged(option: str, reply: str) -> None:
    assert flags(reply, option) == [option]


def test_the_words_that_propose_are_given_back_in_the_replys_characters() -> None:
    found = find_readvocacy_evidence("- 送兩瓶**茅臺**，長輩都喜歡。", ["酒"], as_reply=True)
    assert found == {"酒": "茅臺"}


def test_wu_before_an_adjective_does_not_negate_the_head_noun() -> None:
    reply = "2. **无痛胃镜**：全程静脉麻醉，睡一觉就做完了，很适合你。"
    assert flags(reply, "胃镜") == ["胃镜"]
    assert flags("2. **无酒精啤酒**：口感接近，聚会也能喝。", "酒精") == []


def test_an_adjectival_dropped_in_an_items_description_leaves_the_item_on_offer() -> None:
    reply = (
        "1. **Embroidery** — start with a kit.\n"
        "2. **Loom knitting** — a plastic loom instead of needles, so dropped stitches are rarer."
    )
    assert flags(reply, "knitting") == ["knitting"]
    assert flags("- **Loom knitting** — dropped after the first week.", "knitting") == []


@pytest.mark.parametrize(("text", "option"), [
    ("I tried knitting last year and hated it.", "knitting"),
    ("tried knitting last year, hated it", "knitting"),
    ("we are killing daily standups. everyone hates them", "daily standups"),
    ("don't say gift cards, they feel lazy", "gift cards"),
    ("不坐飞机，他恐飞", "飞机"),
    ("不想再用微信群了，消息一刷就没了", "微信群"),
    ("微信群不想再用了", "微信群"),
    ("周会别搞线下了，每次上海同事都要出差过来", "线下"),
    ("我不想做胃镜，听说插管子特别难受", "胃镜"),
    ("不请司仪！我们想自己主持流程", "司仪"),
    # A plain thing said alone after "not"/"no", with no offer on the table (the guard's
    # end-to-end replays answer every turn with "Noted.").
    ("Not a dog though, we're out 9 hours a day and it wouldn't be fair.", "dog"),
    ("Not the ground floor — I had a break-in in my last place.", "ground floor"),
    ("No big cities this time, we want quiet.", "big cities"),
])
def test_everyday_refusals_name_the_option(text: str, option: str) -> None:
    assert _rejected(text) == [option]


@pytest.mark.parametrize("text", [
    "I tried knitting last year and loved it.",
    "I'm killing it at work lately.",
    "I don't say Kafka is bad.",
    "don't say I didn't warn you",
    "我坐不坐飞机都行",
    "Not a fan.",
    "Not the cheapest, but fine.",
    "Not a good idea.",
    "No big deal.",
    "Not always.",
])
def test_look_alikes_reject_nothing(text: str) -> None:
    assert _rejected(text) == []


def test_a_verb_phrase_after_bu_xiang_zai_is_no_option() -> None:
    # 再 before a verb of using opens the option (不想再用微信群了); 重蹈覆辙 is an idiom.
    assert "重蹈覆辙" not in _rejected("RabbitMQ之前用过，消息一上来就堆积，不想再重蹈覆辙。")


def test_a_plain_thing_refused_before_a_named_rejection_stays_rejected() -> None:
    # The category after a named rejection is its reason ("let's not use MongoDB … so a
    # document store is off the table"); a thing refused in a sentence before it is not.
    text = "Not a dog though, we're out 9 hours a day. I tried knitting last year and hated it."
    assert _rejected(text) == ["dog", "knitting"]
    merged = "Let's not use MongoDB. We need SQL reporting, so a document store is off the table."
    assert _rejected(merged) == ["MongoDB"]

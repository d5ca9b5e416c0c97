"""The guard reads what a reply's nouns are made of or like (WordNet definitions) and the
members its lexicon lists; mentions that exclude stay unflagged.

Replies written for these tests, in no corpus.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        # paella is "rice with shellfish and chicken"
        ("For the starter, share a big saffron paella straight from the pan.", "shellfish"),
        # tiramisu: "... mascarpone cheese and topped with grated chocolate"
        ("For dessert, bake a classic tiramisu the night before so it sets.", "chocolate"),
        # baklava: "... pastry with nuts and honey"
        ("Order the baklava for dessert, it's the best in town.", "nuts"),
        # moussaka: "casserole of eggplant and ground lamb ..."
        ("Try the moussaka, it's their signature dish.", "eggplant"),
    ],
)
def test_a_member_only_its_definition_shows_is_flagged(reply: str, option: str) -> None:
    assert find_readvocacy(reply, [option], as_reply=True) == [option]


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        ("Since shellfish is out, I left the paella off the menu and went with roast chicken.",
         "shellfish"),
        ("I skipped the tiramisu because you can't stand chocolate; the lemon tart is lovely.",
         "chocolate"),
        # what a thing is for is not what it is: an aquarium is "a tank ... for keeping fish"
        ("Bring an aquarium sticker book for the kids.", "fish"),
        # a colour in a definition says how a thing looks: rust is "red or brown"
        ("The walls: warm white; cushions in mustard and rust.", "brown"),
        # 考虑到 gives the reason; 过敏 after the option is the user's condition; 去掉 excludes
        ("考虑到你海鲜过敏，我把鱼和虾都去掉了，换成了鸡肉。", "海鲜"),
        # the thing replaced (换成) is not on offer
        ("蚝油也含海鲜成分，炒菜时建议换成生抽。", "海鲜"),
        ("Given her shellfish allergy, every dish here is made without it.", "shellfish"),
    ],
)
def test_a_mention_that_excludes_is_not_flagged(reply: str, option: str) -> None:
    assert find_readvocacy(reply, [option], as_reply=True) == []


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        # the ledger may keep where the user refused it: "no carpet anywhere"
        ("Finish the room with a thick wool rug under the bed; it keeps toes warm.",
         "carpet anywhere"),
        # a quantifier or a verb before a Chinese option: its object is what was rejected
        ("推荐一台平板电脑，学英语很方便。", "任何电子产品"),
        ("可以给孩子报个钢琴班，每周两节课。", "学乐器"),
    ],
)
def test_an_option_as_the_ledger_words_it_still_finds_its_members(
    reply: str, option: str
) -> None:
    assert find_readvocacy(reply, [option], as_reply=True) == [option]


def test_a_quantified_chinese_option_mentioned_to_exclude_it_is_not_flagged() -> None:
    reply = "既然不考虑任何电子产品，平板和学习机我都没放进来，推荐乐高和绘本。"
    assert find_readvocacy(reply, ["任何电子产品"], as_reply=True) == []


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        # a vendor's products, a product line, a brand of the category
        ("Put the nightly backups in S3 Glacier; nothing is cheaper for cold data.", "AWS"),
        ("Try the Galaxy S24, its camera is great in low light.", "Samsung"),
        ("The Nespresso Vertuo Next is the easiest pick for a busy office.", "pod machines"),
        ("For the drive, a RAV4 would fit the dog crate easily.", "SUVs"),
        ("I'd get him a bottle of Laphroaig 10 for the shelf.", "alcohol"),
        ("那就带他去吃水煮鱼吧，这家的招牌菜。", "辣"),
        # "check out" offers what follows it
        ("Check out the local thrift store; they often have great wool coats for under $30.",
         "used clothing"),
    ],
)
def test_a_member_the_lexicon_knows_is_flagged(reply: str, option: str) -> None:
    assert find_readvocacy(reply, [option], as_reply=True) == [option]


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        ("Since AWS is out, I've left out S3 and Lambda too; Hetzner and B2 cover it.", "AWS"),
        ("No Nespresso or Keurig here, as you asked: a Moka pot and a good grinder instead.",
         "pod machines"),
        ("I skipped the Galaxy line since Samsung is off the table; the Pixel 8a is my pick.",
         "Samsung"),
        ("既然不吃辣，水煮鱼和麻婆豆腐我都没放进来。", "辣"),
        ("Check out Hetzner; it's cheaper than any AWS setup.", "AWS"),
    ],
)
def test_members_named_to_exclude_them_are_not_flagged(reply: str, option: str) -> None:
    assert find_readvocacy(reply, [option], as_reply=True) == []



def test_a_product_named_after_its_vendor_is_not_the_vendor() -> None:
    # "AWS API Gateway is off the table" turns down one product: ECS (an AWS service, no API
    # gateway) is not it; "AWS services" would be every one of them.
    from rcm_tui.core.heuristics.categories import category_members

    assert "ECS" not in category_members("AWS API Gateway")
    assert "ECS" in category_members("AWS services")
    assert "galaxy" in category_members("Samsung phones")

"""The heuristic guard beyond names: variants, members of a rejected category, and replies that
only mention a rejected option — decided per clause and by the reply's structure."""

from __future__ import annotations

from pathlib import Path

import pytest

from rcm_tui.core.heuristics import find_readvocacy
from rcm_tui.core.heuristics.categories import category_members
from rcm_tui.eval.guard import given_flags, load_items, score

OWN = Path(__file__).resolve().parent.parent / "data" / "guard_own.jsonl"


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        # members of a category
        ("1. **Protein pancakes** — blend 2 eggs and a banana.\n2. **Egg muffins**.", "flat foods"),
        ("- **Buffalo Exchange or your local Goodwill** — great coats under $50.", "used clothing"),
        ("| **A quick cab** from the rank | ~15 min | ~€9 |", "taxis"),
        ("1. **ScratchJr** (free, iPad/Android) — picture blocks.", "screen time"),
        ("- **Chicken satay skewers** with a rich dipping sauce.", "peanuts"),
        ("- **Ibuprofen 400 mg** with food is usually the most effective.", "NSAIDs"),
        ("2. **叫个滴滴快车**，20分钟左右，最省时间。", "打车"),
        ("3. 可以在**闲鱼上淘一台成色好的富士X-S10**。", "二手"),
        ("- **点读学习平板**：带有彩色触摸屏。", "有屏幕的玩具"),
        # variants and other names
        ("I'd go with **EKS on Fargate** for future flexibility.", "Kubernetes"),
        ("- **腾讯云ES（托管版）**：全文检索能力最强。", "Elasticsearch"),
        ("- **A hand-printed silk bow tie** — playful.", "tie"),
        ("2. **A Danube river cruise from Vienna to Budapest**.", "cruises"),
        ("Honestly, Redis is purpose-built for this.", "Redis"),
        # kinds of it by WordNet's noun hierarchy, with no list of members
        ("- **A felt fedora** from Lock & Co.", "hats"),
        ("1. **A leather chesterfield** for the study.", "sofas"),
        # everyday offers in prose
        ("If you're short on time, just take a cab from the rank.", "taxis"),
        ("Nonetheless, Redis is the quickest way to get there.", "Redis"),
    ],
)
def test_a_reply_offering_a_member_or_variant_proposes_the_rejected_option(
    reply: str, option: str
) -> None:
    assert find_readvocacy(reply, [option]) == [option]


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        ("Since you don't like brown, I've avoided taupe:\n- **Walls**: warm white.", "brown"),
        ("I left out MongoDB as you asked; everything above is relational.", "MongoDB"),
        ("| Redis | rejected — no extra stateful service | ruled out |", "Redis"),
        ('You said "I hate taxis", so day one is on foot:\n1. **9:00** São Bento.', "taxis"),
        ("**Considered and dropped**:\n- ~~Microservices~~ — too heavy.", "microservices"),
        ("- 已排除：Elasticsearch（运维成本太高）", "Elasticsearch"),
        ("Instead of a tablet app, try:\n- **Cubetto** — a wooden robot.", "screen time"),
        (
            "I avoided anything with peanuts, which rules out satay:\n"
            "- **Thai green curry** — use a paste labelled peanut-free",
            "peanuts",
        ),
        ("以下全部是全新行货，没有推荐闲鱼之类的二手平台：\n1. 索尼ZV-E10。", "二手"),
        ("因为你不想跟团，以下全部是自由行安排：\n- **D1 昆明**：滇池。", "跟团"),
        ("MongoDB Atlas would have been the easy choice, but you ruled MongoDB out.", "MongoDB"),
        ("Something more personal than a tie:\n- A framed print.", "tie"),
        # the user's aversion reported back, crosses, "not your thing"
        ("Since you hate taxis, here is a walking plan:\n- **Day 1**: Ribeira on foot.", "taxis"),
        ("- ❌ Kafka — too heavy\n- ✅ NATS JetStream", "Kafka"),
        ("Kafka isn't really your thing, so NATS it is.", "Kafka"),
        ("既然你讨厌打车，全程地铁加步行。", "打车"),
        # a modifier that makes it not the thing: fine for someone who rejected the thing
        ("- **Vegan leather sofa** from IKEA, £549.", "leather"),
        ("- **Gluten-free pasta** with pesto.", "gluten"),
        ("2. **Non-alcoholic beer** tasting at the brewery.", "alcohol"),
        ("Rejected options — do NOT propose these again:\n- Kafka (ops burden)", "Kafka"),
    ],
)
def test_a_reply_that_only_mentions_the_rejected_option_is_not_flagged(
    reply: str, option: str
) -> None:
    assert find_readvocacy(reply, [option]) == []


def test_a_kind_must_be_a_kind_by_its_common_senses() -> None:
    # A viola is not a violin, a minibus not a van: siblings are not members.
    assert find_readvocacy("- **A viola** is a great second instrument.", ["violins"]) == []
    assert find_readvocacy("Hire a **minibus** for the group.", ["vans"]) == []


def test_a_narrowed_category_does_not_take_the_members_of_its_head() -> None:
    # "used clothing" is not all clothing: a new jacket is fine.
    assert "jacket" not in category_members("used clothing")
    assert find_readvocacy("- **Uniqlo** — a new down jacket, $130.", ["used clothing"]) == []
    # ...but a defining modifier names its category: sugary snacks are sweets.
    assert "gummy bears" in category_members("sugary snacks")


def test_on_our_own_replies_the_guard_catches_most_and_flags_no_mention() -> None:
    figures = score(load_items(OWN), given_flags)["total"]
    assert figures["recall"] >= 0.85, figures["missed"]
    # One sibling read as a member by the member reader: guinea pigs for "dogs" (own-11).
    assert len(figures["false_flags"]) <= 1, figures["false_flags"]
    assert figures["mention_only_flagged"] == 0

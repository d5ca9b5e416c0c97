"""The guard reads a reply as the model wrote it: the ledger strips Markdown from a user's
message (tests/core/test_ledger_language.py), but in a reply the bold is what offers."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        # A bold member of the category inside a prose sentence.
        ("A **beagle puppy** is hard to beat with kids that age: gentle and playful.", "dogs"),
        ("A **charcoal** sofa is the safest bet: it hides stains.", "grey"),
        # A bold-only line heading a proposal, the way models lay out their options.
        ("Two good fits:\n\n**Redis**\nFast, simple, already in your stack.", "Redis"),
        ("可以这样安排：\n\n**坐滴滴快车**\n二十分钟就到。", "打车"),
    ],
)
def test_a_bold_offer_in_a_reply_is_flagged(reply: str, option: str) -> None:
    assert find_readvocacy(reply, [option]) == [option]


@pytest.mark.parametrize(
    ("reply", "option"),
    [
        # The lexicon knows "coach"; the user said "coaches" ("coache" as a crude token key).
        ("Take one of the **shuttle buses** from the airport.", "coaches"),
        # The lexicon lists the members in the singular; the reply offers them in the plural,
        # which the crude token keys do not bring back ("budgy", "cappuccinos").
        ("A pair of **budgies** would suit a small flat.", "birds"),
        ("Start the day with two **cappuccinos** at Caffè Reale.", "caffeine"),
    ],
)
def test_a_category_is_found_whichever_number_the_user_and_the_reply_use(
    reply: str, option: str
) -> None:
    assert find_readvocacy(reply, [option]) == [option]

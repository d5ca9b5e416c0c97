"""A reply that warns where a rejected thing hides names it to keep it out: "chicken hides in
ingredient lists as chicken meal", "may contain traces of peanuts", "watch out for hidden
peanuts in granola" (corpus/guard/dev3 flagged the first as a proposal). A proposal beside a
warning is still one. And the Chinese bridge gives a word no English name from a verb's
particle or frame: 寄养 ("to board out", "to place in the care of sb") is no "out" and no kind
of care, so 上门喂猫服务 does not propose it."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy
from rcm_tui.core.heuristics.bridge_zh import english_names


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], as_reply=True)


@pytest.mark.parametrize(("option", "reply"), [
    ("chicken", "**Label tip:** chicken hides in ingredient lists as **chicken meal**, "
                "**chicken fat** and vague poultry by-product meal, so I skipped anything "
                "listing those."),
    ("peanuts", "Check labels: peanuts often hide in satay sauce and some curries."),
    ("peanuts", "Many bakery items may contain traces of peanuts."),
    ("peanuts", "Peanuts can turn up in pesto, so ask."),
    ("peanuts", "Peanuts are sometimes listed as groundnuts or arachis oil."),
    ("peanuts", "Watch out for hidden peanuts in granola."),
    ("花生", "这款饼干含有花生，买之前要小心。"),
])
def test_a_warning_of_where_it_hides_is_no_proposal(option: str, reply: str) -> None:
    assert flags(reply, option) == []


@pytest.mark.parametrize(("option", "reply"), [
    ("chicken", "Try the chicken tikka, it is the best thing on the menu."),
    ("peanuts", "Order the satay, it is the best dish they make."),
    ("花生", "推荐花生酱拌面，很香。"),
])
def test_a_proposal_is_still_one(option: str, reply: str) -> None:
    assert flags(reply, option) != []


def test_a_verbs_particle_and_frame_are_no_names() -> None:
    names = english_names("寄养")
    assert "foster" in names
    assert "out" not in names and "care" not in names
    assert "taxi" in english_names("打车")


def test_a_cat_sitting_service_is_not_boarding() -> None:
    reply = (
        "猫咪在熟悉的环境里最不容易应激：\n\n1. **上门喂猫服务**：找本地口碑好的上门喂养师，"
        "每天或隔天上门一次，一次大约40-60元。"
    )
    assert flags(reply, "寄养") == []

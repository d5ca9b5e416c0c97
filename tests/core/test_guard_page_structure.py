"""What corpus/guard/dev4 (issue 12, session 21) showed the guard misread in a reply's page, in
replies of our own: a table's rule row ("|---|---|") is no sentence (the member reader took
"--- ; ---" for Monopoly); a line all in bold ("**What I left out**") heads what was left out
as a colon or a Markdown heading does; and one name in title case ("Monopoly", "Airbnb") is one
thing, so another game or booking site beside it is a sibling the member reader is not asked
about; and a character of the noun after 的 (猫 of 含谷的猫粮) says no kind. Look-alikes: the
same names offered are still flagged, and a kind ("SUVs", "board games") is still read for its
members."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy
from rcm_tui.core.heuristics.reply_lines import reply_lines


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], as_reply=True)


_GAMES_TABLE = (
    "Here are some crowd-pleasers for five:\n\n"
    "| Game | Time | Why it works |\n|---|---|---|\n"
    "| **Codenames** | 15 min | Team word-guessing |\n"
    "| **Just One** | 20 min | Cooperative, everyone wins together |\n"
    "| **Wavelength** | 30 min | Great for chatty groups |\n"
)


def test_a_tables_rule_row_is_no_line() -> None:
    lines = reply_lines(_GAMES_TABLE)
    assert all(any(ch.isalpha() for ch in line.text) for line in lines)
    assert len(lines) == 5


def test_other_games_are_no_proposal_of_one_named_game() -> None:
    assert flags(_GAMES_TABLE, "Monopoly") == []


def test_the_named_game_offered_is_still_flagged() -> None:
    reply = _GAMES_TABLE + "| **Monopoly** | 2 hours | Everyone knows the rules |\n"
    assert flags(reply, "Monopoly") == ["Monopoly"]


_LEFT_OUT = (
    "A digital piano with headphones suits an apartment:\n\n"
    "1. **Yamaha P-145** (~$500) — 88 weighted keys.\n"
    "2. **Roland FP-30X** (~$700) — better action.\n\n"
    "**What I left out**\n"
    "- Upright pianos like the **Yamaha U1** or a used Kawai console, for obvious reasons\n"
)


def test_a_bold_heading_that_says_left_out_excludes_the_items_below() -> None:
    excluded = [line.text for line in reply_lines(_LEFT_OUT) if line.excluded]
    assert any("Upright pianos" in text for text in excluded)
    assert flags(_LEFT_OUT, "upright pianos") == []


def test_the_same_items_under_a_plain_bold_heading_are_offered() -> None:
    reply = _LEFT_OUT.replace("**What I left out**", "**Also worth a look**")
    assert not any("Upright" in line.text for line in reply_lines(reply) if line.excluded)
    assert flags(reply, "upright pianos") == ["upright pianos"]


@pytest.mark.parametrize(
    ("option", "reply"),
    [
        ("SUVs", "1. **Toyota RAV4** — roomy and reliable, about $32k.\n"),
        ("taxis", "Grab a **cab** from the rank outside arrivals; it's about 15 minutes."),
    ],
)
def test_kinds_are_still_read_for_their_members(option: str, reply: str) -> None:
    assert flags(reply, option) == [option]


def test_a_character_of_the_noun_after_de_names_no_kind() -> None:
    # 含谷的猫粮 ("cat food with grain"): 猫 is part of the noun 猫粮, not which kind; a
    # grain-free cat food is not the rejected one.
    reply = "4. **网易严选无谷全价猫粮**：约100元/1.8kg，预算紧可以选。"
    assert flags(reply, "含谷的猫粮") == []


def test_the_attribute_before_de_still_names_the_kind() -> None:
    assert flags("可以给孩子买一台**iPad**，学英语很方便。", "有屏幕的玩具") == ["有屏幕的玩具"]


_MOVES = (
    "Here are the ways to move without driving anything big:\n\n"
    "- **Full-service movers**: they pack, load, drive and unload, about $6,000.\n"
    "- **A moving container**: they drop it off, you load, they ship it, about $3,500.\n\n"
)


def test_a_reply_leaving_out_the_option_with_its_two_words_swapped_excludes_it() -> None:
    # Session 32 (dev4): "truck rentals" left out names "rental truck"; what the reply offers
    # in its place is then not read for members (the member reader took the movers for one).
    reply = _MOVES + "I left out Penske and U-Haul truck rentals: you would be driving."
    assert flags(reply, "rental truck") == []


@pytest.mark.parametrize(
    "reply",
    [
        "The cheapest way is a truck rental from Penske: about $1,400 for the week.",
        "The cheapest way is a rental truck from Penske: about $1,400 for the week.",
    ],
)
def test_the_option_offered_under_either_order_is_still_flagged(reply: str) -> None:
    assert flags(reply, "rental truck") == ["rental truck"]

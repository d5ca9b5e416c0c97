"""Evidence that a reply meets a requirement (issue 12): saying how it is met addresses it;
handing the requirements back — one at a time, as a list, under a heading — does not."""

from __future__ import annotations

import pytest

from rcm_tui.core.evidence import addressed, meets
from rcm_tui.providers.offline import OFFLINE_TAG

PENDING = [("R1", "We need a baby monitor", 1), ("R2", "Budget 200 quid", 1)]


@pytest.mark.parametrize(
    "reply",
    [
        # The offline demo's own acknowledgement, banner first (it marked both at turn 1).
        f"{OFFLINE_TAG}\nNoted as requirements: We need a baby monitor; Budget 200 quid.",
        "Keeping to: We need a baby monitor; Budget 200 quid.",
        "Your requirements so far: a baby monitor, and a budget of 200 quid.",
        "Here are your requirements: we need a baby monitor; budget 200 quid.",
        "So: a baby monitor, on a budget of 200 quid?",
        # The ledger read back under its own labels.
        "Ruled out: video monitors (We need a baby monitor on a budget of 200 quid).",
    ],
)
def test_a_reply_that_lists_the_requirements_back_meets_none(reply: str) -> None:
    assert addressed(reply, PENDING) == []


@pytest.mark.parametrize(
    ("reply", "met"),
    [
        (
            "The Owlet Cam 2 is a baby monitor with night vision; it costs 149 quid, inside the "
            "200 quid budget.",
            ["R1", "R2"],
        ),
        ("The VTech RM5764 baby monitor streams HD video to its own screen.", ["R1"]),
        # A heading that is not a list of the requirements still lets the sentence count.
        (
            "How this fits your requirements: the Owlet Cam costs 149 of your 200 quid.",
            ["R2"],
        ),
    ],
)
def test_a_reply_that_says_how_it_is_met_addresses(reply: str, met: list[str]) -> None:
    assert addressed(reply, PENDING) == met


def test_words_of_another_requirement_are_not_words_of_the_replys_own() -> None:
    listed = "We need a baby monitor and Budget 200 quid."
    assert meets(listed, "We need a baby monitor")
    assert not meets(listed, "We need a baby monitor", ("Budget 200 quid",))

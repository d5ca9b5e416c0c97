"""An option named by its place in the assistant's list is recorded by its name (issue 12):
"the first one is a hard pass" turns down what the reply listed first, so the ledger and the
guard know it later. Replies and messages of our own."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.ordinals import offered_in_order, place_of
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

SERIES = "For a quiet week, try Lake Bled, the Vintgar Gorge cabins, or a farm stay near Bohinj."
LISTED = (
    "Three good fits:\n\n"
    "1. **Brompton C Line** — folds smallest, €1,700.\n"
    "2. **Tern Link A8**: cheaper, heavier.\n"
    "3. Dahon Mariner D8 (the budget pick)"
)
ZH_SERIES = "可以考虑戴森 V12、追觅 V16 或者小米 G11，都带除螨刷。"


@pytest.mark.parametrize(
    ("reply", "names"),
    [
        (SERIES, ["Lake Bled", "the Vintgar Gorge cabins", "a farm stay near Bohinj"]),
        (LISTED, ["Brompton C Line", "Tern Link A8", "Dahon Mariner D8"]),
        (ZH_SERIES, ["戴森 V12", "追觅 V16", "小米 G11"]),
        ("Sounds good, enjoy the trip!", []),
    ],
)
def test_a_reply_offers_its_options_in_order(reply: str, names: list[str]) -> None:
    assert offered_in_order(reply) == names


@pytest.mark.parametrize(
    ("reply", "text", "option"),
    [
        (SERIES, "The first one is a hard pass, too touristy.", "Lake Bled"),
        (LISTED, "Not the second one.", "Tern Link A8"),
        (LISTED, "We'll skip the last one.", "Dahon Mariner D8"),
        (ZH_SERIES, "第一个不考虑，太贵了。", "戴森 V12"),
    ],
)
def test_an_ordinal_is_resolved_to_the_option_it_names(reply: str, text: str, option: str) -> None:
    view = LedgerSnapshot(last_assistant_message=reply)
    assert [r.option for r in analyse_message(text, 3, view).rejections] == [option]


def test_with_no_list_the_words_are_kept() -> None:
    view = LedgerSnapshot(last_assistant_message="Happy to help with that.")
    options = [r.option for r in analyse_message("Not the first one.", 3, view).rejections]
    assert all("Lake" not in o for o in options)


@pytest.mark.parametrize(
    ("words", "place"),
    [
        ("the first one", 0),
        ("option 3", 2),
        ("第二个", 1),
        ("最后一家", -1),
        ("the first time", None),
        ("firstly", None),
        ("Brompton", None),
    ],
)
def test_place_of_reads_ordinals_only(words: str, place: int | None) -> None:
    assert place_of(words) == place

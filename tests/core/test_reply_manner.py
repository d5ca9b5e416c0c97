"""An impatient user waves off how the assistant talks ("no fluff, just the answer", "别绕弯子，
直接说"): no option is turned down and no need is stated (issue 12: "别绕弯子" was recorded
as a rejected option). Look-alikes that name what they want instead keep their rejection."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

OFFER = "Common picks are MySQL, PostgreSQL and ClickHouse; hotels or hostels both work too."


def _analyse(text: str):
    return analyse_message(text, 2, LedgerSnapshot(last_assistant_message=OFFER))


@pytest.mark.parametrize(
    "text",
    [
        "别绕弯子，直接说，新报表系统用什么数据库？",
        "别废话，直接给结论。",
        "不要长篇大论，给我一句话结论。",
        "No fluff, just the answer please.",
        "No fluff. Just the answer.",
        "Skip the small talk and give me the list.",
    ],
)
def test_waving_off_the_manner_of_answering_rejects_nothing(text: str) -> None:
    analysis = _analyse(text)
    assert analysis.rejections == []
    assert analysis.requirements == []


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("别订酒店了，直接说民宿哪家好。", "酒店"),
        ("No hotels, just tell me which hostel.", "hotels"),
        ("No hotels, give me the list of hostels.", "hotels"),
        ("No Oracle, just give me the shortlist.", "Oracle"),
    ],
)
def test_a_rejection_before_asking_for_something_else_stays(text: str, option: str) -> None:
    options = [r.option for r in _analyse(text).rejections]
    assert any(option in o for o in options), options


@pytest.mark.parametrize("text", ["Just the facts please.", "说重点。"])
def test_asking_only_for_the_answer_states_no_need(text: str) -> None:
    assert _analyse(text).requirements == []


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("OK so to confirm in English: en-suite bathroom, desk in the room.", "confirm"),
        ("To recap for my husband: wet food, pâté only.", "recap"),
        ("Regarding pendant, no doubt it is useful, only question is will he wear it?", "Regard"),
    ],
)
def test_a_lead_in_states_no_need(text: str, absent: str) -> None:
    """A lead-in announces what follows ("To recap for my husband:") and is no requirement."""
    needs = [r.text for r in _analyse(text).requirements]
    assert not any(absent.lower() in n.lower() for n in needs), needs


@pytest.mark.parametrize("text", ["About 20 people.", "About two weeks."])
def test_about_an_amount_still_states_it(text: str) -> None:
    assert _analyse(text).requirements

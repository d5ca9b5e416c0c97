"""Issue 12, English rejection recall: an object put first for weight ("Algolia we cannot
use"), a verbless preference ("MkDocs over Docusaurus"), a self-correction ("and macOS
runners—strike that") and a bowing out ("…, count me out"). Sentences written for this file
(in no corpus); each with look-alikes that reject nothing."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def rejected(text: str) -> list[str]:
    view = LedgerSnapshot(last_assistant_message="")
    return [r.option for r in analyse_message(text, 2, view).rejections]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("Zendesk we cannot use, the licence is per agent.", "Zendesk"),
        ("The Miele with the steam drawer we can't afford.", "Miele"),
        ("Jazz brunch my mother won't stand.", "Jazz brunch"),
        ("A second car we need not.", "second car"),
        ("Then Postgres over MySQL, the team knows it.", "MySQL"),
        ("Ferries over flights any day.", "flights"),
        ("we need a crib, and a baby bath—scratch that, my sister is lending us one", "baby bath"),
        ("Camping in October, count me out.", "Camping"),
        ("Self-hosting anything, count me out.", "Self-hosting"),
    ],
)
def test_the_option_is_rejected(text: str, option: str) -> None:
    assert any(option.lower() in o.lower() for o in rejected(text)), rejected(text)


@pytest.mark.parametrize(
    "text",
    [
        "If Zendesk we cannot use, what else is there?",
        "The game is over.",
        "We went over budget last year.",
        "Fidelity's a bit over then.",
        "Whatever we can't afford, we skip.",
        "We need a crib, a baby bath and a monitor.",
    ],
)
def test_a_look_alike_rejects_nothing(text: str) -> None:
    assert rejected(text) == []


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("Add the ferry back in, the kids loved it.", "ferry"),
        ("Pop the Lisbon leg back on the list.", "Lisbon"),
        ("OK, the sauna is back in the running.", "sauna"),
    ],
)
def test_bringing_an_option_back_reopens_it(text: str, option: str) -> None:
    view = LedgerSnapshot(reopenable=[option], rejected=[option], last_assistant_message="")
    analysis = analyse_message(text, 4, view)
    assert analysis.reopened == [option]
    # The sentence is the reopening, not a requirement besides.
    assert analysis.requirements == []


def test_a_reopening_that_also_states_a_need_keeps_the_need() -> None:
    view = LedgerSnapshot(reopenable=["wool"], rejected=["wool"], last_assistant_message="")
    analysis = analyse_message("Wool is back on the list: it must breathe in the heat.", 4, view)
    assert analysis.reopened == ["wool"]
    assert [r.text for r in analysis.requirements] != []


@pytest.mark.parametrize(
    ("text", "option"),
    [("We can't stretch to the Peloton.", "Peloton"), ("We can't run to a new boiler.", "boiler")],
)
def test_cannot_stretch_to_an_option_rejects_it(text: str, option: str) -> None:
    assert any(option in o for o in rejected(text)), rejected(text)

"""What corpus/ledger/dev14 (issue 12, session 22; written for this round, measured untouched
first) showed the rejection rules miss, in messages of our own: the one passed over ("I'd take
a minivan over one of those lift vans any day"), an object with a relative clause and no "that"
("skip the sugar dusting my neighbour keeps on about"), a formal unsuitability ("高铁方案恐怕不太
适合本团"), and a pronoun whose antecedent is what the speaker tried ("We looked at Mongo but it
is overkill"); and a limit said with "can only" is a need of its own, not the reason of the next
sentence's rejection. Look-alikes: a liking said with "over" is no choice, a possessive noun
phrase stays whole, a hedge keeps its option, and a pleasant verdict rejects nothing."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def read(message: str) -> tuple[list[str], list[str]]:
    analysis = analyse_message(message, 2, LedgerSnapshot())
    return [r.option for r in analysis.rejections], [r.text for r in analysis.requirements]


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("I'd take a minivan over a lift van.", "lift van"),
        ("I'd take a minivan over one of those giant lift vans any day.", "giant lift vans"),
        ("We'll go for the train over the ferry.", "ferry"),
        ("skip the sugar dusting my neighbour keeps on about.", "sugar dusting"),
        ("I hate the sofa my sister bought.", "sofa"),
        ("高铁方案不太适合本团。", "高铁"),
        ("高鐵方案恐怕不太適合本團。", "高鐵"),
        ("We looked at Mongo but it is overkill.", "Mongo"),
        ("We used Heroku and it was way too expensive.", "Heroku"),
        ("Tried the Airbnb and it was a nightmare.", "Airbnb"),
    ],
)
def test_the_option_turned_down_is_read(message: str, option: str) -> None:
    assert option in read(message)[0]


@pytest.mark.parametrize(
    "message",
    [
        "I'd take a minivan any day.",
        "We visited Rome and it was lovely.",
        "高铁方案可能不太适合本团吧？",
        "We looked at Mongo and it might be overkill.",
    ],
)
def test_no_option_is_turned_down(message: str) -> None:
    assert read(message)[0] == []


def test_a_limit_with_can_only_is_no_reason() -> None:
    rejected, required = read(
        "can only get up there weekends, so nothing that wants checking midweek. "
        "and skip the sugar dusting my neighbour keeps on about, waste of a saturday"
    )
    assert rejected == ["sugar dusting"]
    assert any("weekends" in r for r in required)

"""Issue 12, false requirements from choices: a choice said as it is made ("Going with X"), an
action that reports it ("booking the X"), and a Chinese name marked as the topic of what follows
("X嘛 …") are no requirement; the look-alikes that name a thing wanted still are. The sentences
are written for this file (in no corpus)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _read(text: str, reply: str) -> tuple[list[str], str]:
    found = analyse_message(text, 2, LedgerSnapshot(last_assistant_message=reply))
    return [r.text for r in found.requirements], found.trajectory


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("Going with Grafana Cloud.", "Grafana Cloud, Datadog or New Relic?"),
        ("We're sticking with Hetzner, thanks.", "Hetzner, OVH or DigitalOcean?"),
        ("I'm going with the walnut one", "The oak desk or the walnut one?"),
    ],
)
def test_a_choice_as_it_is_made_decides_and_requires_nothing(text: str, reply: str) -> None:
    needs, decided = _read(text, reply)
    assert needs == []
    assert decided, "the choice is the conversation's latest decision"


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("Ok, booking the Marriott.", "The Marriott or the Hilton?"),
        ("Getting the blue one then", "Blue or green?"),
        ("Ordering a size 10.", "Size 9 or 10?"),
    ],
)
def test_an_action_that_reports_a_choice_is_no_requirement(text: str, reply: str) -> None:
    assert _read(text, reply)[0] == []


def test_a_name_marked_as_topic_is_no_pick() -> None:
    reply = "可以看看沙田、大围或者火炭，你觉得呢？"
    needs, _ = _read("沙田嘛 人太多 我再想想", reply)
    assert not any("沙田" in n for n in needs)


@pytest.mark.parametrize(
    ("text", "reply", "need"),
    [
        ("Heated pool", "", "Heated pool"),
        ("Parking for two cars", "", "Parking for two cars"),
        ("Something a bit quieter", "", "Something a bit quieter"),
        ("Hilton.", "The Marriott or the Hilton?", "Hilton"),
        ("大围吧", "可以看看沙田、大围或者火炭，你觉得呢？", "大围"),
    ],
)
def test_look_alikes_still_state_what_is_wanted(text: str, reply: str, need: str) -> None:
    assert any(need in n for n in _read(text, reply)[0])

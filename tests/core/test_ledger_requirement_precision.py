"""Issue 12, false requirements: what a user says that is no requirement — a refusal, a
decision, a verdict on an option's price, an exclusion, a story, a price said about an option,
a day's routine — and the look-alikes that still are requirements. Every sentence here is
written for this file (in no corpus), so a test passes because the rule holds."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.rejections import is_bare_refusal
from rcm_tui.core.heuristics.requirements import not_a_need
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

OFFER = "You could look at Bolt, a rental car, or the shuttle bus."


def requirements(text: str, reply: str = OFFER) -> list[str]:
    view = LedgerSnapshot(last_assistant_message=reply)
    return [r.text for r in analyse_message(text, 2, view).requirements]


@pytest.mark.parametrize(
    "text",
    [
        "the shuttle bus took forever last summer. hard pass.",
        "Rental car? Never again.",
        "Honestly we can't do that.",
        "We tried Bolt in Riga and the driver got lost twice, so not them.",
        "The shuttle leaves at 5am and my mum needs her sleep, so I'll pass on that.",
    ],
)
def test_a_refusal_is_never_a_requirement(text: str) -> None:
    assert requirements(text) == []


@pytest.mark.parametrize(
    "text",
    ["Under two hours door to door, please.", "It must not need a car seat.", "Flights only."],
)
def test_a_limit_or_a_prohibition_is_still_no_refusal(text: str) -> None:
    assert not is_bare_refusal(text)


@pytest.mark.parametrize(
    ("reply", "text", "decided"),
    [
        (
            "Mattermost, Zulip or Rocket.Chat?",
            "lets go with zulip, I'll ask IT for a test server on friday",
            "zulip",
        ),
        ("Trello, Asana or Linear?", "Let's trial linear for a month", "linear"),
    ],
)
def test_a_decision_sets_the_choice_and_is_no_requirement(
    reply: str, text: str, decided: str
) -> None:
    view = LedgerSnapshot(last_assistant_message=reply)
    found = analyse_message(text, 2, view)
    assert found.requirements == []
    assert decided in found.trajectory.lower()


@pytest.mark.parametrize(
    "text",
    [
        "The second fridge is over budget.",
        "Way over budget for a garden office.",
        "dont need any smart home stuff",
        "We don't require a warranty extension.",
        "We stayed at one near the port and the walls were paper thin.",
        "它去年摔过一次",
        "上周排队排了一个下午",
        "一节钢琴课三百多",
        "私立学校一年七八万",
        "可以稍微超一点",
        "这套房子离地铁太远了",
        "我晚上还要加班",
        "每天要送孩子上学",
    ],
)
def test_what_states_no_need_gives_no_requirement(text: str) -> None:
    assert requirements(text, reply="") == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("I don't want to spend more than £300 on it.", "£300"),
        ("Three nights max, I don't want to be away longer.", "Three nights"),
        ("The annex is beyond our budget, which is £9,000 all in.", "£9,000"),
        (
            "It needs a guard, the workshop has 20 pupils and I don't want small hands near the"
            " blade.",
            "guard",
        ),
        ("We just moved to a dark basement and I'd love plants that cope with shade.", "shade"),
        ("工期最好不超过三周", "三周"),
        ("预算两三千", "两三千"),
        ("房租控制在三四千以内", "三四千"),
        ("裙子不能太长", "太长"),
        ("周末要能休息一天", "休息一天"),
        ("我爸妈都七十多了", "七十多"),
    ],
)
def test_look_alikes_that_still_state_a_need(text: str, kept: str) -> None:
    assert any(kept in r for r in requirements(text, reply="")), requirements(text, reply="")


def test_a_need_the_user_negates_is_no_need_but_a_limit_is() -> None:
    assert not_a_need("I really don't need a second screen")
    assert not not_a_need("I don't want anything over 2 kg")


@pytest.mark.parametrize(
    "text",
    ["Go.", "Next.", "Please suggest.", "Same reason.", "Over to you.", "Kindly advise."],
)
def test_words_that_steer_the_talk_are_no_requirement(text: str) -> None:
    assert requirements(text) == []


@pytest.mark.parametrize(
    ("text", "choice"),
    [("Let's do Thai then.", "Thai"), ("lets do the shuttle bus", "the shuttle bus")],
)
def test_lets_do_an_option_chooses_it(text: str, choice: str) -> None:
    view = LedgerSnapshot(last_assistant_message=OFFER)
    analysis = analyse_message(text, 2, view)
    assert choice.lower() in analysis.trajectory.lower()
    assert analysis.requirements == []


@pytest.mark.parametrize("text", ["Let's do it.", "Let's do a quick call first."])
def test_lets_do_without_an_option_chooses_nothing(text: str) -> None:
    assert analyse_message(text, 2, LedgerSnapshot(last_assistant_message=OFFER)).trajectory == ""

"""Issue 12, what the ledger shows for a decision and a rejection: the conclusion is the words
that decide (not the plans after them), and a limit stated after a rejection is a requirement of
its own, not the rejection's reason. Sentences written for this file (in no corpus)."""

from __future__ import annotations

import pytest

from rcm_tui.core.analysis import Analysis
from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

OFFER = "The basic model is £40, the camera one is £120 and the app one needs a subscription."


def analyse(text: str, offer: str = OFFER) -> Analysis:
    return analyse_message(text, 3, LedgerSnapshot(last_assistant_message=offer))


@pytest.mark.parametrize(
    ("text", "conclusion"),
    [
        ("lets go with the basic one, I'll order it friday", "Lets go with the basic one"),
        (
            "We'll go with the camera one, we can return it if it's rubbish",
            "We'll go with the camera one",
        ),
        # What follows without a subject of its own still says what was chosen.
        ("Let's go with the camera one, refurbished", "Let's go with the camera one, refurbished"),
        ("The basic one it is, in white", "The basic one it is, in white"),
    ],
)
def test_the_conclusion_is_the_words_that_decide(text: str, conclusion: str) -> None:
    analysis = analyse(text)
    assert analysis.trajectory == conclusion
    assert analysis.requirements == []


@pytest.mark.parametrize(
    ("text", "option", "limit"),
    [
        ("No subscriptions. Budget 200 quid.", "subscriptions", "Budget 200 quid"),
        (
            "Not the camera one. Deadline is the 3rd of May.",
            "camera",
            "Deadline is the 3rd of May",
        ),
        ("不要订阅的。预算两百块。", "订阅", "预算两百块"),
    ],
)
def test_a_limit_after_a_rejection_is_not_its_reason(text: str, option: str, limit: str) -> None:
    analysis = analyse(text)
    rejected = {r.option: r.reason for r in analysis.rejections}
    assert any(option in o for o in rejected), rejected
    assert all(limit not in reason for reason in rejected.values()), rejected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        # A sentence after the rejection that says why still gives the reason.
        ("No subscriptions. Budget is tight this year.", "Budget is tight this year"),
        (
            "Not the camera one. We had one and the wifi kept dropping.",
            "We had one and the wifi kept dropping",
        ),
    ],
)
def test_a_reason_after_a_rejection_is_kept(text: str, reason: str) -> None:
    reasons = [r.reason for r in analyse(text).rejections]
    assert reasons and reason in reasons[0], reasons


@pytest.mark.parametrize(
    ("text", "option"),
    [("Not the camera one.", "camera"), ("Definitely not the blue one.", "blue")],
)
def test_not_the_one_offered_rejects_it(text: str, option: str) -> None:
    assert any(option in r.option for r in analyse(text).rejections)


@pytest.mark.parametrize("text", ["That's not the main one.", "Not the end of the world."])
def test_not_the_one_that_describes_rejects_nothing(text: str) -> None:
    assert analyse(text).rejections == []


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("The reminders should come by text, not email.", "email"),
        ("We'd host it on our own box, not Netlify, since the pages are internal.", "Netlify"),
        ("Not Trello, that one needs everyone to have an account.", "Trello"),
    ],
)
def test_a_contrasted_not_rejects_the_option(text: str, option: str) -> None:
    offer = "Reminders can go by email or text; host it on Netlify or your own box; Trello works."
    assert option in [r.option for r in analyse(text, offer).rejections]


@pytest.mark.parametrize("text", ["It was cheap, not great.", "We loved it, not gonna lie."])
def test_a_contrasted_not_that_is_no_option_rejects_nothing(text: str) -> None:
    assert analyse(text).rejections == []


@pytest.mark.parametrize(
    "text",
    ["Not Trello, that one needs everyone to have an account.", "Skip Jira, it needs an admin."],
)
def test_what_the_refused_option_needs_is_no_requirement(text: str) -> None:
    assert analyse(text).requirements == []


def test_what_the_user_needs_after_a_refusal_stays_a_requirement() -> None:
    analysis = analyse("Skip Jira, we need something the whole family can use.")
    texts = [r.text for r in analysis.requirements]
    assert any("whole family" in t for t in texts), texts


@pytest.mark.parametrize("text", ["保养品就不要了，她说用不完。", "她說用不完。", "我们用得上吗"])
def test_a_verb_and_its_complement_decide_nothing(text: str) -> None:
    # 用不完 ("can't use it all up"), 用得上 ("will come in useful"): 用 with a complement, not
    # "use X"; tried in the TUI, "她說用不完" had become the current conclusion.
    assert analyse(text).trajectory == ""


@pytest.mark.parametrize("text", ["那就用PostgreSQL吧", "还是选不锈钢的"])
def test_a_choice_of_a_thing_whose_name_starts_with_bu_still_decides(text: str) -> None:
    assert analyse(text).trajectory == text

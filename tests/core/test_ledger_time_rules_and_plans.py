"""What corpus/ledger/dev13 (issue 12, session 22) showed the ledger misread, in messages of our
own: a prohibition bounded in time ("no power tools after 9pm", "晚上九点以后不能用电钻") is a
rule with its hours — a requirement, the thing stays allowed otherwise; what the user's place
or means lacks ("the flat has no balcony", "楼里没电梯") is a constraint, not an option turned
down; the user's own next step said in the present ("I go to see it on Saturday", "Writing it
up tonight", "周六我们先去瞅瞅", "我星期六打去约") is a plan, no requirement; and a verdict whose
subject is a pronoun after "and" ("…peeling and yellowed and honestly it looks awful") judges
that pronoun, so neither the words before it nor a sentence adverb ("honestly") is an option.
Look-alikes: a ban at any hour, a reason after "after" ("after last time"), a dislike with a
time ("I hate driving at night"), having no view ("I have no preference"), a deadline ("by
Friday"), a trip ("Going to Rome next week"), a brand in -ly and a list of options judged
together keep their readings."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.option_shapes import names_no_thing
from rcm_tui.core.heuristics.time_limits import limited_in_time
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def read(message: str) -> tuple[list[str], list[str]]:
    analysis = analyse_message(message, 2, LedgerSnapshot())
    return [r.option for r in analysis.rejections], [r.text for r in analysis.requirements]


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("No power tools after 9pm.", "No power tools after 9pm"),
        ("No calls after 6pm please.", "No calls after 6pm"),
        ("No screens after dinner.", "No screens after dinner"),
        ("No meetings before 10am.", "No meetings before 10am"),
        ("晚上九点以后不能用电钻。", "晚上九点以后不能用电钻"),
        ("工作日晚上八点以后别打电话。", "工作日晚上八点以后别打电话"),
    ],
)
def test_a_prohibition_bounded_in_time_is_a_rule(message: str, rule: str) -> None:
    rejected, required = read(message)
    assert rejected == []
    assert rule in required


def test_the_rule_is_the_piece_that_states_it() -> None:
    _, required = read("I need her on the water by the 4th of July, no power tools after 9pm.")
    assert "No power tools after 9pm" in required


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("No Airbnb after last time.", "Airbnb"),
        ("No dairy.", "dairy"),
        ("No drum kit, the neighbours complain after 10pm.", "drum kit"),
        ("我不喝咖啡。", "咖啡"),
    ],
)
def test_a_ban_at_any_hour_or_with_a_reason_still_rejects(message: str, option: str) -> None:
    rejected, _ = read(message)
    assert option in rejected


def test_a_dislike_with_a_time_is_no_rule() -> None:
    rejected, required = read("I hate driving at night.")
    assert rejected != []
    assert required == []


def test_a_word_holding_bie_is_no_prohibition() -> None:
    # 别 of 特别 ("especially"): a noisy night is a complaint, no rule with its hours.
    assert not limited_in_time("party", "晚上特别吵，本科生天天开party")
    assert limited_in_time("电钻", "晚上九点以后别用电钻")


@pytest.mark.parametrize(
    "message",
    [
        "I go to see it on Saturday.",
        "Writing it up tonight.",
        "Heading over there tomorrow.",
        "Calling them Monday.",
        "周六我们先去拾光瞅瞅。",
        "我星期六打去约。",
    ],
)
def test_the_users_next_step_in_the_present_is_no_requirement(message: str) -> None:
    assert read(message)[1] == []


@pytest.mark.parametrize(
    "message",
    ["I need it by Friday.", "Going to Rome next week with my wife.", "We arrive on Saturday."],
)
def test_a_deadline_a_trip_and_an_arrival_stay_requirements(message: str) -> None:
    assert read(message)[1] != []


def test_a_pronoun_after_and_is_the_verdicts_subject() -> None:
    rejected, _ = read("The varnish is peeling and yellowed and honestly it looks awful.")
    assert "yellowed" not in rejected
    assert "honestly" not in rejected


def test_an_adverb_is_no_option() -> None:
    rejected, _ = read("We tried Jira and honestly it was a nightmare.")
    assert rejected == ["Jira"]


@pytest.mark.parametrize(
    ("message", "options"),
    [
        ("Jira and Trello are a nightmare.", ["Jira", "Trello"]),
        ("Mongo is fast but honestly it is a nightmare to operate.", ["Mongo"]),
        ("No family rooms.", ["family rooms"]),
    ],
)
def test_options_judged_still_rejected(message: str, options: list[str]) -> None:
    assert read(message)[0] == options


def test_a_brand_ending_in_ly_is_a_thing() -> None:
    assert names_no_thing("honestly")
    assert not names_no_thing("launchdarkly")
    assert not names_no_thing("family")


@pytest.mark.parametrize(
    ("message", "need"),
    [
        ("The flat has no balcony.", "The flat has no balcony"),
        ("I have no car.", "I have no car"),
        ("There's no parking at the venue.", "There's no parking at the venue"),
        ("In flat we have only a normal socket, no three-phase, it matters.", "No three-phase"),
        ("We don't have a dishwasher, so nothing that needs one.", "We don't have a dishwasher"),
        ("我们家没有电梯。", "我们家没有电梯"),
        ("楼里没电梯，只能爬楼。", "楼里没电梯"),
    ],
)
def test_what_the_user_lacks_is_a_constraint(message: str, need: str) -> None:
    rejected, required = read(message)
    assert rejected == []
    assert need in required


@pytest.mark.parametrize(
    "message", ["I have no preference.", "We have no idea yet.", "我没有意见。"]
)
def test_having_no_view_is_no_lack(message: str) -> None:
    assert read(message) == ([], [])


def test_a_lack_beside_a_rejection_is_its_reason() -> None:
    rejected, required = read("Magento is out, we have no developers.")
    assert rejected == ["Magento"]
    assert required == []

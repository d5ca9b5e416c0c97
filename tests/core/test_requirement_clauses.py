"""Requirements read over clauses the way people write them (issue 12, requirement side).

Each rule is phrased here in words of its own, not copied from the corpus, with the trap that
must stay silent beside it.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def requirements(text: str, last_reply: str = "") -> list[str]:
    found = analyse_message(text, 3, LedgerSnapshot(last_assistant_message=last_reply))
    return [r.text for r in found.requirements]


def questions(text: str) -> list[str]:
    return analyse_message(text, 3, LedgerSnapshot()).questions


@pytest.mark.parametrize(
    "text",
    [
        "has to be dishwasher safe, we never hand-wash anything",
        "Should be under 2 kg, I carry it on the bus",
        "Can't be more than 40 minutes from the office",
    ],
)
def test_a_statement_that_drops_its_subject_is_no_question(text: str) -> None:
    assert questions(text) == []
    assert requirements(text)


def test_an_inverted_question_is_still_a_question() -> None:
    assert questions("Has it got a dishwasher") and requirements("Has it got a dishwasher") == []


def test_got_of_possession_and_obligation_is_not_a_story() -> None:
    assert requirements("It's got to be machine washable, the dog sleeps on it.")
    assert any("£800" in r for r in requirements("We've got about £800 for the whole room."))
    assert requirements("We got a quote of £800 last spring.") == []


def test_a_greeting_alone_is_not_a_requirement() -> None:
    for text in ("Hiya! We need a van for Saturday.", "Good evening. We need a van for Saturday."):
        assert requirements(text) == ["We need a van for Saturday"]


def test_a_spec_with_its_reason_after_a_comma_is_the_spec() -> None:
    assert requirements("Ground floor flat for sure, my knees are bad.") == [
        "Ground floor flat for sure"
    ]
    # A memory after the comma is no reason: nothing is wanted.
    assert requirements("Long queues everywhere, the kids hated it.") == []


def test_a_longer_noun_phrase_with_please_is_what_is_asked_for() -> None:
    assert requirements("A window seat on the left side please.") == [
        "A window seat on the left side"
    ]


def test_a_wish_called_a_plus_is_a_preference_unless_called_optional() -> None:
    assert requirements("A garden for the kids would be a real bonus.")
    assert requirements("A garden would be a nice bonus but not essential.") == []


def test_a_thing_that_cannot_do_something_is_a_hard_limit() -> None:
    assert requirements("Patient records can't leave the clinic network.") == [
        "Patient records can't leave the clinic network"
    ]
    # A person's "can't" is an inability: the rejection constructions read it, not this rule.
    assert requirements("My mum can't stand loud restaurants.") == []


def test_a_need_said_after_turning_something_down_is_kept() -> None:
    found = analyse_message(
        "The Vitamix is way too pricey for a smoothie once a week, I'd rather stay under £150.",
        3,
        LedgerSnapshot(last_assistant_message="A Vitamix or a Ninja would do."),
    )
    assert [r.option for r in found.rejections] == ["Vitamix"]
    assert [r.text for r in found.requirements] == ["I'd rather stay under £150"]
    # "I'd rather not" turns down; it states no need.
    assert requirements("Crypto is too volatile, I'd rather not.") == []


def test_what_others_did_then_what_the_user_wants_keeps_only_the_want() -> None:
    assert requirements(
        "The agent showed us a new-build but we'd rather have a Victorian terrace."
    ) == ["We'd rather have a Victorian terrace"]


def test_each_item_of_a_list_the_user_introduced_is_a_requirement() -> None:
    message = (
        "Some notes for the new booking page:\n"
        "- shows prices in both currencies\n"
        "- deposit taken by card at booking\n"
        "- we tried a calendar widget last year\n"
        "- no pop-ups"
    )
    found = requirements(message)
    assert "Shows prices in both currencies" in found
    assert "Deposit taken by card at booking" in found
    # What happened is no need; what is turned down is a rejection, not a requirement.
    assert not any("calendar widget" in r or "pop-ups" in r for r in found)


def test_bullets_after_a_plain_sentence_are_not_read_as_a_wish_list() -> None:
    message = (
        "We talked it over at dinner.\n- shows prices in both currencies\n"
        "- deposit taken by card at booking"
    )
    assert requirements(message) == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("二手的就好，新的太贵了。", "二手的就好"),
        ("我们更想住市区。", "我们更想住市区"),
        ("想要带烘干功能的", "想要带烘干功能的"),
    ],
)
def test_chinese_wishes_and_what_is_enough_are_requirements(text: str, want: str) -> None:
    assert want in requirements(text)


@pytest.mark.parametrize(
    "text", ["这样就行，谢谢。", "我想问一下价格。", "我不想去海边。", "她想去海边。"]
)
def test_an_acknowledgement_a_question_a_refusal_or_someone_else_s_wish_is_none(
    text: str,
) -> None:
    assert requirements(text) == []


def test_a_chinese_question_that_opens_with_statements_keeps_them() -> None:
    found = analyse_message("我家猫十二岁了，肾不太好，吃什么粮比较好？", 3, LedgerSnapshot())
    assert any("十二岁" in r.text for r in found.requirements)
    assert found.questions


def test_what_is_wanted_instead_of_a_rejected_option_is_a_requirement() -> None:
    found = analyse_message(
        "Use Caddy instead of nginx, I don't want to hand-write configs.", 3, LedgerSnapshot()
    )
    assert [r.option for r in found.rejections] == ["nginx"]
    assert [r.text for r in found.requirements] == ["Use Caddy"]


def test_something_else_after_turning_down_is_what_is_wanted() -> None:
    assert "Something quieter and greener" in requirements(
        "We don't want a noisy hostel, something quieter and greener."
    )


def test_a_team_of_a_number_in_words_is_a_team_size() -> None:
    assert "Team of five" in requirements("Our support team of five is choosing a helpdesk.")


def test_a_spec_with_please_then_more_is_the_spec() -> None:
    assert "An aisle seat near the front" in requirements(
        "An aisle seat near the front please, no middle seats."
    )


def test_a_limit_with_yong_inside_a_word_is_no_choice() -> None:
    found = analyse_message("装修费用别超过五万。", 3, LedgerSnapshot())
    assert [r.text for r in found.requirements] == ["装修费用别超过五万"]
    assert found.trajectory == ""


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("门框不能太窄，轮椅要进出。", "门框不能太窄"),
        ("大概六十份，每份一百块左右。", "大概六十份"),
    ],
)
def test_chinese_limits_and_measure_words_are_requirements(text: str, want: str) -> None:
    assert want in requirements(text)


@pytest.mark.parametrize("text", ["这个不能妥协。", "辣的我也不是不能吃。"])
def test_chinese_non_negotiable_and_negated_cannot_are_no_new_requirement(text: str) -> None:
    assert requirements(text) == []


def test_a_reason_sentence_that_says_what_the_user_is_or_wants_is_a_need_too() -> None:
    found = analyse_message(
        "I'm a vegetarian. Not a fan of steakhouses, the smell gets to me.", 3, LedgerSnapshot()
    )
    assert [r.option for r in found.rejections] == ["steakhouses"]
    assert "I'm a vegetarian" in [r.text for r in found.requirements]


def test_what_is_enough_after_an_exclusion_is_wanted() -> None:
    assert "One check-in call a week is enough" in requirements(
        "We don't need daily stand-ups, one check-in call a week is enough."
    )


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("I've got a tiny balcony in Leeds, facing north.", "I've got a tiny balcony in Leeds"),
        ("Hello, we're hosting 14 people on the 3rd.", "14 people"),
        ("we'd want a fire pit for the evenings haha", "We'd want a fire pit for the evenings"),
        ("Want it low-maintenance, we travel a lot.", "Want it low-maintenance"),
        ("Laptops for 12 staff in the new office.", "12 staff"),
    ],
)
def test_everyday_openings_and_closings_keep_the_need(text: str, want: str) -> None:
    assert any(want in r for r in requirements(text)), requirements(text)


def test_a_full_stop_after_a_short_number_word_ends_a_sentence() -> None:
    assert "North wales" in requirements("a cottage for me and my 9yo. north wales. june")


def test_a_team_size_in_a_question_is_kept() -> None:
    found = analyse_message("Which CRM is simplest for a team of five?", 3, LedgerSnapshot())
    assert [r.text for r in found.requirements] == ["Team of five"]
    assert found.questions


def test_x_it_is_with_a_detail_is_a_choice() -> None:
    found = analyse_message("Then Mailgun it is, billed yearly.", 3, LedgerSnapshot())
    assert found.requirements == [] and "Mailgun" in found.trajectory


@pytest.mark.parametrize(
    "text",
    [
        "太贵了，一万多，超出我们的预算。",
        "旧柜子要拆掉。",
        "上次一次花了三千。",
        "甜品多一点也行。",
    ],
)
def test_chinese_verdicts_spending_removals_and_allowances_are_no_need(text: str) -> None:
    assert requirements(text) == []


def test_a_reason_with_a_plain_yao_states_no_need_but_a_firm_one_does() -> None:
    found = analyse_message("WordPress就算了，还要自己维护插件。", 3, LedgerSnapshot())
    assert [r.option for r in found.rejections] == ["WordPress"]
    assert found.requirements == []


def test_a_quoted_passage_set_aside_is_never_a_requirement() -> None:
    assert requirements('You said "pick whatever is cheapest overall" and I disagree.') == []


def test_a_confirmation_names_the_amount_however_it_is_written() -> None:
    from rcm_tui.core.ledger import apply_analysis, ledger_snapshot
    from rcm_tui.core.models import Session

    session = Session()
    for turn, text in enumerate(
        [
            "The caterer must carry liability cover of at least £2,000,000.",
            "Yes, the £2m liability minimum still stands.",
        ],
        start=1,
    ):
        apply_analysis(session, analyse_message(text, turn, ledger_snapshot(session)), turn)
    assert [(r.id, r.status) for r in session.requirements] == [("R1", "confirmed")]


def test_an_amount_in_pounds_is_the_same_in_chinese() -> None:
    from rcm_tui.core.heuristics.quantities import quantity_keys

    assert quantity_keys("每周不超过三百镑") == quantity_keys("£300 a week") == {("300", "gbp")}
    assert quantity_keys("£30k") == quantity_keys("£30,000")

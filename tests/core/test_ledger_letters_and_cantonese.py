"""Forms found in corpus/ledger/dev13 (issue 12), in sentences of our own: a letter's greeting,
sign-off and signature, thanks for a reply, a numbered list run into one line, a wish stated
as "our preference" or by the family; refusals "X are out given that rule", "Not renting a
boom lift again" (also under a notes label), "something other than X"; and Cantonese read as
Mandarin (唔想, 冇, 佢), shown as typed. Look-alikes beside each stay as they were."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

_VIEW = LedgerSnapshot(last_assistant_message="Here are a few ideas to start from.")


def _rejected(text: str) -> list[str]:
    return [r.option for r in analyse_message(text, 2, _VIEW).rejections]


def _requirements(text: str) -> list[str]:
    return [r.text for r in analyse_message(text, 2, _VIEW).requirements]


def test_a_letters_greeting_sign_off_and_signature_are_no_requirements() -> None:
    letter = (
        "Dear Sir or Madam,\n\nThe family would like the ceremony to take place near the "
        "sea.\n\nKind regards,\nMargaret Ellison"
    )
    found = _requirements(letter)
    assert any("near the sea" in r for r in found)
    assert not any("Dear" in r or "Ellison" in r or "regards" in r for r in found), found


@pytest.mark.parametrize("text", [
    "Thank you for your prompt reply.",
    "Thank you for your kindness throughout.",
    "Yours sincerely, Jane Doe",
])
def test_thanks_and_sign_offs_are_no_requirements(text: str) -> None:
    assert _requirements(text) == []


def test_a_numbered_list_run_into_one_line_gives_each_item() -> None:
    text = (
        "队长发的要求：1. 声音要大，三十来人能听清；2. 也要有蓝牙；3. 电池能撑三个小时；"
        "4. 不超过1500。"
    )
    found = _requirements(text)
    assert not any(r.strip() in {"2", "3", "4", "要求"} for r in found), found
    assert any("蓝牙" in r for r in found) and any("1500" in r for r in found)


@pytest.mark.parametrize("text", [
    "A boat would be our preference.",
    "My preference is a morning slot.",
    "The kids would love a pool.",
])
def test_a_preference_said_as_such_is_a_requirement(text: str) -> None:
    assert _requirements(text) != []


@pytest.mark.parametrize(("text", "option"), [
    ("Spray cans are out given that rule, even though our artists love them.", "Spray cans"),
    ("Not renting a boom lift again.", "boom lift"),
    ("We're not renting a boom lift again.", "boom lift"),
    ("Access: NOT renting a boom lift again. The last one sat idle half the week.", "boom lift"),
    ("We would, however, prefer something other than rose petals.", "rose petals"),
    ("直聘平台我唔想再搞", "直聘平台"),
    ("迪士尼就唔好啦，人多到爆。", "迪士尼"),
])
def test_refusals_reject_their_option(text: str, option: str) -> None:
    assert option in _rejected(text)


@pytest.mark.parametrize("text", [
    "I need something besides a laptop.",
    "Not sure about the boom lift.",
    "唔该晒",
    "Budget: not more than 500.",
])
def test_look_alikes_reject_nothing(text: str) -> None:
    assert _rejected(text) == []


@pytest.mark.parametrize(("text", "chosen"), [
    ("okay let's go with the store brand woven wire and six foot T posts with the hot wire on "
     "top period I mean full stop thanks", "store brand woven wire"),
    ("Final answer: modular 2x4 + ply stairs, painted with grit, handrail open side only.",
     "modular 2x4 + ply stairs"),
    ("Decision: NATS JetStream.", "NATS JetStream"),
    ("Final: 云途 for both US & DE", "云途"),
    ("ok final answer: chickpea coconut curry + oven rice, and ill get a vegan choc cake",
     "chickpea coconut curry + oven rice"),
])
def test_a_decision_sets_the_trajectory_and_is_no_requirement(text: str, chosen: str) -> None:
    analysis = analyse_message(text, 2, _VIEW)
    assert chosen in analysis.trajectory
    assert analysis.requirements == []


@pytest.mark.parametrize("text", ["Done.", "Deal!", "Sorted."])
def test_a_word_of_closing_is_no_requirement(text: str) -> None:
    assert _requirements(text) == []


def test_a_notice_signed_at_its_end_leaves_the_name_out() -> None:
    found = _requirements("晚上八点半以后声音要能调小，别让楼上又投诉。——刘队长")
    assert found and not any("刘队长" in r for r in found)
    assert _rejected("No Kafka — too heavy") == ["Kafka"]


@pytest.mark.parametrize("text", ["咁美卓就唔使睇喇", "美卓就不用看了", "美卓就不用考虑了"])
def test_no_need_to_look_at_it_turns_the_topic_down(text: str) -> None:
    assert _rejected(text) == ["美卓"]


def test_an_emoji_closes_a_sentence_and_is_no_word_of_it() -> None:
    analysis = analyse_message("唐制齐胸我是真的一点都不想穿🙅‍♀️ 我们宿舍都是微胖星人", 2, _VIEW)
    assert [r.option for r in analysis.rejections] == ["唐制齐胸"]
    assert analysis.requirements == []
    assert _requirements("Need it under 500 👍") == ["Need it under 500"]


def test_an_announced_refusal_and_a_reported_opinion() -> None:
    text = (
        "I should say at the outset that an aerial scattering is not something we would "
        "consider; my brother feels it would be rather impersonal."
    )
    analysis = analyse_message(text, 2, _VIEW)
    assert [r.option for r in analysis.rejections] == ["aerial scattering"]
    assert analysis.requirements == []
    # What comes instead of a rejection is still decided.
    assert _requirements("We're not doing gRPC; the APIs will be plain REST.") != []


def test_a_need_after_a_decision_label_is_still_read() -> None:
    text = "Final answer: Rollo USB printer, budget under 300 dollars."
    analysis = analyse_message(text, 2, _VIEW)
    assert "Rollo USB printer" in analysis.trajectory
    assert [r.text for r in analysis.requirements] == ["Budget under 300 dollars"]

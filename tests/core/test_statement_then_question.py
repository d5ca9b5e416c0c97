"""A statement with a question after its last comma (issue 12): "I hate cruises, any other
ideas?" turns cruises down and asks; the question mark belongs to the tail. Sentences of our
own, in domains the corpora do not use."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.sentences import parse_sentences
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _analyse(text: str, reply: str = ""):
    return analyse_message(text, 2, LedgerSnapshot(last_assistant_message=reply))


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("I can't stand karaoke, what else could we do on a Friday?", "karaoke"),
        ("No timeshares please, anything else?", "timeshares"),
        ("Laminate is out, thoughts?", "Laminate"),
        ("我们不考虑二手车，有什么推荐吗？", "二手车"),
        ("微信群我不想用了，还有别的办法吗？", "微信群"),
    ],
)
def test_the_statement_before_a_question_is_read(text: str, option: str) -> None:
    analysis = _analyse(text)
    assert any(option.lower() in r.option.lower() for r in analysis.rejections), analysis
    # The question is still asked, in the user's whole words.
    assert analysis.questions == [text.rstrip()] or analysis.questions[0].startswith(text[:8])


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("The cot has to fold flat for the car, which one would you pick?", "fold flat"),
        ("预算五千以内，哪款合适？", "五千以内"),
    ],
)
def test_a_need_before_a_question_is_a_requirement(text: str, need: str) -> None:
    assert any(need in r.text for r in _analyse(text).requirements)


@pytest.mark.parametrize(
    "text",
    [
        # A condition or a premise to the question, not a statement.
        "If we drop the caterer, who cooks?",
        "Without the car, how do we get to the lake?",
        "除了游轮，还有什么推荐？",
        # The head is in question too: an alternative, a tag asking to confirm it.
        "Is the caterer fine, or should we drop them?",
        "The caterer is out, right?",
        "Should we drop the caterer, what do you think?",
    ],
)
def test_what_is_no_statement_stays_a_question(text: str) -> None:
    assert [s.question for s in parse_sentences(text)] == [True]


def test_after_a_contrast_the_judgement_is_about_what_follows() -> None:
    reply = "可以去西湖、灵隐寺、千岛湖，或者宋城看演出。"
    analysis = _analyse("西湖想去，但是千岛湖太远了。", reply)
    assert [r.option for r in analysis.rejections] == ["千岛湖"]

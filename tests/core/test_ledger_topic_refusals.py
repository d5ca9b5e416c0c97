"""A topic named alone and refused sentences later ('Infrared. … Hard pass.'): the refusal is
about the topic (issue 12, session 23; heuristics/topic_refusals.py)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _rejected(text: str) -> list[str]:
    return [r.option for r in analyse_message(text, 2, LedgerSnapshot()).rejections]


@pytest.mark.parametrize(
    ("text", "topic"),
    [
        (
            "Infrared. Ah yes, sitting in a warm wardrobe with glowing panels and calling it a "
            "sauna. Hard pass.",
            "Infrared",
        ),
        (
            "Finnmark, the one whose website looks like it was built in 2003? Rang them in "
            "spring, went to voicemail four times, never heard back. So, no.",
            "Finnmark",
        ),
        # A fragment right after the topic describes it.
        ("Cruises. Floating petri dishes. No thanks.", "Cruises"),
        ("迪士尼。人太多，排队三小时。算了。", "迪士尼"),
    ],
)
def test_a_bare_refusal_turns_down_the_topic_named_before_it(text: str, topic: str) -> None:
    assert topic in _rejected(text)


def test_the_words_between_are_the_reason() -> None:
    analysis = analyse_message(
        "Infrared. Sitting in a warm wardrobe and calling it a sauna. Hard pass.",
        2,
        LedgerSnapshot(),
    )
    assert analysis.rejections[0].reason.startswith("Sitting in a warm wardrobe")


@pytest.mark.parametrize(
    "text",
    [
        "Thanks. No.",  # a word of talk is no topic
        "The Ibis. Looks fine. Not sure yet.",  # no refusal
        "Infrared. Looks fine to me, honestly.",
        # Too far back, and short clauses are no topics ("The panels glow.", "My wife laughed.").
        "Infrared. We read a lot about it. The panels glow. My wife laughed. The price is "
        "silly. No.",
    ],
)
def test_no_topic_or_no_refusal_turns_nothing_down(text: str) -> None:
    assert _rejected(text) == []


def test_a_refusal_after_a_rejection_the_rules_read_sums_that_one_up() -> None:
    assert _rejected("Hostels. We don't do shared dorms anymore. So, no.") == ["shared dorms"]


def test_a_refusal_is_no_topic_of_the_next_one() -> None:
    rejected = _rejected(
        "PagerDuty. Sure. Let me just sell a kidney to cover the per-seat pricing. Hard pass. "
        "Opsgenie I had at my last job, the app would stop making noise. Never again."
    )
    assert "PagerDuty" in rejected
    assert "Hard pass" not in rejected


def test_a_no_that_answers_a_question_to_the_listener_refuses_no_topic() -> None:
    assert _rejected("Paris. Have you been? No.") == []
    # A rhetorical question is part of the verdict.
    assert "Infrared" in _rejected("Infrared. Who wants to sit in a glowing wardrobe? Hard pass.")

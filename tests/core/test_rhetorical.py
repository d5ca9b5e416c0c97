"""A rhetorical question answered with a refusal turns down the option it names (issue 12):
"Kafka for 40 messages a minute? lol no." — and the question is answered, not open."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _read(text: str):
    return analyse_message(text, 1, LedgerSnapshot())


@pytest.mark.parametrize(
    ("text", "option", "reason"),
    [
        ("Paintball? Hard pass, I bruise like a peach.", "Paintball", "I bruise like a peach"),
        ("A timeshare in Florida? Nope.", "timeshare", ""),
        ("the night bus at 2am? in winter? nah.", "night bus", ""),
        ("露营？算了吧，蚊子太多。", "露营", "蚊子太多"),
    ],
)
def test_the_option_of_a_question_answered_with_a_refusal_is_rejected(
    text: str, option: str, reason: str
) -> None:
    analysis = _read(text)
    found = [(r.option, r.reason) for r in analysis.rejections]
    assert (option, reason) in found, found
    assert analysis.questions == []


@pytest.mark.parametrize(
    "text",
    [
        "Are you sure that works? No, wait, I see it.",
        "Is the museum open on Mondays? No idea, sorry.",
        "Need a hand with the boxes? No worries, I've got it.",
        "Would I be too old for rowing at 50? Never tried it.",
        "Cheaper flights on Tuesday? Maybe, let me check.",
    ],
)
def test_a_question_that_names_no_option_or_gets_no_refusal_rejects_nothing(text: str) -> None:
    assert _read(text).rejections == []

"""Every rejection keeps the reason the user gave (issue 12: "exclusions and aversions are
rejections (with their reason)"). Session 19: a bad experience is its own reason, a sentence
adverb before the comma ("Not a dog though, …") no longer hides the clause after it, and a
clause opened by a pronoun and its verb ("…, I get seasick") is a reason. What says what to do
instead stays out of the reason."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _reasons(text: str) -> dict[str, str]:
    view = LedgerSnapshot(last_assistant_message="Here are a few ideas to start from.")
    return {r.option: r.reason for r in analyse_message(text, 2, view).rejections}


@pytest.mark.parametrize(("text", "option", "reason"), [
    ("We tried Kafka and it was a nightmare.", "Kafka", "We tried Kafka and it was a nightmare"),
    ("I tried knitting last year and hated it.", "knitting",
     "I tried knitting last year and hated it"),
    ("Not a dog though, we're out 9 hours a day.", "dog", "We're out 9 hours a day"),
    ("Forget Redis though, we're not caching anything.", "Redis", "We're not caching anything"),
    ("No cruises either, I get seasick.", "cruises", "I get seasick"),
    ("Not Kafka, they said it's too heavy for us.", "Kafka", "They said it's too heavy for us"),
])
def test_the_reason_said_with_a_rejection_is_kept(text: str, option: str, reason: str) -> None:
    assert _reasons(text) == {option: reason}


def test_a_reason_in_the_next_sentence_wins_over_the_story_only_when_there_is_no_story() -> None:
    # The experience told is the reason; a need after it is a requirement of its own.
    found = _reasons("We tried Kafka and it was a nightmare. We need something simpler.")
    assert found == {"Kafka": "We tried Kafka and it was a nightmare"}


@pytest.mark.parametrize(("text", "option"), [
    ("No cruises, and use the train instead.", "cruises"),
    ("Not Kafka, go with NATS.", "Kafka"),
])
def test_what_to_do_instead_is_not_a_reason(text: str, option: str) -> None:
    assert _reasons(text) == {option: ""}

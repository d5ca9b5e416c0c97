"""Every rejection keeps the reason the user gave (issue 12: "exclusions and aversions are
rejections (with their reason)"). Session 19: a bad experience is its own reason, a sentence
adverb before the comma ("Not a dog though, …") no longer hides the clause after it, and a
clause opened by a pronoun and its verb ("…, I get seasick") is a reason. What says what to do
instead stays out of the reason."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.option_shapes import names_no_thing
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
    ("Not RabbitMQ though, the team hates it.", "RabbitMQ", "The team hates it"),
    ("No meat, she's vegetarian.", "meat", "She's vegetarian"),
    ("So obviously no meat, she's vegetarian.", "meat", "She's vegetarian"),
    ("Basically no stairs.", "stairs", ""),
    ("No cruises, too slow.", "cruises", "Too slow"),
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


# A time, an amount, a pointer or a word of talk is never the option turned down (session 19,
# found among the false rejections of the tuning splits: 到时候, 两周, "two nights", "right").
@pytest.mark.parametrize("option", [
    "到时候", "前年", "晚上八点以后", "两周", "三天", "这种的", "比如",
    "two nights", "this yr", "today", "right", "ppl",
])
def test_a_time_amount_or_pointer_names_no_option(option: str) -> None:
    assert names_no_thing(option)


@pytest.mark.parametrize("option", [
    "游泳", "胃镜", "出国", "今年的新款", "nights out", "day trips", "a week in Bali", "Friday",
])
def test_things_and_activities_are_options(option: str) -> None:
    assert not names_no_thing(option)


@pytest.mark.parametrize(("text", "option"), [
    ("胃镜我不做了。前年做过一回，管子插进去难受得很。", "胃镜"),
    ("搬家公司这个得提前说清楚，别到时候又坐地起价，货拉拉就算了。", "货拉拉"),
    ("Camping, no way. I did two nights in the desert once, never again.", "Camping"),
])
def test_a_refusal_beside_a_time_keeps_only_the_thing(text: str, option: str) -> None:
    assert list(_reasons(text)) == [option]


@pytest.mark.parametrize(("text", "option"), [
    # "anywhere" is where, not which: the guard read "cilantro anywhere" as coriander in a
    # reply that only warned about it (corpus/guard/dev3, end to end).
    ("my husband says cilantro tastes like soap so please no cilantro anywhere", "cilantro"),
    ("No meat whatsoever.", "meat"),
])
def test_where_and_how_much_end_the_option(text: str, option: str) -> None:
    assert list(_reasons(text)) == [option]


@pytest.mark.parametrize(("text", "option", "reason"), [
    # Asked outright not to be offered it: the encoder's veto (it read these as no refusal
    # after a reply) does not reach them (corpus/guard/dev3, end to end).
    ("please don't say gift cards, she always says they feel lazy lol", "gift cards",
     "She always says they feel lazy lol"),
    ("please don't say gift cards", "gift cards", ""),
    ("please don't suggest a cruise, I get seasick", "cruise", "I get seasick"),
])
def test_asked_not_to_be_offered_is_a_rejection(text: str, option: str, reason: str) -> None:
    assert _reasons(text) == {option: reason}


def test_not_mentioning_something_to_someone_rejects_nothing() -> None:
    assert _reasons("don't mention Kafka to my boss, he loves it") == {}


_MOVING_OPTIONS = LedgerSnapshot(
    last_assistant_message=(
        "You could drive a rental truck, book a moving container, or hire full-service movers."
    )
)


@pytest.mark.parametrize(("text", "reason"), [
    # Session 32: words that only stress the verdict are no reason (the model's and the
    # tagger's reading took "Period" for one); a cause after them still is.
    ("I'm not driving a rental truck, period.", ""),
    ("I won't drive a rental truck, end of story.", ""),
    ("I'm not driving a rental truck, period, it's 1000 miles.", "It's 1000 miles"),
    # Look-alikes: the cause with nothing before it, and "period" as a noun of the cause.
    ("I'm not driving a rental truck, it's 1000 miles.", "It's 1000 miles"),
    ("I'm not driving a rental truck, period of notice is a month.", "Period of notice is a month"),
])
def test_stressing_the_verdict_gives_no_reason(text: str, reason: str) -> None:
    found = analyse_message(text, 2, _MOVING_OPTIONS).rejections
    assert {r.option: r.reason for r in found} == {"rental truck": reason}

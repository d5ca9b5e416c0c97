"""What a rejected option covers beyond its names, found through WordNet: sentences written
here, in no corpus."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], plain_offers=True)


@pytest.mark.parametrize(("option", "reply"), [
    ("cycling", "Hire a bike for the day; it is the best way to see the dikes."),
    ("driving", "Rent a convertible for a scenic drive along the coast road."),
    ("skiing", "Rent skis at the base station, it is cheap."),
    ("boating", "A short ferry hop is only 20 minutes."),
])
def test_an_activity_covers_the_things_it_is_done_with(option: str, reply: str) -> None:
    # No lexicon lists a bike under "cycling": WordNet's cycle (verb) gives bicycle and bike.
    assert flags(reply, option) == [option]


@pytest.mark.parametrize(("option", "reply"), [
    ("drinking", "Order a sparkling water with lemon."),  # a beverage is too general a thing
    ("cycling", "The cyclists' café does a good breakfast."),  # people who do it are no offer
    ("smoking", "The terrace has lovely grass and views."),  # grass is first a plant
])
def test_an_activity_does_not_cover_people_general_things_or_rare_senses(
    option: str, reply: str
) -> None:
    assert flags(reply, option) == []

"""What a rejected option covers beyond its names, found through WordNet: sentences written
here, in no corpus."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy


def flags(reply: str, option: str) -> list[str]:
    return find_readvocacy(reply, [option], as_reply=True)


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


@pytest.mark.parametrize(("option", "reply"), [
    ("flowers", "Add a hand-tied bunch of peonies to go with it."),  # one level below flower
    ("clothing", "A cashmere sweater makes a lovely gift."),
])
def test_a_general_option_covers_what_lies_just_below_it(option: str, reply: str) -> None:
    assert flags(reply, option) == [option]


@pytest.mark.usefixtures("member_reader_off")
def test_a_general_option_does_not_reach_far_down() -> None:
    # A goat is an animal seven levels down: the hierarchy does not make a farm visit propose
    # "animals" (the member reader, off here, reads that one as proposing them).
    assert flags("Visit the farm and feed the goats, the kids will love it.", "animals") == []


@pytest.mark.parametrize(("option", "reply"), [
    ("spicy food", "Try the spicy vindaloo at the place on Brick Lane, it is famous."),
    ("used clothing", "A used leather jacket from the market would suit you."),
    ("hot drinks", "Grab a hot chocolate at the kiosk."),
    ("early flights", "Take the early flight at 6am, it is the cheapest."),
    ("cheap hotels", "Book a cheap motel near the airport."),
])
def test_a_kind_of_the_head_with_the_options_modifier_is_the_option(
    option: str, reply: str
) -> None:
    assert flags(reply, option) == [option]


@pytest.mark.parametrize(("option", "reply"), [
    ("spicy food", "Try the mild korma at the place on Brick Lane, it is famous."),
    ("long walks", "Have a long lunch, then a short walk to the castle."),
    ("cheap hotels", "Book the boutique hotel by the harbour, it is lovely."),
])
def test_the_head_without_the_modifier_is_not_the_option(option: str, reply: str) -> None:
    assert flags(reply, option) == []


@pytest.mark.parametrize(("option", "reply"), [
    ("sugary drinks", "Grab a sweetened iced tea at the kiosk."),
    ("cheap hotels", "Book an inexpensive motel near the airport."),
])
def test_a_modifier_is_also_found_by_what_says_the_same(option: str, reply: str) -> None:
    # WordNet's synset and similar adjectives: sweetened for sugary, inexpensive for cheap.
    assert flags(reply, option) == [option]


def test_a_synonym_with_many_senses_is_not_taken_for_the_modifier() -> None:
    # "big" is similar to "loud" in one sense among thirteen: a big restaurant is not loud.
    assert flags("Book a big restaurant with a view of the harbour.", "loud restaurants") == []

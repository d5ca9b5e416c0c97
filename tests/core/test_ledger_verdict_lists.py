"""A list of options answered line by line: each line's verdict belongs to the option it starts
with (issue 12, session 23; heuristics/verdict_lists.py)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.heuristics.verdict_lists import verdict_lines
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _read(text: str) -> tuple[list[str], list[str]]:
    analysis = analyse_message(text, 2, LedgerSnapshot())
    return [r.option for r in analysis.rejections], [r.text for r in analysis.requirements]


VENUES = """Thank you. Venues near us:
1. Church hall — basically free but freezing, and the loos are up a flight of steps. Out.
2. Red Lion back room — possible
3. Fairway golf club — Mum won't set foot in there, long story
4. Kingsley Hotel — lovely, but honestly I don't know if we can stretch to it
Thoughts?"""


def test_each_line_judges_the_option_it_starts_with() -> None:
    rejected, requirements = _read(VENUES)
    assert rejected == ["Church hall", "Fairway golf club"]
    # The lines weigh options: none of them asks for anything ("Church hall", "Out", "Possible").
    assert requirements == []


def test_the_reason_is_the_comment_without_its_refusal() -> None:
    lines = {line.option: line for line in verdict_lines(VENUES)}
    assert lines["Church hall"].reason.startswith("basically free but freezing")
    assert "Out" not in lines["Church hall"].reason
    assert not lines["Red Lion back room"].rejected
    assert not lines["Kingsley Hotel"].rejected


@pytest.mark.parametrize(
    ("text", "rejected"),
    [
        ("1. Church hall — out.\n2. Red Lion — possible", ["Church hall"]),
        ("Church hall: out", ["Church hall"]),
        ("Options:\n- Church hall: no\n- Red Lion: maybe", ["Church hall"]),
        ("- Golf club — Mum won't set foot in there", ["Golf club"]),
        ("Wi-Fi — fine\nParking — we hate it there", ["Parking"]),
        ("1. Hilton — we tried it, awful\n2. Ibis — ok", ["Hilton"]),
        ("二手书：不要，上次收了一箱没人买\n盲盒：可以", ["二手书"]),
        ("1. 二手书 —— 它太贵了不考虑\n2. 盲盒 —— 可以", ["二手书"]),
    ],
)
def test_a_refusal_or_a_pronoun_turned_down_rejects_the_line_option(
    text: str, rejected: list[str]
) -> None:
    assert _read(text)[0] == rejected


@pytest.mark.parametrize(
    "text",
    [
        "1. Kingsley — lovely, but honestly I don't know if we can stretch to it\n"
        "2. Red Lion — fine",
        "1. Red Lion — possible\n2. Kingsley — maybe, if the quote comes in under budget",
        "Hotels we saw:\n- Astor: nice rooms\n- Ibis: cheap and close",
    ],
)
def test_a_hedge_or_praise_rejects_nothing(text: str) -> None:
    assert _read(text)[0] == []


def test_a_form_field_is_no_option_and_keeps_its_requirement() -> None:
    assert _read("Short version: no.")[0] == []
    assert _read("Bottom line: no")[0] == []
    rejected, requirements = _read("Budget: no more than £300\nDates: 3-5 June")
    assert rejected == []
    assert requirements == ["Budget: no more than £300", "Dates: 3-5 June"]


def test_a_line_that_asks_for_something_stays_a_requirement() -> None:
    rejected, requirements = _read("Kids: no screens\nDog: must come with us\nHotel Astor: out")
    assert rejected == ["Hotel Astor"]
    assert "Dog: must come with us" in requirements


@pytest.mark.parametrize(
    ("text", "rejected"),
    [
        # The place pointed at is the one the sentence opened with.
        ("The golf club is out, Mum won't set foot in there.", ["golf club"]),
        # With nothing to point back to, "there" names no option.
        ("I won't set foot in there.", []),
        ("No Airbnb there.", ["Airbnb"]),
    ],
)
def test_there_is_read_as_the_place_it_points_at(text: str, rejected: list[str]) -> None:
    assert _read(text)[0] == rejected


def test_a_pasted_list_of_terms_keeps_its_requirements() -> None:
    """A range's dash is no separator, and a field ("Hybrid: 2 days a week") is no verdict."""
    text = (
        "Here's what the hiring manager sent:\n"
        "- Hybrid: 2 days a week in our Leeds office\n"
        "- Salary band £65k–£75k\n"
        "- Church hall: out"
    )
    rejected, requirements = _read(text)
    assert rejected == ["Church hall"]
    assert "Hybrid: 2 days a week in our Leeds office" in requirements
    assert any("£65k" in r for r in requirements)


@pytest.mark.parametrize(
    ("text", "rejected"),
    [
        # 唔係好想 "not really keen"; 唔好有 "let there be no"; 嗰 (OpenCC's 𠮶) is 那.
        ("二手書我唔係好想 上次收咗成箱 冇人要", "二手書"),
        ("小玩具要細細件 唔好有電池嗰啲 家長會嘈", "電池"),
        ("嗰間酒店唔係好想去", "酒店"),
    ],
)
def test_cantonese_not_keen_and_let_there_be_no(text: str, rejected: str) -> None:
    assert any(rejected in option for option in _read(text)[0])


@pytest.mark.parametrize("text", ["佢牙唔好", "我哋唔係好熟", "唔好意思，我想問下有冇位"])
def test_cantonese_look_alikes_reject_nothing(text: str) -> None:
    assert _read(text)[0] == []

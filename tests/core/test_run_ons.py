"""Messages typed or dictated without punctuation are read as the sentences they are (issue 12:
"voice dictation without punctuation" was one clause, so the whole message became one
requirement and every refusal in it was lost)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.run_ons import run_on_pieces
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        (
            "we fly into dublin on the tuesday morning so we need somewhere near the airport "
            "we had a bad experience with hostels last time",
            [
                "we fly into dublin on the tuesday morning",
                "so we need somewhere near the airport",
                "we had a bad experience with hostels last time",
            ],
        ),
        (
            "the blue one looks fine but its way over what we wanted to spend can you find "
            "something under fifty quid",
            [
                "the blue one looks fine",
                "but its way over what we wanted to spend",
                "can you find something under fifty quid",
            ],
        ),
        (
            "ok the rice cooker sounds good also my mum cant read small print so big buttons "
            "please",
            [
                "ok the rice cooker sounds good",
                "also my mum cant read small print",
                "so big buttons please",
            ],
        ),
        (
            "my dad is coming for the weekend he cant do stairs so we need a ground floor room "
            "and hes not a fan of spicy food",
            [
                "my dad is coming for the weekend",
                "he cant do stairs",
                "so we need a ground floor room",
                "and hes not a fan of spicy food",
            ],
        ),
    ],
)
def test_a_run_on_is_cut_where_a_full_stop_would_go(text: str, pieces: list[str]) -> None:
    assert run_on_pieces(text) == pieces


@pytest.mark.parametrize(
    "text",
    [
        # Punctuated: its sentences are marked already.
        "We need a broker for 20k messages a second, and we need at-least-once delivery too.",
        # Short.
        "so yeah we need it by friday",
        # Long, unpunctuated, but one clause: what governs keeps what follows.
        "i think we need a laptop that is light enough to carry around all day at uni",
        "it was so expensive that nobody from the office ever went back there again after that",
        # Capitalised and closed with a full stop: a writer who punctuates.
        "The last local firm I used missed a filing deadline and I got fined for it.",
        # Chinese with its punctuation, or short.
        "我们下个月去成都玩三天，我老婆不能吃辣，所以火锅就算了。",
        "给我推荐一款轻一点的笔记本电脑",
    ],
)
def test_what_is_no_run_on_stays_whole(text: str) -> None:
    assert run_on_pieces(text) == [text]


@pytest.mark.parametrize(
    ("text", "pieces"),
    [
        (
            "我们下个月去成都玩三天我老婆不能吃辣所以火锅就算了然后酒店最好在地铁站附近",
            ["我们下个月去成都玩三天", "我老婆不能吃辣", "所以火锅就算了",
             "然后酒店最好在地铁站附近"],
        ),
        # 给我 keeps its 我; a piece too short to stand joins the next.
        (
            "给我推荐一款笔记本电脑要轻一点的我经常出差对了苹果的就不考虑了",
            ["给我推荐一款笔记本电脑要轻一点的", "我经常出差", "对了苹果的就不考虑了"],
        ),
    ],
)
def test_a_chinese_run_on_is_cut_at_its_connectives(text: str, pieces: list[str]) -> None:
    assert run_on_pieces(text) == pieces


def test_a_chinese_run_on_yields_its_refusal_and_needs() -> None:
    options, needs = _read(
        "我们下个月去成都玩三天我老婆不能吃辣所以火锅就算了然后酒店最好在地铁站附近"
    )
    assert "火锅" in options and "老婆" not in options, options
    assert any("地铁站" in n for n in needs) and not any("火锅" in n for n in needs), needs


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("我女儿不能吃花生。", "花生"),
        ("我们家孩子不能喝牛奶", "牛奶"),
        ("我室友不能吃猪肉", "猪肉"),
    ],
)
def test_the_one_who_cannot_is_no_option(text: str, option: str) -> None:
    assert _read(text)[0] == [option]


def _read(text: str) -> tuple[list[str], list[str]]:
    analysis = analyse_message(text, 2, LedgerSnapshot())
    return [r.option for r in analysis.rejections], [r.text for r in analysis.requirements]


def test_the_needs_inside_a_run_on_are_read_apart() -> None:
    _, needs = _read(
        "the second flat looks nice but its on the fourth floor with no lift so thats a no "
        "we need ground floor or a lift because of the pram and the bike shed is a must"
    )
    assert any("lift" in n.lower() or "ground floor" in n.lower() for n in needs), needs
    # No requirement is the whole message any more.
    assert all(len(n.split()) < 20 for n in needs), needs


def test_a_run_on_with_a_bad_experience_rejects_the_option() -> None:
    options, _ = _read(
        "for the stag do we want something active in the afternoon and paintball no we did "
        "paintball last year and two of the lads got hurt so something else please"
    )
    assert any("paintball" in o.lower() for o in options), options


def test_right_before_a_place_is_an_adverb_not_a_cut() -> None:
    """dev11: "make sure we're not right on the main highway" had become "Make sure we're not"."""
    text = (
        "perfect lets do springhill three nights in june oh and make sure we're not right on "
        "the main highway side the boys sleep light"
    )
    assert any("not right on the main highway" in p for p in run_on_pieces(text))


def test_a_dictated_period_ends_a_piece_and_is_dropped() -> None:
    text = "we want to keep it under 300 a night period and two beds at least for the boys"
    pieces = run_on_pieces(text)
    assert pieces[0] == "we want to keep it under 300 a night", pieces
    trial = "we want the flat for the whole trial period and a parking space for the van too"
    assert run_on_pieces(trial) == [trial]

"""Issue 12: how people type in a chat box — Chinese clauses set apart by spaces, thanks and
sign-offs, idioms of refusal, a judgement that is negated, and which option of a reply a
judgement is about. Sentences of our own, in domains the corpora do not use."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.sentences import parse_sentences
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def analyse(text: str, reply: str = ""):
    return analyse_message(text, 2, LedgerSnapshot(last_assistant_message=reply))


def rejected(text: str, reply: str = "") -> list[str]:
    return [r.option for r in analyse(text, reply).rejections]


def requirements(text: str, reply: str = "") -> list[str]:
    return [r.text for r in analyse(text, reply).requirements]


def test_a_space_between_chinese_clauses_ends_a_clause() -> None:
    texts = [s.text for s in parse_sentences("酒店会不会太吵啊 我们预算最多800一晚 必须有停车位")]
    assert texts == ["酒店会不会太吵啊", "我们预算最多800一晚", "必须有停车位"]


def test_spaces_around_a_latin_word_are_typography() -> None:
    assert [s.text for s in parse_sentences("我们用 Python 写后端")] == ["我们用 Python 写后端"]


def test_a_space_set_chinese_question_is_no_requirement() -> None:
    found = requirements("民宿会不会太偏 我们预算最多800一晚")
    assert not any("会不会" in r for r in found)
    assert any("800" in r for r in found)


@pytest.mark.parametrize(
    "text", ["Thank you so much!!", "Cheers all, will report back.", "Obrigado!", "Lovely."]
)
def test_thanks_sign_offs_and_a_bare_judgement_are_no_requirements(text: str) -> None:
    assert requirements(text) == []


@pytest.mark.parametrize(
    ("text", "options"),
    [
        ("Timeshares, not in a million years.", ["Timeshares"]),
        ("Canapés and a buffet, no, my mother would be mortified.", ["Canapés", "a buffet"]),
        ("Karaoke? that's a no from me.", []),  # a question first: nothing is refused yet
    ],
)
def test_idioms_of_refusal_turn_the_option_down(text: str, options: list[str]) -> None:
    found = [o.lower() for o in rejected(text)]
    for option in options:
        assert any(option.lower().removeprefix("a ") in f for f in found), (text, found)


def test_a_pronoun_is_never_the_rejected_option() -> None:
    found = rejected("I don't want her in some kennel for two weeks.")
    assert not {"her", "him", "no"} & {f.lower() for f in found}


def test_a_negated_judgement_keeps_the_option() -> None:
    reply = "The Kobo Clara or the Kindle Paperwhite both suit a first e-reader."
    assert rejected("The Kobo isn't terrible actually, she likes the page buttons.", reply) == []


def test_a_judgement_after_an_accepted_option_is_about_the_next_one() -> None:
    reply = "The bundle adds a charger and a sleeve for about £30."
    text = "Charger yes, sleeve he doesn't need, he never leaves the house with it."
    found = [o.lower() for o in rejected(text, reply)]
    assert "charger" not in found
    assert any("sleeve" in f for f in found)


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("酒不喝了，医生不让。", "酒"),
        ("集成吊顶不太感冒，清洁起来麻烦。", "集成吊顶"),
        ("大理石直接劝退，太容易渗色。", "大理石"),
        ("壁纸别给我推荐了，南方太潮。", "壁纸"),
    ],
)
def test_chinese_turn_downs_people_type(text: str, option: str) -> None:
    assert option in rejected(text)


def test_trouble_is_no_aversion_to_what_follows() -> None:
    # 麻烦 ("a hassle") holds 烦 ("to be annoyed by"): what follows is no option.
    assert rejected("听说清洁麻烦还占地方。") == []


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("No connecting trains, she gets anxious changing.", "connecting trains"),
        ("He would sooner walk than ride a scooter.", "scooter"),
        ("no plastic ones pls, they crack", "plastic"),
    ],
)
def test_english_turn_downs_people_type(text: str, option: str) -> None:
    assert any(option in found.lower() for found in rejected(text)), rejected(text)


def test_a_gerund_with_its_object_is_still_no_option() -> None:
    assert rejected("No clicking around in dashboards, keep it in code.") == []


def test_a_proposed_option_that_must_meet_a_need_is_not_rejected() -> None:
    reply = "地面可以铺防滑砖，浴室柜选悬空的。"
    assert "地面" not in rejected("地面一定要防滑，最好整个卫生间都没有高低差。", reply)


def test_a_verb_the_user_asks_for_is_no_rejected_option() -> None:
    # The embedded model's reply said "how to write the function"; the next request asks for
    # more writing, it turns nothing down (seen in `rcm-tui eval` on file-upload).
    reply = "Here is how to write the function: def upload(): ..."
    assert rejected("Please also write pytest tests for it.", reply) == []


@pytest.mark.parametrize(
    ("text", "option"),
    [
        # A phone keyboard's apostrophe, and none at all: each read as "don't", "I'm", "can't".
        ("We can’t use Trello at work, IT blocked it.", "Trello"),
        ("We’d rather avoid Wizz Air.", "Wizz Air"),
        ("im not a fan of escape rooms", "escape rooms"),
        ("i dont want a gas hob", "gas hob"),
    ],
)
def test_contractions_are_read_however_they_are_typed(text: str, option: str) -> None:
    assert any(option.lower() in o.lower() for o in rejected(text)), rejected(text)


@pytest.mark.parametrize(
    "text",
    ["shouldnt cost more than 40 a month", "Shouldn’t take more than an hour door to door"],
)
def test_a_negative_auxiliary_without_a_subject_is_a_statement(text: str) -> None:
    # "Shouldn't we…" asks; "Shouldn't cost more than…" states a limit.
    assert requirements(text), analyse(text)
    assert not parse_sentences(text)[0].question


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("We've had enough of timeshare pitches.", "timeshare pitches"),
        ("Jazz brunches don't do it for me.", "Jazz brunches"),
        ("Escape rooms get on my nerves.", "Escape rooms"),
    ],
)
def test_idioms_of_aversion_turn_the_option_down(text: str, option: str) -> None:
    assert rejected(text) == [option]


def test_chinese_after_an_english_name_is_no_part_of_it() -> None:
    # An English "no X" reads an English noun phrase; what follows in Chinese judges it.
    assert rejected("no Memcached 太旧了") == ["Memcached"]

"""How people ask an assistant for something and answer its read-backs (issue 12), the forms
that public task-oriented dialogue (SGD, CrossWOZ) is made of: a request that narrows what it
asks for states requirements, asked or not; an assent ("That sounds great", "Yes, that's
correct", "thank you for your help") states none; a Chinese question goes on after its comma;
an acknowledgement is no option. Sentences of our own; look-alikes beside each."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.heuristics.reply_manner import states_no_need
from rcm_tui.core.heuristics.requests import narrowed_request
from rcm_tui.core.heuristics.sentences import parse_sentences
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

OFFER = "How about the Harbour Inn, a 3 star hotel by the marina? Does that work for you?"


def _analyse(text: str, reply: str = OFFER):
    return analyse_message(text, 2, LedgerSnapshot(last_assistant_message=reply))


def _needs(text: str, reply: str = OFFER) -> list[str]:
    return [r.text for r in _analyse(text, reply).requirements]


@pytest.mark.parametrize(
    "text",
    [
        "That sounds great!",
        "Sounds perfect for me.",
        "Yes, that's correct. What time does it open?",
        "Okay, that should work.",
        "Yup! that would work.",
        "Yes, that would be perfect, thanks",
        "Thank you for your help.",
        "Thanks for letting me know",
        "Sure, good to know.",
        "Wait a minute.",
        "No, that's all I need. Goodbye!",
        "Possibly. What's their phone number?",
        "Tell me their address",
        "那就好",
        "记好了",
        "That one sounds better.",
        "All correct, yes.",
        "No, that's all I need right now, thanks.",
        "I have everything that I need.",
        "No, thank you very much for your help, that's all I need.",
        "Thanks so much for your immense help!",
        "I really appreciate the help.",
        "That sounds great, thanks for your help!",
    ],
)
def test_an_assent_or_a_thanks_states_no_need(text: str) -> None:
    assert _needs(text) == []


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("A rooftop terrace would be great.", "rooftop terrace"),
        ("Thanks for the list. It has to be under $90 a night.", "under $90"),
        ("That sounds great, but it must have parking.", "parking"),
    ],
)
def test_a_wish_beside_an_assent_is_still_read(text: str, need: str) -> None:
    assert any(need in n for n in _needs(text)), _needs(text)


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("Can you recommend a guesthouse in Galway under 120 a night?", "under 120"),
        ("Could you suggest a present for my niece under £30?", "my niece"),
        ("Please find me two seats on the Thursday ferry.", "two seats"),
        ("Can you look for trains from Leeds to York on the 14th?", "Leeds to York"),
        ("Find me a quiet co-working space near the harbour.", "near the harbour"),
        ("I can't stand hostels, can you suggest a room for 3 under $200?", "for 3 under $200"),
        ("你好，帮我推荐一个评分在4.8分以上的民宿，谢谢。", "4.8分以上"),
        ("能帮我找一家人均两百以内的火锅店吗？", "人均两百以内"),
        ("再帮我推荐一家经济型酒店吧。", "经济型酒店"),
    ],
)
def test_a_request_that_narrows_what_it_asks_for_states_it(text: str, need: str) -> None:
    assert any(need in n for n in _needs(text, "")), _needs(text, "")


@pytest.mark.parametrize(
    "text",
    [
        "Can you find me a restaurant?",
        "Can you suggest something to watch?",
        "Could you recommend some options for me?",
        "Can you get me the weather for Morgan Hill?",
        "Find out which platform the train leaves from.",
        "Can you find me something from that?",
        "帮我推荐一家餐馆。",
    ],
)
def test_a_request_that_narrows_nothing_is_only_its_goal(text: str) -> None:
    assert narrowed_request(text.rstrip("?.。")) is None


def test_an_about_narrows_a_chinese_request_as_it_does_a_goal() -> None:
    # Session 32: one list says what narrows a Chinese request and a bare goal; 左右 ("about")
    # was only the goal's.
    assert narrowed_request("帮我订七点左右出发") == "帮我订七点左右出发"
    assert narrowed_request("帮我订一张票") is None


@pytest.mark.parametrize(
    ("text", "no_need"),
    [
        ("公司需要一个团队网盘", True),
        ("想买辆电动车上下班", True),
        ("需要一个能坐七个人的车", False),
    ],
)
def test_every_requirement_reader_asks_whether_a_goal_is_bare(text: str, no_need: bool) -> None:
    # Session 32: the bare goal is part of the one "states no need" question every requirement
    # reader asks, as a complaint and a plan are.
    assert states_no_need(text) is no_need


def test_booking_the_option_named_is_a_choice_not_a_constraint() -> None:
    assert narrowed_request("Book a viewing at the Old Mill") is None
    assert narrowed_request("Book a table at Nopa for 4") == "Book a table at Nopa for 4"


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("评分是4.5分以上", "4.5分以上"),
        ("价格在300-400元", "300-400元"),
        ("游玩时长控制在2小时", "2小时"),
    ],
)
def test_a_chinese_attribute_and_its_amount_is_a_spec(text: str, need: str) -> None:
    assert any(need in n for n in _needs(text, "")), _needs(text, "")


def test_a_story_with_a_year_is_no_spec() -> None:
    assert _needs("我在2019年去过一次。", "") == []


@pytest.mark.parametrize(
    ("text", "asked", "said"),
    [
        ("青年旅舍的电话是多少，地址在哪？", ["青年旅舍的电话是多少？", "地址在哪？"], []),
        ("有别的咖啡馆吗，我们想多几个选择。", ["有别的咖啡馆吗？"], ["我们想多几个选择。"]),
        ("博物馆的地址在哪里，我们都是路痴。", ["博物馆的地址在哪里？"], ["我们都是路痴。"]),
    ],
)
def test_a_chinese_question_ends_at_its_clause(
    text: str, asked: list[str], said: list[str]
) -> None:
    sentences = parse_sentences(text)
    assert [s.text for s in sentences if s.question] == asked
    assert [s.text for s in sentences if not s.question] == said


@pytest.mark.parametrize("text", ["什么都行，就是别太辣。", "哪儿都可以", "大理多住几天。"])
def test_an_indefinite_question_word_asks_nothing(text: str) -> None:
    assert not any(s.question for s in parse_sentences(text))


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("只有一家符合：青年旅舍。", "青年旅舍的电话是多少，地址在哪？"),
        ("周边有南锣鼓巷和后海。", "太好了，麻烦你再帮我们找个人均一百左右的餐馆。"),
        ("酒店电话是010-12345678。", "可以的。谢谢了，没有其它问题了。"),
        ("好的，附近有地铁站A口。", "哦哦，好的，太感谢啦！"),
        ("请记好，电话是010-12345678。", "记好了，这个景点有周边酒店吗？"),
        ("推荐你们去植物园。", "清楚了，再找个免费的景点，一出去就有点收不住了。"),
        ("Sadly pets are not allowed there.", "Could you get me alternative residences?"),
        ("Where will you leave from?", "Let's leave out of Seattle, WA."),
    ],
)
def test_no_option_is_turned_down(reply: str, text: str) -> None:
    assert _analyse(text, reply).rejections == []


def test_leaving_an_option_out_is_still_read() -> None:
    assert [r.option for r in _analyse("Let's leave out the ferry.", "").rejections] == ["ferry"]


def test_a_range_with_a_dash_stays_one_clause() -> None:
    (sentence,) = parse_sentences("找一个能玩0.5小时 - 1小时的景点")
    assert sentence.clauses == ["找一个能玩0.5小时 - 1小时的景点"]


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("Shall I book the cabin for you?", "Not now."),
        ("Would you like me to set a reminder?", "Perhaps later"),
        ("There are 4 vans free. Would you like a standard one?", "It depends"),
        ("Do you wish to reserve the cabin?", "Reserve the cabin"),
        ("Would you like to order the cake?", "Yes, order the cake."),
    ],
)
def test_declining_or_accepting_what_was_offered_states_no_need(reply: str, text: str) -> None:
    assert _needs(text, reply) == []


def test_accepting_an_offer_with_a_detail_keeps_the_detail() -> None:
    needs = _needs("Reserve it for 4 people at 7pm", "Do you wish to reserve the cabin?")
    assert needs == ["Reserve it for 4 people at 7pm"]


@pytest.mark.parametrize(
    ("reply", "text", "need"),
    [
        ("How many seats do you need?", "Four of us", "Four of us"),
        ("Who should the parcel go to?", "To my sister", "To my sister"),
        ("Kayak or canoe?", "Kayak.", "Use Kayak"),
    ],
)
def test_a_bare_answer_is_a_value_unless_it_picks_an_option(
    reply: str, text: str, need: str
) -> None:
    assert _needs(text, reply) == [need]


@pytest.mark.parametrize(
    ("reply", "text"),
    [
        ("评分是3.5分，周边有美术馆和艺术区。", "评分虽说低了点，不过周边的景点我挺感兴趣的。"),
        ("Music or Sports?", "I would like to go to something about Music in Boston."),
        ("我推荐您去植物园，电话是010-12345678。", "我要从酒店打出租到植物园，麻烦把车牌发给我。"),
        ("推荐你去湖畔酒店(西湖店)。", "湖畔酒店(西湖店)评分咋样，周边都有啥景点呢？"),
        ("推荐你去湖畔酒店(西湖店)。", "湖畔酒店(西湖店)什么时候营业，电话告诉我一下。"),
    ],
)
def test_wanting_or_asking_about_an_offered_option_turns_nothing_down(
    reply: str, text: str
) -> None:
    assert _analyse(text, reply).rejections == []


def test_a_wish_with_a_negation_still_turns_the_option_down() -> None:
    reply = "You could try the night market or the harbour cruise."
    analysis = _analyse("I don't want to go to the night market.", reply)
    options = [r.option for r in analysis.rejections]
    assert any("night market" in o for o in options)


@pytest.mark.parametrize(
    ("text", "need"),
    [
        ("Thriller films are my thing.", "Thriller films are my thing"),
        ("I'm in the mood for dumplings tonight.", "dumplings"),
        ("We're really into board games.", "board games"),
        ("I like folk songs.", "folk songs"),
        ("I need to pick the van up at 9 am.", "9 am"),
        ("Could you move the booking to 3 pm?", "3 pm"),
        ("Can you make the reservation for the 4th?", "the 4th"),
        ("Play it on the bedroom speaker.", "bedroom speaker"),
        ("票价是免费的", "免费"),
        ("周末带家里人出去玩，门票20元以下的就行", "20元以下"),
        ("三百以内的就行。", "三百以内"),
    ],
)
def test_a_liking_or_a_detail_of_a_request_is_a_requirement(text: str, need: str) -> None:
    assert any(need in n for n in _needs(text, "What would you like?")), _needs(text)


@pytest.mark.parametrize("text", ["I like that.", "I like the idea.", "I love it!"])
def test_liking_what_was_said_is_an_assent(text: str) -> None:
    assert _needs(text) == []

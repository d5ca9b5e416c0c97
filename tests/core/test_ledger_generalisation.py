"""Issue 12, ledger analyser: each generalised rule, proved on sentences written for this file
only (none of them is in corpus/ledger), so a test passes because the rule holds, not because a
sentence was learnt."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message, option_matches
from rcm_tui.core.heuristics.options import option_variants
from rcm_tui.core.ledger_snapshot import LedgerSnapshot, RejectedItem


def analyse(text: str):
    return analyse_message(text, 3, LedgerSnapshot())


def rejected(text: str) -> list[str]:
    return [r.option for r in analyse(text).rejections]


def requirements(text: str) -> list[str]:
    return [r.text for r in analyse(text).requirements]


@pytest.mark.parametrize(
    ("message", "option"),
    [
        # A verdict on the subject: copula (plain or negated) + an evaluation that leaves no room.
        ("Terraform Cloud isn't an option for this team.", "Terraform Cloud"),
        ("Kubernetes is overkill for a two-page site.", "Kubernetes"),
        ("Cruises are not something we want to spend a week on.", "Cruises"),
        ("Espresso machines are way too fiddly for my dad.", "Espresso machines"),
        ("The ferry is out, my wife gets seasick.", "ferry"),
        ("Glamping is a hard pass for me.", "Glamping"),
        # A pronoun refers to the topic the sentence opened with.
        ("Sushi we had three nights running, honestly I'm over it.", "Sushi"),
        ("the brochure is all spa packages and thats so boring", "brochure"),
        # The cause before "so" can reject too.
        ("My son is allergic to sesame, so those bakeries are tricky.", "sesame"),
        ("Harm told as a bad experience: I had Crocs once and they gave me a rash.", "Crocs"),
        ("I don't need it painted, particularly no feature walls.", "feature walls"),
        ("Nothing spicy for the kids please.", "spicy"),
    ],
)
def test_english_constructions_reject(message: str, option: str) -> None:
    assert any(option_matches(option, found) for found in rejected(message)), rejected(message)


@pytest.mark.parametrize(
    "message",
    [
        "Kafka might be too heavy for us, not sure yet.",  # a hedge keeps it
        "The drive is too long for the kids.",  # a circumstance, not an option judged
        "My knees are too weak for long hikes.",
        "The new firmware is out.",  # a release
        "Miro could be nice later, no strong feelings.",  # an abstract noun is no option
        "So that's so cool, thanks!",
    ],
)
def test_english_traps_reject_nothing(message: str) -> None:
    assert rejected(message) == []


def test_one_stands_for_the_noun_of_the_option_before_it() -> None:
    found = rejected("We don't need fancy chairs, especially not another leather one.")
    assert "leather one" not in found
    assert any(option_matches("leather chairs", f) for f in found), found


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("海鲜那种太腥的他们一点都喜欢不起来。", "海鲜"),
        ("露营就免了吧，我妈怕虫子。", "露营"),
        ("Notion在公司网络里打不开，不考虑。", "Notion"),
        ("晚饭别再给我们安排火锅了，太上火。", "火锅"),
        ("除了榴莲，别的水果都可以。", "榴莲"),
        ("英语外教课就不用了，学校有。", "英语外教课"),
    ],
)
def test_chinese_topic_comment_rejects(message: str, option: str) -> None:
    found = rejected(message)
    assert any(option_matches(option, f) or option_matches(f, option) for f in found), found


@pytest.mark.parametrize(
    "message",
    [
        "也不是不行，看价格吧。",  # double negation keeps it
        "周末不行，工作日晚上可以。",  # a time, not an option
        "这个价格不太合适。",
        "下雨的话就算了。",  # a condition
        "预算超了的话，滑雪课就算了。",
        "别的都好说。",  # 别的 is "the others", not "don't"
    ],
)
def test_chinese_traps_reject_nothing(message: str) -> None:
    assert rejected(message) == []


@pytest.mark.parametrize(
    ("message", "needle"),
    [
        ("他们都七十多了。", "七十多"),
        ("孩子特别喜欢拼乐高。", "喜欢拼乐高"),
        ("午饭以清淡为主。", "清淡为主"),
        ("Yes! He'd love a window seat on the left side.", "window seat"),
        ("A quiet corner table is what we're after.", "quiet corner table"),
        ("Window seats please.", "Window seats"),
        ("we fly out in march and need a car seat, budget is about 90 quid", "90 quid"),
        ("Dinner for the book club on the 9th: 14 people, starting at 19:30.", "19:30"),
    ],
)
def test_requirements_without_a_modal(message: str, needle: str) -> None:
    assert any(needle.lower() in r.lower() for r in requirements(message)), requirements(message)


def test_a_replacement_in_chinese_keeps_what_is_wanted() -> None:
    found = analyse("把地毯换成木地板，狗毛太难打扫了。")
    assert [r.option for r in found.rejections] == ["地毯"]
    assert any("木地板" in r.text for r in found.requirements)


def test_a_quality_and_a_quantity_after_one_modal_are_two_needs() -> None:
    assert requirements("We need end-to-end encryption and 500 concurrent calls.") == [
        "We need end-to-end encryption",
        "We need 500 concurrent calls",
    ]
    # The same kind on both sides stays one need.
    assert requirements("We need WebP and AVIF output.") == ["We need WebP and AVIF output"]


@pytest.mark.parametrize(
    ("option", "odd"),
    [("Redis", "redi"), ("Paris", "pari"), ("bus", "buss"), ("tennis", "tenni")],
)
def test_option_variants_make_no_odd_singulars(option: str, odd: str) -> None:
    assert [odd] not in option_variants(option)


@pytest.mark.parametrize(
    ("option", "text"),
    [("taxi", "no taxis"), ("taxis", "a taxi"), ("bus", "two buses"), ("buses", "the bus")],
)
def test_option_variants_still_meet_singular_and_plural(option: str, text: str) -> None:
    assert option_matches(option, text)


def rejected_after(reply: str, message: str) -> list[str]:
    view = LedgerSnapshot(last_assistant_message=reply)
    return [r.option for r in analyse_message(message, 3, view).rejections]


@pytest.mark.parametrize(
    ("reply", "message", "option"),
    [
        # The topic names an option the assistant just proposed, and what is said is negative.
        (
            "Try Heroku, Render or Fly.io.",
            "Heroku at our traffic would cost a fortune, too pricey.",
            "Heroku",
        ),
        (
            "A tent, a campervan or a cabin?",
            "campervan - no way, my husband won't drive one",
            "campervan",
        ),
        (
            "Confluence, Notion or a wiki in the repo?",
            "Confluence we used for years, what a nightmare.",
            "Confluence",
        ),
        ("可以看海底捞、西贝或者外婆家。", "海底捞对老人来说太吵了。", "海底捞"),
        ("有顺丰、京东和德邦可以选。", "德邦上次丢了一个箱子，很失望。", "德邦"),
    ],
)
def test_a_negative_verdict_on_a_proposed_option_rejects_it(
    reply: str, message: str, option: str
) -> None:
    found = rejected_after(reply, message)
    assert any(option_matches(option, f) for f in found), found


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("Try Heroku, Render or Fly.io.", "Heroku might be too pricey, not sure."),  # hedged
        ("Try Heroku, Render or Fly.io.", "Heroku is great, we know it well."),  # not negative
        ("Try Heroku, Render or Fly.io.", "Is Heroku too expensive?"),  # a question
        ("有顺丰、京东和德邦可以选。", "德邦也可以考虑，就是有点担心速度。"),  # 可以考虑, 担心
        (
            "Try Heroku, Render or Fly.io.",
            "Vercel is too pricey for us.",
        ),  # not proposed: a verdict
    ],
)
def test_proposal_verdicts_need_a_proposed_topic_and_no_hedge(reply: str, message: str) -> None:
    found = rejected_after(reply, message)
    assert not any(option_matches("Heroku", f) or option_matches("德邦", f) for f in found), found


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("短毛猫我们不考虑，家里有人过敏。", "短毛猫"),  # the experiencer is not part of the option
        ("密室逃脱孩子不太想去，太黑了。", "密室逃脱"),
        ("游泳馆我们之前办过卡，换了两次教练都不靠谱。", "游泳馆"),  # topic + past experience
        ("We're not really beach people.", "beach"),
        ("We're moving off Jira next quarter.", "Jira"),
        ("PCP is a definite no.", "PCP"),
    ],
)
def test_topic_and_experiencer_are_told_apart(message: str, option: str) -> None:
    found = rejected(message)
    assert any(f == option or option_matches(option, f) for f in found), found
    assert all(len(f) <= len(option) + 2 for f in found if _is_cjk(f)), found


def _is_cjk(text: str) -> bool:
    return any("\u4e00" <= c <= "\u9fff" for c in text)


@pytest.mark.parametrize(
    ("reply", "message", "option"),
    [
        # A possessive topic is its owner; "no chance" and "weighs a ton" are verdicts.
        ("Kafka, NATS or Pulsar?", "Pulsar's ops story scared us off, no chance.", "Pulsar"),
        ("A Dyson, a Shark or a Miele?", "The Miele weighs a ton, I have stairs.", "Miele"),
    ],
)
def test_proposal_topics_and_verdicts(reply: str, message: str, option: str) -> None:
    found = rejected_after(reply, message)
    assert any(option_matches(option, f) for f in found), found


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("My brother had the Kindle and the screen cracked in a month.", "Kindle"),
        ("那家火锅店汤底太咸了，服务也一般，下次换一家。", "火锅店"),
        ("私立医院的价格实在接受不了。", "私立医院"),
    ],
)
def test_experience_and_attributes_point_at_the_option(message: str, option: str) -> None:
    found = rejected(message)
    assert any(option_matches(option, f) or option_matches(f, option) for f in found), found
    assert not any(f in {"服务", "价格", "t", "he"} for f in found), found


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("Vagrant", "Actually, Vagrant is fine after all."),
        ("Vagrant", "Fine, Vagrant then."),
        ("Vagrant", "Let's go with Vagrant."),
        ("Vagrant", "OK, put Vagrant back on the list."),
        ("青旅", "青旅其实也行。"),
        ("青旅", "算了，还是住青旅吧。"),
    ],
)
def test_accepting_a_turned_down_option_reopens_it(option: str, message: str) -> None:
    view = LedgerSnapshot(reopenable=(option,), rejected=(RejectedItem(option),))
    assert analyse_message(message, 5, view).reopened == [option]


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("Vagrant", "Vagrant is not fine."),
        ("Vagrant", "What about Vagrant?"),
        ("Vagrant", "Vagrant is out, Docker works."),
        ("青旅", "青旅还是不行。"),
    ],
)
def test_a_turned_down_option_stays_down(option: str, message: str) -> None:
    view = LedgerSnapshot(reopenable=(option,), rejected=(RejectedItem(option),))
    assert analyse_message(message, 5, view).reopened == []


@pytest.mark.parametrize(
    "message",
    [
        "Not convinced by Svelte yet.",
        "I wouldn't say no to a spa day.",
        "We can't rule out Azure yet.",
        "不排除去云南。",
        "腾讯云不一定不行。",
        "不想太早出发。",
    ],
)
def test_negated_refusals_and_hedges_keep_the_option(message: str) -> None:
    assert rejected(message) == []


@pytest.mark.parametrize(
    ("reply", "message", "option"),
    [
        (
            "Zoom, Teams or Google Meet?",
            "Teams crashes on my Mac every week, I'd rather not.",
            "Teams",
        ),
        ("Rome, Vienna or Prague?", "vienna out then, too cold in january", "vienna"),
        ("可以看看汉庭、全季或者亚朵。", "汉庭房间隔音太差了。", "汉庭"),
        ("推荐北京、西安或者成都。", "成都这个季节太潮湿，我受不了，算了。", "成都"),
    ],
)
def test_short_verdicts_on_a_proposed_option(reply: str, message: str, option: str) -> None:
    found = rejected_after(reply, message)
    assert any(option_matches(option, f) for f in found), found


def test_what_a_new_tool_replaces_is_turned_down() -> None:
    found = rejected("We want a booking system to replace our paper diary.")
    assert any(option_matches("paper diary", f) for f in found), found


@pytest.mark.parametrize(
    ("message", "needle"),
    [
        # The part before a rejection, after a comma, states what is wanted.
        ("Weekday mornings only, nothing after lunch.", "Weekday mornings only"),
        ("We'd prefer a window table, no bar stools.", "window table"),
        # Where and how people live and work, and a Chinese body or skill, constrain.
        ("We live in a fourth-floor flat without a lift.", "fourth-floor"),
        ("I work from home most days, lots of calls.", "work from home"),
        ("我腰不好，坐久了疼。", "腰不好"),
        ("孩子零基础，从头学。", "零基础"),
        ("租七座的车，一家五口。", "七座"),
        ("公司在西二旗，离得近最好。", "西二旗"),
    ],
)
def test_requirements_stated_around_a_rejection_or_as_context(message: str, needle: str) -> None:
    assert any(needle in r for r in requirements(message)), requirements(message)


@pytest.mark.parametrize(
    "message",
    [
        "这个是硬性要求。",  # points at a requirement already stated
        "他每天要坐地铁上班。",  # a habit of someone's day
        "听说那边更便宜。",  # hearsay
        "之前被中介坑过。",  # a story
    ],
)
def test_chinese_clauses_with_a_modal_that_state_no_need(message: str) -> None:
    assert requirements(message) == []


def test_a_quantity_conjunct_needs_a_number_at_its_start() -> None:
    # "with Python and SQL" joins nouns inside one need; the number is not where a conjunct
    # of its own would start.
    assert requirements("Must have 5+ years with Python and SQL") == [
        "Must have 5+ years with Python and SQL"
    ]


def test_an_option_proposed_two_replies_ago_is_still_on_the_table() -> None:
    view = LedgerSnapshot(
        earlier_assistant_messages=["Try Miro, FigJam or Whimsical."],
        last_assistant_message="Sure, all three have templates.",
    )
    found = analyse_message("FigJam's pricing adds up fast for a team of 30.", 4, view)
    assert any(option_matches("FigJam", r.option) for r in found.rejections)


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("Photo books feel a bit impersonal.", "Photo books"),  # a verb of seeming
        ("The last plumber we hired missed two appointments.", "plumber"),
        ("有个同事对芒果过敏，芒果布丁什么的都别点了。", "芒果布丁"),
        ("Sleepovers of more than 4 kids are too chaotic for us.", "Sleepovers"),
        ("Kayaking isn't something we have the energy for.", "Kayaking"),
    ],
)
def test_more_verdicts_and_experiences(message: str, option: str) -> None:
    found = rejected(message)
    assert any(option_matches(option, f) for f in found), found
    assert not any("什么" in f or "同事" in f for f in found), found


@pytest.mark.parametrize(
    ("message", "option"),
    [
        # A sentence that ends in a bare refusal turns down what it opened with.
        ("self-hosting our own mail server - absolutely not.", "mail server"),
        ("Jira is where tickets go to die here, let's not.", "Jira"),
        # What is judged about an option points at the option.
        ("Heroku's pricing at our scale is insane.", "Heroku"),
        ("Bunk beds are murder on your back.", "Bunk beds"),
    ],
)
def test_bare_refusals_and_judged_attributes(message: str, option: str) -> None:
    found = rejected(message)
    assert any(option_matches(option, f) for f in found), found


@pytest.mark.parametrize("message", ["I'm tired, let's not.", "Sounds good, no thanks needed."])
def test_a_bare_refusal_after_a_pronoun_turns_nothing_down(message: str) -> None:
    assert rejected(message) == []


def test_turning_an_option_down_again_is_no_reopening() -> None:
    view = LedgerSnapshot(reopenable=("Vagrant",), rejected=(RejectedItem("Vagrant"),))
    assert analyse_message("vagrant out then.", 5, view).reopened == []


def test_but_is_no_hedge_for_a_verdict_on_a_proposal() -> None:
    found = rejected_after("Kafka, NATS or Redis Streams?", "NATS is neat but way too new for us.")
    assert any(option_matches("NATS", f) for f in found), found


def test_x_then_is_a_decision_not_a_requirement() -> None:
    found = analyse("Porto then.")
    assert found.requirements == []
    assert found.trajectory.startswith("Porto")


def test_an_option_named_alone_before_its_rejection_is_no_requirement() -> None:
    found = analyse("ibuprofen - tried it, it gave me a stomach ache for days.")
    assert any(option_matches("ibuprofen", r.option) for r in found.rejections)
    assert not any(r.text.lower() == "ibuprofen" for r in found.requirements)


def test_a_verdict_for_someone_takes_the_reason_after_the_comma() -> None:
    # tmux: "MongoDB is not an option for us, our compliance team wants SQL." took the
    # sentence before as its reason, since "for us" hid the comma clause.
    text = (
        "We need strict ACID and 2,000 writes per second. "
        "Oracle is not an option for us, the licence alone is half our budget."
    )
    found = analyse(text).rejections
    assert [(r.option, r.reason) for r in found] == [
        ("Oracle", "The licence alone is half our budget")
    ]

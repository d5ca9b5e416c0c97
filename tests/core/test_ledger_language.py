"""Issue 12: the ledger understands how people talk — every example of the issue, and each
rejection family of shared/design/LEDGER-CORPUS.md in sentences of other domains."""

from __future__ import annotations

import json

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger import apply_analysis, ledger_snapshot
from rcm_tui.core.ledger_snapshot import LedgerSnapshot
from rcm_tui.core.llm_analysis import parse_analysis
from rcm_tui.core.models import Message, Session


def analyse(text: str, **view: object):
    return analyse_message(text, 3, LedgerSnapshot(**view))  # type: ignore[arg-type]


def rejected(text: str) -> list[str]:
    return [r.option for r in analyse(text).rejections]


def requirements(text: str) -> list[str]:
    return [r.text for r in analyse(text).requirements]


def converse(*user_turns: str) -> Session:
    """The heuristic ledger after these user turns (replies are a neutral acknowledgement)."""
    session = Session()
    for turn, text in enumerate(user_turns, start=1):
        apply_analysis(session, analyse_message(text, turn, ledger_snapshot(session)), turn)
        session.messages.append(Message(role="user", content=text, turn=turn))
        session.messages.append(Message(role="assistant", content="Noted.", turn=turn))
    return session


# -- rejections, one construction per family -----------------------------------------------------


@pytest.mark.parametrize(
    ("message", "options"),
    [
        # the issue's own examples
        ("I hate using taxis or buses.", ["taxis", "buses"]),
        ("Sushi isn't really my thing.", ["Sushi"]),
        ("Anything but a tie, he has forty.", ["tie"]),
        ("I'm allergic to peanuts.", ["peanuts"]),
        ("No more pizza this week.", ["pizza"]),
        ("Scrap the Lisbon plan.", ["Lisbon plan"]),
        ("We tried a cattery once and it was a nightmare.", ["cattery"]),
        # aversion, attributed
        ("I'm not a fan of horror movies.", ["horror movies"]),
        ("My wife hates cats.", ["cats"]),
        ("Our CFO won't sign off on a hotel venue.", ["hotel venue"]),
        ("His grandma can't stand karaoke.", ["karaoke"]),
        # exclusion
        ("Any cuisine except Thai.", ["Thai"]),
        ("I want a holiday without long flights.", ["long flights"]),
        ("I'd like a gluten-free cake.", ["gluten"]),
        ("Nothing made from animal skin.", ["animal skin"]),
        # not needed
        ("We don't need a broker, just run the numbers.", ["broker"]),
        ("No need for gift wrapping.", ["gift wrapping"]),
        # inability
        ("I can't take melatonin while pregnant.", ["melatonin"]),
        # bad experience
        ("We got burned by crypto in 2022.", ["crypto"]),
        # replacement
        ("I'd like rice instead of bread.", ["bread"]),
        ("We'd rather use shared docs than pay for another SaaS seat.", ["SaaS seat"]),
        ("We want to switch from the grain free stuff to a vet brand.", ["grain free"]),
        # withdrawal
        ("Let's cancel the boat tour.", ["boat tour"]),
        # the design register, from the 19-turn session
        (
            "RabbitMQ is out too, because we had bad experiences with its clustering.",
            ["RabbitMQ"],
        ),
        # Chinese
        ("我讨厌坐出租车。", ["出租车"]),
        ("我对花生过敏。", ["花生"]),
        ("除了川菜以外都可以。", ["川菜"]),
        ("把辣子鸡换成清蒸鱼吧。", ["辣子鸡"]),
        ("线上课我们不想报。", ["线上课"]),
        ("不买燃油车了，改买新能源。", ["燃油车"]),
        ("全景天窗不需要，夏天太晒。", ["全景天窗"]),
        # more phrasings of the same families, written apart from any corpus
        ("I'll pass on the opera.", ["opera"]),
        ("My doctor told me to avoid caffeine.", ["caffeine"]),
        ("The boss said no overtime.", ["overtime"]),
        ("Resorts are way too touristy for us.", ["Resorts"]),
        ("Other than Italian, anything works.", ["Italian"]),
        ("As long as it's not another chain hotel.", ["chain hotel"]),
        ("We can do without a rental car.", ["rental car"]),
        ("Take the museum off the list.", ["museum"]),
        ("Avoid anything fried.", ["fried"]),
        ("We had a terrible time with Ryanair, never again.", ["Ryanair"]),
        ("老板不让用微信办公。", ["微信办公"]),
        ("我们试过钉钉，体验很差。", ["钉钉"]),
        ("香菜我吃不惯。", ["香菜"]),
        ("把甜点去掉。", ["甜点"]),
        ("我不吃辣。", ["辣"]),
        ("自驾不在考虑范围内。", ["自驾"]),
        ("豪华游轮就pass吧。", ["豪华游轮"]),
    ],
)
def test_everyday_rejections_are_read(message: str, options: list[str]) -> None:
    assert rejected(message) == options


def test_not_needed_extends_to_what_is_singled_out_and_is_never_a_requirement() -> None:
    analysis = analyse("I don't need a car, particularly an SUV.")
    assert [r.option for r in analysis.rejections] == ["car", "SUV"]
    assert analysis.requirements == []


def test_an_allergy_is_a_rejection_and_a_hard_requirement() -> None:
    analysis = analyse("Two of my guests are allergic to shellfish.")
    assert [r.option for r in analysis.rejections] == ["shellfish"]
    assert [r.text for r in analysis.requirements] == ["Two of my guests are allergic to shellfish"]


def test_the_reason_of_a_rejection_is_kept() -> None:
    (finding,) = analyse(
        "RabbitMQ is out too, because we had bad experiences with its clustering."
    ).rejections
    assert finding.reason == "We had bad experiences with its clustering"


def test_a_category_is_recorded_as_a_category_and_a_name_is_not() -> None:
    session = converse("No flat foods, please.", "Let's not use Kafka.")
    kinds = {r.option: r.category for r in session.rejected}
    assert kinds == {"flat foods": True, "Kafka": False}


@pytest.mark.parametrize(
    "message",
    [
        "Not sure about Kafka.",
        "Kafka might be too slow for this.",
        "Let's hold off on Kafka.",
        "We don't mind Redis.",
        "Python is not bad.",
        "I don't hate jazz.",
        "I'm not against buying used.",
        "No doubt the Sony lens is great.",
        "I don't mind TypeScript, not only plain JS.",
        "If you hate crowds, go early.",
        "Reject requests without a token.",
        "I have nothing against Go.",
        "防癌险我还不太确定要不要，再想想。",
        "他最近迷恐龙迷得不行。",
        "那家店特别难吃。",
        "I wouldn't mind a bit of hiking.",
        "价格不含早餐。",
        "Once we're done with the kitchen, we'll look at the bathroom.",
        "We're over budget already.",
        "Take the day off on Friday.",
        "Remove duplicates from the list.",
    ],
)
def test_hedges_and_negated_traps_reject_nothing(message: str) -> None:
    assert rejected(message) == []


# -- requirements -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I prefer places within a 5-minute walk.", ["I prefer places within a 5-minute walk"]),
        ("It has to fit in a small apartment.", ["Fit in a small apartment"]),
        (
            "Handle about 20k messages per second at peak, and we need at-least-once delivery.",
            ["Handle about 20k messages per second at peak", "We need at-least-once delivery"],
        ),
        ("Also consumers **must be idempotent**.", ["Consumers must be idempotent"]),
        ("Throwing a party for my daughter, she's turning 7.", None),
        ("最好是离地铁站步行五分钟以内的。", ["最好是离地铁站步行五分钟以内的"]),
        ("预算不超过8000元。", ["预算不超过8000元"]),
        ("My dad loves gardening and whisky.", ["My dad loves gardening and whisky"]),
        ("Something near Shinjuku would be ideal.", ["Something near Shinjuku would be ideal"]),
    ],
)
def test_needs_become_requirements(message: str, expected: list[str] | None) -> None:
    found = requirements(message)
    if expected is None:
        assert len(found) == 1 and "7" in found[0], found
    else:
        assert found == expected


def test_a_pasted_paragraph_is_neither_labelled_nor_cut() -> None:
    long_need = (
        "The service must keep every received file for at least ninety days so that the finance "
        "team can reconcile the monthly statements against the bank exports without asking "
        "engineering for help"
    )
    (text,) = requirements(f"Paragraph 1: {long_need}.")
    assert not text.startswith("Paragraph")
    assert text.endswith("without asking engineering for help")
    assert "…" not in text


def test_a_decision_sets_the_conclusion_and_is_no_requirement() -> None:
    analysis = analyse("Decision: let's go with NATS JetStream.")
    assert analysis.requirements == []
    assert "NATS JetStream" in analysis.trajectory


def test_a_verdict_on_an_option_is_no_requirement() -> None:
    assert requirements("It meets the ordering requirement, and it scales out easily.") == []


def test_a_fact_and_the_need_it_leads_to_are_both_kept() -> None:
    analysis = analyse("We are already all-in on AWS, so a managed service is preferable.")
    assert analysis.facts == ["We are already all-in on AWS"]
    assert [r.text for r in analysis.requirements] == ["A managed service is preferable"]


def test_a_confirmation_in_the_other_language_confirms_instead_of_duplicating() -> None:
    session = converse(
        "消息必须保留7天。", "Yes, 7-day retention is confirmed as a hard requirement."
    )
    assert [(r.id, r.status) for r in session.requirements] == [("R1", "confirmed")]


def test_a_bound_said_again_as_the_bound_confirms_it_without_a_yes() -> None:
    """ "30万 is the ceiling" after "学费不超过30万人民币": the amount in 万 is one amount
    whatever follows it (人民币 is no 人, "person"), and "is the ceiling" says it again."""
    session = converse("每年学费不超过30万人民币。", "30万 is the ceiling.")
    assert [(r.id, r.status) for r in session.requirements] == [("R1", "confirmed")]


def test_an_amount_in_wan_is_money_unless_a_unit_counts_something_else() -> None:
    from rcm_tui.core.heuristics.quantities import quantity_keys

    money = ("300000", "cny")
    assert money in quantity_keys("预算30万以内") and money in quantity_keys("30万人民币")
    assert money not in quantity_keys("大概要来30万人") and not quantity_keys("每天走3万步")


def test_a_restatement_in_the_other_language_is_the_same_requirement() -> None:
    session = converse("日志必须保留30天。", "Logs must be kept for 30 days.")
    assert len(session.requirements) == 1
    assert session.requirements[0].restated_turns == [2]


def test_the_pivot_is_recorded_at_the_turn_it_was_said() -> None:
    session = converse("We need a broker for the order pipeline.", "Actually, let's step back.")
    assert session.pivots == [2]


# -- the LLM path -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("I hate using taxis.", "taxis"),
        ("I hate using taxis.", "taxi"),
        ("Sushi isn't really my thing.", "sushi"),
        ("We tried Jenkins and it was a nightmare.", "Jenkins"),
        ("Any brand other than Viltrox is fine.", "Viltrox"),
        ("我妈很讨厌跟团。", "跟团"),
    ],
)
def test_a_correct_llm_rejection_is_grounded_not_discarded(message: str, option: str) -> None:
    answer = json.dumps({"rejections": [{"option": option, "reason": ""}]})
    analysis = parse_analysis(answer, message, LedgerSnapshot())
    assert [r.option for r in analysis.rejections] == [option]
    assert analysis.discarded == []


def test_an_llm_rejection_of_an_option_the_user_only_hedged_on_is_discarded() -> None:
    answer = json.dumps({"rejections": [{"option": "Sintra", "reason": ""}]})
    analysis = parse_analysis(answer, "Sintra might be a lot for a day trip.", LedgerSnapshot())
    assert analysis.rejections == []


# -- addressed ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "met"),
    [
        ("Kafka keeps messages for 7 days with retention.ms set to 604800000.", True),
        ("Messages must be retained for 7 days.", False),
        ("You need messages retained for 7 days.", False),
        ("Should messages be retained for 7 days?", False),
        ("JetStream keeps every stream for 7天 via max_age.", True),
    ],
)
def test_addressed_needs_evidence_not_an_echo(reply: str, met: bool) -> None:
    from rcm_tui.core.quality import addressed_requirements

    pending = [("R1", "Messages must be retained for 7 days", 1)]
    assert addressed_requirements(reply, pending) == (["R1"] if met else [])


def test_a_status_the_user_set_is_never_overridden_by_the_next_reply() -> None:
    from rcm_tui.core.ledger import mark_addressed, set_requirement_status

    session = converse("Messages must be retained for 7 days.")
    assert mark_addressed(session, ["R1"], 2) == ["R1 addressed"]
    set_requirement_status(session, "R1", "pending", 3)
    assert mark_addressed(session, ["R1"], 4) == []
    assert session.requirements[0].status == "pending"


def test_an_acknowledgement_before_the_substance_still_counts() -> None:
    from rcm_tui.core.quality import addressed_requirements

    pending = [("R1", "It must support strict ACID transactions across accounts", 1)]
    substance = "Understood: ACID across accounts points to a relational engine such as PostgreSQL."
    assert addressed_requirements(substance, pending) == ["R1"]
    assert addressed_requirements("Understood: strict ACID transactions.", pending) == []


@pytest.mark.parametrize(
    ("text", "rejected", "required"),
    [
        ("**No Kafka.**", "Kafka", None),
        ("**Must be idempotent**", None, "Must be idempotent"),
        ("**Budget**\nUnder $50 please.", None, "Under $50"),
    ],
)
def test_a_stressed_sentence_is_read_and_a_bold_title_is_not(
    text: str, rejected: str | None, required: str | None
) -> None:
    found = analyse_message(text, 1, LedgerSnapshot())
    options = [r.option for r in found.rejections]
    texts = [r.text for r in found.requirements]
    if rejected:
        assert options == [rejected]
    if required:
        assert any(required in t for t in texts), texts
    assert not any(t == "Budget" for t in texts)


def test_a_rejection_and_its_reason_are_not_repeated_as_facts() -> None:
    found = analyse_message(
        "It must handle 2,000 writes per second. Let's not use MongoDB, our compliance team "
        "wants SQL.",
        1,
        LedgerSnapshot(),
    )
    assert [r.option for r in found.rejections] == ["MongoDB"]
    assert not any("MongoDB" in fact for fact in found.facts), found.facts
    lowered = [fact.casefold() for fact in found.facts]
    assert len(lowered) == len({f for f in lowered if not any(f in g for g in lowered if g != f)})

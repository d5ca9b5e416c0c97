"""Everyday ways of turning something down that the ledger missed, found where the guard's
end-to-end replay lost a rejection the user had plainly stated (issue 12, session 24):
a habit given up ("I've stopped flying", "啤酒也戒了"), an activity refused for good ("I'm not
cycling anywhere"), a plan agreed ("我们家说好不放鞭炮"), any verb of doing a thing in
"今年不打麻将了", slang verdicts ("Escape rooms suck", "Hard no on Vegas"), a doctor's "no
seafood" said in English inside Chinese."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _analysis(text: str):  # type: ignore[no-untyped-def]
    return analyse_message(text, 2, LedgerSnapshot())


def _rejected(text: str) -> list[str]:
    return [r.option for r in _analysis(text).rejections]


@pytest.mark.parametrize(
    ("text", "option"),
    [
        # English: a habit given up, an activity refused for good.
        ("I've stopped flying for climate reasons.", "flying"),
        ("We gave up on Airbnb after the last trip.", "Airbnb"),
        ("I stopped eating meat.", "meat"),
        ("I'm not cycling anywhere, I'm terrified of the bike lanes.", "cycling"),
        ("I'm not flying again.", "flying"),
        # "can't deal with" was in the aversion verbs but its word was missing from the
        # pre-filter, so the pattern never ran.
        (
            "can't deal with spinning reels anymore — line twist every single trip.",
            "spinning reels",
        ),
        ("Not LastPass, after the breach I don't trust it.", "LastPass"),
        ("Not Zoom, please.", "Zoom"),
        ("The doctor said no seafood.", "seafood"),
        ("Hard no on Vegas.", "Vegas"),
        ("Nope to the hot tub.", "hot tub"),
        ("Zero interest in golf.", "golf"),
        ("I'd never go on a cruise.", "cruise"),
        ("Escape rooms suck.", "Escape rooms"),
        ("Brunch is so overrated.", "Brunch"),
        ("Crocs? Over my dead body.", "Crocs"),
        ("I'm trying to stay off sugar.", "sugar"),
        ("We've had it with Comcast.", "Comcast"),
        ("I've sworn off fast food.", "fast food"),
        ("We're boycotting Amazon.", "Amazon"),
        ("Keep the kids away from sugary snacks.", "sugary snacks"),
        ("Cats make me sneeze like crazy.", "Cats"),
        ("Absolutely no peanuts, he's allergic.", "peanuts"),
        ("The museum, skip it.", "museum"),
        # The thing tried, not the part of it complained about.
        ("We tried HelloFresh, the packaging was ridiculous.", "HelloFresh"),
        ("We're over Marvel movies.", "Marvel movies"),
        ("Kubernetes feels like overkill.", "Kubernetes"),
        ("I'd steer away from microservices.", "microservices"),
        ("Our security team will never approve Dropbox.", "Dropbox"),
        ("That rules out AWS.", "AWS"),
        ("Jira is a hard sell with this team.", "Jira"),
        ("We can live without Redis.", "Redis"),
        ("We don't want to be locked into Firebase.", "Firebase"),
        ("A dog is not practical in our flat.", "dog"),
        ("Carpet is impractical with two dogs.", "Carpet"),
        # Found in dev15 (written after the forms above): a typo in "allergic", a topic then
        # "forget it", "ok so not X then", "omg no X", a pronoun verdict after a clause whose
        # subject is the option ("X seats about 12 so that's a non-starter").
        ("shes alergic to chicken, its in everything", "chicken"),
        ("ok the dry stuff forget it entirely btw", "dry"),
        ("Ok so not the Picanto then, better something more stable.", "Picanto"),
        ("omg no jewellery, she's got a whole drawer of stuff", "jewellery"),
        ("And Menu Gordon Jones seats about 12 so that's a non-starter.", "Menu Gordon Jones"),
        # Chinese: any verb of doing the thing, a plan agreed, a habit quit.
        ("今年不打麻将了，我爸妈去年打麻将一坐一整天。", "麻将"),
        ("我們家說好不放鞭炮，隔壁有剛出生的小嬰兒。", "鞭炮"),
        ("不走高速了", "高速"),
        ("我老公查出来痛风了，医生说 no seafood，啤酒也戒了", "seafood"),
        ("我老公查出来痛风了，医生说 no seafood，啤酒也戒了", "啤酒"),
        ("上次住老公房被物业坑惨了，这次不考虑老公房。", "老公房"),
        ("携程已经拉黑了", "携程"),
        ("不接受异地", "异地"),
        ("宜家我是不会选的", "宜家"),
        ("踩过链家的雷，不想再找中介", "链家"),
        ("踩过链家的雷，不想再找中介", "中介"),
        ("打死不去横店", "横店"),
        ("跟健身房说拜拜了", "健身房"),
        ("别墅区是雷区", "别墅区"),
        ("我妈不许我养狗狗", "狗狗"),
        # dev15: Cantonese after a spoken "but", an experiencer 我們家, an idiom, English verbs.
        ("將軍澳ok 但日出康城就免啦 太入", "日出康城"),
        ("安養院我們家是絕對不考慮", "安養院"),
        ("钢琴就饶了我吧 我小时候被按着练了八年", "钢琴"),
        ("那 Seville 就 drop 了 早上 6 点 no way", "Seville"),
        ("说实话我对网红打卡点无感", "网红打卡点"),
        ("宝宝还小，长途飞机不太现实", "长途飞机"),
        ("我是真不想再折腾装修了", "装修"),
        ("我们不差这一天，不用赶红眼航班", "红眼航班"),
    ],
)
def test_an_everyday_refusal_is_a_rejection(text: str, option: str) -> None:
    assert option in _rejected(text)


@pytest.mark.parametrize(
    "text",
    [
        "I stopped by the office.",
        "I'm not going anywhere.",
        "I'm not looking anymore, we booked it.",
        "I'd never heard of Tahoe.",
        "Not sure yet.",
        "That sucks.",
        "no problem，我再看看",
        "我们不打算买车了",  # 打算 is "plan", not 打 + a thing
        "我不放心了",
        "我们想要别墅",  # 别墅 is a villa, not 别 "don't"
        "我不会开车",  # cannot, nothing is refused
        "So no, the booking is for Friday.",
        "We're over budget.",
        "That doesn't rule out AWS.",
        "I can't live without coffee.",
        "That sounds like a plan.",
        "I need to forget it.",
        "Keep the pills away from the kids.",
        "Let's skip that.",  # found reviewing the change: "Let's" is no topic
        "I stopped the car at the lights.",  # "stopped" gives up only a doing (-ing)
        "I have stopped counting.",
        "ok so not sure then",
        "And no worries if not.",
    ],
)
def test_look_alikes_turn_nothing_down(text: str) -> None:
    assert _rejected(text) == []


def test_the_option_runs_on_to_the_passive() -> None:
    """'住老公房被物业坑惨了': the flat type, not the first two characters ('老公', husband)."""
    assert _rejected("上次住老公房被物业坑惨了") == ["老公房"]


def test_a_vow_needs_its_verb() -> None:
    """'绝对不能有芒果' is a limit on the menu: 芒果 is refused, '能有芒果' is no option."""
    assert "能有芒果" not in _rejected("新娘对芒果过敏，菜单里绝对不能有芒果。")
    assert _rejected("打死不去横店") == ["横店"]


def test_a_generic_noun_is_no_option() -> None:
    """'那个牌子我是不会再买了' names no brand: the brand is what is named later."""
    assert "牌子" not in _rejected("那个牌子我是不会再买了。")


def test_quotes_mark_a_word_and_cut_nothing() -> None:
    """"even the 'natural' stuff … makes me break out": no option cut at the quote."""
    rejected = _rejected(
        "heads up I'm allergic to fragrance. even the 'natural' stuff with essential oils "
        "makes me break out in hives"
    )
    assert "fragrance" in rejected
    assert not any("'" in option or option.startswith("even") for option in rejected)


def test_an_adverb_is_no_topic() -> None:
    """亦 ("also", written register) opens the verdict; it is not what is turned down."""
    assert "亦" not in _rejected("BOSS直聘以基层岗位为主，亦不在考虑范围内。")

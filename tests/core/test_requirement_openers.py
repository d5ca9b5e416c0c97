"""Chinese clauses that open the next one, and a day's routine, state no requirement
(session 19, from the false requirements of the tuning splits): "另需说明的是，…",
"想请问一下，…", "出于合规要求，…" lead to what is needed; "早上喝豆浆", "下班到家都八点了"
tell how the days go. The need said after an opener, and a limit on a time, stay
requirements. Also: a reason typed in lower case, and what the group planned for turns down."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot


def _requirements(text: str) -> list[str]:
    return [r.text for r in analyse_message(text, 1, LedgerSnapshot()).requirements]


@pytest.mark.parametrize(("text", "kept"), [
    ("另需说明的是，数据必须存在境内。", ["数据必须存在境内"]),
    ("需要注意的是，预算不能超过五千。", ["预算不能超过五千"]),
    (
        "欸想请问一下，洗牙一定要全麻吗？我家猫有心杂音，麻醉前必须做心脏超声。",
        ["麻醉前必须做心脏超声"],
    ),
    ("出于合规要求，日志至少保留一年。", ["日志至少保留一年"]),
])
def test_an_opener_is_no_requirement_and_the_need_after_it_is(text: str, kept: list[str]) -> None:
    assert _requirements(text) == kept


@pytest.mark.parametrize("text", [
    "每天中午在公司点外卖，晚上自己做，早上喝豆浆。",
    "下班到家都八点了。",
    "这三周天天水煮西兰花。",
])
def test_a_days_routine_is_no_requirement(text: str) -> None:
    assert _requirements(text) == []


@pytest.mark.parametrize(("text", "kept"), [
    ("晚上十点以后不能有噪音。", "晚上十点以后不能有噪音"),
    ("晚上要能接送。", "晚上要能接送"),
    ("早上九点前到公司。", "早上九点前到公司"),
    ("周末都有空。", "周末都有空"),
])
def test_a_time_with_a_limit_or_a_need_stays_a_requirement(text: str, kept: str) -> None:
    assert _requirements(text) == [kept]


def _rejected(text: str) -> list[str]:
    return [r.option for r in analyse_message(text, 1, LedgerSnapshot()).rejections]


def test_a_reason_sentence_typed_in_lower_case_is_no_requirement() -> None:
    # The reason is kept capitalised ("Everyone hates them"); the sentence it came from was
    # typed in lower case and still counts as that reason.
    text = "we are killing daily standups. everyone hates them"
    assert _rejected(text) == ["daily standups"]
    assert _requirements(text) == []


@pytest.mark.parametrize(("text", "option"), [
    ("The team hates Jira.", "Jira"),
    ("The guests can't stand loud music.", "loud music"),
])
def test_the_group_planned_for_turns_things_down(text: str, option: str) -> None:
    assert _rejected(text) == [option]
    assert _requirements(text) == []


@pytest.mark.parametrize("text", ["Everyone loves the pool.", "The team loves Jira."])
def test_a_liking_said_of_others_is_no_short_spec(text: str) -> None:
    assert _requirements(text) == []
    assert _rejected(text) == []


@pytest.mark.parametrize("text", ["Quick one", "God bless", "LETS GO", "Thank uuu 🎉", "lets go"])
def test_openers_and_cheers_said_alone_are_no_requirements(text: str) -> None:
    assert _requirements(text) == []


def test_a_daily_distance_is_a_constraint_not_a_routine() -> None:
    assert "每天通勤来回60公里" in _requirements("预算8w 二手代步 每天通勤来回60公里 推荐下")


def test_a_quick_one_before_a_colon_is_left_out_of_the_requirement() -> None:
    assert _requirements("Quick one: we need a venue for 40.") == ["We need a venue for 40"]

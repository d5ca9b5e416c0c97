"""The deterministic analyser on Chinese phrasings: the same rules, Chinese cues."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import (
    analyse_message,
    find_readvocacy,
    premature_markers,
    restates,
    text_similarity,
)
from rcm_tui.core.ledger_snapshot import LedgerSnapshot, RejectedItem


def analyse(text: str, **view: object):
    return analyse_message(text, 4, LedgerSnapshot(**view))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("message", "option", "reason"),
    [
        ("不要用MongoDB，因为我们需要强一致性的事务。", "MongoDB", "我们需要强一致性的事务"),
        ("我们不用Redis，运维成本太高。", "Redis", "运维成本太高"),
        ("放弃微服务吧，团队只有五个人。", "微服务", "团队只有五个人"),
        ("别用python-magic，服务器上装不了libmagic。", "python-magic", "服务器上装不了libmagic"),
        ("排除Kafka。", "Kafka", ""),
        ("不考虑GraphQL。", "GraphQL", ""),
        ("Oracle不行，授权费太贵了。", "Oracle", "授权费太贵了"),
        ("合规要求强一致性，所以文档数据库不行。", "文档数据库", "合规要求强一致性"),
        ("不用Redis，用PostgreSQL。", "Redis", ""),
    ],
)
def test_chinese_rejections(message: str, option: str, reason: str) -> None:
    assert [(f.option, f.reason) for f in analyse(message).rejections] == [(option, reason)]


@pytest.mark.parametrize(
    "message",
    [
        "不仅PostgreSQL而且Redis都在用。",
        "Docker没问题。",
        "我不知道Kafka是否合适。",
        "不用担心性能。",
        "不要忘记记录日志。",
        "不要超过20MB。",
        "我们应该不用Redis吗？",
        "这样不行。",
    ],
)
def test_chinese_traps_reject_nothing(message: str) -> None:
    assert analyse(message).rejections == []


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("发票必须保存10年，因为税法要求。", ["发票必须保存10年"]),
        ("需要支持单点登录。", ["需要支持单点登录"]),
        ("只支持PNG和JPEG。", ["只支持PNG和JPEG"]),
        ("另外还要写单元测试。", ["还要写单元测试"]),
        ("每秒大约2000次写入。", ["每秒大约2000次写入"]),
        ("不要忘记记录日志。", ["记录日志"]),
        ("不要超过20MB。", ["不要超过20MB"]),
        ("团队有5个人。", ["团队5人"]),
        ("接口要支持分页。", ["接口要支持分页"]),
        # A choice sets the conclusion, it is no requirement (issue 12; was a requirement).
        ("不用Redis，用PostgreSQL。", []),
        ("数据库用MySQL吧。", []),
        ("不要用MongoDB，因为我们需要强一致性的事务。", ["我们需要强一致性的事务"]),
    ],
)
def test_chinese_requirements(message: str, expected: list[str]) -> None:
    assert [r.text for r in analyse(message).requirements] == expected


@pytest.mark.parametrize(
    "message",
    [
        "怎么处理分片？",
        "Redis的持久化是怎么做的？",
        "我不知道Kafka是否合适。",
        "你好",
        "我要问一个问题。",
    ],
)
def test_chinese_questions_and_chatter_are_not_requirements(message: str) -> None:
    assert analyse(message).requirements == []


def test_chinese_question_is_an_open_question() -> None:
    assert analyse("怎么处理分片？").questions == ["怎么处理分片？"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("建议用Redis做会话存储。", ["Redis"]),
        ("可以考虑Redis。", ["Redis"]),
        ("把会话迁移到Redis，让TTL自动过期。", ["Redis"]),
        ("Redis更好。", ["Redis"]),
        ("既然不用Redis，我们把会话放在PostgreSQL里。", []),
        ("除了Redis，其他都可以。", []),
        ("Redis已经排除了，所以用PostgreSQL。", []),
        ("我们不使用Redis，而是用数据库表。", []),
        ("Redis是一个内存数据库。", []),
    ],
)
def test_chinese_readvocacy(reply: str, expected: list[str]) -> None:
    assert find_readvocacy(reply, ["Redis"]) == expected


@pytest.mark.parametrize("message", ["重新考虑Redis吧。", "还是用Redis吧。"])
def test_chinese_reopening(message: str) -> None:
    view = {"reopenable": ["Redis"], "rejected": [RejectedItem("Redis")]}
    assert analyse(message, **view).reopened == ["Redis"]


def test_chinese_pivot_and_choice() -> None:
    analysis = analyse("换个思路，我们用单体架构。")
    assert analysis.pivot is True
    # The choice is the new direction, not a requirement (issue 12; was a requirement).
    assert analysis.requirements == []
    assert analysis.trajectory == "我们用单体架构"
    assert analysis.dialog_state == "problem_solving"


def test_chinese_topic_shift() -> None:
    recent = ["订单表怎么分片？", "发票表呢？"]
    assert analyse("换个话题，Neovim的状态栏怎么配置？", recent_user_messages=recent).topic_shift
    assert not analyse("换个话题，发票表怎么分片？", recent_user_messages=recent).topic_shift


@pytest.mark.parametrize(
    ("message", "state"), [("你好", "greeting"), ("谢谢，就这样。", "closing")]
)
def test_chinese_dialog_state(message: str, state: str) -> None:
    assert analyse(message).dialog_state == state


def test_chinese_full_solution_marker() -> None:
    assert premature_markers("下面是完整代码：", open_requirement_count=2, turn=5) == [
        'full-solution phrase "完整代码"'
    ]


def test_chinese_similarity_uses_character_bigrams() -> None:
    assert text_similarity("会话必须在30分钟后过期", "会话30分钟后必须过期") >= 0.7
    assert text_similarity("会话必须在30分钟后过期", "记录每次登录") == 0.0
    assert restates("会话30分钟后必须过期", "会话必须在30分钟后过期")
    assert not restates("会话60分钟后必须过期", "会话必须在30分钟后过期")

"""The heuristic ledger alone meets the scenario targets that score-scenarios checks later."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .scenario_harness import SCENARIO_DIR, SCORER, replay, score_dir

pytestmark = pytest.mark.skipif(
    not (SCENARIO_DIR.is_dir() and SCORER.is_file()),
    reason=f"shared scenarios not found at {SCENARIO_DIR}",
)


@pytest.fixture(scope="module")
def scored() -> tuple[dict[str, dict[str, Any]], dict[str, Any]]:
    return score_dir()


def test_every_scenario_was_scored(scored: tuple[dict[str, Any], dict[str, Any]]) -> None:
    rows, _ = scored
    assert len(rows) == len(list(SCENARIO_DIR.glob("*.expect.json")))


def test_rejections_are_complete_and_precise(scored: tuple[dict[str, Any], dict[str, Any]]) -> None:
    rows, summary = scored
    assert summary["rejection_recall"] == 1.0, rows
    assert summary["rejection_precision"] >= 0.9, rows
    assert {name: r["false_rejections"] for name, r in rows.items() if r["false_rejections"]} == {}


def test_requirements_are_found_without_chatter(
    scored: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    rows, summary = scored
    assert summary["requirement_recall"] >= 0.8, rows
    assert summary["false_requirements"] <= 2, rows


def test_readvocacy_is_caught_and_rejected_mentions_are_not(
    scored: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    rows, summary = scored
    assert summary["readvocacy_recall"] == 1.0, rows
    assert summary["readvocacy_false_turns"] == 0, rows


def test_the_category_rejection_merges_into_the_named_one() -> None:
    session, _ = replay(SCENARIO_DIR / "db-selection.jsonl")
    (entry,) = session.active_rejections()
    assert entry.option == "MongoDB"
    assert "document store" in entry.reason


# Conversations written for this test, in other domains and phrasings than the shared scenarios,
# so the shared four are not the only evidence that the rules generalise. Each turn is
# (user, scripted assistant reply); the expectations use the score-scenarios format.
OWN_SCENARIOS: dict[str, tuple[list[tuple[str, str]], dict[str, Any]]] = {
    "photo-sync": (
        [
            (
                "Hey! I want to build a CLI that syncs photos to S3. Where should I begin?",
                (
                    "Which language are you comfortable with, and how many photos are "
                    "we talking about?"
                ),
            ),
            (
                "Go. Roughly 200k photos, about 1.5 TB in total.",
                "The AWS SDK for Go v2 gives you multipart uploads and retries out of the box.",
            ),
            (
                "What about resumable uploads?",
                "Multipart uploads can be resumed by listing the parts already stored...",
            ),
            (
                (
                    "Let's not pull in the AWS SDK, it bloats the binary. We'll sign "
                    "requests by hand."
                ),
                "Then a minimal SigV4 signer over net/http it is; no AWS SDK.",
            ),
            (
                "It must also run on Windows.",
                "Go cross-compiles to Windows; keep paths with filepath.Join.",
            ),
            (
                "Could you show the upload loop?",
                "Here is the loop; honestly the AWS SDK would make retries much easier.",
            ),
            (
                "Hashes should be checked before upload so nothing is sent twice.",
                (
                    "Compute SHA-256 per file and compare with the ETag stored in a "
                    "local index, without the AWS SDK."
                ),
            ),
            (
                "Thanks, that's all for now.",
                "Glad to help.",
            ),
        ],
        {
            "rejected": [["AWS SDK"]],
            "not_rejected": ["Go", "S3", "Windows", "SigV4"],
            "requirements_any": [
                ["Go"],
                ["200k", "1.5 TB"],
                ["Windows"],
                ["Hashes", "nothing is sent twice"],
            ],
            "non_requirements": [
                "Where should I begin",
                "resumable uploads",
                "show the upload loop",
                "that's all",
            ],
            "readvocated": [{"turn": 6, "options": ["AWS SDK"]}],
            "not_readvocated_turns": [4, 7],
        },
    ),
    "reimburse-zh": (
        [
            (
                "我们要做一个内部的报销系统，团队有3个人。从哪里开始？",
                "先确定技术栈：你们熟悉哪种数据库？要不要拆成微服务？",
            ),
            (
                "数据库用MySQL吧。",
                "好的，MySQL。可以按审批、报销单、用户拆成三个微服务。",
            ),
            (
                "审批流必须支持多级审批。",
                "多级审批可以用状态机实现……",
            ),
            (
                "不要用微服务，太复杂了，三个人维护不过来。",
                "好的，不用微服务，采用单体架构，按模块划分。",
            ),
            (
                "报表怎么做？",
                "可以考虑把报表拆成独立的微服务，单独部署。",
            ),
            (
                "另外，附件最大10MB。",
                "上传时校验大小，超过10MB直接拒绝。既然不用微服务，附件处理也放在单体里。",
            ),
        ],
        {
            "rejected": [["微服务"]],
            "not_rejected": ["MySQL", "单体"],
            # The choice of MySQL sets the conclusion (issue 12), it is no requirement.
            "requirements_any": [["3个人", "3人"], ["多级审批"], ["10MB"]],
            "non_requirements": ["从哪里开始", "报表怎么做"],
            "readvocated": [{"turn": 5, "options": ["微服务"]}],
            "not_readvocated_turns": [4, 6],
        },
    ),
    "search-pivot": (
        [
            (
                "We need site search for a docs portal with about 40k pages.",
                "Elasticsearch is the usual pick; would you like a cluster sketch?",
            ),
            (
                "Sure, sketch it.",
                "Three nodes, one index per language, a nightly reindex job...",
            ),
            (
                "How much would that cost per month?",
                "Roughly $400/month on managed hosting...",
            ),
            (
                (
                    "On second thought, Elasticsearch is overkill for us. Postgres "
                    "full-text search is good enough."
                ),
                "Agreed: tsvector columns with GIN indexes in the existing Postgres.",
            ),
            (
                "Results have to be ranked by recency as well as relevance.",
                "Combine ts_rank with a decay on updated_at...",
            ),
            (
                "Should we not use a separate search service at all then?",
                (
                    "Right, no separate service: Postgres handles it; Elasticsearch "
                    "stays out of the picture."
                ),
            ),
            (
                "Also, no third-party analytics on the search page.",
                "Fine, I will log queries to our own table instead.",
            ),
        ],
        {
            "rejected": [["Elasticsearch"], ["third-party analytics", "analytics"]],
            "not_rejected": ["Postgres", "search service"],
            # Choosing Postgres full-text sets the conclusion (issue 12), not a requirement.
            "requirements_any": [["40k pages"], ["recency"]],
            "non_requirements": ["sketch it", "cost per month", "separate search service"],
            "readvocated": [],
            "not_readvocated_turns": [4, 6],
        },
    ),
    "api-gateway": (
        [
            (
                (
                    "We're splitting a Rails monolith's public API behind a gateway. "
                    "Traffic is about 3k requests per second."
                ),
                "Kong, Envoy or AWS API Gateway are the common choices. Do you run on AWS?",
            ),
            (
                (
                    "Yes, everything is on AWS. But AWS API Gateway is off the table — "
                    "the per-request pricing kills us at this volume."
                ),
                "Understood. Envoy with a control plane like Gloo, or Kong on ECS.",
            ),
            (
                "What's the operational burden of Envoy?",
                "You maintain the xDS configuration yourself unless you add a control plane...",
            ),
            (
                "Kong it is. JWT validation has to happen at the gateway.",
                "Kong's JWT plugin validates tokens before requests reach Rails.",
            ),
            (
                "Can rate limits be per API key?",
                (
                    "Yes; alternatively AWS API Gateway usage plans do this natively "
                    "and would be the simplest route."
                ),
            ),
            (
                "Please keep the config in Git, no clicking around in admin UIs.",
                (
                    "Use decK to sync Kong config from Git; AWS API Gateway stays out "
                    "since it was ruled out."
                ),
            ),
        ],
        {
            "rejected": [["AWS API Gateway", "API Gateway"]],
            "not_rejected": ["Kong", "Envoy", "Rails", "Git"],
            # Choosing Kong sets the conclusion (issue 12), it is no requirement.
            "requirements_any": [["3k requests"], ["JWT"], ["Git"]],
            "non_requirements": ["operational burden", "rate limits be per API key"],
            "readvocated": [{"turn": 5, "options": ["AWS API Gateway"]}],
            "not_readvocated_turns": [2, 6],
        },
    ),
    "cache-layer": (
        [
            (
                "Our product pages are slow, p95 is 2.3 s. Goal: under 500 ms.",
                "Where is the time going — database, rendering, or third-party calls?",
            ),
            (
                "Mostly the database. We can't add new infrastructure this quarter.",
                "Then no new cache servers; start with query optimisation and an in-process LRU.",
            ),
            (
                "Why not Varnish?",
                (
                    "Varnish would be a new piece of infrastructure, which you can't "
                    "add this quarter."
                ),
            ),
            (
                "Right. And forget GraphQL batching, the frontend team won't touch it.",
                (
                    "Noted, GraphQL batching is out. Add the missing composite index on"
                    " (product_id, locale) first."
                ),
            ),
            (
                "How big should the LRU be?",
                "About 256 MB per instance; unlike GraphQL batching it needs no frontend work.",
            ),
            (
                "Cache entries must expire within 60 seconds of a price change.",
                (
                    "Invalidate on the price-change event; a Varnish tier with purge "
                    "would be ideal here, though."
                ),
            ),
        ],
        {
            "rejected": [["GraphQL batching", "GraphQL"]],
            "not_rejected": ["LRU", "index", "Varnish"],
            "requirements_any": [["500 ms"], ["infrastructure"], ["60 seconds"]],
            "non_requirements": ["Why not Varnish", "How big should the LRU"],
            "readvocated": [],
            "not_readvocated_turns": [4, 5],
        },
    ),
    "etl-zh": (
        [
            (
                "我们需要每天从MySQL同步数据到数据仓库，数据量大约每天5000万行。",
                "可以用Airflow调度，或者用Kafka做实时同步。你们需要实时吗？",
            ),
            (
                "不需要实时，T+1就够了。Kafka就算了，没人会运维。",
                "好的，不用Kafka。用Airflow每天跑一次批量任务。",
            ),
            (
                "任务失败要自动重试三次。",
                "在DAG里设置retries=3。",
            ),
            (
                "数据仓库用哪个比较好？",
                "ClickHouse或者BigQuery都可以。",
            ),
            (
                "BigQuery吧，我们已经在用GCP。",
                "好的。如果以后要实时，还是建议上Kafka。",
            ),
            (
                "敏感字段必须脱敏。",
                "在同步前对手机号和身份证做哈希，不引入Kafka。",
            ),
        ],
        {
            "rejected": [["Kafka"]],
            "not_rejected": ["Airflow", "BigQuery", "MySQL", "ClickHouse"],
            "requirements_any": [["5000万"], ["重试"], ["BigQuery"], ["脱敏"]],
            "non_requirements": ["用哪个比较好"],
            "readvocated": [{"turn": 5, "options": ["Kafka"]}],
            "not_readvocated_turns": [2, 6],
        },
    ),
}


def test_own_scenarios_meet_the_same_targets(tmp_path: Path) -> None:
    for name, (turns, expect) in OWN_SCENARIOS.items():
        lines = [json.dumps({"user": u, "assistant": a}, ensure_ascii=False) for u, a in turns]
        (tmp_path / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (tmp_path / f"{name}.expect.json").write_text(json.dumps(expect), encoding="utf-8")
    rows, summary = score_dir(tmp_path)
    assert len(rows) == len(OWN_SCENARIOS)
    assert summary == {
        "rejection_recall": 1.0,
        "rejection_precision": 1.0,
        "false_rejections": 0,
        "requirement_recall": 1.0,
        "false_requirements": 0,
        "readvocacy_recall": 1.0,
        "readvocacy_false_turns": 0,
    }, rows

"""Generalisation gaps of the analyser: several rejections in one sentence, multi-word names
with lowercase connectors, first-person facts vs decisions, pronoun rejections of the last
proposal, conjoined requirements, and re-advocacy by "let's go back to X".

Every case is phrased here, not copied from the scenarios; each rule has traps beside it.
"""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import analyse_message, find_readvocacy
from rcm_tui.core.ledger_snapshot import LedgerSnapshot, RejectedItem


def analyse(text: str, **view: object):
    return analyse_message(text, 5, LedgerSnapshot(**view))  # type: ignore[arg-type]


def rejections(text: str, **view: object) -> list[tuple[str, str]]:
    return [(f.option, f.reason) for f in analyse(text, **view).rejections]


def options(text: str, **view: object) -> list[str]:
    return [f.option for f in analyse(text, **view).rejections]


# -- 1. several rejections in one sentence ------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "No Redis, no Memcached, because they are stateful.",
            [("Redis", "They are stateful"), ("Memcached", "They are stateful")],
        ),
        (
            "No Kafka, no Pulsar, since nobody here can operate a cluster.",
            [
                ("Kafka", "Nobody here can operate a cluster"),
                ("Pulsar", "Nobody here can operate a cluster"),
            ],
        ),
        (
            "Forget Angular, forget Ember, the team only knows React.",
            [("Angular", "The team only knows React"), ("Ember", "The team only knows React")],
        ),
        (
            "No Oracle because of licensing, no DB2 because nobody knows it.",
            [("Oracle", "Licensing"), ("DB2", "Nobody knows it")],
        ),
        ("No Redis and no Memcached.", [("Redis", ""), ("Memcached", "")]),
        ("No Jenkins and no Bamboo, please.", [("Jenkins", ""), ("Bamboo", "")]),
        ("Forget Redis, forget Memcached too.", [("Redis", ""), ("Memcached", "")]),
        ("Drop Celery, drop RQ as well.", [("Celery", ""), ("RQ", "")]),
        ("Neither Kafka nor RabbitMQ.", [("Kafka", ""), ("RabbitMQ", "")]),
        ("We want neither Vue nor Svelte.", [("Vue", ""), ("Svelte", "")]),
        ("Not Kafka, not RabbitMQ either.", [("Kafka", ""), ("RabbitMQ", "")]),
        ("Definitely not Mongo, not Couchbase either.", [("Mongo", ""), ("Couchbase", "")]),
        ("Drop both Kafka and RabbitMQ.", [("Kafka", ""), ("RabbitMQ", "")]),
        ("Let's avoid both Terraform and Pulumi.", [("Terraform", ""), ("Pulumi", "")]),
        ("Don't use Redis, don't use Memcached either.", [("Redis", ""), ("Memcached", "")]),
        ("Don't use either Jest or Mocha.", [("Jest", ""), ("Mocha", "")]),
    ],
)
def test_every_option_of_a_rejection_list_is_rejected(
    message: str, expected: list[tuple[str, str]]
) -> None:
    assert rejections(message) == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("不要用Redis，也不要用Memcached", ["Redis", "Memcached"]),
        ("既不用Redis也不用Memcached。", ["Redis", "Memcached"]),
        ("Redis和Memcached都不要。", ["Redis", "Memcached"]),
        ("不用Kafka和RabbitMQ。", ["Kafka", "RabbitMQ"]),
        ("放弃Angular，也放弃Ember。", ["Angular", "Ember"]),
    ],
)
def test_chinese_rejection_lists(message: str, expected: list[str]) -> None:
    assert options(message) == expected


def test_a_shared_chinese_reason_applies_to_the_last_option_that_states_it() -> None:
    found = rejections("不要Redis，也不要Memcached，因为它们有状态。")
    assert [o for o, _ in found] == ["Redis", "Memcached"]
    assert found[1][1] == "它们有状态"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # one rejection beside a choice or a statement: the list rule must not invent a second
        ("Go with Postgres, not Mongo.", ["Mongo"]),
        ("No Redis, we keep sessions in Postgres.", ["Redis"]),
        ("Drop Celery, we can schedule jobs with cron.", ["Celery"]),
        ("No Redis, no problem.", ["Redis"]),
        ("Neither option is great.", []),
        ("Neither of us knows Kafka.", []),
        ("If we use Postgres, no Redis.", []),
    ],
)
def test_rejection_list_traps(message: str, expected: list[str]) -> None:
    assert options(message) == expected


# -- 2. names with lowercase connectors ----------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("Ruby on Rails is off the table.", "Ruby on Rails"),
        ("Don't use Ruby on Rails, it's too slow for us.", "Ruby on Rails"),
        ("We decided against Infrastructure as Code for now.", "Infrastructure as Code"),
        ("No Power BI.", "Power BI"),
        ("SQL Server is not an option.", "SQL Server"),
        ("Let's not use Google Cloud Storage.", "Google Cloud Storage"),
        ("Forget Bank of America's API.", "Bank of America's API"),
        ("Avoid Visual Basic for Applications.", "Visual Basic for Applications"),
    ],
)
def test_capitalised_names_joined_by_connectors_stay_whole(message: str, option: str) -> None:
    assert options(message) == [option]


@pytest.mark.parametrize(
    ("message", "option"),
    [
        # a connector followed by a lowercase word is where the name ends
        ("Don't use Django for the admin panel.", "Django"),
        ("No Redis on the hot path.", "Redis"),
        ("Forget Kafka as a queue, it's overkill.", "Kafka"),
        ("Drop Kafka and RabbitMQ.", "Kafka"),
    ],
)
def test_a_lowercase_word_after_a_connector_ends_the_name(message: str, option: str) -> None:
    assert options(message)[0] == option


# -- 3. first-person facts vs decisions ----------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "We don't use Windows servers.",
        "I don't use Docker on my laptop.",
        "Our team doesn't use Jira.",
        "We do not rely on Kubernetes.",
        "We currently don't use any ORM.",
    ],
)
def test_a_first_person_habit_is_a_fact_not_a_rejection(message: str) -> None:
    analysis = analyse(message)
    assert analysis.rejections == []
    assert analysis.facts, analysis
    assert analysis.requirements == []


@pytest.mark.parametrize(
    ("message", "option"),
    [
        ("We don't want to use Windows servers.", "Windows servers"),
        ("Let's not use Windows servers.", "Windows servers"),
        ("We won't use Windows servers.", "Windows servers"),
        ("We're not going to use Jira.", "Jira"),
        ("I don't want Docker on the build hosts.", "Docker"),
        ("Don't use Jira.", "Jira"),
        # a stopped practice: the decision to leave it still stands (see heuristics/rejections.py)
        ("We don't use Jenkins anymore.", "Jenkins"),
        ("We do not use MySQL any more.", "MySQL"),
        ("We no longer use Heroku.", "Heroku"),
    ],
)
def test_a_first_person_decision_is_a_rejection(message: str, option: str) -> None:
    assert options(message) == [option]


def test_chinese_did_not_use_is_a_fact() -> None:
    analysis = analyse("我们没有用Windows服务器。")
    assert analysis.rejections == []
    assert analysis.facts


# -- 4. pronoun and short rejections of the last proposal --------------------------------------

ONE_PROPOSAL = "Redis is the usual choice for session storage; it handles expiry for you."
TWO_PROPOSALS = "Redis is the usual choice, but Memcached would also work well here."
QUESTION_ONLY = "Do you already run any cache, such as Redis, in production?"


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("No way.", ""),
        ("Not that.", ""),
        ("Not that one, please.", ""),
        ("Hmm, no — too heavy.", "Too heavy"),
        ("Nope, that's overkill for us.", "That's overkill for us"),
        ("Nah, too much operational overhead.", "Too much operational overhead"),
        ("Definitely not.", ""),
        ("Let's not use that.", ""),
        ("I don't want that.", ""),
        ("That's off the table.", ""),
        ("我们不用那个。", ""),
        ("那个不行，太重了。", "太重了"),
        ("不要这个。", ""),
    ],
)
def test_a_pronoun_rejection_rejects_the_single_last_proposal(message: str, reason: str) -> None:
    assert rejections(message, last_assistant_message=ONE_PROPOSAL) == [("Redis", reason)]


@pytest.mark.parametrize(
    "message",
    [
        "No, that's fine.",
        "No problem.",
        "no thanks, that's enough detail",
        "No, not really.",
        "No.",
        "Not that I know of.",
        "No worries, go ahead.",
        "No, thanks.",
        "That's fine.",
        "这样不行。",
        "不用谢。",
    ],
)
def test_replies_that_reject_no_proposal(message: str) -> None:
    assert options(message, last_assistant_message=ONE_PROPOSAL) == []


@pytest.mark.parametrize(
    ("message", "last"),
    [
        ("No way.", TWO_PROPOSALS),
        ("Not that.", "Sure, let me know what you need."),
        ("Hmm, no — too heavy.", ""),
        ("我们不用那个。", TWO_PROPOSALS),
    ],
)
def test_without_exactly_one_proposal_a_pronoun_rejects_nothing(message: str, last: str) -> None:
    assert options(message, last_assistant_message=last) == []


def test_a_pronoun_rejection_is_no_requirement() -> None:
    analysis = analyse("我们不用那个。", last_assistant_message=ONE_PROPOSAL)
    assert analysis.requirements == []


# -- 5. conjoined requirements --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "Sessions must expire after 30 minutes and be revocable by admins.",
            ["Sessions must expire after 30 minutes", "Sessions must be revocable by admins"],
        ),
        (
            "The API should return JSON and log every request.",
            # a pronoun-like subject ("the API", "we") is dropped, as for any modal requirement
            ["Return JSON", "Log every request"],
        ),
        (
            "Invoices have to be stored for ten years and be exportable as PDF.",
            ["Invoices have to be stored for ten years", "Invoices have to be exportable as PDF"],
        ),
        (
            "We need to support SAML and send a weekly digest.",
            ["Support SAML", "Send a weekly digest"],
        ),
    ],
)
def test_two_predicates_sharing_a_subject_are_two_requirements(
    message: str, expected: list[str]
) -> None:
    assert [r.text for r in analyse(message).requirements] == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Uploads must accept PNG and JPEG.", ["Uploads must accept PNG and JPEG"]),
        (
            "We must keep access logs and audit trails for a year.",
            ["Keep access logs and audit trails for a year"],
        ),
        (
            "Users must be able to read and write files.",
            ["Users must be able to read and write files"],
        ),
        ("必须支持PNG和JPEG。", ["必须支持PNG和JPEG"]),
    ],
)
def test_and_between_nouns_keeps_one_requirement(message: str, expected: list[str]) -> None:
    assert [r.text for r in analyse(message).requirements] == expected


# -- 6. going back to a rejected option -----------------------------------------------------------


@pytest.mark.parametrize(
    "reply",
    [
        "Let's go back to Kafka for the event stream.",
        "Kafka might be worth revisiting now that volumes grew.",
        "Reconsider Kafka: the retention features fit this well.",
        "We could revisit Kafka once the team is bigger.",
        "Kafka deserves another look here.",
    ],
)
def test_an_assistant_going_back_to_a_rejected_option_readvocates_it(reply: str) -> None:
    assert find_readvocacy(reply, ["Kafka"]) == ["Kafka"]


@pytest.mark.parametrize(
    "reply",
    [
        "We won't go back to Kafka; the outbox table does the job.",
        "Kafka is not worth revisiting given your constraints.",
        "There is no need to reconsider Kafka.",
    ],
)
def test_declining_to_go_back_is_not_readvocacy(reply: str) -> None:
    assert find_readvocacy(reply, ["Kafka"]) == []


@pytest.mark.parametrize(
    "message",
    [
        "Let's go back to Kafka.",
        "Kafka might be worth revisiting.",
        "Reconsider Kafka, please.",
        "Maybe we should be reconsidering Kafka.",
    ],
)
def test_a_user_going_back_to_a_rejected_option_reopens_it(message: str) -> None:
    view = {"reopenable": ["Kafka"], "rejected": [RejectedItem("Kafka")]}
    analysis = analyse(message, **view)
    assert analysis.reopened == ["Kafka"]
    assert analysis.rejections == []


@pytest.mark.parametrize(
    "message", ["Let's not go back to Kafka.", "I don't want to reconsider Kafka."]
)
def test_refusing_to_go_back_reopens_nothing(message: str) -> None:
    view = {"reopenable": ["Kafka"], "rejected": [RejectedItem("Kafka")]}
    assert analyse(message, **view).reopened == []


# -- long replies ---------------------------------------------------------------------------------


def test_a_pronoun_resolves_against_a_long_reply() -> None:
    reply = "Redis is the usual choice here. " + (
        "The handler validates the token, then the worker checks the Token Bucket state and "
        "writes the Audit Log entry. " * 10
    )
    view = LedgerSnapshot(last_assistant_message=reply)
    found = analyse_message("Hmm, no — too heavy.", 5, view)
    assert [f.option for f in found.rejections] == ["Redis"]

"""The deterministic analyser on English phrasings of its own (not the scenario sentences)."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import (
    analyse_message,
    find_readvocacy,
    is_full_answer_attempt,
    normalise_option,
    option_matches,
    premature_markers,
    requirement_similarity,
    restates,
    text_similarity,
)
from rcm_tui.core.ledger_snapshot import LedgerSnapshot, RejectedItem, RequirementItem


def analyse(text: str, **view: object):
    return analyse_message(text, 3, LedgerSnapshot(**view))  # type: ignore[arg-type]


def requirement_texts(text: str, **view: object) -> list[str]:
    return [r.text for r in analyse(text, **view).requirements]


def rejected(text: str, **view: object) -> list[str]:
    return [r.option for r in analyse(text, **view).rejections]


# -- requirements -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "fragment"),
    [
        ("The API must respond within 200 ms for cached pages.", "within 200 ms"),
        ("We need to support SAML single sign-on.", "Support SAML single sign-on"),
        ("It has to run on ARM boxes too.", "Run on ARM boxes"),
        ("Passwords should also be hashed with argon2.", "hashed with argon2"),
        ("Keep all audit logs in a separate schema.", "Keep all audit logs in a separate schema"),
        ("Please also add a health-check endpoint.", "Add a health-check endpoint"),
        ("Limit uploads to 5 GB per user.", "Limit uploads to 5 GB per user"),
        ("Roughly 300 requests per second on a normal day.", "300 requests per second"),
        ("About 12k daily active users.", "12k daily active users"),
        ("Data has to be retained for seven years.", "seven years"),
        ("Don't forget to rotate the API keys monthly.", "Rotate the API keys monthly"),
        ("Make sure every export is signed.", "every export is signed"),
        ("Let's target Python 3.12 only.", "Target Python 3.12 only"),
        (
            "Also, emails go out through our SMTP relay, we must not call SendGrid directly.",
            "must not call SendGrid directly",
        ),
        ("We'd like dark mode in the admin.", "dark mode in the admin"),
        (
            "Could you also include retry logic for failed webhooks?",
            "retry logic for failed webhooks",
        ),
        ("We're a team of 4 developers.", "Team of 4 developers"),
        ("Never log full card numbers.", "Never log full card numbers"),
        ("Budget: under $200/month.", "Budget: under $200/month"),
        ("Deadline is end of March.", "Deadline is end of March"),
        ("We can't install anything on the build servers.", "can't install anything"),
        ("Everything has to be hosted in the EU.", "Everything has to be hosted in the EU"),
        ("Mobile support is a must.", "Mobile support is a must"),
        ("We need an audit trail for refunds.", "We need an audit trail for refunds"),
    ],
)
def test_statements_of_need_become_requirements(message: str, fragment: str) -> None:
    texts = requirement_texts(message)
    assert any(fragment.lower() in t.lower() for t in texts), texts


def test_a_constraint_fragment_attaches_to_the_requirement_it_refines() -> None:
    texts = requirement_texts("Thumbnails should be generated on upload — only WebP and AVIF.")
    assert texts == ["Thumbnails should be generated on upload — only WebP and AVIF"]


def test_answer_to_the_assistants_question_is_a_requirement() -> None:
    reply = "Which message broker do you run, and how long must messages be kept?"
    texts = requirement_texts("RabbitMQ. Keep messages for 3 days.", last_assistant_message=reply)
    assert texts == ["Use RabbitMQ", "Keep messages for 3 days"]


def test_picking_one_of_the_offered_options_is_a_requirement() -> None:
    reply = "Either Vue or Svelte would work for this dashboard."
    texts = requirement_texts(
        "Svelte, since the team already knows it.", last_assistant_message=reply
    )
    assert texts == ["Use Svelte, since the team already knows it"]


def test_a_bare_word_without_a_question_to_answer_is_not_a_requirement() -> None:
    assert requirement_texts("Interesting.", last_assistant_message="Here is the plan.") == []


def test_an_independent_trailing_clause_is_cut_from_the_requirement() -> None:
    texts = requirement_texts("Let's keep backups in one bucket for now, encryption is a v2 topic.")
    assert texts == ["Keep backups in one bucket for now"]


@pytest.mark.parametrize(
    "message",
    [
        "What's the best way to structure the repo?",
        "How should the workers share state?",
        "Explain the trade-offs of event sourcing.",
        "Tell me how sharding works in Cassandra.",
        "Give me an overview of the options.",
        "Walk me through the deployment.",
        "Summarize the discussion so far.",
        "And testing?",
        "Hmm, interesting.",
        "Thanks, that helps.",
        "Let's start with the data model.",
        "Sketch the components for me.",
        "Where does caching fit in?",
        "Could you show the folder layout?",
        "We need to decide on a queue.",
        "I tried it 3 times.",
        "It took 5 minutes to build.",
        "Test coverage is low in that module.",
        "I need help with the deployment scripts.",
        "We don't need a dashboard.",
        "There's no need for a cache.",
    ],
)
def test_questions_and_chatter_are_not_requirements(message: str) -> None:
    assert requirement_texts(message) == []


def test_every_item_under_a_requirements_header_is_a_requirement() -> None:
    message = "Requirements:\n- must support SSO\n- exports in CSV\n- EU hosting only\n- no Redis"
    analysis = analyse(message + "\n\nWhat do you think?")
    assert [r.text for r in analysis.requirements] == [
        "Must support SSO",
        "Exports in CSV",
        "EU hosting only",
    ]
    assert [f.option for f in analysis.rejections] == ["Redis"]


def test_a_list_under_another_header_is_not_a_requirement_list() -> None:
    assert requirement_texts("Some thoughts:\n- the UI looks dated\n- maybe later") == []


def test_a_question_is_kept_as_an_open_question() -> None:
    assert analyse("How should the workers share state?").questions == [
        "How should the workers share state?"
    ]


def test_an_open_decision_is_a_question_not_a_requirement() -> None:
    analysis = analyse("We need to decide on a queue.")
    assert analysis.questions == ["Decide on a queue"]


# -- rejections ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "option", "reason"),
    [
        (
            "Let's not use Kafka because our ops team has no experience with it.",
            "Kafka",
            "Our ops team has no experience with it",
        ),
        (
            "No Elasticsearch, please — it is too expensive to host.",
            "Elasticsearch",
            "It is too expensive to host",
        ),
        (
            "Forget GraphQL: the clients only need three endpoints.",
            "GraphQL",
            "The clients only need three endpoints",
        ),
        ("We won't be using Terraform at all.", "Terraform", ""),
        ("Don't use the requests library, it's blocking.", "requests", "It's blocking"),
        (
            "Serverless is off the table since cold starts hurt our latency.",
            "Serverless",
            "Cold starts hurt our latency",
        ),
        (
            "Drop Celery, we can schedule jobs with cron.",
            "Celery",
            "We can schedule jobs with cron",
        ),
        ("We decided against Angular.", "Angular", ""),
        (
            "Rule out DynamoDB — vendor lock-in worries legal.",
            "DynamoDB",
            "Vendor lock-in worries legal",
        ),
        ("Oracle is a no-go for licensing reasons.", "Oracle", ""),
        ("Avoid ORMs in the reporting module.", "ORMs", ""),
        ("Use SQS instead of RabbitMQ.", "RabbitMQ", ""),
        ("Kubernetes won't work for a team our size.", "Kubernetes", ""),
        ("We can't use Java, nobody here writes it.", "Java", "Nobody here writes it"),
        ("Stop using Moment.js.", "Moment.js", ""),
        (
            "This setup is far too fragile. Scrap the sidecar proxies.",
            "sidecar proxies",
            "This setup is far too fragile",
        ),
        ("No DynamoDB either, because of vendor lock-in.", "DynamoDB", "Vendor lock-in"),
    ],
)
def test_rejections_name_the_option_and_its_reason(message: str, option: str, reason: str) -> None:
    findings = analyse(message).rejections
    assert [(f.option, f.reason) for f in findings] == [(option, reason)]


@pytest.mark.parametrize(
    ("message", "options"),
    [
        ("Definitely not Kafka.", ["Kafka"]),
        ("Nah, not GraphQL.", ["GraphQL"]),
        ("Please don't suggest Kubernetes again.", ["Kubernetes"]),
        ("Option A is out.", ["Option A"]),
        ("Keep GraphQL out of this.", ["GraphQL"]),
        ("Kubernetes is overkill for us.", ["Kubernetes"]),
        ("We are not using any cloud provider yet.", ["cloud provider"]),
    ],
)
def test_short_and_indirect_rejections(message: str, options: list[str]) -> None:
    assert rejected(message) == options


def test_the_choice_beside_a_bare_not_is_kept() -> None:
    analysis = analyse("Go with Postgres, not Mongo.")
    assert [f.option for f in analysis.rejections] == ["Mongo"]
    # The choice is the conclusion, not a requirement (issue 12; was "Use Postgres").
    assert analysis.requirements == []
    assert analysis.trajectory == "Go with Postgres"


def test_a_rejection_in_a_list_rejects_each_option() -> None:
    assert rejected("No Redis or Memcached, please.") == ["Redis", "Memcached"]


def test_a_category_rejected_alongside_a_product_becomes_its_reason() -> None:
    findings = analyse(
        "Let's not go with Cassandra. We need joins everywhere, so a wide-column store is "
        "off the table."
    ).rejections
    assert [f.option for f in findings] == ["Cassandra"]
    assert "wide-column store" in findings[0].reason


def test_a_category_rejected_on_its_own_is_kept() -> None:
    assert rejected("A document store is off the table for billing data.") == ["document store"]


def test_the_alternative_after_a_rejection_is_a_requirement_not_a_reason() -> None:
    analysis = analyse("We're not doing SOAP; integrations will use webhooks with HMAC signatures.")
    assert [(f.option, f.reason) for f in analysis.rejections] == [("SOAP", "")]
    assert [r.text for r in analysis.requirements] == [
        "Integrations will use webhooks with HMAC signatures"
    ]


def test_avoiding_an_activity_is_a_requirement_not_a_rejection() -> None:
    analysis = analyse("Avoid blocking the event loop in request handlers.")
    assert analysis.rejections == []
    assert [r.text for r in analysis.requirements] == [
        "Avoid blocking the event loop in request handlers"
    ]


@pytest.mark.parametrize(
    "message",
    [
        "Not only PostgreSQL but also Redis is in our stack.",
        "No problem with Docker on the build machines.",
        "I don't know if Kafka is right for this.",
        "Not sure about Kafka yet.",
        "Don't forget the rate limiter.",
        "We can't install libmagic on the build agents.",
        "PostgreSQL is not the bottleneck here.",
        "I have nothing against Go.",
        "The code should not be AWS-specific.",
        "No need to explain Docker to me.",
        "Should we not use Kafka?",
        "Why not use SQLite for the tests?",
        "No more than 20 MB per file.",
        "We use blue-green deploys to avoid downtime.",
        "Don't worry about Windows support.",
        "I'd like a summary instead of code.",
        "Reject requests without a token.",
        "The new version is out.",
        "No, that's not what I meant.",
        "You don't need to use Docker for this.",
        "It doesn't use Redis.",
        "If we don't use Kafka, what then?",
        "Don't add comments to the code.",
        "The new version of Django is out.",
    ],
)
def test_traps_that_look_like_rejections_reject_nothing(message: str) -> None:
    assert rejected(message) == []


def test_dont_forget_is_a_requirement() -> None:
    assert requirement_texts("Don't forget the rate limiter.") == ["The rate limiter"]


def test_uncertainty_is_an_open_question() -> None:
    assert analyse("Not sure about Kafka yet.").questions == ["Not sure about Kafka yet"]


# -- reopening, confirming, dropping --------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        "Let's reconsider Redis after all.",
        "OK, Redis is back on the table.",
        "Maybe Redis again, with persistence turned on?",
        "Can we revisit Redis for the cache?",
    ],
)
def test_reopening_a_rejected_option(message: str) -> None:
    analysis = analyse(message, reopenable=["Redis"], rejected=[RejectedItem("Redis")])
    assert analysis.reopened == ["Redis"]
    assert analysis.rejections == []


def test_only_rejected_options_can_be_reopened() -> None:
    assert analyse("Let's reconsider Kafka after all.", reopenable=["Redis"]).reopened == []


def test_repeating_a_rejection_does_not_reopen_it() -> None:
    analysis = analyse("Again: no Redis.", reopenable=["Redis"])
    assert analysis.reopened == []
    assert [f.option for f in analysis.rejections] == ["Redis"]


REQS = [
    RequirementItem("R1", "Reject anything over 20 MB"),
    RequirementItem("R2", "Export monthly statements as CSV"),
    RequirementItem("R3", "Use PostgreSQL"),
]


@pytest.mark.parametrize(
    ("message", "confirmed"),
    [
        ("Yes, 20 MB is the limit.", ["R1"]),
        ("OK, PostgreSQL it is.", ["R3"]),
        ("Correct.", ["R2"]),
        ("Yes, and add request logging.", []),
    ],
)
def test_affirming_an_existing_requirement_confirms_it(message: str, confirmed: list[str]) -> None:
    reply = "Just to check: the monthly statements go out as CSV exports?"
    analysis = analyse(message, requirements=REQS, last_assistant_message=reply)
    assert analysis.confirmed_ids == confirmed


def test_a_confirmation_is_not_also_a_new_requirement() -> None:
    analysis = analyse("Yes, 20 MB is the limit.", requirements=REQS)
    assert (analysis.confirmed_ids, analysis.requirements) == (["R1"], [])


@pytest.mark.parametrize(
    ("message", "dropped"),
    [
        ("Forget the CSV export.", ["R2"]),
        ("We no longer need the CSV statements.", ["R2"]),
        ("The size limit is no longer needed.", []),
        ("Forget microservices.", []),
    ],
)
def test_withdrawing_a_requirement_drops_it(message: str, dropped: list[str]) -> None:
    assert analyse(message, requirements=REQS).dropped_ids == dropped


def test_dropping_a_requirement_is_not_a_rejection() -> None:
    assert analyse("Forget the CSV export.", requirements=REQS).rejections == []


# -- pivots, trajectory, facts, dialog state, topic shift -----------------------------------------


def test_rejecting_what_was_on_the_table_is_a_pivot() -> None:
    view = {"last_assistant_message": "I'd put the queue on Kafka with three partitions."}
    assert analyse("Let's not use Kafka, it's too heavy.", **view).pivot is True


def test_rejecting_something_nobody_proposed_is_no_pivot() -> None:
    assert analyse("Don't use Kafka, it's too heavy.").pivot is False


@pytest.mark.parametrize(
    "message", ["Scratch that, let's keep it simple.", "Change of plan: batch it."]
)
def test_explicit_pivot_cues(message: str) -> None:
    assert analyse(message).pivot is True


def test_trajectory_follows_the_choice() -> None:
    assert (
        analyse("Fine, SQLite it is for the prototype.").trajectory
        == ("SQLite it is for the prototype")
        or analyse("Fine, SQLite it is.").trajectory == "SQLite it is"
    )


def test_facts_are_stable_context() -> None:
    facts = analyse("We already run Nomad in production. Our team knows Rust well.").facts
    assert facts == ["We already run Nomad in production", "Our team knows Rust well"]


@pytest.mark.parametrize(
    ("message", "state", "reply"),
    [
        ("Hi there!", "greeting", ""),
        ("Thanks, that's all for today.", "closing", ""),
        ("How does the outbox pattern work?", "information_seeking", ""),
        ("Write the migration script.", "problem_solving", ""),
        ("Two regions, EU and US.", "clarification", "How many regions do you need?"),
        ("I mean the public API, not the admin one.", "clarification", ""),
    ],
)
def test_dialog_state(message: str, state: str, reply: str) -> None:
    assert analyse(message, last_assistant_message=reply).dialog_state == state


def test_topic_shift_needs_a_cue_and_a_new_subject() -> None:
    recent = ["How do we shard the orders table?", "What about the invoices table?"]
    shift = "Different question: how do I configure my Neovim status line?"
    same = "Different question: how do we shard the invoices table?"
    assert analyse(shift, recent_user_messages=recent).topic_shift is True
    assert analyse(same, recent_user_messages=recent).topic_shift is False
    assert analyse("How do I configure Neovim?", recent_user_messages=recent).topic_shift is False


def test_pasted_code_is_not_read_as_statements() -> None:
    code = "\n".join(["def handler(req):", "    store = get_store()", "    return store.save(req)"])
    message = f"Here's my handler:\n```python\n{code}\n```\n"
    message += "Why does it crash? It must handle empty files."
    analysis = analyse(message)
    assert [r.text for r in analysis.requirements] == ["Handle empty files"]
    assert analysis.questions == ["Why does it crash?"]


# -- re-advocacy --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "options", "expected"),
    [
        ("The cleanest fix is to put the job queue into Kafka.", ["Kafka"], ["Kafka"]),
        ("I'd use Mongo for the event log.", ["MongoDB"], ["MongoDB"]),
        ("Consider a micro-service per bounded context.", ["microservices"], ["microservices"]),
        ("Redis would be ideal for rate limiting.", ["Redis"], ["Redis"]),
        ("You could switch to GraphQL for the mobile app.", ["GraphQL"], ["GraphQL"]),
        (
            "Detect the type with python magic and trust its result.",
            ["python-magic"],
            ["python-magic"],
        ),
        ("Postgres is the natural fit here.", ["PostgreSQL"], ["PostgreSQL"]),
        ("I know you said no Redis, but honestly Redis is the best choice.", ["Redis"], ["Redis"]),
        ("A Redis cache in front would help a lot.", ["Redis"], ["Redis"]),
        ("Let Redis handle expiry.", ["Redis"], ["Redis"]),
        ("The classic answer here is Redis.", ["Redis"], ["Redis"]),
        ("Option 2: Redis. Option 3: Memcached.", ["Redis"], ["Redis"]),
        ("Honestly, Redis is purpose-built for this; I would reconsider it.", ["Redis"], ["Redis"]),
        (
            "Since the team knows MongoDB, Mongo Atlas would be the quickest start.",
            ["MongoDB"],
            ["MongoDB"],
        ),
    ],
)
def test_proposing_a_rejected_option_is_re_advocacy(
    reply: str, options: list[str], expected: list[str]
) -> None:
    assert find_readvocacy(reply, options) == expected


@pytest.mark.parametrize(
    "reply",
    [
        "Understood, no Kafka.",
        "Since Kafka was ruled out, a PostgreSQL outbox table will do.",
        "We drop Kafka and poll the outbox instead.",
        "Instead of Kafka, use LISTEN/NOTIFY.",
        "Unlike Kafka, this needs no extra cluster.",
        "This works without Kafka.",
        "Kafka is off the table, so here is a cron-based design.",
        "As you rejected Kafka, I kept everything in PostgreSQL.",
        "Kafka would have been the usual choice, but you ruled it out.",
        "Migrate away from Kafka in two steps.",
        "A plain table replaces Kafka here.",
        "Kafka stores messages in partitions.",
        "Don't use Kafka for this.",
        "Compared with Kafka, this is slower.",
        "We keep Kafka out of the picture.",
        "Without introducing Kafka, a cron job can poll the table.",
        "Rejected options: Kafka.",
        "Ruled-out alternatives: Kafka, MongoDB.",
        "[STATUS]\nConclusion: outbox table\nRejected: Kafka (ops burden)\nOpen: retention",
        "Kafka, which you ruled out, would have made this trivial.",
    ],
)
def test_mentioning_a_rejected_option_as_rejected_is_not_re_advocacy(reply: str) -> None:
    assert find_readvocacy(reply, ["Kafka"]) == []


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("Sure:\n```python\nimport kafka\nproducer = kafka.KafkaProducer()\n```", ["Kafka"]),
        ("```yaml\nservices:\n  broker:\n    image: bitnami/kafka:3.7\n```", ["Kafka"]),
        ("```sql\n-- no Kafka: the outbox lives here\nCREATE TABLE outbox (id bigint);\n```", []),
        ("```go\n// Kafka was ruled out\ndb.Exec(q)\n```", []),
    ],
)
def test_code_that_uses_a_rejected_option_proposes_it(reply: str, expected: list[str]) -> None:
    assert find_readvocacy(reply, ["Kafka"]) == expected


def test_readvocacy_ignores_options_that_are_not_mentioned() -> None:
    assert find_readvocacy("Use a sessions table with an index.", ["Redis", "MongoDB"]) == []


# -- premature full answers ---------------------------------------------------------------------

LONG_CODE = "Here you go:\n```python\n" + "\n".join(f"x{i} = {i}" for i in range(20)) + "\n```"


@pytest.mark.parametrize(
    ("reply", "marker"),
    [
        (LONG_CODE, "complete code block (20 lines)"),
        ("Here is the complete implementation of the service.", "full-solution phrase"),
        (
            "1. Create the table. 2. Backfill. 3. Switch reads. 4. Switch writes. "
            "5. Drop the old one.",
            "numbered plan (5 steps)",
        ),
    ],
)
def test_full_solution_markers(reply: str, marker: str) -> None:
    markers = premature_markers(reply, open_requirement_count=2, turn=5)
    assert any(marker in m for m in markers), markers
    assert is_full_answer_attempt(reply)


def test_a_full_solution_is_not_premature_once_nothing_is_open_after_the_first_turns() -> None:
    assert premature_markers(LONG_CODE, open_requirement_count=0, turn=6) == []
    assert premature_markers(LONG_CODE, open_requirement_count=0, turn=1) != []


@pytest.mark.parametrize(
    "reply",
    [
        "Which framework do you use?\n```python\nprint('hi')\n```",
        "1. What is the volume? 2. Who reads it? 3. How long? 4. Where? 5. Which region?",
        "Short answer: use an index.",
    ],
)
def test_questions_and_short_snippets_are_not_full_solutions(reply: str) -> None:
    assert premature_markers(reply, open_requirement_count=3, turn=1) == []
    assert not is_full_answer_attempt(reply)


# -- matching and similarity --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "text", "expected"),
    [
        ("microservices", "a microservice per team", True),
        ("python-magic", "python magic detects types", True),
        ("MongoDB", "we tried Mongo once", True),
        ("PostgreSQL", "Postgres 16", True),
        ("Redis", "REDIS cluster", True),
        ("Redis", "a redistribution job", False),
        ("Go", "let's go with Rust", False),
        ("Go", "a Go service", True),
        ("document store", "document stores are flexible", True),
        ("", "anything", False),
    ],
)
def test_option_matches(option: str, text: str, expected: bool) -> None:
    assert option_matches(option, text) is expected


def test_normalise_option() -> None:
    assert normalise_option("the python-magic library") == "python magic"
    assert normalise_option("Mongo") == normalise_option("MongoDB") == "mongodb"
    assert normalise_option("Microservices") == "microservice"


def test_text_similarity_and_restates() -> None:
    a = "Sessions must expire after 30 minutes of inactivity"
    assert text_similarity(a, "sessions should expire after 30 minutes of inactivity") == 1.0
    assert text_similarity(a, "Log every login attempt") == 0.0
    assert restates("Remember, sessions expire after 30 minutes of inactivity.", a)
    assert not restates("Sessions must expire after 60 minutes of inactivity", a)
    assert not restates("Log every login attempt", a)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Sessions expire after 30 minutes", "Sessions expire after 60 minutes", True),
        ("Reject files over 20 MB", "Reject images over 5 MB", False),
        ("Validate file types", "Validate file types — only PNG and PDF", True),
        ("Use Go", "Use Google Cloud", False),
    ],
)
def test_requirement_similarity(a: str, b: str, same: bool) -> None:
    assert (requirement_similarity(a, b) >= 0.6) is same


def test_a_negated_want_after_a_rejection_is_its_reason_not_a_second_option() -> None:
    found = analyse_message(
        "Rule out DynamoDB too, we do not want vendor lock-in.", 3, LedgerSnapshot()
    )
    assert [(r.option, r.reason) for r in found.rejections] == [
        ("DynamoDB", "We do not want vendor lock-in")
    ]


@pytest.mark.parametrize("message", [
    "Because they're stateful, no Redis, no Memcached.",
    "Since the team is small, no Redis and no Memcached.",
    "Given that they're stateful, let's not use Redis or Memcached.",
])
def test_a_cause_stated_first_explains_every_option_rejected_after_it(message: str) -> None:
    found = analyse(message).rejections
    assert [r.option for r in found] == ["Redis", "Memcached"]
    assert all(r.reason and len(r.reason.split()) >= 2 for r in found), found


def test_a_leading_clause_that_is_no_cause_gives_no_reason() -> None:
    assert requirement_texts("Because we handle PII, we must encrypt data at rest.") != []
    assert analyse("Because we handle PII, we must encrypt data at rest.").rejections == []


@pytest.mark.parametrize("message", [
    "Not that one — we need something managed.",
    "Not that one, we need something managed.",
    "Not that one. We need something managed.",
])
def test_a_need_after_turning_the_proposal_down_is_its_reason_and_a_requirement(
    message: str,
) -> None:
    reply = "I'd suggest RabbitMQ for the queue."
    found = analyse(message, last_assistant_message=reply)
    assert [(r.option, r.reason) for r in found.rejections] == [
        ("RabbitMQ", "We need something managed")
    ]
    assert [r.text for r in found.requirements] == ["We need something managed"]


def test_not_that_i_know_of_rejects_nothing() -> None:
    reply = "Is there an existing queue? I'd suggest RabbitMQ otherwise."
    assert analyse("Not that I know of, we need an answer first.",
                   last_assistant_message=reply).rejections == []


@pytest.mark.parametrize(("message", "option"), [
    ("As we discussed, no Kafka.", "Kafka"),
    ("Like I said, no Kafka, it is too heavy for us.", "Kafka"),
    ("Again, let's not use MongoDB.", "MongoDB"),
    ("To be clear, forget Redis.", "Redis"),
])
def test_a_back_reference_before_a_rejection_does_not_hide_it(message: str, option: str) -> None:
    assert rejected(message) == [option]


def test_a_back_reference_is_no_rejection_of_its_own() -> None:
    assert rejected("As I said, I don't know if Kafka fits.") == []
    assert rejected("Honestly, no problem with Redis.") == []


@pytest.mark.parametrize(("message", "text"), [
    ("The API must be versioned.", "The API must be versioned"),
    ("As we discussed earlier, the service must stay stateless.",
     "The service must stay stateless"),
    ("We must store uploads under /srv/uploads.", "Store uploads under /srv/uploads"),
])
def test_a_required_state_keeps_the_thing_it_is_required_of(message: str, text: str) -> None:
    assert requirement_texts(message) == [text]

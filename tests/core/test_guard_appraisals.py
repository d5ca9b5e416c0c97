"""A reply that appraises a rejected option as a good pick, or tells the user they need it,
proposes it; a conditional need or a negated appraisal does not. Found in tmux: the embedded
model's "MongoDB is an excellent choice" went unflagged after the user rejected MongoDB."""

from __future__ import annotations

import pytest

from rcm_tui.core.heuristics import find_readvocacy


@pytest.mark.parametrize(
    "reply",
    [
        "MongoDB is an excellent choice for a payments ledger.",
        "For the ledger, Cassandra remains a very reliable option.",
        "Terraform Cloud is a proven fit for a team your size.",
        "You need a MongoDB index on the account id.",
        "You will probably need Terraform Cloud for the remote state.",
    ],
)
def test_an_appraisal_or_an_asserted_need_proposes_the_option(reply: str) -> None:
    options = ["MongoDB", "Cassandra", "Terraform Cloud"]
    assert find_readvocacy(reply, options), reply


@pytest.mark.parametrize(
    "reply",
    [
        "MongoDB is not a good choice for this.",
        "Unlike Cassandra, PostgreSQL is a proven option.",
        "If you need MongoDB-like flexibility, use JSONB columns.",
        "You don't need Terraform Cloud: a bucket with locking holds the state.",
    ],
)
def test_a_negated_appraisal_or_a_conditional_need_proposes_nothing(reply: str) -> None:
    assert find_readvocacy(reply, ["MongoDB", "Cassandra", "Terraform Cloud"]) == [], reply

"""Issue 12's 19-turn session, condensed and replayed through the app (offline provider,
scripted replies): every example the issue found by hand, checked together in one ledger, the
way a user meets them — not one sentence at a time."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from rcm_tui.commands import dispatch
from rcm_tui.config import load_settings
from rcm_tui.controller import Controller
from rcm_tui.core.conclusion import current_conclusion
from rcm_tui.core.ledger import set_requirement_status
from rcm_tui.eval.replay import parse_script, replay
from rcm_tui.store import SessionStore

PASTED = (
    "The pipeline must keep every order event for audit so that the finance team can reconcile "
    "the monthly statements against the bank exports without asking engineering for help"
)
TURNS = [
    (
        "We're building an order pipeline and need a message broker. Handle about 20k messages "
        "per second at peak, and we need at-least-once delivery.",
        "Kafka, RabbitMQ, NATS JetStream and Pulsar are the usual candidates. Does ordering "
        "matter?",
    ),
    (
        "Ordering per customer matters. Also consumers **must be idempotent**.",
        "Then partition by customer id; idempotent consumers make redelivery safe.",
    ),
    ("消息必须保留7天。", "Kafka keeps messages for 7 days with retention.ms=604800000."),
    (f"Paragraph 1: {PASTED}.", "An append-only audit topic with a long retention covers that."),
    (
        "RabbitMQ is out too, because we had bad experiences with its clustering.",
        "Understood. Kafka or NATS JetStream then.",
    ),
    ("Actually, let's step back.", "Sure. Messages must be retained for 7 days, noted."),
    (
        "We are already all-in on AWS, so a managed service is preferable.",
        "Amazon MSK (managed Kafka) or a managed NATS offering on AWS.",
    ),
    (
        "Which one has less operational overhead for a team of three?",
        "NATS JetStream: a single binary, and it meets your ordering needs per subject.",
    ),
    (
        "It meets the ordering requirement, and it scales out easily.",
        "Yes, and JetStream keeps every stream for 7天 via max_age.",
    ),
    ("Decision: let's go with NATS JetStream.", "Great, NATS JetStream it is."),
    (
        "Yes, 7-day retention is confirmed as a hard requirement.",
        "Confirmed: streams keep 7 days of messages.",
    ),
]


@pytest.fixture
def controller(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Controller:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    return Controller(load_settings(flags={"provider": "offline"}), SessionStore())


def _play(controller: Controller, turns: list[tuple[str, str]]) -> None:
    """Replay the turns as `rcm-tui replay` does (scripted replies, the offline provider)."""
    text = "\n".join(json.dumps({"user": u, "assistant": a}, ensure_ascii=False) for u, a in turns)
    result = asyncio.run(replay(controller, parse_script(text)))
    assert result.ok, result.error


def _texts(controller: Controller) -> list[str]:
    return [r.text for r in controller.session.requirements]


def test_the_sessions_examples_behave_as_the_issue_describes(controller: Controller) -> None:
    _play(controller, TURNS)
    session = controller.session
    texts = _texts(controller)
    # Two needs in one sentence are two requirements.
    assert "Handle about 20k messages per second at peak" in texts
    assert "We need at-least-once delivery" in texts
    # Markdown is formatting, not words.
    assert "Consumers must be idempotent" in texts and not any("**" in t for t in texts)
    # A pasted paragraph: no paste label, never cut.
    pasted = [t for t in texts if "finance team" in t]
    assert len(pasted) == 1 and not pasted[0].startswith("Paragraph")
    assert pasted[0].endswith("without asking engineering for help")
    # "RabbitMQ is out too, because …" rejects RabbitMQ with its reason.
    rabbit = [r for r in session.rejected if r.option == "RabbitMQ"]
    assert rabbit and "clustering" in rabbit[0].reason
    # The pivot is recorded at the turn it was said.
    assert 6 in session.pivots and 7 not in session.pivots
    # A fact and the need it leads to.
    assert any("all-in on AWS" in f for f in session.memory.facts)
    assert "A managed service is preferable" in texts
    # A verdict on an option and a decision are no requirements.
    assert not any("ordering requirement" in t or "NATS JetStream" in t for t in texts)
    # The confirmation confirms the Chinese requirement; it adds no duplicate.
    retention = [r for r in session.requirements if "7天" in r.text]
    assert len(retention) == 1 and retention[0].status == "confirmed"
    assert not any("7-day retention" in t for t in texts)
    # One conclusion; the question the decision answered is closed.
    conclusion = current_conclusion(session)
    assert conclusion is not None and "NATS JetStream" in conclusion.text
    assert not any("overhead" in q for q in session.memory.open_questions)
    status = asyncio.run(dispatch(controller, "/status")).text
    assert "NATS JetStream" in status and "not settled" not in status


def test_an_echo_does_not_address_and_a_status_the_user_set_stays(controller: Controller) -> None:
    _play(controller, TURNS[:3])
    session = controller.session
    retention = next(r for r in session.requirements if "7天" in r.text)
    # The reply to turn 3 shows how it is met (retention.ms): addressed, with evidence.
    assert retention.status == "addressed"
    set_requirement_status(session, retention.id, "pending", 3)
    # The next reply only repeats the words: the user's "pending" stays.
    _play(controller, [("Noted. What else?", "Messages must be retained for 7 days.")])
    assert next(r for r in session.requirements if r.id == retention.id).status == "pending"
    # Even a reply that meets it does not override what the user set.
    _play(controller, [("Go on.", "JetStream keeps every stream for 7天 via max_age.")])
    assert next(r for r in session.requirements if r.id == retention.id).status == "pending"

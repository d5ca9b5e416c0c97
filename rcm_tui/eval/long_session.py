"""A long conversation for measuring the layer at scale: 1,000 turns or more, each user turn
stating a distinct need ("we need the Kafka part to handle 101 requests per second") and each
scripted reply about 600 characters with a code block and a small table, as design
conversations with a model look after a while.

Used by `rcm-tui bench --long`, the crash-safety test and the long-session tests; the text is
generated, so every size is reproducible without a file in the repository.
"""

from __future__ import annotations

import json

from ..core.models import (
    CallRecord,
    Message,
    QualityRecord,
    Requirement,
    Session,
    TurnCost,
)

SUBJECTS = (
    "Kafka", "Celery", "Redis", "PostgreSQL", "nginx", "billing", "search", "media",
    "webhook", "reporting", "auth", "export", "import", "scheduler", "cache", "gateway",
    "mailer", "audit", "metrics", "notification", "inventory", "checkout", "ledger", "sync",
)
# 11 is coprime with 24: (subject, area) pairs repeat only every 264 turns, and the unit
# changes then, so the first 1,056 turns each state a need no other turn states.
AREAS = (
    "mobile", "web", "partner", "internal", "batch", "realtime", "legacy", "EU", "Americas", "APAC",
    "staging",
)
UNITS = ("requests per second", "jobs per minute", "MB per upload", "concurrent users")


def user_turn(turn: int) -> str:
    """A need that no other turn of the same conversation states (subject and number differ)."""
    subject = SUBJECTS[turn % len(SUBJECTS)]
    area = AREAS[turn % len(AREAS)]
    unit = UNITS[(turn // (len(SUBJECTS) * len(AREAS))) % len(UNITS)]
    return f"We need the {subject} part of the {area} platform to handle {100 + turn} {unit}."


def reply_turn(turn: int) -> str:
    subject = SUBJECTS[turn % len(SUBJECTS)]
    number = 100 + turn
    return (
        f"For the {subject} part at {number} a second, size the workers from the peak, not "
        f"the average, and keep a queue in front so that bursts wait instead of failing. Keep "
        "retries idempotent and cap them at three, with a backoff that doubles each time.\n\n"
        "```python\n"
        f"WORKERS = max(2, math.ceil({number} / PER_WORKER))\n"
        f"queue = Queue(maxsize={number * 4})\n"
        "```\n\n"
        "| setting | value |\n"
        "|---|---|\n"
        f"| workers | {max(2, number // 50)} |\n"
        f"| queue size | {number * 4} |\n"
        f"| timeout | {5 + turn % 7} s |\n\n"
        f"Measure the {subject} part under load before settling the numbers: what is the "
        "slowest step, and does it hold a lock or a connection while it waits?"
    )


def script(turns: int, needs: int = 0) -> list[tuple[str, str]]:
    """`needs` > 0: the user states that many needs and then says them again in turn, so the
    ledger stays that size however long the conversation (the replies stay distinct)."""
    return [
        (user_turn((n - 1) % needs + 1 if needs else n), reply_turn(n))
        for n in range(1, turns + 1)
    ]


def script_jsonl(turns: int) -> str:
    """The conversation as a replay script (`rcm-tui replay`)."""
    return "".join(
        json.dumps({"user": user, "assistant": reply}) + "\n" for user, reply in script(turns)
    )


def build_session(turns: int, session_id: str | None = None) -> Session:
    """A session document as `turns` turns of this conversation leave it, generated directly
    (the ledger holds each turn's need, every reply has its quality and cost) — for tests that
    need a long session on disk in well under a second instead of minutes of replay."""
    session = Session(title=f"Long session ({turns} turns)")
    if session_id is not None:
        session.id = session_id
    for number, (user, reply) in enumerate(script(turns), start=1):
        session.messages.append(Message(role="user", content=user, turn=number))
        session.messages.append(Message(role="assistant", content=reply, turn=number, attempt=1))
        session.requirements.append(
            Requirement(id=f"R{number}", text=user.rstrip("."), source_turn=number,
                        status="addressed", updated_turn=number)
        )
        session.quality.append(
            QualityRecord(turn=number, clarity=0.8, completeness=0.8, assumptions=0.2,
                          verbosity=0.3, premature_attempt=False, middle_turn_reference=0.7,
                          requirement_tracking=0.9, overall=0.78)
        )
        session.calls.append(
            CallRecord(turn=number, purpose="generation", model="offline-demo",
                       prompt_tokens=900, completion_tokens=len(reply) // 4, ms=12.0)
        )
        session.metrics.llm_calls.append(TurnCost(turn=number, calls=2, seconds=0.02))
        session.metrics.answer_lengths.append(len(reply))
    session.metrics.bloat_ratio = 1.0
    session.consolidated_through_turn = turns
    session.consolidated_context = f"Turns 1–{turns}: one capacity need per turn."
    return session

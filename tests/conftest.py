"""Fixtures every test gets: a private home and no real credentials or rcm-tui settings.

`isolated_env` is autouse so no test can read or write the developer's real sessions, config or
logs, or pick up a real API key and reach the network by accident. platformdirs reads the XDG
variables on every call, so pointing them at tmp_path is enough.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from rcm_tui.core.models import (
    Message,
    QualityRecord,
    RejectedOption,
    Requirement,
    Session,
    Solidified,
)

SECRET_ENV = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL")


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "home"
    for var, folder in (
        ("HOME", home),
        ("XDG_DATA_HOME", home / ".local" / "share"),
        ("XDG_CONFIG_HOME", home / ".config"),
        ("XDG_CACHE_HOME", home / ".cache"),
        ("XDG_STATE_HOME", home / ".local" / "state"),
    ):
        folder.mkdir(parents=True, exist_ok=True)
        monkeypatch.setenv(var, str(folder))
    for var in list(os.environ):
        if var in SECRET_ENV or var.startswith("RCM_TUI_"):
            monkeypatch.delenv(var)
    yield home


SessionFactory = Callable[..., Session]

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)


def build_session(
    *,
    turns: int = 3,
    title: str = "Caching strategy for the billing API",
    session_id: str | None = None,
    requirements: bool = True,
    rejected: bool = True,
    quality: bool = True,
    solidified: bool = False,
    **fields: Any,
) -> Session:
    """A plausible session: `turns` user/assistant pairs plus a small ledger, fixed times."""
    session = Session(title=title, created_at=T0, updated_at=T0, **fields)
    if session_id is not None:
        session.id = session_id
    for turn in range(1, turns + 1):
        at = T0 + timedelta(minutes=turn)
        session.messages.append(
            Message(
                role="user",
                content=f"User message {turn} about cache keys",
                turn=turn,
                created_at=at,
            )
        )
        session.messages.append(
            Message(
                role="assistant",
                content=f"Assistant answer {turn}: consider a TTL per tenant.",
                turn=turn,
                created_at=at,
                attempt=1,
            )
        )
        session.metrics.answer_lengths.append(40 + 10 * turn)
        if quality:
            session.quality.append(
                QualityRecord(
                    turn=turn,
                    clarity=0.8,
                    completeness=0.7,
                    assumptions=0.2,
                    verbosity=0.3,
                    premature_attempt=False,
                    middle_turn_reference=0.6,
                    requirement_tracking=0.9,
                    overall=0.7 + turn / 100,
                )
            )
    if requirements and turns:
        session.requirements += [
            Requirement(id="R1", text="Responses must stay under 200 ms", source_turn=1),
            Requirement(
                id="R2",
                text="No new infrastructure | only Redis",
                source_turn=1,
                status="confirmed",
            ),
        ]
    if rejected and turns:
        session.rejected.append(
            RejectedOption(id="X1", option="Memcached", reason="no persistence", turn=min(2, turns))
        )
    if solidified:
        session.solidified = Solidified(text="Use Redis with per-tenant TTL.", turn=turns)
    return session


@pytest.fixture
def make_session() -> SessionFactory:
    """`make_session(turns=3, title=..., session_id=..., requirements=..., rejected=...,
    quality=..., solidified=..., **Session fields)` → a Session (not saved anywhere)."""
    return build_session


@pytest.fixture
def member_reader_off() -> Iterator[None]:
    """The guard reads by names, variants and the lexicon alone, as on a machine without the
    base model: for tests whose subject is that reading, not the member reader's."""
    from rcm_tui.core.heuristics import member_reader

    member_reader.use_adapter("")
    yield
    member_reader.use_adapter(None)

"""Fixtures for the app tests: the offline provider, fixed ids, times and time zone, frozen
cursors, a scripted conversation, and provider doubles that fail or pause on demand.

The autouse `isolated_env` of tests/conftest.py already points XDG_* at tmp_path.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from rcm_tui.config import LoadedSettings, load_settings, sessions_dir
from rcm_tui.controller import Controller, ProviderPair
from rcm_tui.core.call_context import CallContext
from rcm_tui.core.llm import LLMRequest, ProviderError, StreamEvent, TextDelta
from rcm_tui.core.models import Session
from rcm_tui.providers.offline import OfflineProvider, scripted_reply
from rcm_tui.store import SessionStore, encode_document
from rcm_tui.ui.app import RcmApp

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
SESSION_ID = "20250301-090000-a1b2c3"

# A short design conversation: the user states requirements, rejects an option, asks on.
CONVERSATION: list[tuple[str, str]] = [
    (
        "We're building the core ledger for a payments startup and need to pick a primary "
        "database.",
        "Happy to help. Two questions first: what write volume do you expect, and do you need "
        "transactions that span several accounts?",
    ),
    (
        "It must support strict ACID transactions across accounts.",
        "Understood: ACID across accounts points to a relational engine such as PostgreSQL, "
        "or a distributed SQL system if you outgrow one primary.",
    ),
    (
        "It has to handle 2,000 writes per second at peak.",
        "2,000 writes per second is comfortable for one well-tuned PostgreSQL primary with a "
        "synchronous replica.",
    ),
    (
        "MongoDB is off the table: multi-document transactions are too fragile for money.",
        "Noted, MongoDB is ruled out. PostgreSQL with SERIALIZABLE isolation for transfers "
        "fits what you have described.",
    ),
    (
        "We must also keep an immutable audit trail of every balance change.",
        "Write every change to an append-only table in the same transaction:\n\n"
        "```sql\nCREATE TABLE ledger_entries (\n  id bigserial PRIMARY KEY,\n"
        "  account_id bigint NOT NULL,\n  delta_cents bigint NOT NULL,\n"
        "  created_at timestamptz NOT NULL DEFAULT now()\n);\n```",
    ),
    (
        "What would the schema for accounts and transfers look like?",
        "An `accounts` table with a balance and a version column, and a `transfers` table "
        "whose rows reference two ledger entries.",
    ),
]


@pytest.fixture(autouse=True)
def utc_clock() -> Iterator[None]:
    """Times in the sessions browser are shown in local time: make it UTC."""
    previous = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if previous is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = previous
    time.tzset()


@pytest.fixture(autouse=True)
def frozen_cursors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(RcmApp, "CURSOR_BLINK", False)


def offline_settings(**flags: Any) -> LoadedSettings:
    return load_settings(None, {"provider": "offline", **flags})


def make_controller(
    *,
    flags: dict[str, Any] | None = None,
    providers: ProviderPair | None = None,
    session_id: str = SESSION_ID,
) -> Controller:
    controller = Controller(offline_settings(**(flags or {})), SessionStore(), providers=providers)
    controller.session.id = session_id
    controller.session.created_at = T0
    return controller


async def converse(controller: Controller, turns: int, *, solidify: bool = False) -> Session:
    for user, reply in CONVERSATION[:turns]:
        with scripted_reply(reply):
            outcome = await controller.send(user)
        assert outcome.ok, outcome.error
    if solidify:
        await controller.solidify()
    await controller.drain()
    return freeze(controller.session)


def converse_now(controller: Controller, turns: int, *, solidify: bool = False) -> Session:
    """`converse` for the synchronous snapshot tests (they run the app in their own loop)."""
    return asyncio.run(converse(controller, turns, solidify=solidify))


def freeze(session: Session, at: datetime = T0) -> Session:
    """Fixed times and timings, so pictures and assertions repeat."""
    session.created_at = at
    session.updated_at = at + timedelta(minutes=session.turn)
    for message in session.messages:
        message.created_at = at + timedelta(minutes=message.turn)
    for cost in session.metrics.llm_calls:
        cost.seconds = round(0.5 + 0.3 * cost.calls, 1)
        cost.ttft_ms = 120.0
    for call in session.calls:
        call.ms = 100.0 * call.attempt
        call.ttft_ms = 40.0 if call.purpose in ("generation", "refinement") else None
    return session


def write_session(session: Session) -> None:
    """Put a session file in place exactly as given (the store would stamp updated_at)."""
    SessionStore()  # creates the folder with its permissions
    path = sessions_dir() / f"{session.id}.json"
    path.write_bytes(encode_document(session))
    path.chmod(0o600)


def write_broken(name: str = "20250301-100000-bad000", content: bytes = b"{not json") -> None:
    SessionStore()
    (sessions_dir() / f"{name}.json").write_bytes(content)


class FlakyProvider(OfflineProvider):
    """Fails every call with a connection error while `failing`; otherwise the offline demo."""

    def __init__(self, message: str = "connection refused (http://127.0.0.1:9)") -> None:
        super().__init__()
        self.failing = True
        self.message = message

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        if self.failing:
            raise ProviderError(self.message, kind="connection", retryable=True)
        async for event in super().stream(request):
            yield event


class GatedProvider(OfflineProvider):
    """The offline demo, except that the n-th refinement streams a few words and then waits
    for `gate` — a turn caught in the middle of refining."""

    def __init__(self, pause_at_refinement: int = 2) -> None:
        super().__init__()
        self.armed = False
        self.pause_at = pause_at_refinement
        self.refinements = 0
        self.gate = asyncio.Event()
        # What the paused refinement streamed before it stopped, once it is waiting.
        self.paused_text: str | None = None

    def answer(self, request: LLMRequest, context: CallContext) -> str:
        if self.armed and request.purpose == "generation":
            # A first draft that proposes the option the user just rejected: the first
            # refinement improves on it, so the pipeline goes on to a second one.
            return "I would still use MongoDB; it is the simplest path."
        return super().answer(request, context)

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        if self.armed and request.purpose == "refinement":
            self.refinements += 1
            if self.refinements == self.pause_at:
                async for event in self._paused(request):
                    yield event
                return
        async for event in super().stream(request):
            yield event

    async def _paused(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        parts: list[str] = []
        async for event in super().stream(request):
            if len(parts) == 3:
                self.paused_text = "".join(parts)
                await self.gate.wait()
            if isinstance(event, TextDelta):
                parts.append(event.text)
            yield event


async def wait_for(pilot: Any, condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Let the app run until `condition()` holds (a turn reached a stage, a worker ended)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.02)


async def send_message(pilot: Any, text: str) -> None:
    """Type `text` into the composer, send it, and let the turn's workers finish."""
    pilot.app.main.composer.load_text(text)
    await pilot.press("enter")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def entry_texts(app: RcmApp, kind: str) -> list[str]:
    """The Markdown source of every transcript entry of one kind (user, assistant, ...)."""
    from textual.widgets import Markdown

    from rcm_tui.ui.widgets.chat import ChatEntry

    return [
        entry.query_one(Markdown).source
        for entry in app.main.chat.query(ChatEntry)
        if entry.kind == kind
    ]


def notice_texts(app: RcmApp) -> list[str]:
    from rcm_tui.ui.widgets.chat import NoticeLine

    return [line.text for line in app.main.chat.query(NoticeLine)]

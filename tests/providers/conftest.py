"""Fixtures for the HTTP-level provider tests: a scripted loopback server and a clock-free
retry policy that records the waits it would have slept."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rcm_tui.core.llm import Finished, LLMProvider, LLMRequest, ProviderError, TextDelta
from rcm_tui.providers.base import RetryPolicy

from .fake_server import FakeServer


class RecordingSleep:
    """Stands in for asyncio.sleep: remembers how long each retry would have waited."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


@pytest.fixture
def sleeps() -> RecordingSleep:
    return RecordingSleep()


def recorded_policy(sleeps: RecordingSleep, max_retries: int) -> RetryPolicy:
    # random() == 0 means no jitter, so the backoff waits are exactly 0.5, 1, 2 ...
    return RetryPolicy(max_retries=max_retries, sleep=sleeps, random=lambda: 0.0)


class Outcome:
    """What a consumer of `provider.stream` saw: the deltas, the end, or the error."""

    def __init__(self) -> None:
        self.deltas: list[str] = []
        self.finished: Finished | None = None
        self.error: ProviderError | None = None

    @property
    def text(self) -> str:
        return "".join(self.deltas)


async def run(provider: LLMProvider, request: LLMRequest) -> Outcome:
    outcome = Outcome()
    try:
        async for event in provider.stream(request):
            if isinstance(event, TextDelta):
                outcome.deltas.append(event.text)
            else:
                assert outcome.finished is None, "more than one Finished"
                outcome.finished = event
    except ProviderError as exc:
        outcome.error = exc
    return outcome

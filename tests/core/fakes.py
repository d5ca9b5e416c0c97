"""Test doubles for the provider protocol: scripted answers per purpose, failures on demand."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from rcm_tui.core.llm import (
    Finished,
    LLMRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    Usage,
)
from rcm_tui.providers.offline import OfflineProvider

Answer = str | ProviderError | Callable[[LLMRequest], str]


@dataclass
class ScriptedProvider:
    """Answers each purpose from its own queue; falls back to the offline provider.

    `log` records every request in order, so tests can check what was asked and when.
    """

    answers: dict[str, list[Answer]] = field(default_factory=dict)
    name: str = "scripted"
    model: str = "scripted-model"
    label: str = "scripted"
    chunk: int = 5
    delay: float = 0.0
    parallel_calls: bool = True
    log: list[LLMRequest] = field(default_factory=list)
    events: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._offline = OfflineProvider()

    async def aclose(self) -> None:
        return None

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        self.log.append(request)
        self.events.append(f"start:{request.purpose}")
        queue = self.answers.get(request.purpose)
        if queue:
            answer = queue.pop(0)
            if isinstance(answer, ProviderError):
                self.events.append(f"fail:{request.purpose}")
                raise answer
            text = answer(request) if callable(answer) else answer
        else:
            parts = [e.text async for e in self._offline.stream(request)
                     if isinstance(e, TextDelta)]
            text = "".join(parts)
        for i in range(0, len(text), self.chunk):
            if self.delay:
                await asyncio.sleep(self.delay)
            if i == 0:
                self.events.append(f"first-token:{request.purpose}")
            yield TextDelta(text[i:i + self.chunk])
        self.events.append(f"end:{request.purpose}")
        yield Finished(Usage(prompt_tokens=self.count_tokens(request),
                             completion_tokens=len(text) // 4, cached_tokens=40))

    def count_tokens(self, request: LLMRequest) -> int:
        """The prompt's size as this fake's tokenizer sees it: four characters a token."""
        return sum(len(m.content) for m in request.messages) // 4 + 4 * len(request.messages)

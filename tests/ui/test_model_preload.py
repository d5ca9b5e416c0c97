"""The in-process model loads after the first frame, while the user types; the header says so,
and a message sent during the load waits for it instead of being planned without the model."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator

from rcm_tui.config import load_settings
from rcm_tui.controller import Controller, ProviderPair
from rcm_tui.core import prompts
from rcm_tui.core.llm import ChatMessage, LLMRequest, StreamEvent
from rcm_tui.providers.offline import OfflineProvider
from rcm_tui.store import SessionStore
from rcm_tui.ui.app import RcmApp
from rcm_tui.ui.widgets.status import SessionHeader

from .conftest import wait_for


class SlowLoadingModel(OfflineProvider):
    """A local model whose load takes as long as the test says."""

    name = "local"
    label = "local · tiny (embedded)"

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.loaded = False
        self.streamed_before_load = False

    def preload(self, head: list[ChatMessage] | None = None) -> None:
        self.head = head
        self.release.wait(10)
        self.loaded = True

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        self.streamed_before_load |= not self.loaded
        async for event in super().stream(request):
            yield event


def local_app(model: SlowLoadingModel) -> RcmApp:
    controller = Controller(
        load_settings(None, {"provider": "local"}),
        SessionStore(),
        providers=ProviderPair(model, model),
    )
    return RcmApp(controller)


async def test_the_header_shows_the_load_and_the_first_message_waits_for_it() -> None:
    model = SlowLoadingModel()
    app = local_app(model)
    async with app.run_test(size=(120, 36)) as pilot:
        header = app.main.query_one(SessionHeader)
        await wait_for(pilot, lambda: header.load_state == "loading model…")
        assert "loading model…" in header.render().plain

        await pilot.press(*"Which database?")
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert not model.streamed_before_load and app.controller.session.turn == 1

        model.release.set()
        await wait_for(pilot, lambda: header.load_state == "" and not app.main.busy)
        assert model.loaded and not model.streamed_before_load
        # The system prompt every turn starts with was handed over to be read in advance.
        assert model.head == [ChatMessage("system", prompts.SYSTEM_PROMPT)]
        assert [m.role for m in app.controller.session.messages] == ["user", "assistant"]
        assert "loading" not in header.render().plain


async def test_a_remote_or_demo_provider_loads_nothing_and_shows_no_load() -> None:
    app = RcmApp(Controller(load_settings(None, {"provider": "offline"}), SessionStore()))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.2)
        assert app.main.query_one(SessionHeader).load_state == ""
        assert await app.controller.preload() is None

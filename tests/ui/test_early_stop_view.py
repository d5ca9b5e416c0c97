"""What the chat shows when a small model's sample is stopped at a proposal of a rejected
option: the cut draft leaves the screen, the whole next attempt stays, and its caption says
the option was refined away (core/turn/early_stop.py)."""

from __future__ import annotations

from textual.widgets import Static

from rcm_tui.controller import ProviderPair
from rcm_tui.core.call_context import CallContext
from rcm_tui.core.llm import LLMRequest
from rcm_tui.providers.offline import OfflineProvider
from rcm_tui.ui.app import RcmApp

from .conftest import entry_texts, make_controller, send_message

PROPOSES = (
    "MongoDB would be my pick for the ledger. It scales writes across shards, and its "
    "documents map well onto transfers."
)
CLEAN = "PostgreSQL: strict ACID, serializable transactions, and 2,000 writes a second."


class SmallDemo(OfflineProvider):
    """The offline demo as a 135M model would be seen (lean profile, one call at a time),
    whose first sample of the second turn proposes the option the user rejected."""

    parameter_count = 135_000_000
    parallel_calls = False

    def answer(self, request: LLMRequest, context: CallContext) -> str:
        if context.turn == 2 and request.purpose == "generation":
            return PROPOSES
        if context.turn == 2 and request.purpose == "refinement":
            return CLEAN
        return super().answer(request, context)



async def test_a_stopped_sample_is_replaced_by_the_whole_next_attempt() -> None:
    model = SmallDemo()
    controller = make_controller(providers=ProviderPair(model, model))
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await send_message(pilot, "Let's not use MongoDB, our compliance team wants SQL.")
        await send_message(pilot, "Which database then?")

        replies = entry_texts(app, "assistant")
        assert replies[-1] == CLEAN
        assert not any("MongoDB would be my pick" in r for r in replies)
        assert not app.main.chat.query(".-streaming")
        record = controller.session.quality_for(2)
        assert record is not None and (record.attempts, record.shown_attempt) == (2, 2)
        assert any("stopped at a sentence proposing MongoDB" in c.note
                   for c in controller.session.calls)
        caption = app.main.chat.query(".-assistant").last().query_one(".meta", Static)
        assert "MongoDB (refined away)" in str(caption.render())

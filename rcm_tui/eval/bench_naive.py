"""The bench's `sequential` mode: a naive layer that analyses, then generates without
streaming, then judges, and shows the reply only after the judge."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from ..core import heuristics, prompts
from ..core.call_context import CallContext, calling
from ..core.instructions import analysis_instruction, judge_instruction
from ..core.ledger import apply_analysis, ledger_snapshot
from ..core.llm import ChatMessage, LLMProvider, LLMRequest, complete
from ..core.llm_analysis import parse_analysis
from ..core.models import Message, Session
from ..core.quality import parse_judge
from ..core.structured import StructuredOutputError
from ..providers.offline import scripted_reply
from ..store import SessionStore
from .bench_modes import ModeRun, TurnSample


class NaiveLayer:
    """Analyse, then generate without streaming, then judge: the reply appears after the judge.

    It uses the same provider, instructions (core/instructions.py) and ledger block
    (prompts.ledger_block) as the layer, and rebuilds the whole prompt (ledger in the system
    message) on every call, as a layer that does not think about latency or prefix caches would.
    """

    def __init__(self, provider: LLMProvider, store: SessionStore) -> None:
        self.provider = provider
        self.store = store
        self.session = Session(title="bench: sequential")

    async def turn(self, user: str, scripted: str | None) -> TurnSample:
        started = time.perf_counter()
        session = self.session
        turn = session.turn + 1
        session.messages.append(Message(role="user", content=user, turn=turn))
        self.store.save(session)
        await self._analyse(user, turn)
        messages = self._prompt(user)
        # What the calls are about, for the offline demo (a model reads the prompt instead).
        context = CallContext(turn=turn, ledger=ledger_snapshot(session), user_message=user)
        with calling(context), scripted_reply(scripted):
            reply = await complete(self.provider, LLMRequest(messages, "generation"))
        with calling(context):
            await self._judge(messages, reply.text)
        shown = time.perf_counter()
        session.messages.append(Message(role="assistant", content=reply.text.strip(), turn=turn))
        self.store.save(session)
        ended = time.perf_counter()
        return TurnSample((shown - started) * 1000, (ended - started) * 1000, calls=3)

    def _history(self) -> list[ChatMessage]:
        return [ChatMessage(m.role, m.content) for m in self.session.messages[:-1]]

    def _prompt(self, user: str) -> list[ChatMessage]:
        ledger = prompts.ledger_block(ledger_snapshot(self.session), status_requested=False)
        system = ChatMessage("system", f"{prompts.SYSTEM_PROMPT}\n\n{ledger}")
        return [system, *self._history(), ChatMessage("user", user)]

    async def _analyse(self, user: str, turn: int) -> None:
        session = self.session
        view = ledger_snapshot(session)
        instruction = analysis_instruction(view, user)
        request = LLMRequest(
            [ChatMessage("system", prompts.SYSTEM_PROMPT), ChatMessage("user", instruction)],
            "analysis",
            temperature=0.0,
            json_schema=prompts.ANALYSIS_SCHEMA,
        )
        with calling(CallContext(turn=turn, ledger=view, user_message=user)):
            result = await complete(self.provider, request)
        try:
            analysis = parse_analysis(result.text, user, view)
        except StructuredOutputError:
            analysis = heuristics.analyse_message(user, turn, view)
        apply_analysis(session, analysis, turn)

    async def _judge(self, messages: list[ChatMessage], reply: str) -> None:
        instruction, pending_ids = judge_instruction(ledger_snapshot(self.session))
        request = LLMRequest(
            [*messages, ChatMessage("assistant", reply), ChatMessage("user", instruction)],
            "judge",
            temperature=0.0,
            json_schema=prompts.JUDGE_SCHEMA,
        )
        result = await complete(self.provider, request)
        # A naive layer shows the reply even when the verdict is unusable; only time matters.
        with contextlib.suppress(StructuredOutputError):
            parse_judge(result.text, pending_ids)


async def run_sequential_mode(
    provider: LLMProvider,
    turns: list[tuple[str, str | None]],
    *,
    store: SessionStore,
    tick: Callable[[int], None],
) -> ModeRun:
    layer = NaiveLayer(provider, store)
    run = ModeRun()
    for number, (user, reply) in enumerate(turns, start=1):
        run.samples.append(await layer.turn(user, reply))
        tick(number)
    return run

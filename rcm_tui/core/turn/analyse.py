"""What the user's message changes in the ledger: the heuristic analysis before the reply,
and the LLM analysis beside it (or after it, on a backend that serves one call at a time)."""

from __future__ import annotations

import asyncio
import copy

from .. import heuristics, prompts
from ..analysis import Analysis
from ..context import answered_turns, heuristic_summary, title_from
from ..events import LedgerChanged
from ..instructions import analysis_instruction
from ..ledger import apply_analysis, ledger_snapshot
from ..llm import ChatMessage, LLMRequest, ProviderError
from ..llm_analysis import parse_analysis
from ..models import Topic
from ..structured import StructuredOutputError
from .calls import call, prefix_note
from .engine import Engine
from .state import Turn


def analyse_heuristically(engine: Engine, turn: Turn) -> None:
    session = turn.session
    analysis = heuristics.analyse_message(turn.user_text, turn.number, ledger_snapshot(session))
    changes = apply_analysis(session, analysis, turn.number)
    if analysis.topic_shift:
        _close_topic(turn)
    if changes:
        engine.emit(LedgerChanged(turn.number, "; ".join(changes)))


def _close_topic(turn: Turn) -> None:
    """A topic shift closes the running topic with a short summary of its turns."""
    session = turn.session
    start = session.topics[-1].turn if session.topics else 1
    pairs = [p for p in answered_turns(session, turn.number) if p[0].turn >= start]
    if session.topics:
        session.topics[-1].summary = heuristic_summary(pairs)[:400]
    else:
        first = pairs[0][0].content if pairs else ""
        session.topics.append(
            Topic(turn=start, title=title_from(first), summary=heuristic_summary(pairs)[:400])
        )
    current = next((m.content for m in session.messages if m.turn == turn.number), "")
    session.topics.append(Topic(turn=turn.number, title=title_from(current)))


class LLMAnalysis:
    """The turn's LLM analysis: started at most once, merged once it is in, else cancelled."""

    def __init__(self, engine: Engine, turn: Turn) -> None:
        self.engine = engine
        self.turn = turn
        self.task: asyncio.Task[Analysis | None] | None = None

    def start(self, reply: str | None = None) -> None:
        """Without a reply, beside the reply's generation (reading the prompt's prefix); with
        one, as an extension of the reply's own prompt, which a KV cache holds whole."""
        if self.task is None and self.engine.llm_analysis_enabled():
            # A copy: the analysis reads the prompt as it was when it started.
            turn = copy.copy(self.turn)
            self.task = asyncio.create_task(_llm_analyse(self.engine, turn, reply))

    async def apply(self) -> None:
        if self.task is None:
            return
        analysis = await self.task
        if analysis is None:
            return
        changes = apply_analysis(self.turn.session, analysis, self.turn.number)
        if changes:
            self.engine.emit(LedgerChanged(self.turn.number, "; ".join(changes)))

    def cancel(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()


async def _llm_analyse(engine: Engine, turn: Turn, reply: str | None) -> Analysis | None:
    session, prompt = turn.session, turn.prompt
    limit = engine.settings.budget.ledger_requirements
    tail = [ChatMessage("user", analysis_instruction(turn.ledger, turn.user_text, limit))]
    head = prompt.prefix if reply is None else [*prompt.messages, ChatMessage("assistant", reply)]
    request = LLMRequest(
        [*head, *tail],
        "analysis",
        max_tokens=engine.settings.analysis_max_tokens,
        temperature=0.0,
        json_schema=prompts.ANALYSIS_SCHEMA,
    )
    for attempt in (1, 2):
        try:
            text, record, _usage = await call(
                engine,
                session,
                turn.number,
                engine.analyst,
                request,
                turn.context(),
                attempt=attempt,
                prefix_note=prefix_note(prompt),
                shown_messages=tail,
            )
        except ProviderError as exc:
            engine.fallback_notice(turn, "analysis", exc.message)
            return None
        try:
            analysis = parse_analysis(text, turn.user_text, turn.ledger)
        except StructuredOutputError as exc:
            record.fallback = attempt == 2
            record.error = str(exc)
            if attempt == 2:
                session.metrics.fallbacks += 1
                engine.fallback_notice(turn, "analysis", str(exc))
                return None
            continue
        if analysis.discarded:
            session.metrics.grounding_discarded += len(analysis.discarded)
            record.note = (
                record.note + f" · discarded {len(analysis.discarded)} ungrounded item(s)"
            ).strip(" ·")
        return analysis
    return None

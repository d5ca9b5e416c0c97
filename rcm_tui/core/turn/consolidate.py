"""Work beside and between turns: consolidating the conversation into a summary (in the
background, off the critical path) and solidifying it into a SOLIDIFIED block (on demand)."""

from __future__ import annotations

import asyncio
import logging

from .. import heuristics, prompts
from ..call_context import CallContext
from ..context import answered_turns, assemble, heuristic_summary, rejection_line
from ..events import LedgerChanged, Notice, StageChanged
from ..ledger import ledger_snapshot
from ..ledger_blocks import heuristic_solidified
from ..llm import ChatMessage, LLMRequest, ProviderError
from ..models import Session, Solidified
from .calls import call, prefix_note
from .engine import Engine
from .state import Turn

log = logging.getLogger("rcm_tui.pipeline")


def maybe_consolidate(engine: Engine, turn: Turn) -> None:
    """Start a consolidation in the background when one is due after this turn."""
    if not engine.settings.reliability:
        return
    interval = engine.settings.consolidation_interval
    due = interval > 0 and turn.number % interval == 0
    # Over budget, the prompt leans on the summary; it needs a new one only when the
    # stored summary no longer covers the turns the prompt summarises.
    prompt = turn.prompt
    stale = (
        prompt.over_budget
        and turn.session.consolidated_through_turn < prompt.summarised_through
    )
    if not (due or stale):
        return
    task = asyncio.create_task(_consolidate(engine, turn.session, turn.number))
    engine.background.add(task)
    task.add_done_callback(engine.background.discard)


async def _consolidate(engine: Engine, session: Session, number: int) -> None:
    pairs = answered_turns(session, number + 1)
    if not pairs:
        return
    if engine.lean:
        _store_summary(engine, session, number, heuristic_summary(pairs, _summary_chars(engine)))
        return
    engine.emit(Notice(f"consolidating turns 1–{number} in the background"))
    words = engine.settings.summary_words
    instruction = prompts.CONSOLIDATION_INSTRUCTION.format(
        first=pairs[0][0].turn, last=number, words=words
    )
    # The conversation is the next turn's own prefix (an earlier summary plus the verbatim
    # turns when over budget), so the provider's cache serves it and the summary builds on
    # the previous one.
    prefix = assemble(session, "", number + 1, engine.settings.budget).prefix
    request = LLMRequest(
        [*prefix, ChatMessage("user", instruction)],
        "consolidation",
        max_tokens=words * 2,
        temperature=0.2,
    )
    context = CallContext(
        turn=number,
        ledger=ledger_snapshot(session),
        summary_fallback=heuristic_summary(pairs, _summary_chars(engine)),
    )
    summary = ""
    fallback = False
    try:
        text, record, _usage = await call(
            engine,
            session,
            number,
            engine.analyst,
            request,
            context,
            prefix_note=f"prefix: the conversation through turn {number}",
            shown_messages=request.messages[-1:],
        )
        summary = text.strip()
        if not _summary_usable(summary, session):
            record.fallback = fallback = True
            record.error = "summary too short or missing the ledger's key terms"
    except ProviderError as exc:
        fallback = True
        log.info("consolidation fell back: %s", exc.message)
    except asyncio.CancelledError:
        return
    if fallback:
        session.metrics.fallbacks += 1
        summary = heuristic_summary(pairs, _summary_chars(engine))
    _store_summary(engine, session, number, summary)


def _summary_chars(engine: Engine) -> int:
    # More than a whole prompt (~4 characters a token) could never be sent.
    return engine.settings.budget.prompt * 4


def _store_summary(engine: Engine, session: Session, number: int, summary: str) -> None:
    session.consolidated_context = summary
    session.consolidated_through_turn = number
    if number not in session.metrics.consolidation_turns:
        session.metrics.consolidation_turns.append(number)
    engine.save(session)
    engine.emit(LedgerChanged(number, "context consolidated"))


def _summary_usable(summary: str, session: Session) -> bool:
    if len(summary) < 40:
        return False
    key_terms = [r.option for r in session.active_rejections()]
    return all(heuristics.option_matches(term, summary) for term in key_terms[:3])


async def solidify(engine: Engine, session: Session) -> Solidified:
    number = session.turn
    engine.emit(StageChanged(number, "solidifying"))
    prompt = assemble(session, prompts.SOLIDIFY_INSTRUCTION, number + 1, engine.settings.budget)
    request = LLMRequest(
        prompt.messages,
        "solidify",
        max_tokens=400,
        temperature=0.0,
    )
    fallback = False
    text = ""
    try:
        text, _record, _usage = await call(
            engine,
            session,
            number,
            engine.analyst,
            request,
            CallContext(turn=number, ledger=ledger_snapshot(session)),
            prefix_note=prefix_note(prompt),
            shown_messages=prompt.messages[len(prompt.prefix) :],
        )
    except ProviderError as exc:
        fallback = True
        engine.emit(Notice(f"solidify: {exc.message}; built from the ledger instead", "warning"))
    text = text.strip()
    if fallback or len(text) < 20:
        text = heuristic_solidified(session)
        fallback = True
    else:
        text = _complete_rejections(text, session)
    block = Solidified(text=text, turn=number, fallback=fallback)
    session.solidified = block
    engine.save(session)
    engine.emit(LedgerChanged(number, "SOLIDIFIED updated"))
    engine.emit(StageChanged(number, "done"))
    return block


def _complete_rejections(text: str, session: Session) -> str:
    """Every active rejection must appear in SOLIDIFIED; add any the model left out."""
    missing = [
        rejected
        for rejected in ledger_snapshot(session).rejected
        if not heuristics.option_matches(rejected.option, text)
    ]
    if not missing:
        return text
    added = "\n".join(rejection_line(rejected) for rejected in missing)
    return f"{text}\nREJECTED (from the ledger, not named by the model):\n{added}"

"""One turn of the reliability pipeline: analyse → generate (streamed) → evaluate → refine.

Latency design: the first token waits only for the heuristic analysis (microseconds). The LLM
analysis starts as soon as generation is streaming and its result feeds the evaluation;
consolidation runs in the background after the turn and never delays the next reply.
Every step but generation has a heuristic path: a failed or malformed structured answer falls
back for that step only and is recorded as a fallback. A failed generation is an error — no
text is ever stored as the model's reply that the model did not write.

This module orchestrates; each step lives in its own module of this package and reads the
running turn from one `Turn` object.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ..events import StageChanged, TurnFailed, TurnFinished
from ..ledger import ledger_snapshot
from ..llm import ChatMessage, LLMRequest, ProviderError
from ..models import Session, Solidified
from . import consolidate
from .after import finish_turn
from .analyse import LLMAnalysis, analyse_heuristically
from .budget import OVERFLOW_REFITS, generation_prompt
from .calls import turn_cost
from .consolidate import maybe_consolidate
from .engine import Engine
from .evaluate import evaluate_and_refine
from .generate import stream_draft
from .state import BestDraft, Turn, TurnOutcome

log = logging.getLogger("rcm_tui.pipeline")


class Pipeline(Engine):
    """The engine and the turn it runs: what the controller, the eval and the bench drive."""

    def stable_head(self) -> list[ChatMessage]:
        """The start every generation prompt of a session shares (its system prompt): a
        provider with a prefix cache can read it before the first message arrives."""
        return [ChatMessage("system", self.system_prompt())]

    async def drain(self) -> None:
        """Wait for background work (consolidation) to finish, e.g. before exiting."""
        while self.background:
            await asyncio.gather(*list(self.background), return_exceptions=True)

    async def cancel_background(self) -> None:
        """Stop background work now (quitting). Its input is saved; a consolidation that did
        not finish is due again on a later turn, because the stored summary still ends where
        it did."""
        tasks = list(self.background)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def solidify(self, session: Session) -> Solidified:
        return await consolidate.solidify(self, session)

    # -- one turn --------------------------------------------------------------------------
    async def run_turn(self, session: Session, user_text: str) -> TurnOutcome:
        """Run the turn for the newest user message (already stored and saved)."""
        started = time.perf_counter()
        turn = await self._open_turn(session, user_text)
        analysis = LLMAnalysis(self, turn)
        try:
            best = await self._reply(turn, analysis)
        except ProviderError as exc:
            return self._fail(turn, exc)
        except asyncio.CancelledError:
            self.emit(StageChanged(turn.number, "cancelled"))
            raise
        finally:
            analysis.cancel()
        return self._close_turn(turn, best, started)

    async def _open_turn(self, session: Session, user_text: str) -> Turn:
        number = session.turn
        turn_cost(session, number)
        await self.backend.prepare(session, self.generator)
        self.emit(StageChanged(number, "analysing"))
        turn = Turn(session, number, user_text, self.status_due(number))
        analyse_heuristically(self, turn)
        turn.ledger = ledger_snapshot(session)
        turn.prompt = generation_prompt(self, turn)
        return turn

    async def _reply(self, turn: Turn, analysis: LLMAnalysis) -> BestDraft:
        """The kept reply; raises ProviderError when there is none to show."""
        # A backend that serves calls in parallel gets the analysis right away, beside the
        # reply. One that runs one call at a time (the in-process model) gets it after the
        # reply, as an extension of the reply's own prompt, so it never delays the first
        # token and finds the whole prompt in the KV cache.
        parallel = not self.gate.serial
        if parallel:
            analysis.start()
        first = await self._first_draft(turn)
        self.announce_profile()
        analysis.start(None if parallel else first)
        await analysis.apply()
        best = await evaluate_and_refine(self, turn, first)
        if not best.draft.text:
            raise ProviderError(
                f"the model only copied the ledger back ({best.record.attempts} attempts); "
                "nothing of its own to show",
                kind="invalid_response",
            )
        return best

    async def _first_draft(self, turn: Turn) -> str:
        budget = self.settings.budget
        refits_left = OVERFLOW_REFITS
        while True:
            planned = budget.prompt
            request = LLMRequest(turn.prompt.messages, "generation")
            try:
                return await stream_draft(self, turn, request)
            except ProviderError:
                # A prompt longer than the server's window: plan within it and resend.
                if not refits_left or budget.prompt >= planned:
                    raise
            refits_left -= 1
            turn.prompt = generation_prompt(self, turn)

    def _fail(self, turn: Turn, exc: ProviderError) -> TurnOutcome:
        message = f"generation failed: {exc.message}"
        log.warning("turn %s failed: %s", turn.number, exc.message)
        self.save(turn.session)
        self.emit(StageChanged(turn.number, "failed"))
        self.emit(TurnFailed(turn.number, message, exc.kind))
        return TurnOutcome(turn.number, False, error=message, error_kind=exc.kind)

    def _close_turn(self, turn: Turn, best: BestDraft, started: float) -> TurnOutcome:
        session = turn.session
        finish_turn(self, turn, best)
        self.profile_tracker.observe(session, turn.number)
        self.announce_profile()
        seconds = time.perf_counter() - started
        turn_cost(session, turn.number).seconds = round(seconds, 3)
        self.save(session)
        maybe_consolidate(self, turn)
        self.emit(StageChanged(turn.number, "done"))
        self.emit(TurnFinished(turn.number, seconds))
        return TurnOutcome(turn.number, True, best.draft.text, best.record)

"""One turn of the reliability pipeline: analyse → generate (streamed) → evaluate → refine.

Latency design: the first token waits only for the heuristic analysis (microseconds). The LLM
analysis starts as soon as generation is streaming and its result feeds the evaluation;
consolidation runs in the background after the turn and never delays the next reply.
Every step but generation has a heuristic path: a failed or malformed structured answer falls
back for that step only and is recorded as a fallback. A failed generation is an error — no
text is ever stored as the model's reply that the model did not write.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..config import Settings
from . import call_text, heuristics, prompts, small_model
from .analysis import Analysis
from .context import (
    AssembledPrompt,
    Budget,
    answered_turns,
    assemble,
    heuristic_summary,
    ledger_payload,
    messages_tokens,
    rejection_line,
    title_from,
)
from .echo import strip_copied_ledger
from .events import (
    CallFinished,
    LedgerChanged,
    Notice,
    PipelineEvent,
    QualityScored,
    ReplyDelta,
    ReplyShown,
    ReplyStarted,
    Stage,
    StageChanged,
    TurnFailed,
    TurnFinished,
)
from .instructions import analysis_instruction, judge_instruction
from .ledger import apply_analysis, ledger_view, mark_addressed, reject_option
from .ledger_blocks import heuristic_solidified, heuristic_status
from .llm import (
    ChatMessage,
    LLMProvider,
    LLMRequest,
    ProviderError,
    TextDelta,
    Usage,
)
from .llm_analysis import parse_analysis, rejection_grounded
from .markers import option_of, parse_markers
from .models import (
    CallPurpose,
    CallRecord,
    Message,
    QualityRecord,
    Session,
    Solidified,
    StatusBlock,
    Topic,
    TurnCost,
    graded,
)
from .profile import ProfileChoice, ProfileTracker
from .quality import (
    ReplyContext,
    Scores,
    combine,
    content_terms,
    heuristic_scores,
    overlap,
    parse_judge,
    to_record,
    update_length_metrics,
)
from .serving import BackendFacts, CallGate
from .structured import StructuredOutputError

log = logging.getLogger("rcm_tui.pipeline")

# Call records keep their prompt and response text for this many recent turns; older turns
# keep only their figures, so a 200-turn session file stays small and fast to save.
CALL_TEXT_TURNS = 30
# Context overflow: resend a refused first draft at most this often, each time planning to
# this share of what the server said fits (the token estimate is approximate).
OVERFLOW_REFITS = 2
WINDOW_MARGIN = 0.85
MIN_PROMPT_TOKENS = 256
# Sampling temperature of an attempt after a reply that repeated the previous one (or, from a
# small model, any flagged reply: its next attempt is a fresh sample of the same prompt).
REPEAT_TEMPERATURE = 0.8
# Token-estimate calibration: bounds of the learned factor and the weight of each new sample.
SCALE_MIN, SCALE_MAX, SCALE_WEIGHT = 0.5, 2.0, 0.5
RESPONSE_KEEP_CHARS = 8000
# The settings' defaults are the config's (documented in config.example.toml), stated once.
_CONFIG = Settings()


@dataclass
class PipelineSettings:
    reliability: bool = True
    llm_analysis: bool = _CONFIG.llm_analysis
    llm_judge: bool = _CONFIG.llm_judge
    # "lean" spends model calls only on the reply (and a fresh sample on re-advocacy, a
    # premature answer or a copy; see small_model.py); analysis, judging and summaries are
    # heuristic. "auto" picks lean for a model
    # below `small_model_params` parameters, whose structured answers measured worse than the
    # heuristics (SmolLM2-135M: every judge verdict out of range, most analysis ungrounded).
    profile: str = _CONFIG.profile
    small_model_params: int = _CONFIG.small_model_params
    # "as_sent": history keeps each user message with the ledger block it was sent with and
    # the newest gets only what changed (see context.ledger_update); "auto" uses it on
    # backends that serve one call at a time, where re-reading a prompt costs wall-clock.
    ledger_layout: str = _CONFIG.context.ledger_layout
    ledger_refresh_turns: int = _CONFIG.context.ledger_refresh_turns
    quality_threshold: float = _CONFIG.quality_threshold
    max_refinement_attempts: int = _CONFIG.max_refinement_attempts
    consolidation_interval: int = _CONFIG.consolidation_interval
    status_interval: int = _CONFIG.status_interval
    budget: Budget = field(
        default_factory=lambda: Budget(
            _CONFIG.context.budget_tokens,
            _CONFIG.context.reply_reserve_tokens,
            _CONFIG.context.recent_turns,
        )
    )
    bloat_moderate: float = _CONFIG.bloat_moderate
    analysis_max_tokens: int = 400
    # Room for the scores, three issues and a verdict per rejected option (8 at most).
    judge_max_tokens: int = 420
    summary_words: int = 180


@dataclass
class Draft:
    attempt: int
    text: str
    scores: Scores


@dataclass
class TurnOutcome:
    turn: int
    ok: bool
    reply: str = ""
    quality: QualityRecord | None = None
    error: str | None = None
    error_kind: str | None = None


@dataclass
class BestDraft:
    draft: Draft
    record: QualityRecord


Emit = Callable[[PipelineEvent], None]


class Pipeline:
    def __init__(
        self,
        generator: LLMProvider,
        analyst: LLMProvider,
        settings: PipelineSettings,
        emit: Emit | None = None,
        save: Callable[[Session], None] | None = None,
    ) -> None:
        self.generator = generator
        self.analyst = analyst
        self.settings = settings
        self._emit_cb = emit
        self._save_cb = save
        self._background: set[asyncio.Task[None]] = set()
        # A backend that serves one request at a time must never see two: not even the
        # background consolidation beside the next turn's reply (a llama-cpp-python server
        # cuts the running stream off for the newcomer).
        # A server that does so without saying it (the setting left at its default) is found
        # out by how it fails, and the gate turns serial then (see core/serving.py).
        parallel = all(getattr(p, "parallel_calls", True) for p in (generator, analyst))
        self._gate = CallGate(serial=not parallel)
        self._backend = BackendFacts(self._gate, self.emit)
        self._noticed: set[tuple[str, int, str]] = set()
        self._profile = ProfileTracker(settings.profile, settings.small_model_params)

    # -- plumbing --------------------------------------------------------------------------
    def emit(self, event: PipelineEvent) -> None:
        if self._emit_cb is not None:
            self._emit_cb(event)

    @property
    def _one_call(self) -> bool:
        return self._gate.serial

    def save(self, session: Session) -> None:
        if self._save_cb is not None:
            self._save_cb(session)

    def stable_head(self) -> list[ChatMessage]:
        """The start every generation prompt of a session shares (its system prompt): a
        provider with a prefix cache can read it before the first message arrives."""
        return [ChatMessage("system", self._system_prompt())]

    def _system_prompt(self) -> str:
        if not self.settings.reliability:
            return prompts.PLAIN_SYSTEM_PROMPT
        return prompts.SMALL_MODEL_SYSTEM_PROMPT if self.lean else prompts.SYSTEM_PROMPT

    async def drain(self) -> None:
        """Wait for background work (consolidation) to finish, e.g. before exiting."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    async def cancel_background(self) -> None:
        """Stop background work now (quitting). Its input is saved; a consolidation that did
        not finish is due again on a later turn, because the stored summary still ends where
        it did."""
        tasks = list(self._background)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _record_call(self, session: Session, record: CallRecord, usage: Usage) -> None:
        record.prompt_tokens = usage.prompt_tokens
        record.completion_tokens = usage.completion_tokens
        record.cached_tokens = usage.cached_tokens
        record.response = record.response[:RESPONSE_KEEP_CHARS]
        session.calls.append(record)
        cost = _turn_cost(session, record.turn)
        cost.calls += 1
        cost.prompt_tokens += usage.prompt_tokens
        cost.completion_tokens += usage.completion_tokens
        cost.cached_tokens += usage.cached_tokens
        totals = session.metrics.tokens
        totals.prompt += usage.prompt_tokens
        totals.completion += usage.completion_tokens
        totals.cached += usage.cached_tokens
        if record.fallback:
            session.metrics.fallbacks += 1
        _prune_call_text(session)
        self.emit(CallFinished(record))

    async def _call(
        self,
        session: Session,
        provider: LLMProvider,
        request: LLMRequest,
        turn: int,
        *,
        attempt: int = 1,
        prefix_note: str = "",
        shown_messages: list[ChatMessage] | None = None,
    ) -> tuple[str, CallRecord, Usage]:
        """A non-streamed call, recorded. Raises ProviderError after recording the failure."""
        record = CallRecord(
            turn=turn,
            purpose=request.purpose,
            attempt=attempt,
            model=provider.model,
            prompt=call_text.dump_prompt(session, turn, shown_messages or request.messages),
            note=prefix_note,
        )
        started = time.perf_counter()
        try:
            result = await self._backend.complete(session, provider, request, record)
        except ProviderError as exc:
            record.ms = (time.perf_counter() - started) * 1000
            record.error = exc.message
            self._record_call(session, record, Usage())
            self._fit_window(exc, messages_tokens(request.messages), step_down=False)
            raise
        record.ms = result.ms
        record.ttft_ms = result.ttft_ms
        record.response = result.text
        self._record_call(session, record, result.usage)
        return result.text, record, result.usage

    # -- one turn --------------------------------------------------------------------------
    async def run_turn(
        self, session: Session, user_text: str, *, scripted_reply: str | None = None
    ) -> TurnOutcome:
        """Run the turn for the newest user message (already stored and saved)."""
        turn = session.turn
        started = time.perf_counter()
        _turn_cost(session, turn)
        await self._backend.prepare(session, self.generator)
        self.emit(StageChanged(turn, "analysing"))
        self._analyse_heuristically(session, user_text, turn)
        status_requested = self._status_due(turn)
        prompt = self._generation_prompt(session, user_text, turn, status_requested)
        hints = self._hints(session, user_text, turn, scripted_reply, status_requested)
        analysis_task: asyncio.Task[Analysis | None] | None = None

        def start_analysis(reply: str | None = None) -> None:
            nonlocal analysis_task
            if analysis_task is None and self._llm_analysis_enabled():
                analysis_task = asyncio.create_task(
                    self._llm_analyse(session, prompt, user_text, turn, hints, reply)
                )

        # A backend that serves calls in parallel gets the analysis right away, beside the
        # reply. One that runs one call at a time (the in-process model) gets it after the
        # reply, as an extension of the reply's own prompt, so it never delays the first
        # token and finds the whole prompt in the KV cache.
        parallel = not self._gate.serial
        if parallel:
            start_analysis()
        try:
            for refits_left in range(OVERFLOW_REFITS, -1, -1):
                planned = self.settings.budget.prompt
                try:
                    first = await self._stream_draft(
                        session, prompt.messages, turn, 1, "generation", hints, prompt
                    )
                    break
                except ProviderError as exc:
                    # A prompt longer than the server's window: plan within it and resend.
                    if not refits_left or self.settings.budget.prompt >= planned:
                        return self._fail(session, turn, exc)
                prompt = self._generation_prompt(session, user_text, turn, status_requested)
            self._announce_profile()
            start_analysis(None if parallel else first)
            if analysis_task is not None:
                await self._apply_llm_analysis(session, analysis_task, turn)
            best = await self._evaluate_and_refine(session, prompt, user_text, turn, first, hints)
            if not best.draft.text:
                copied = ProviderError(
                    f"the model only copied the ledger back ({best.record.attempts} attempts); "
                    "nothing of its own to show",
                    kind="invalid_response",
                )
                return self._fail(session, turn, copied)
        except asyncio.CancelledError:
            self.emit(StageChanged(turn, "cancelled"))
            raise
        finally:
            if analysis_task is not None and not analysis_task.done():
                analysis_task.cancel()
        self._finish_turn(session, turn, best.draft, best.record)
        self._profile.observe(session, turn)
        self._announce_profile()
        seconds = time.perf_counter() - started
        _turn_cost(session, turn).seconds = round(seconds, 3)
        self.save(session)
        self._maybe_consolidate(session, turn, prompt)
        self.emit(StageChanged(turn, "done"))
        self.emit(TurnFinished(turn, seconds))
        return TurnOutcome(turn, True, best.draft.text, best.record)

    def _calibrate(self, messages: list[ChatMessage], usage: Usage) -> None:
        """Learn how the backend's token count relates to our estimate, from a whole prompt."""
        estimated = messages_tokens(messages)
        if usage.estimated or usage.prompt_tokens <= 0 or estimated <= 0:
            return
        ratio = _token_ratio(usage.prompt_tokens, estimated)
        budget = self.settings.budget
        budget.scale = round(budget.scale + SCALE_WEIGHT * (ratio - budget.scale), 3)

    def _fit_window(self, exc: ProviderError, estimated: int, *, step_down: bool) -> None:
        """Learn a backend's context window from its overflow error and plan within it.

        Remote servers do not say their window up front (the local model does, and the
        controller starts within it). The window caps the budget, in the backend's tokens;
        the server's own count of the refused prompt calibrates our estimate, as reported
        usage does (never downwards: that count is known to be too many). A refused reply
        (`step_down`) shrinks the plan even when it looked small enough already; a refused
        analysis or judge call, whose instructions come on top of the plan, does not.
        """
        overflow = exc.overflow
        if overflow is None or not self.settings.reliability:
            return
        budget = self.settings.budget
        before = budget.prompt
        if overflow.prompt_tokens and estimated:
            budget.scale = max(budget.scale, _token_ratio(overflow.prompt_tokens, estimated))
        reserve = min(budget.reply_reserve, overflow.window // 3)
        total = min(budget.total, int((overflow.window - reserve) * WINDOW_MARGIN) + reserve)
        if total < reserve + MIN_PROMPT_TOKENS:
            return
        budget.total, budget.reply_reserve = total, reserve
        if budget.prompt >= before:
            if not step_down:
                return
            # Our plan already claimed to fit: the estimate runs low here; step down anyway.
            budget.total = reserve + int((total - reserve) * WINDOW_MARGIN)
        log.info("context overflow (%s); budget now %s tokens", exc.message, budget.total)
        self.emit(
            Notice(
                f"the model's context window is {overflow.window} tokens; prompts are now "
                f"planned within it (context.budget_tokens = {budget.total} starts there)",
                "warning",
            )
        )

    def _fail(self, session: Session, turn: int, exc: ProviderError) -> TurnOutcome:
        message = f"generation failed: {exc.message}"
        log.warning("turn %s failed: %s", turn, exc.message)
        self.save(session)
        self.emit(StageChanged(turn, "failed"))
        self.emit(TurnFailed(turn, message, exc.kind))
        return TurnOutcome(turn, False, error=message, error_kind=exc.kind)

    def _status_due(self, turn: int) -> bool:
        interval = self.settings.status_interval
        return self.settings.reliability and interval > 0 and turn % interval == 0

    def _llm_analysis_enabled(self) -> bool:
        return self.settings.reliability and self.settings.llm_analysis and not self.lean

    def _llm_judge_enabled(self) -> bool:
        return self.settings.reliability and self.settings.llm_judge and not self.lean

    @property
    def lean(self) -> bool:
        """Spend model calls on the reply only? (See PipelineSettings.profile.)"""
        return self.profile.name == "lean"

    @property
    def profile(self) -> ProfileChoice:
        """The profile that runs and why (the header shows it)."""
        return self._profile.choose(self.generator)

    def _announce_profile(self) -> None:
        """Say when a profile is decided rather than configured (a small model gets lean)."""
        text = self._profile.announcement(self.generator)
        if text is not None:
            self.emit(Notice(text))

    def _ledger_refresh(self) -> int | None:
        """Refresh interval of the as-sent layout, or None for a full block every turn."""
        layout = self.settings.ledger_layout
        if layout == "auto":
            layout = "as_sent" if self._one_call else "every_turn"
        return max(1, self.settings.ledger_refresh_turns) if layout == "as_sent" else None

    def _analyse_heuristically(self, session: Session, user_text: str, turn: int) -> None:
        view = ledger_view(session)
        analysis = heuristics.analyse_message(user_text, turn, view)
        changes = apply_analysis(session, analysis, turn)
        if analysis.topic_shift:
            self._close_topic(session, turn)
        if changes:
            self.emit(LedgerChanged(turn, "; ".join(changes)))

    def _close_topic(self, session: Session, turn: int) -> None:
        """A topic shift closes the running topic with a short summary of its turns."""
        start = session.topics[-1].turn if session.topics else 1
        pairs = [p for p in answered_turns(session, turn) if p[0].turn >= start]
        if session.topics:
            session.topics[-1].summary = heuristic_summary(pairs)[:400]
        else:
            first = pairs[0][0].content if pairs else ""
            session.topics.append(
                Topic(turn=start, title=title_from(first), summary=heuristic_summary(pairs)[:400])
            )
        current = next((m.content for m in session.messages if m.turn == turn), "")
        session.topics.append(Topic(turn=turn, title=title_from(current)))

    def _generation_prompt(
        self, session: Session, user_text: str, turn: int, status_requested: bool
    ) -> AssembledPrompt:
        if not self.settings.reliability:
            return _plain_prompt(session, user_text, turn)
        refresh = self._ledger_refresh()
        checklist = small_model.checklist(session, turn) if self.lean else None
        prompt = assemble(
            session,
            user_text,
            turn,
            self.settings.budget,
            status_requested=status_requested,
            chunk=max(1, self.settings.consolidation_interval),
            ledger_refresh_turns=refresh,
            remind_rejected=not self.lean,
            system_prompt=self._system_prompt(),
            checklist=checklist,
        )
        if refresh is not None or checklist is not None:
            # Kept with the message so later prompts repeat it exactly as sent.
            message = next(
                (m for m in reversed(session.messages) if m.role == "user" and m.turn == turn),
                None,
            )
            if message is not None:
                message.ledger_sent = prompt.ledger_text or None
        return prompt

    def _hints(
        self, session: Session, user_text: str, turn: int, scripted: str | None, status: bool
    ) -> dict[str, Any]:
        return {
            "turn": turn,
            "user_message": user_text,
            "scripted_reply": scripted,
            "status_requested": status,
            "ledger": ledger_payload(session),
            "reliability": self.settings.reliability,
        }

    async def _stream_draft(
        self,
        session: Session,
        messages: list[ChatMessage],
        turn: int,
        attempt: int,
        purpose: CallPurpose,
        hints: dict[str, Any],
        prompt: AssembledPrompt,
        temperature: float | None = None,
    ) -> str:
        stage: Stage = "generating" if attempt == 1 else "refining"
        self.emit(StageChanged(turn, stage, attempt - 1, self.settings.max_refinement_attempts))
        self.emit(ReplyStarted(turn, attempt))
        request = LLMRequest(messages, purpose, hints=hints)
        if temperature is not None:
            request.temperature = temperature
        record = CallRecord(
            turn=turn,
            purpose=request.purpose,
            attempt=attempt,
            model=self.generator.model,
            prompt=call_text.dump_prompt(session, turn, messages[len(prompt.prefix) :]),
            note=_prefix_note(prompt),
        )
        started = time.perf_counter()
        parts: list[str] = []
        usage = Usage()
        try:
            while True:
                async with self._gate.call() as gated:
                    try:
                        async for event in self.generator.stream(request):
                            if isinstance(event, TextDelta):
                                if not parts:
                                    record.ttft_ms = (time.perf_counter() - started) * 1000
                                    if attempt == 1:
                                        _turn_cost(session, turn).ttft_ms = round(record.ttft_ms, 2)
                                parts.append(event.text)
                                self.emit(ReplyDelta(turn, attempt, event.text))
                            else:
                                usage = event.usage
                        break
                    except ProviderError as exc:
                        if not self._backend.resend_alone(session, exc, gated, record):
                            raise
                # Cut off by another call: the cut text leaves the screen, the reply is resent.
                parts.clear()
                self.emit(ReplyStarted(turn, attempt))
        except ProviderError as exc:
            record.error = exc.message
            record.response = "".join(parts)
            record.ms = (time.perf_counter() - started) * 1000
            self._record_call(session, record, usage)
            self._fit_window(exc, messages_tokens(messages), step_down=True)
            raise
        self._calibrate(messages, usage)
        text = "".join(parts).strip()
        record.ms = (time.perf_counter() - started) * 1000
        record.response = text
        if not text:  # recorded as failed too, so the inspector shows why the turn failed
            record.error = f"{self.generator.name}: the model returned an empty reply"
        self._record_call(session, record, usage)
        if record.error:
            raise ProviderError(record.error, kind="invalid_response")
        # The inspector keeps what the model wrote; the user sees (and the scores read) only
        # what it added to the ledger it copied, if it copied one; a rewrite may copy the
        # rewrite request's list of issues instead.
        blocks = _sent_blocks(session, prompt)
        if purpose == "refinement" and messages[-1] is not prompt.messages[-1]:
            blocks.append(messages[-1].content)
        return strip_copied_ledger(text, blocks, hints["user_message"]).text

    # -- analysis ----------------------------------------------------------------------------
    async def _llm_analyse(
        self,
        session: Session,
        prompt: AssembledPrompt,
        user_text: str,
        turn: int,
        hints: dict[str, Any],
        reply: str | None = None,
    ) -> Analysis | None:
        view = ledger_view(session)
        limit = self.settings.budget.ledger_requirements
        tail = [ChatMessage("user", analysis_instruction(session, user_text, limit))]
        head = (
            prompt.prefix if reply is None else [*prompt.messages, ChatMessage("assistant", reply)]
        )
        request = LLMRequest(
            [*head, *tail],
            "analysis",
            max_tokens=self.settings.analysis_max_tokens,
            temperature=0.0,
            json_schema=prompts.ANALYSIS_SCHEMA,
            hints=hints,
        )
        for attempt in (1, 2):
            try:
                text, record, _usage = await self._call(
                    session,
                    self.analyst,
                    request,
                    turn,
                    attempt=attempt,
                    prefix_note=_prefix_note(prompt),
                    shown_messages=tail,
                )
            except ProviderError as exc:
                self._fallback_notice(session, turn, "analysis", exc.message)
                return None
            try:
                analysis = parse_analysis(text, user_text, view)
            except StructuredOutputError as exc:
                record.fallback = attempt == 2
                record.error = str(exc)
                if attempt == 2:
                    session.metrics.fallbacks += 1
                    self._fallback_notice(session, turn, "analysis", str(exc))
                    return None
                continue
            if analysis.discarded:
                session.metrics.grounding_discarded += len(analysis.discarded)
                record.note = (
                    record.note + f" · discarded {len(analysis.discarded)} ungrounded item(s)"
                ).strip(" ·")
            return analysis
        return None

    async def _apply_llm_analysis(
        self, session: Session, task: asyncio.Task[Analysis | None], turn: int
    ) -> None:
        analysis = await task
        if analysis is None:
            return
        changes = apply_analysis(session, analysis, turn)
        if changes:
            self.emit(LedgerChanged(turn, "; ".join(changes)))

    def _fallback_notice(self, session: Session, turn: int, step: str, why: str) -> None:
        log.info("turn %s: %s fell back to heuristics: %s", turn, step, why)
        # Once per step and turn on screen (a refined turn judges every attempt); the
        # inspector keeps every call.
        key = (session.id, turn, step)
        if key in self._noticed:
            return
        self._noticed.add(key)
        self.emit(
            Notice(
                f"{step}: the model's answer was unusable ({why}); heuristics used for this step",
                "warning",
            )
        )

    # -- evaluation and refinement ----------------------------------------------------------
    async def _evaluate_and_refine(
        self,
        session: Session,
        prompt: AssembledPrompt,
        user_text: str,
        turn: int,
        first_text: str,
        hints: dict[str, Any],
    ) -> BestDraft:
        self.emit(StageChanged(turn, "evaluating"))
        drafts = [
            Draft(
                1,
                first_text,
                await self._score(session, prompt, turn, user_text, first_text, 1, hints),
            )
        ]
        readvocated_in = {o: [1] for o in drafts[0].scores.readvocated}
        limit = self.settings.max_refinement_attempts if self.settings.reliability else 0
        while self._needs_refinement(drafts[-1].scores) and len(drafts) <= limit:
            attempt = len(drafts) + 1
            previous = drafts[-1]
            refine_msgs = self._refinement_messages(session, prompt, previous)
            refine_hints = {
                **hints,
                "issues": previous.scores.issues,
                "draft": previous.text,
                "scripted_reply": None,
            }
            try:
                text = await self._stream_draft(
                    session,
                    refine_msgs,
                    turn,
                    attempt,
                    "refinement",
                    refine_hints,
                    prompt,
                    # At low temperature the model that repeated itself (or its prompt) does it
                    # again.
                    REPEAT_TEMPERATURE
                    if previous.scores.repeated or not previous.text or self.lean
                    else None,
                )
            except ProviderError as exc:
                self.emit(
                    Notice(
                        f"refinement {attempt - 1} failed: {exc.message}; "
                        "keeping the best reply so far",
                        "warning",
                    )
                )
                break
            self.emit(StageChanged(turn, "evaluating", attempt - 1, limit))
            scores = await self._score(session, prompt, turn, user_text, text, attempt, hints)
            drafts.append(Draft(attempt, text, scores))
            for option in scores.readvocated:
                readvocated_in.setdefault(option, []).append(attempt)
            if text and not _improved(drafts):
                # Another rewrite of a rewrite that did not help rarely does: stop early. A
                # second bare copy of the ledger gets a further sample: there is nothing to show.
                break
        best = max(drafts, key=self._rank)
        record = to_record(best.scores, turn, len(drafts), best.attempt, readvocated_in)
        if not best.text:
            return BestDraft(best, record)  # every attempt only copied the ledger: run_turn fails
        if best.attempt != drafts[-1].attempt:
            self.emit(ReplyStarted(turn, best.attempt))
            self.emit(ReplyDelta(turn, best.attempt, best.text))
        self.emit(ReplyShown(turn, best.attempt, best.text))
        return BestDraft(best, record)

    def _rank(self, draft: Draft) -> tuple[Any, ...]:
        if self.lean:
            return small_model.rank(draft.scores, draft.attempt)
        return (not draft.scores.readvocated, draft.scores.overall, -draft.attempt)

    def _needs_refinement(self, scores: Scores) -> bool:
        if scores.readvocated or scores.echoed:
            # A copied ledger is no answer, whatever the other dimensions score.
            return True
        if self.lean:
            return small_model.needs_another_attempt(scores)
        return scores.overall < self.settings.quality_threshold

    def _refinement_messages(
        self, session: Session, prompt: AssembledPrompt, previous: Draft
    ) -> list[ChatMessage]:
        if not previous.text or self.lean:
            # Nothing but the ledger copied back: there is no reply to rewrite, and a rewrite
            # request shows the copy to the model once more. A small model answers a rewrite
            # request with talk about the request ("Here's a revised version…"), which the
            # next turns then copy. A fresh sample of the same prompt (served whole from the
            # KV cache) is the cheaper, better second try.
            return list(prompt.messages)
        rejected = prompts.format_rejected(ledger_payload(session)["rejected"])
        issues = "\n".join(f"- {i}" for i in previous.scores.issues) or "- be clearer and shorter"
        instruction = prompts.REFINE_INSTRUCTION.format(issues=issues, rejected=rejected)
        return [
            *prompt.messages,
            ChatMessage("assistant", previous.text),
            ChatMessage("user", instruction),
        ]

    def _reply_context(self, session: Session, turn: int, user_text: str) -> ReplyContext:
        lengths = session.metrics.answer_lengths
        return ReplyContext(
            turn=turn,
            user_text=user_text,
            pending=[(r.id, r.text, r.source_turn) for r in session.open_requirements()],
            rejected=[r.option for r in session.active_rejections()],
            first_answer_length=next((n for n in lengths if n > 0), None),
            requirements_known=len(session.live_requirements()),
            moderate_bloat=self.settings.bloat_moderate,
            previous_reply=next(
                (m.content for m in reversed(session.messages) if m.role == "assistant"), ""
            ),
        )

    async def _score(
        self,
        session: Session,
        prompt: AssembledPrompt,
        turn: int,
        user_text: str,
        reply: str,
        attempt: int,
        hints: dict[str, Any],
    ) -> Scores:
        ctx = self._reply_context(session, turn, user_text)
        heuristic = heuristic_scores(reply, ctx)
        if not self._llm_judge_enabled():
            return heuristic
        limit = self.settings.budget.ledger_requirements
        instruction, pending_ids = judge_instruction(session, limit)
        tail = [ChatMessage("assistant", reply), ChatMessage("user", instruction)]
        request = LLMRequest(
            [*prompt.messages, *tail],
            "judge",
            max_tokens=self.settings.judge_max_tokens,
            temperature=0.0,
            json_schema=prompts.JUDGE_SCHEMA,
            hints={**hints, "reply": reply, "heuristic_scores": _scores_dict(heuristic)},
        )
        try:
            text, record, _usage = await self._call(
                session,
                self.analyst,
                request,
                turn,
                attempt=attempt,
                prefix_note=_prefix_note(prompt) + " + the turn's prompt and reply",
                shown_messages=tail[1:],
            )
        except ProviderError as exc:
            self._fallback_notice(session, turn, "judge", exc.message)
            return heuristic
        try:
            verdict = parse_judge(text, pending_ids)
        except StructuredOutputError as exc:
            record.fallback = True
            record.error = str(exc)
            session.metrics.fallbacks += 1
            self._fallback_notice(session, turn, "judge", str(exc))
            return heuristic
        return combine(heuristic, verdict, ctx.rejected)

    # -- after the reply --------------------------------------------------------------------
    def _finish_turn(self, session: Session, turn: int, best: Draft, record: QualityRecord) -> None:
        session.messages.append(
            Message(role="assistant", content=best.text, turn=turn, attempt=best.attempt,
                    provider=self.generator.name, model=self.generator.model)
        )
        if session.quality and session.quality[-1].turn == turn:
            session.quality[-1] = record  # a regenerated reply: the newest record is replaced
        else:
            session.quality = [q for q in session.quality if q.turn != turn] + [record]
        update_length_metrics(session, turn, best.text)
        changed = mark_addressed(session, best.scores.addressed, turn)
        changed += self._apply_markers(session, turn, best.text)
        changed += _close_answered_questions(session, best.text)
        self.emit(QualityScored(record))
        if changed:
            self.emit(LedgerChanged(turn, "; ".join(changed)))

    def _apply_markers(self, session: Session, turn: int, reply: str) -> list[str]:
        markers = parse_markers(reply)
        changes: list[str] = []
        if markers.pivot and self.settings.reliability and turn not in session.pivots:
            session.pivots.append(turn)
            changes.append("pivot marked by the model")
        proposed = [(o, "") for o in markers.rejected_markers]
        proposed += [option_of(item) for item in markers.rejected]
        users = [m.content for m in session.messages if m.role == "user"] if proposed else []
        for option, reason in proposed:
            # The model may only record a rejection the user actually voiced (grounding).
            already = any(
                heuristics.option_matches(option, r.option) for r in session.active_rejections()
            )
            voiced = any(rejection_grounded(option, text) for text in users)
            if option and not already and voiced:
                reject_option(session, option, reason, turn, origin="model")
                changes.append(f"rejected {option} (marked by the model)")
        if self._status_due(turn):
            session.status_blocks.append(self._status_block(session, turn, markers))
            session.metrics.status_turns.append(turn)
            changes.append("STATUS recorded")
        return changes

    def _status_block(self, session: Session, turn: int, markers: Any) -> StatusBlock:
        if markers.status_found:
            return StatusBlock(
                turn=turn,
                conclusion=markers.conclusion,
                rejected=markers.rejected,
                open=markers.open,
            )
        # The model ignored the STATUS request: record the ledger's view, marked as such.
        session.metrics.fallbacks += 1
        self.emit(
            Notice("the reply had no [STATUS] block; the ledger's status was recorded", "warning")
        )
        return heuristic_status(session, turn)

    # -- consolidation ----------------------------------------------------------------------
    def _maybe_consolidate(self, session: Session, turn: int, prompt: AssembledPrompt) -> None:
        if not self.settings.reliability:
            return
        interval = self.settings.consolidation_interval
        due = interval > 0 and turn % interval == 0
        # Over budget, the prompt leans on the summary; it needs a new one only when the
        # stored summary no longer covers the turns the prompt summarises.
        stale = prompt.over_budget and session.consolidated_through_turn < prompt.summarised_through
        if not (due or stale):
            return
        task = asyncio.create_task(self._consolidate(session, turn))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _consolidate(self, session: Session, turn: int) -> None:
        pairs = answered_turns(session, turn + 1)
        if not pairs:
            return
        if self.lean:
            self._store_summary(session, turn, heuristic_summary(pairs, self._summary_chars()))
            return
        self.emit(Notice(f"consolidating turns 1–{turn} in the background"))
        instruction = prompts.CONSOLIDATION_INSTRUCTION.format(
            first=pairs[0][0].turn, last=turn, words=self.settings.summary_words
        )
        # The conversation is the next turn's own prefix (an earlier summary plus the verbatim
        # turns when over budget), so the provider's cache serves it and the summary builds on
        # the previous one.
        prefix = assemble(session, "", turn + 1, self.settings.budget).prefix
        request = LLMRequest(
            [*prefix, ChatMessage("user", instruction)],
            "consolidation",
            max_tokens=self.settings.summary_words * 2,
            temperature=0.2,
            hints={
                "turn": turn,
                "summary_fallback": heuristic_summary(pairs, self._summary_chars()),
                "ledger": ledger_payload(session),
            },
        )
        summary = ""
        fallback = False
        try:
            text, record, _usage = await self._call(
                session,
                self.analyst,
                request,
                turn,
                prefix_note=f"prefix: the conversation through turn {turn}",
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
            summary = heuristic_summary(pairs, self._summary_chars())
        self._store_summary(session, turn, summary)

    def _summary_chars(self) -> int:
        # More than a whole prompt (~4 characters a token) could never be sent.
        return self.settings.budget.prompt * 4

    def _store_summary(self, session: Session, turn: int, summary: str) -> None:
        session.consolidated_context = summary
        session.consolidated_through_turn = turn
        if turn not in session.metrics.consolidation_turns:
            session.metrics.consolidation_turns.append(turn)
        self.save(session)
        self.emit(LedgerChanged(turn, "context consolidated"))

    # -- solidify and status ------------------------------------------------------------------
    async def solidify(self, session: Session) -> Solidified:
        turn = session.turn
        self.emit(StageChanged(turn, "solidifying"))
        prompt = assemble(session, prompts.SOLIDIFY_INSTRUCTION, turn + 1, self.settings.budget)
        payload = ledger_payload(session)
        request = LLMRequest(
            prompt.messages,
            "solidify",
            max_tokens=400,
            temperature=0.0,
            hints={"turn": turn, "ledger": payload},
        )
        fallback = False
        text = ""
        try:
            text, _record, _usage = await self._call(
                session,
                self.analyst,
                request,
                turn,
                prefix_note=_prefix_note(prompt),
                shown_messages=prompt.messages[len(prompt.prefix) :],
            )
        except ProviderError as exc:
            fallback = True
            self.emit(Notice(f"solidify: {exc.message}; built from the ledger instead", "warning"))
        text = text.strip()
        if fallback or len(text) < 20:
            text = heuristic_solidified(session)
            fallback = True
        else:
            text = _complete_rejections(text, session)
        block = Solidified(text=text, turn=turn, fallback=fallback)
        session.solidified = block
        self.save(session)
        self.emit(LedgerChanged(turn, "SOLIDIFIED updated"))
        self.emit(StageChanged(turn, "done"))
        return block


# -- helpers ----------------------------------------------------------------------------------
def _token_ratio(counted: int, estimated: int) -> float:
    """The backend's tokens per estimated token, within sane bounds."""
    return min(max(counted / estimated, SCALE_MIN), SCALE_MAX)


def _turn_cost(session: Session, turn: int) -> TurnCost:
    # From the newest: the running turn's entry is last (this runs for every call).
    for cost in reversed(session.metrics.llm_calls):
        if cost.turn == turn:
            return cost
    cost = TurnCost(turn=turn)
    session.metrics.llm_calls.append(cost)
    return cost


def _prefix_note(prompt: AssembledPrompt) -> str:
    parts = ["prefix: system prompt"]
    if prompt.summarised_through:
        parts.append(f"summary of turns 1–{prompt.summarised_through}")
    verbatim = len(prompt.prefix) - (2 if prompt.summarised_through else 1)
    if verbatim > 0:
        parts.append(f"{verbatim // 2} turn(s) verbatim from turn {prompt.verbatim_from_turn}")
    return " + ".join(parts) + f" (~{prompt.tokens} tokens in all)"


def _prune_call_text(session: Session) -> None:
    call_text.prune(session, session.turn - CALL_TEXT_TURNS)


def _sent_blocks(session: Session, prompt: AssembledPrompt) -> list[str]:
    """The ledger blocks a reply to `prompt` may have copied: the newest and those in the
    verbatim history it carried, each once. Not those of summarised turns: the model never saw
    them, and gathering them made every reply of a long session cost more than the last."""
    blocks = [prompt.ledger_text] if prompt.ledger_text else []
    for message in reversed(session.messages):
        if message.turn < prompt.verbatim_from_turn:
            break
        if message.role == "user" and message.ledger_sent:
            blocks.append(message.ledger_sent)
    return list(dict.fromkeys(blocks))


def _plain_prompt(session: Session, user_text: str, turn: int) -> AssembledPrompt:
    system = ChatMessage("system", prompts.PLAIN_SYSTEM_PROMPT)
    history = [
        m
        for u, a in answered_turns(session, turn)
        for m in (ChatMessage("user", u.content), ChatMessage("assistant", a.content))
    ]
    prefix = [system, *history]
    return AssembledPrompt(
        [*prefix, ChatMessage("user", user_text)],
        prefix,
        "",
        0,
        verbatim_from_turn=1,
        summarised_through=0,
    )


def _scores_dict(scores: Scores) -> dict[str, Any]:
    return {
        **graded(scores),
        "premature_attempt": scores.premature_attempt,
        "addressed": scores.addressed,
        "issues": scores.issues,
        "suggestions": scores.suggestions,
    }


def _improved(drafts: list[Draft]) -> bool:
    """Did the newest draft beat every earlier one (fewer re-advocacies, or a higher score)?"""
    *earlier, newest = drafts

    def rank(d: Draft) -> tuple[bool, float]:
        return (not d.scores.readvocated, d.scores.overall)

    return rank(newest) > max(rank(d) for d in earlier)


def _close_answered_questions(session: Session, reply: str) -> list[str]:
    """A question stays open until a reply covers most of what it asked about, or until the
    option it asks about is rejected (a question about MongoDB's backups is moot then)."""
    reply_terms = content_terms(reply)
    rejected = [r.option for r in session.active_rejections()]
    still_open = [
        q
        for q in session.memory.open_questions
        if overlap(q, reply_terms) < 0.5
        and not any(heuristics.option_matches(option, q) for option in rejected)
    ]
    closed = len(session.memory.open_questions) - len(still_open)
    session.memory.open_questions = still_open
    return [f"{closed} open question(s) answered"] if closed else []


def _summary_usable(summary: str, session: Session) -> bool:
    if len(summary) < 40:
        return False
    key_terms = [r.option for r in session.active_rejections()]
    return all(heuristics.option_matches(term, summary) for term in key_terms[:3])


def _complete_rejections(text: str, session: Session) -> str:
    """Every active rejection must appear in SOLIDIFIED; add any the model left out."""
    missing = [
        rejected
        for rejected in ledger_payload(session)["rejected"]
        if not heuristics.option_matches(rejected["option"], text)
    ]
    if not missing:
        return text
    added = "\n".join(rejection_line(rejected) for rejected in missing)
    return f"{text}\nREJECTED (from the ledger, not named by the model):\n{added}"

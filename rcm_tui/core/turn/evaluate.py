"""Scoring a draft (heuristics, and the LLM judge when enabled) and refining it: up to
`max_refinement_attempts` rewrites, the best-scoring draft kept."""

from __future__ import annotations

from typing import Any

from .. import prompts, small_model
from ..events import Notice, ReplyDelta, ReplyShown, ReplyStarted, StageChanged
from ..instructions import judge_instruction
from ..ledger import ledger_snapshot
from ..llm import ChatMessage, LLMRequest, ProviderError
from ..quality import ReplyContext, Scores, combine, heuristic_scores, parse_judge, to_record
from ..structured import StructuredOutputError
from .calls import call, prefix_note
from .engine import Engine
from .generate import stream_draft
from .state import BestDraft, Draft, Turn

# Sampling temperature of an attempt after a reply that repeated the previous one (or, from a
# small model, any flagged reply: its next attempt is a fresh sample of the same prompt).
REPEAT_TEMPERATURE = 0.8


async def evaluate_and_refine(engine: Engine, turn: Turn, first_text: str) -> BestDraft:
    engine.emit(StageChanged(turn.number, "evaluating"))
    drafts = [await _draft(engine, turn, first_text, 1)]
    readvocated_in = {o: [1] for o in drafts[0].scores.readvocated}
    limit = engine.settings.max_refinement_attempts if engine.settings.reliability else 0
    while _needs_refinement(engine, drafts[-1].scores) and len(drafts) <= limit:
        draft = await _refine(engine, turn, drafts[-1], limit)
        if draft is None:
            break
        drafts.append(draft)
        for option in draft.scores.readvocated:
            readvocated_in.setdefault(option, []).append(draft.attempt)
        if draft.text and not _improved(drafts) and not _sample_again(engine, drafts):
            # Another rewrite of a rewrite that did not help rarely does: stop early. A
            # second bare copy of the ledger gets a further sample: there is nothing to show.
            break
    return _keep_best(engine, turn, drafts, readvocated_in)


async def _draft(engine: Engine, turn: Turn, text: str, attempt: int) -> Draft:
    scores = await _score(engine, turn, text, attempt)
    proposed = turn.stopped.get(attempt)
    if proposed is None:
        return Draft(attempt, text, scores)
    # What the watch saw is what the guard saw (the same text, the same guard); stated
    # anyway, so that a stopped attempt can never pass for one that proposed nothing.
    flagged = list(dict.fromkeys([*scores.readvocated, *proposed]))
    return Draft(attempt, text, scores.model_copy(update={"readvocated": flagged}), stopped=True)


def _sample_again(engine: Engine, drafts: list[Draft]) -> bool:
    """Should a small model get another sample although the newest was no better? When every
    attempt so far proposes a rejected option: its samples are independent draws of the same
    prompt (not rewrites of a rewrite), so a further one may well be without it. Once one is
    without it, a re-advocating sample is no reason for more (held-out eval: a repeat, then
    three samples proposing the option, 24 s for the repeat shown in the end)."""
    return engine.lean and all(d.scores.readvocated for d in drafts)


async def _refine(engine: Engine, turn: Turn, previous: Draft, limit: int) -> Draft | None:
    """The next attempt, scored; None when its generation failed."""
    attempt = previous.attempt + 1
    request = LLMRequest(_refinement_messages(engine, turn, previous), "refinement")
    # At low temperature the model that repeated itself (or its prompt) does it again.
    if previous.scores.repeated or not previous.text or engine.lean:
        request.temperature = REPEAT_TEMPERATURE
    try:
        text = await stream_draft(engine, turn, request, previous)
    except ProviderError as exc:
        engine.emit(
            Notice(
                f"refinement {attempt - 1} failed: {exc.message}; keeping the best reply so far",
                "warning",
            )
        )
        return None
    engine.emit(StageChanged(turn.number, "evaluating", attempt - 1, limit))
    return await _draft(engine, turn, text, attempt)


def _keep_best(
    engine: Engine, turn: Turn, drafts: list[Draft], readvocated_in: dict[str, list[int]]
) -> BestDraft:
    best = max(drafts, key=lambda draft: _rank(engine, draft))
    record = to_record(best.scores, turn.number, len(drafts), best.attempt, readvocated_in)
    if best.stopped:
        # Only when the attempt that may not be stopped failed: a cut draft is never shown.
        raise ProviderError(
            f"every attempt proposed {', '.join(best.scores.readvocated)} and the last one "
            "failed; nothing whole to show",
            kind="invalid_response",
        )
    if not best.text:
        return BestDraft(best, record)  # every attempt only copied the ledger: the turn fails
    if best.attempt != drafts[-1].attempt:
        engine.emit(ReplyStarted(turn.number, best.attempt))
        engine.emit(ReplyDelta(turn.number, best.attempt, best.text))
    engine.emit(ReplyShown(turn.number, best.attempt, best.text))
    return BestDraft(best, record)


def _rank(engine: Engine, draft: Draft) -> tuple[Any, ...]:
    if engine.lean:
        return (not draft.stopped, *small_model.rank(draft.scores, draft.attempt))
    return (not draft.scores.readvocated, draft.scores.overall, -draft.attempt)


def _needs_refinement(engine: Engine, scores: Scores) -> bool:
    if scores.readvocated or scores.echoed:
        # A copied ledger is no answer, whatever the other dimensions score.
        return True
    if engine.lean:
        return small_model.needs_another_attempt(scores)
    return scores.overall < engine.settings.quality_threshold


def _improved(drafts: list[Draft]) -> bool:
    """Did the newest draft beat every earlier one (fewer re-advocacies, or a higher score)?"""
    *earlier, newest = drafts

    def rank(d: Draft) -> tuple[bool, float]:
        return (not d.scores.readvocated, d.scores.overall)

    return rank(newest) > max(rank(d) for d in earlier)


def _refinement_messages(engine: Engine, turn: Turn, previous: Draft) -> list[ChatMessage]:
    prompt = turn.prompt
    if not previous.text or engine.lean:
        # Nothing but the ledger copied back: there is no reply to rewrite, and a rewrite
        # request shows the copy to the model once more. A small model answers a rewrite
        # request with talk about the request ("Here's a revised version…"), which the
        # next turns then copy. A fresh sample of the same prompt (served whole from the
        # KV cache) is the cheaper, better second try.
        return list(prompt.messages)
    rejected = prompts.format_rejected(ledger_snapshot(turn.session).rejected)
    issues = "\n".join(f"- {i}" for i in previous.scores.issues) or "- be clearer and shorter"
    instruction = prompts.REFINE_INSTRUCTION.format(issues=issues, rejected=rejected)
    return [
        *prompt.messages,
        ChatMessage("assistant", previous.text),
        ChatMessage("user", instruction),
    ]


def _reply_context(engine: Engine, turn: Turn) -> ReplyContext:
    session = turn.session
    lengths = session.metrics.answer_lengths
    # The snapshot's filterings are kept while the ledger does not change: this runs for
    # every attempt, and two passes over a 1,000-requirement ledger each time grew the turn.
    ledger = ledger_snapshot(session)
    return ReplyContext(
        turn=turn.number,
        user_text=turn.user_text,
        pending=[(r.id, r.text, r.source_turn) for r in ledger.pending],
        rejected=list(ledger.active_rejections),
        first_answer_length=next((n for n in lengths if n > 0), None),
        requirements_known=len(ledger.live_requirements),
        moderate_bloat=engine.settings.bloat_moderate,
        previous_reply=next(
            (m.content for m in reversed(session.messages) if m.role == "assistant"), ""
        ),
    )


async def _score(engine: Engine, turn: Turn, reply: str, attempt: int) -> Scores:
    ctx = _reply_context(engine, turn)
    heuristic = heuristic_scores(reply, ctx)
    if not engine.llm_judge_enabled():
        return heuristic
    limit = engine.settings.budget.ledger_requirements
    instruction, pending_ids = judge_instruction(ledger_snapshot(turn.session), limit)
    tail = [ChatMessage("assistant", reply), ChatMessage("user", instruction)]
    request = LLMRequest(
        [*turn.prompt.messages, *tail],
        "judge",
        max_tokens=engine.settings.judge_max_tokens,
        temperature=0.0,
        json_schema=prompts.JUDGE_SCHEMA,
    )
    try:
        text, record, _usage = await call(
            engine,
            turn.session,
            turn.number,
            engine.analyst,
            request,
            turn.context(heuristic=heuristic),
            attempt=attempt,
            prefix_note=prefix_note(turn.prompt) + " + the turn's prompt and reply",
            shown_messages=tail[1:],
        )
    except ProviderError as exc:
        engine.fallback_notice(turn, "judge", exc.message)
        return heuristic
    try:
        verdict = parse_judge(text, pending_ids)
    except StructuredOutputError as exc:
        record.fallback = True
        record.error = str(exc)
        turn.session.metrics.fallbacks += 1
        engine.fallback_notice(turn, "judge", str(exc))
        return heuristic
    return combine(heuristic, verdict, ctx.rejected)


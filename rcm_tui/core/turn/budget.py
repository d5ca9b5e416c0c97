"""The turn's prompt within the model's window: token calibration, window fitting, and the
generation prompt planned within the budget they leave."""

from __future__ import annotations

import logging

from .. import prompts, small_model
from ..context import AssembledPrompt, answered_turns, assemble, messages_tokens
from ..events import Notice
from ..llm import ChatMessage, ProviderError, Usage
from ..models import Session
from .engine import Engine
from .state import Turn

log = logging.getLogger("rcm_tui.pipeline")

# Context overflow: resend a refused first draft at most this often, each time planning to
# this share of what the server said fits (the token estimate is approximate).
OVERFLOW_REFITS = 2
WINDOW_MARGIN = 0.85
MIN_PROMPT_TOKENS = 256
# Token-estimate calibration: bounds of the learned factor and the weight of each new sample.
SCALE_MIN, SCALE_MAX, SCALE_WEIGHT = 0.5, 2.0, 0.5


def calibrate(engine: Engine, messages: list[ChatMessage], usage: Usage) -> None:
    """Learn how the backend's token count relates to our estimate, from a whole prompt."""
    estimated = messages_tokens(messages)
    if usage.estimated or usage.prompt_tokens <= 0 or estimated <= 0:
        return
    ratio = _token_ratio(usage.prompt_tokens, estimated)
    budget = engine.settings.budget
    budget.scale = round(budget.scale + SCALE_WEIGHT * (ratio - budget.scale), 3)


def fit_window(engine: Engine, exc: ProviderError, estimated: int, *, step_down: bool) -> None:
    """Learn a backend's context window from its overflow error and plan within it.

    Remote servers do not say their window up front (the local model does, and the
    controller starts within it). The window caps the budget, in the backend's tokens;
    the server's own count of the refused prompt calibrates our estimate, as reported
    usage does (never downwards: that count is known to be too many). A refused reply
    (`step_down`) shrinks the plan even when it looked small enough already; a refused
    analysis or judge call, whose instructions come on top of the plan, does not.
    """
    overflow = exc.overflow
    if overflow is None or not engine.settings.reliability:
        return
    budget = engine.settings.budget
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
    engine.emit(
        Notice(
            f"the model's context window is {overflow.window} tokens; prompts are now "
            f"planned within it (context.budget_tokens = {budget.total} starts there)",
            "warning",
        )
    )


def _token_ratio(counted: int, estimated: int) -> float:
    """The backend's tokens per estimated token, within sane bounds."""
    return min(max(counted / estimated, SCALE_MIN), SCALE_MAX)


def generation_prompt(engine: Engine, turn: Turn) -> AssembledPrompt:
    if not engine.settings.reliability:
        return _plain_prompt(turn.session, turn.user_text, turn.number)
    refresh = _ledger_refresh(engine)
    checklist = small_model.checklist(turn.session, turn.number) if engine.lean else None
    prompt = assemble(
        turn.session,
        turn.user_text,
        turn.number,
        engine.settings.budget,
        status_requested=turn.status_requested,
        chunk=max(1, engine.settings.consolidation_interval),
        ledger_refresh_turns=refresh,
        remind_rejected=not engine.lean,
        system_prompt=engine.system_prompt(),
        checklist=checklist,
        ledger=turn.ledger,
    )
    if refresh is not None or checklist is not None:
        # Kept with the message so later prompts repeat it exactly as sent.
        message = next(
            (
                m
                for m in reversed(turn.session.messages)
                if m.role == "user" and m.turn == turn.number
            ),
            None,
        )
        if message is not None:
            message.ledger_sent = prompt.ledger_text or None
    return prompt


def _ledger_refresh(engine: Engine) -> int | None:
    """Refresh interval of the as-sent layout, or None for a full block every turn."""
    layout = engine.settings.ledger_layout
    if layout == "auto":
        layout = "as_sent" if engine.one_call else "every_turn"
    return max(1, engine.settings.ledger_refresh_turns) if layout == "as_sent" else None


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

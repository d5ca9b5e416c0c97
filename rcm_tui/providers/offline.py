"""The offline provider: deterministic, no network, and plainly a demo.

It plays the scripted `assistant` text of a replay line when there is one. Otherwise it
composes a short reply from the user's message and the ledger, and says that it is the offline
demo. Structured requests (analysis, judge, STATUS, SOLIDIFY, consolidation) get valid answers
built from the deterministic heuristics, so the whole pipeline runs without a model. With
`latency_ms` / `token_ms` it doubles as the latency-injected provider of `rcm-tui bench`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar
from typing import Any

from ..config import OfflineSettings
from ..core import heuristics
from ..core.call_context import CallContext, current_call
from ..core.context import estimate_tokens, solidified_from_ledger, status_from_ledger
from ..core.ledger_snapshot import LedgerSnapshot
from ..core.llm import Finished, LLMRequest, StreamEvent, TextDelta, Usage
from ..core.models import GRADED_DIMENSIONS, LOWER_IS_BETTER, graded
from .registry import OFFLINE_MODEL

_TOKEN = re.compile(r"\S+\s*|\s+")
OFFLINE_TAG = "(offline demo — no model is connected)"


class OfflineProvider:
    name = "offline"
    model = OFFLINE_MODEL
    label = "offline · demo, no model"

    def __init__(self, settings: OfflineSettings | None = None) -> None:
        self.settings = settings or OfflineSettings()

    async def aclose(self) -> None:
        return None

    async def stream(self, request: LLMRequest) -> AsyncIterator[StreamEvent]:
        context = current_call() or CallContext(turn=1, ledger=LedgerSnapshot())
        text = self.answer(request, context)
        if self.settings.latency_ms:
            await asyncio.sleep(self.settings.latency_ms / 1000)
        # Token by token as they are read: a caller that stops at max_tokens (as a model does)
        # costs the demo what it read, not a pass over a "summary" listing every requirement.
        tokens = (match.group() for match in _TOKEN.finditer(text))
        count = 0
        for token in itertools.chain(tokens, [text] if not text else []):
            if count and self.settings.token_ms:
                await asyncio.sleep(self.settings.token_ms / 1000)
            count += 1
            yield TextDelta(token)
        prompt_tokens = sum(estimate_tokens(m.content) + 4 for m in request.messages)
        yield Finished(Usage(prompt_tokens=prompt_tokens, completion_tokens=count))

    # -- answers by purpose ----------------------------------------------------------------
    def answer(self, request: LLMRequest, context: CallContext) -> str:
        """The demo's whole answer to `request`, from what the engine said the call is about."""
        handler = {
            "analysis": _analysis,
            "judge": _judge,
            "refinement": _refinement,
            "consolidation": _consolidation,
            "solidify": _solidify,
            "status": _status_only,
            "topic_summary": _consolidation,
            "recap": _consolidation,
        }.get(request.purpose, _generation)
        return handler(context)


_SCRIPT: ContextVar[str | None] = ContextVar("rcm_tui_offline_script", default=None)


@contextlib.contextmanager
def scripted_reply(reply: str | None) -> Iterator[None]:
    """Within the block, the demo answers generation requests with `reply` (a replay line's
    `assistant` text, the bench's conversation); None composes them again. A model provider
    never reads it."""
    token = _SCRIPT.set(reply)
    try:
        yield
    finally:
        _SCRIPT.reset(token)


def _generation(context: CallContext) -> str:
    reply = _SCRIPT.get() or _compose(context)
    if context.status_requested:
        return f"{status_block(context.ledger)}\n\n{reply}"
    return reply


def _status_only(context: CallContext) -> str:
    return status_block(context.ledger)


def _compose(context: CallContext) -> str:
    ledger = context.ledger
    message = context.user_message
    found = heuristics.analyse_message(message, context.turn, _as_shown(ledger))
    lines = [OFFLINE_TAG]
    noted = [f.text for f in found.requirements]
    if noted:
        lines.append("Noted as requirements: " + "; ".join(noted) + ".")
    rejected = [r.option + (f" ({r.reason})" if r.reason else "") for r in found.rejections]
    if rejected:
        lines.append("Ruled out: " + "; ".join(rejected) + " — I will not propose it again.")
    pending = ledger.pending
    if pending and not noted:
        lines.append("Keeping to: " + "; ".join(r.text for r in pending[:4]) + ".")
    if not (noted or rejected):
        lines.append(f"You asked: {_clip(message, 120)}")
    lines.append("Connect a model (local, openai or anthropic) for real answers.")
    return "\n".join(lines)


def _refinement(context: CallContext) -> str:
    """Revise the draft: drop sentences proposing rejected options, add the open needs."""
    ledger = context.ledger
    rejected = ledger.active_rejections
    sentences = re.split(r"(?<=[.!?。！？])\s+", context.draft)
    kept = [s for s in sentences if not heuristics.find_readvocacy(s, rejected)]
    pending = ledger.pending
    body = " ".join(kept).strip()
    notes = []
    if rejected:
        notes.append("Ruled out earlier, so not proposed: " + ", ".join(rejected) + ".")
    if pending:
        notes.append("This keeps to: " + "; ".join(r.text for r in pending[:5]) + ".")
    # A rewrite of a rewrite says each thing once.
    parts = [body] + [note for note in notes if note not in body]
    return "\n".join(p for p in parts if p) or _compose(context)


def _analysis(context: CallContext) -> str:
    found = heuristics.analyse_message(
        context.user_message, context.turn, _as_shown(context.ledger)
    )
    return json.dumps(
        {
            "requirements": [
                {"text": r.text, "confidence": r.confidence} for r in found.requirements
            ],
            "confirmed": found.confirmed_ids,
            "dropped": found.dropped_ids,
            "rejections": [{"option": r.option, "reason": r.reason} for r in found.rejections],
            "reopened": found.reopened,
            "pivot": found.pivot,
            "facts": found.facts,
            "trajectory": found.trajectory,
            "dialog_state": found.dialog_state,
            "topic_shift": found.topic_shift,
            "questions": found.questions,
        },
        ensure_ascii=False,
    )


def _judge(context: CallContext) -> str:
    """The demo judge agrees with the heuristics: it has nothing else to judge by."""
    scores = context.heuristic
    if scores is None:
        verdict: dict[str, Any] = {
            name: 0.2 if name in LOWER_IS_BETTER else 0.8 for name in GRADED_DIMENSIONS
        }
        verdict["premature_attempt"] = False
    else:
        verdict = {
            **graded(scores),
            "premature_attempt": scores.premature_attempt,
            "addressed": scores.addressed,
            "issues": scores.issues,
            "suggestions": scores.suggestions,
        }
    return json.dumps(verdict, ensure_ascii=False)


def _consolidation(context: CallContext) -> str:
    ledger = context.ledger
    parts = [context.summary_fallback.strip()]
    rejected = [r.option + (f" ({r.reason})" if r.reason else "") for r in ledger.rejected]
    if rejected:
        parts.append("Rejected: " + "; ".join(rejected) + ".")
    reqs = [r.text for r in ledger.live_requirements]
    if reqs:
        parts.append("Requirements: " + "; ".join(reqs) + ".")
    return "\n".join(p for p in parts if p)


def _solidify(context: CallContext) -> str:
    return solidified_from_ledger(context.ledger)


def status_block(ledger: LedgerSnapshot) -> str:
    """The ledger's STATUS block in the [STATUS] form the model is asked to write."""
    block = status_from_ledger(ledger, turn=0)  # the turn is not part of the text
    return (
        f"[STATUS]\nConclusion: {block.conclusion or 'not settled yet'}\n"
        f"Rejected: {'; '.join(block.rejected) or 'none'}\n"
        f"Open: {'; '.join(block.open) or 'none'}\n[/STATUS]"
    )


def _as_shown(ledger: LedgerSnapshot) -> LedgerSnapshot:
    """What the demo reads a message against: the ledger as a prompt's block shows it (the
    live requirements and the standing rejections), not the conversation behind it."""
    return LedgerSnapshot(
        requirements=ledger.live_items,
        rejected=ledger.rejected,
        reopenable=tuple(ledger.active_rejections),
    )


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"

"""Prompt assembly within a token budget, laid out for the provider's prefix cache.

What is *kept* follows PRODUCT.md's priority order: system instructions, SOLIDIFIED, decision
log, pending requirements, facts and trajectory, the consolidated summary, recent turns. The
ledger is never cut; old turns are summarised first and only then truncated.

What is *where* follows the cache: the parts that do not change from turn to turn (system
prompt, summary, verbatim history) form a stable prefix; the ledger block, rebuilt each turn,
sits after the history inside the newest user message. Analysis, judge and refinement calls
extend the same prefix, so a llama.cpp KV cache or a provider's prompt cache serves them.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import prompts
from .answered_index import AnsweredTurns, answered
from .ledger import ledger_snapshot
from .ledger_snapshot import LedgerSnapshot, RejectedItem
from .llm import ChatMessage
from .models import Message, Session, StatusBlock
from .prompt_ledger import ledger_update, render_ledger, with_ledger

_CJK = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: ~4 characters per token, one per CJK character."""
    return _estimate(len(text), _cjk_count(text))


def _estimate(length: int, cjk: int) -> int:
    return cjk + math.ceil((length - cjk) / 4) + 1


def _cjk_count(text: str) -> int:
    # isascii() is O(1) in CPython: most text never reaches the scan, and the rest is cached,
    # because every turn re-estimates the same history (a long session counted its whole
    # history character by character several times a turn).
    if text.isascii():
        return 0
    if len(text) > CACHED_TEXT_CHARS:
        return _large_cjk_count(text)
    return _cjk_count_scanned(text)


@functools.lru_cache(maxsize=8)
def _large_cjk_count(text: str) -> int:
    # The consolidated summary (up to the whole prompt budget) is counted by every prompt
    # until the next consolidation: hashing it costs a fifth of scanning it again.
    return len(_CJK.findall(text))


# Messages are re-estimated every turn; prompts and summaries are not. The bound keeps the
# cache's memory small (at most ~2,048 × 8,192 characters).
CACHED_TEXT_CHARS = 8192


@functools.lru_cache(maxsize=2048)
def _cjk_count_scanned(text: str) -> int:
    return len(_CJK.findall(text))


def messages_tokens(messages: list[ChatMessage]) -> int:
    # ~4 tokens of chat-template framing per message
    return sum(estimate_tokens(m.content) + 4 for m in messages)


@dataclass
class Budget:
    total: int
    reply_reserve: int
    recent_turns: int
    # The backend's tokens per estimated token, learned from the usage it reports (the
    # estimate is tokenizer-free); the prompt budget is kept in estimated tokens.
    scale: float = 1.0
    # Requirements a ledger block shows in full; the rest are named by id (ledger_bound.py).
    ledger_requirements: int = 40

    @property
    def prompt(self) -> int:
        return max(256, int((self.total - self.reply_reserve) / self.scale))


@dataclass
class AssembledPrompt:
    messages: list[ChatMessage]
    # system + summary + verbatim history: shared by analysis and judge calls
    prefix: list[ChatMessage]
    ledger_text: str
    tokens: int
    verbatim_from_turn: int
    summarised_through: int
    truncated_turns: list[int] = field(default_factory=list)
    over_budget: bool = False


def title_from(text: str, words: int = 8) -> str:
    """The first few words of a text, with an ellipsis when there were more."""
    parts = " ".join(text.split()).split(" ")
    title = " ".join(parts[:words]).strip()
    return title + "…" if len(parts) > words else title


def rejection_line(rejected: RejectedItem) -> str:
    who = "the user" if rejected.origin in ("heuristic", "llm", "user") else rejected.origin
    reason = f" — {rejected.reason}" if rejected.reason else ""
    return f"- {rejected.option}{reason} (rejected by {who} at turn {rejected.turn})"


def solidified_from_ledger(ledger: LedgerSnapshot, *, conclusion: str = "") -> str:
    """A SOLIDIFIED block built from the ledger alone.

    Used when the model fails to write one, and by the offline demo provider.
    """
    lines = [f"CONCLUSION: {conclusion or ledger.trajectory or 'not settled yet'}"]
    lines.append("REJECTED:")
    lines += [rejection_line(r) for r in ledger.rejected] or ["- none"]
    pending = [r.text for r in ledger.pending]
    open_items = list(ledger.open_questions)[-3:] + pending
    lines.append("OPEN QUESTIONS:")
    lines += [f"- {q}" for q in open_items[:6]] or ["- none"]
    return "\n".join(lines)


def status_from_ledger(ledger: LedgerSnapshot, turn: int) -> StatusBlock:
    """A STATUS block from the ledger alone: when the model wrote none, and for /status."""
    pending = [r.text for r in ledger.pending]
    return StatusBlock(
        turn=turn,
        conclusion=ledger.trajectory,
        rejected=[f"{r.option} ({r.reason})" if r.reason else r.option for r in ledger.rejected],
        open=list(ledger.open_questions)[-3:] + pending[:3],
    )


def answered_turns(session: Session, before_turn: int) -> list[tuple[Message, Message]]:
    """(user, assistant) pairs of completed turns; an interrupted turn has no pair."""
    return answered(session.messages, before_turn, _pair_tokens).pairs


def heuristic_summary(pairs: list[tuple[Message, Message]], limit: int | None = None) -> str:
    """A model-free summary: the first sentence of each side of each turn.

    With `limit` (characters), only the newest turns that fit: a prompt keeps the newest part
    of a summary anyway, and summarising all of a 1,000-turn session every few turns made
    each consolidation cost more than the turn before it.
    """
    lines: list[str] = []
    size = 0
    for user, assistant in reversed(pairs):
        line = (
            f"Turn {user.turn}: user: {first_sentence(user.content)} "
            f"— assistant: {first_sentence(assistant.content)}"
        )
        size += len(line) + 1
        if limit is not None and lines and size > limit:
            break
        lines.append(line)
    return "\n".join(reversed(lines))


def first_sentence(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    match = re.search(r"(?<=[.!?。！？])\s", flat)
    sentence = flat[: match.start()] if match else flat
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


def _pair_tokens(pair: tuple[Message, Message]) -> int:
    """messages_tokens(_pair_messages(pair)) without building the strings."""
    user, reply = pair
    return _texts_tokens(user.ledger_sent or "", user.content, reply.content)


@functools.lru_cache(maxsize=16384)
def _texts_tokens(ledger: str, user: str, reply: str) -> int:
    # Keyed by the stored strings themselves (their hashes are cached once computed), so each
    # earlier turn of a long history costs a lookup, not a count.
    length = len(ledger) + 2 + len(user) if ledger else len(user)
    cjk = _cjk_count(ledger) + _cjk_count(user)
    return _estimate(length, cjk) + estimate_tokens(reply) + 8


def _pair_messages(pair: tuple[Message, Message]) -> list[ChatMessage]:
    return [ChatMessage("user", as_sent(pair[0])), ChatMessage("assistant", pair[1].content)]


def as_sent(message: Message) -> str:
    """A user message as the model saw it: with the ledger block it was sent with, if kept."""
    return with_ledger(message.ledger_sent or "", message.content)


def _summary_for(session: Session, pairs: list[tuple[Message, Message]], through: int) -> str:
    """The consolidated summary if it covers `through`, topped up heuristically if stale."""
    covered = session.consolidated_through_turn
    parts = [session.consolidated_context.strip()] if session.consolidated_context else []
    # pairs are in turn order: find the gap by bisection (this runs for each cut point tried)
    gap = pairs[
        bisect.bisect_right(pairs, covered, key=_pair_turn) : bisect.bisect_right(
            pairs, through, key=_pair_turn
        )
    ]
    if gap:
        parts.append(heuristic_summary(gap))
    return "\n".join(p for p in parts if p)


def _pair_turn(pair: tuple[Message, Message]) -> int:
    return pair[0].turn


def _summary_message(text: str, through: int) -> ChatMessage:
    return ChatMessage("system", f"{prompts.SUMMARY_HEADER.format(turn=through)}\n{text}")


def assemble(
    session: Session,
    user_text: str,
    turn: int,
    budget: Budget,
    *,
    status_requested: bool = False,
    chunk: int = 3,
    ledger_refresh_turns: int | None = None,
    remind_rejected: bool = True,
    system_prompt: str = prompts.SYSTEM_PROMPT,
    checklist: str | None = None,
    ledger: LedgerSnapshot | None = None,
) -> AssembledPrompt:
    """Build the generation prompt for `turn`.

    Everything fits → no summary, all turns verbatim (the most cache-friendly form). Otherwise
    the oldest turns are replaced by the summary, in steps of `chunk` turns so the prefix stays
    the same for several turns; only when the summary plus the recent turns still do not fit
    are the oldest verbatim turns dropped.

    With `ledger_refresh_turns` set (the "as sent" layout), user messages in the history keep
    the ledger block they were sent with and the newest one gets `ledger_update`: each prompt
    then extends the previous one, which a one-slot KV cache serves without re-reading.
    A `checklist` (the small-model profile's ledger) is sent instead of a block, and history
    messages keep theirs the same way. `ledger` is the session's ledger snapshot, if taken.
    """
    history = answered(session.messages, turn, _pair_tokens)

    def fit(block: str) -> AssembledPrompt:
        return _assemble_with(session, history, block, user_text, turn, budget, chunk,
                              system_prompt)

    if checklist is not None:
        return fit(checklist)
    snapshot = ledger or ledger_snapshot(session)
    if ledger_refresh_turns is None:
        return fit(
            render_ledger(
                snapshot,
                status_requested=status_requested,
                focus=user_text,
                limit=budget.ledger_requirements,
            )
        )

    def as_sent_block(visible: list[tuple[Message, Message]]) -> str:
        return ledger_update(
            session,
            snapshot,
            visible,
            turn,
            ledger_refresh_turns,
            status_requested=status_requested,
            remind_rejected=remind_rejected,
            focus=user_text,
            limit=budget.ledger_requirements,
        )

    return _fit_as_sent(fit, as_sent_block, history.pairs)


def _fit_as_sent(
    fit: Callable[[str], AssembledPrompt],
    block_for: Callable[[list[tuple[Message, Message]]], str],
    pairs: list[tuple[Message, Message]],
) -> AssembledPrompt:
    """The "as sent" prompt, its ledger block judged by the blocks of the turns it shows."""
    prompt = fit(block_for(pairs))
    if prompt.over_budget and pairs and prompt.verbatim_from_turn > pairs[0][0].turn:
        # Blocks in the turns now summarised are no longer in view: judge by what is.
        visible = [p for p in pairs if p[0].turn >= prompt.verbatim_from_turn]
        prompt = fit(block_for(visible))
    return prompt


def _assemble_with(
    session: Session,
    answered_pairs: AnsweredTurns,
    ledger: str,
    user_text: str,
    turn: int,
    budget: Budget,
    chunk: int,
    system_prompt: str = prompts.SYSTEM_PROMPT,
) -> AssembledPrompt:
    system = ChatMessage("system", system_prompt)
    final = ChatMessage("user", with_ledger(ledger, user_text))
    fixed = messages_tokens([system, final])
    room = budget.prompt - fixed
    pairs = answered_pairs.pairs
    history_tokens = answered_pairs.sums[-1]
    if history_tokens <= room:
        history = [m for p in pairs for m in _pair_messages(p)]
        prefix = [system, *history]
        return AssembledPrompt(
            [*prefix, final],
            prefix,
            ledger,
            fixed + history_tokens,
            verbatim_from_turn=pairs[0][0].turn if pairs else turn,
            summarised_through=0,
            over_budget=fixed > budget.prompt,
        )
    return _assemble_summarised(
        session, answered_pairs, system, final, ledger, room, budget, chunk
    )


def _first_cut(sums: list[int], room: int, step: int, last: int) -> int:
    """Where the search for a cut point starts: the cut before the first one (in steps of
    `step`, up to `last`) whose verbatim turns alone fit. Earlier cuts cannot fit once the
    summary is added, and trying each of them made every turn of a long session cost O(n²).
    `sums` are the running sums of the pairs' tokens: what remains after a cut only shrinks
    as the cut moves on, so the first cut that fits is found by bisection."""
    total = sums[-1]
    steps = -(-last // step)  # the cuts tried: min(last, k * step) for k = 1..steps

    def fits(k: int) -> bool:
        return total - sums[min(last, k * step)] <= room

    k = bisect.bisect_left(range(1, steps + 1), True, key=fits) + 1
    if k > steps:
        return max(0, last - step)
    return (k - 1) * step


def _assemble_summarised(
    session: Session,
    answered_pairs: AnsweredTurns,
    system: ChatMessage,
    final: ChatMessage,
    ledger: str,
    room: int,
    budget: Budget,
    chunk: int,
) -> AssembledPrompt:
    pairs, pair_tokens, sums = answered_pairs.pairs, answered_pairs.tokens, answered_pairs.sums
    keep_min = min(len(pairs), budget.recent_turns)
    dropped = _first_cut(sums, room, max(1, chunk), len(pairs) - keep_min)
    while True:
        dropped = min(len(pairs) - keep_min, dropped + max(1, chunk))
        through = pairs[dropped - 1][0].turn if dropped else 0
        summary = _summary_message(_summary_for(session, pairs, through), through)
        history_tokens = sums[-1] - sums[dropped]
        if (
            messages_tokens([summary]) + history_tokens <= room
            or dropped >= len(pairs) - keep_min
        ):
            break
    # The summary outranks the verbatim turns but may not crowd them all out: cap it, then
    # drop the oldest verbatim turns until the rest fits.
    summary = _fit_summary(summary, max(room * 2 // 5, room - history_tokens))
    summary_tokens = messages_tokens([summary])
    truncated: list[int] = []
    while len(pairs) - dropped > 1 and summary_tokens + history_tokens > room:
        truncated.append(pairs[dropped][0].turn)
        history_tokens -= pair_tokens[dropped]
        dropped += 1
    kept = pairs[dropped:]
    history = [m for p in kept for m in _pair_messages(p)]
    prefix = [system, summary, *history]
    tokens = messages_tokens([*prefix, final])
    return AssembledPrompt(
        [*prefix, final],
        prefix,
        ledger,
        tokens,
        verbatim_from_turn=kept[0][0].turn if kept else final_turn(pairs),
        summarised_through=through,
        truncated_turns=truncated,
        over_budget=True,
    )


def final_turn(pairs: list[tuple[Message, Message]]) -> int:
    return pairs[-1][0].turn + 1 if pairs else 1


def _fit_summary(summary: ChatMessage, room: int) -> ChatMessage:
    if room <= 0 or estimate_tokens(summary.content) <= room:
        return summary
    # Keep the header and the newest part: the oldest facts also live in the ledger.
    header, _sep, body = summary.content.partition("\n")
    keep_chars = max(200, room * 4 - len(header))
    return ChatMessage("system", f"{header}\n…{body[-keep_chars:]}")

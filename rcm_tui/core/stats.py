"""Research metrics of a session, for /stats, the quality panel and the exit summary."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .models import Session

BLOAT_MODERATE = 1.5
BLOAT_SIGNIFICANT = 2.0


def bloat_assessment(
    ratio: float | None, moderate: float = BLOAT_MODERATE, significant: float = BLOAT_SIGNIFICANT
) -> str:
    """PRODUCT.md's bands for last ÷ first answer length."""
    if ratio is None:
        return "n/a"
    if ratio < moderate:
        return "minimal"
    if ratio < significant:
        return "moderate"
    return "significant"


@dataclass
class SessionStats:
    turns: int
    requirements_by_status: dict[str, int]
    rejected_active: int
    rejected_reopened: int
    average_quality: float | None
    latest_quality: float | None
    trend: list[float]
    trend_direction: str
    answer_lengths: list[int]
    bloat_ratio: float | None
    bloat: str
    first_answer_attempt_turn: int | None
    consolidation_turns: list[int]
    status_turns: list[int]
    calls_per_turn: list[int]
    tokens: dict[str, int]
    restated: int
    premature_turns: list[int]
    readvocated_turns: list[int]
    refined_turns: list[int]
    fallbacks: int
    grounding_discarded: int
    pivots: list[int] = field(default_factory=list)


def _direction(trend: list[float]) -> str:
    if len(trend) < 2:
        return "—"
    half = max(1, len(trend) // 2)
    early = sum(trend[:half]) / half
    late = sum(trend[-half:]) / half
    if late - early > 0.03:
        return "improving"
    if early - late > 0.03:
        return "declining"
    return "steady"


def session_stats(
    session: Session, moderate: float = 1.5, significant: float = 2.0
) -> SessionStats:
    trend = [q.overall for q in sorted(session.quality, key=lambda q: q.turn)]
    statuses = Counter(r.status for r in session.requirements)
    m = session.metrics
    return SessionStats(
        turns=session.turn,
        requirements_by_status={
            s: statuses.get(s, 0) for s in ("pending", "addressed", "confirmed", "dropped")
        },
        rejected_active=len(session.active_rejections()),
        rejected_reopened=sum(1 for r in session.rejected if r.reopened_turn is not None),
        average_quality=round(sum(trend) / len(trend), 3) if trend else None,
        latest_quality=trend[-1] if trend else None,
        trend=trend,
        trend_direction=_direction(trend),
        answer_lengths=list(m.answer_lengths),
        bloat_ratio=m.bloat_ratio,
        bloat=bloat_assessment(m.bloat_ratio, moderate, significant),
        first_answer_attempt_turn=m.first_answer_attempt_turn,
        consolidation_turns=list(m.consolidation_turns),
        status_turns=list(m.status_turns),
        calls_per_turn=[c.calls for c in sorted(m.llm_calls, key=lambda c: c.turn)],
        tokens={
            "prompt": m.tokens.prompt,
            "completion": m.tokens.completion,
            "cached": m.tokens.cached,
        },
        restated=len(m.restated_requirements),
        premature_turns=[q.turn for q in session.quality if q.premature_attempt],
        readvocated_turns=[q.turn for q in session.quality if q.readvocated],
        refined_turns=[q.turn for q in session.quality if q.attempts > 1],
        fallbacks=m.fallbacks,
        grounding_discarded=m.grounding_discarded,
        pivots=list(session.pivots),
    )


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _turns(turns: list[int]) -> str:
    if not turns:
        return "none"
    return ("turn " if len(turns) == 1 else "turns ") + ", ".join(map(str, turns))


def stats_markdown(session: Session, moderate: float = 1.5, significant: float = 2.0) -> str:
    s = session_stats(session, moderate, significant)
    reqs = ", ".join(f"{n} {k}" for k, n in s.requirements_by_status.items())
    calls = s.calls_per_turn
    mean_calls = f"{sum(calls) / len(calls):.1f}" if calls else "—"
    lines = [
        "## Session statistics",
        f"- Turns: {s.turns}",
        f"- Requirements: {reqs}",
        f"- Rejected options: {s.rejected_active} active, {s.rejected_reopened} reopened",
        f"- Quality: average {_fmt(s.average_quality)}, latest {_fmt(s.latest_quality)}"
        f" ({s.trend_direction})",
        f"- Trend: {' '.join(f'{q:.2f}' for q in s.trend[-12:]) or '—'}",
        f"- Answer lengths (chars): {', '.join(map(str, s.answer_lengths[-12:])) or '—'}",
        f"- Bloat ratio (last ÷ first): {_fmt(s.bloat_ratio)} — {s.bloat}",
        "- First full answer attempt: "
        + (f"turn {s.first_answer_attempt_turn}" if s.first_answer_attempt_turn else "none yet"),
        f"- Premature attempts: {_turns(s.premature_turns)}",
        f"- Re-advocacy caught: {_turns(s.readvocated_turns)}",
        f"- Refined: {_turns(s.refined_turns)}",
        f"- Consolidations: {_turns(s.consolidation_turns)}",
        f"- STATUS blocks: {_turns(s.status_turns)}",
        f"- Pivots: {_turns(s.pivots)}",
        f"- LLM calls per turn: mean {mean_calls}, max {max(calls) if calls else '—'}",
        f"- Tokens: {s.tokens['prompt']} prompt ({s.tokens['cached']} cached),"
        f" {s.tokens['completion']} completion",
        f"- Restated requirements (the user had to repeat): {s.restated}",
        f"- Fallbacks to heuristics: {s.fallbacks}; ungrounded items discarded:"
        f" {s.grounding_discarded}",
    ]
    return "\n".join(lines)


def exit_summary(session: Session, moderate: float = 1.5, significant: float = 2.0) -> str:
    s = session_stats(session, moderate, significant)
    trend = " ".join(f"{q:.2f}" for q in s.trend[-8:]) or "—"
    direction = "" if s.trend_direction == "—" else f"{s.trend_direction}: "
    return (
        f"rcm-tui session {session.id} — {session.title}\n"
        f"  turns {s.turns} · quality avg {_fmt(s.average_quality)} ({direction}{trend})\n"
        f"  bloat {_fmt(s.bloat_ratio)} ({s.bloat}) · requirements"
        f" {sum(s.requirements_by_status.values())} · rejected {s.rejected_active}\n"
        f"  resume with: rcm-tui --resume {session.id}"
    )

"""Markdown and JSON exports of a session.

Exports are built from the session document alone. This module deliberately imports nothing
from `config`: whatever a user shares must not be able to pick up an API key on the way.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Literal

from .core.models import Message, QualityRecord, Session
from .core.stats import bloat_assessment
from .safe_files import write_file
from .store import encode_document

Format = Literal["md", "json"]


def format_of(target: Path) -> Format:
    """The format a file name asks for: JSON for `.json`, Markdown otherwise."""
    return "json" if target.suffix == ".json" else "md"


def render(session: Session, fmt: Format) -> str:
    return to_json(session) if fmt == "json" else to_markdown(session)


def export_session(
    session: Session,
    target: Path,
    fmt: Format | None = None,
    *,
    overwrite: bool,
    make_parents: bool = True,
) -> None:
    """Write `session` to `target` privately, in `fmt` or the format its name asks for."""
    text = render(session, fmt or format_of(target))
    write_private(target, text, overwrite=overwrite, make_parents=make_parents)


def to_json(session: Session) -> str:
    """The session document exactly as the session file holds it."""
    return encode_document(session).decode("utf-8")


def to_markdown(session: Session) -> str:
    sections = [
        _header(session),
        _solidified(session),
        _decisions(session),
        _requirements(session),
        _transcript(session),
        _quality(session),
        _metrics(session),
    ]
    return "\n\n".join(part for part in sections if part) + "\n"


# -- helpers --------------------------------------------------------------------------------


def _when(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M %Z").strip()


def _cell(text: str) -> str:
    # Table cells are one line; a literal pipe would start a new column.
    return " ".join(text.split()).replace("|", "\\|")


def _score(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def bloat_label(ratio: float | None) -> str:
    if ratio is None:
        return "not measured yet"
    return f"{ratio:.2f} ({bloat_assessment(ratio)})"


# -- sections -------------------------------------------------------------------------------


def _header(session: Session) -> str:
    provider = session.provider.name + (
        f" / {session.provider.model}" if session.provider.model else ""
    )
    meta = " · ".join(
        [
            f"session `{session.id}`",
            f"created {_when(session.created_at)}",
            f"updated {_when(session.updated_at)}",
            f"provider {provider}",
            f"{session.turn} turns",
            f"reliability layer {'on' if session.reliability else 'off'}",
        ]
    )
    return f"# {session.title}\n\n*{meta}*"


def _solidified(session: Session) -> str:
    block = session.solidified
    if block is None:
        return ""
    edited = ", edited" if block.edited else ""
    if block.fallback:
        edited += ", built from the ledger because the model failed"
    quoted = "\n".join(f"> {line}".rstrip() for line in block.text.splitlines() or [""])
    return f"## SOLIDIFIED (turn {block.turn}{edited})\n\n{quoted}"


def _decisions(session: Session) -> str:
    lines = ["## Decisions"]
    latest = session.status_blocks[-1] if session.status_blocks else None
    if latest and latest.conclusion:
        lines.append(f"\n**Current conclusion** (STATUS, turn {latest.turn}): {latest.conclusion}")
    if session.memory.trajectory:
        lines.append(f"\n**Trajectory:** {session.memory.trajectory}")
    lines.append("\n### Rejected options\n")
    if not session.rejected:
        lines.append("None.")
    for option in session.rejected:
        reason = f" — {option.reason}" if option.reason else ""
        reopened = f" — **reopened** at turn {option.reopened_turn}" if option.reopened_turn else ""
        lines.append(
            f"- **{option.option}**{reason} (turn {option.turn}, {option.origin}){reopened}"
        )
    for title, items in (
        ("Open questions", session.memory.open_questions),
        ("Stable facts", session.memory.facts),
    ):
        if items:
            lines.append(f"\n### {title}\n")
            lines.extend(f"- {item}" for item in items)
    if session.pivots:
        lines.append(f"\nPivots at turns {', '.join(str(t) for t in session.pivots)}.")
    return "\n".join(lines)


def _requirements(session: Session) -> str:
    lines = ["## Requirements", ""]
    if not session.requirements:
        lines.append("None recorded.")
        return "\n".join(lines)
    lines += ["| id | requirement | status | turn | confidence |", "|---|---|---|---|---|"]
    for req in session.requirements:
        lines.append(
            f"| {_cell(req.id)} | {_cell(req.text)} | {req.status} | {req.source_turn} "
            f"| {req.confidence:.2f} |"
        )
    return "\n".join(lines)


def _speaker(message: Message) -> str:
    if message.role == "user":
        return "**User:**"
    attempt = f" (attempt {message.attempt})" if message.attempt and message.attempt > 1 else ""
    return f"**Assistant{attempt}:**"


def _quality_line(record: QualityRecord) -> str:
    parts = [f"quality {record.overall:.2f}", f"judge {record.judge}"]
    if record.attempts > 1:
        parts.append(f"showing attempt {record.shown_attempt} of {record.attempts}")
    if record.premature_attempt:
        parts.append("premature attempt")
    if record.readvocated_final:
        parts.append("re-advocated: " + ", ".join(record.readvocated_final))
    line = f"*{' · '.join(parts)}*"
    if record.issues:
        line += "\n" + "\n".join(f"*– {issue}*" for issue in record.issues)
    return line


def _transcript(session: Session) -> str:
    lines = ["## Transcript"]
    turns = sorted({m.turn for m in session.messages})
    for turn in turns:
        lines.append(f"\n### Turn {turn}")
        for message in (m for m in session.messages if m.turn == turn):
            lines.append(f"\n{_speaker(message)}\n\n{message.content}")
        record = session.quality_for(turn)
        if record is not None:
            lines.append("\n" + _quality_line(record))
    if not turns:
        lines.append("\nNo messages yet.")
    return "\n".join(lines)


def _quality(session: Session) -> str:
    if not session.quality:
        return ""
    lines = [
        "## Quality per turn",
        "",
        "| turn | overall | clarity | completeness | assumptions | verbosity | middle turns "
        "| requirements | premature | attempts |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for q in session.quality:
        lines.append(
            f"| {q.turn} | {q.overall:.2f} | {q.clarity:.2f} | {q.completeness:.2f} "
            f"| {q.assumptions:.2f} | {q.verbosity:.2f} | {q.middle_turn_reference:.2f} "
            f"| {q.requirement_tracking:.2f} | {'yes' if q.premature_attempt else 'no'} "
            f"| {q.attempts} |"
        )
    return "\n".join(lines)


def _metrics(session: Session) -> str:
    metrics = session.metrics
    statuses = Counter(r.status for r in session.requirements)
    by_status = ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
    active = len(session.active_rejections())
    reopened = len(session.rejected) - active
    calls = sum(cost.calls for cost in metrics.llm_calls)
    rows = [
        ("Turns", str(session.turn)),
        ("Requirements", f"{len(session.requirements)}" + (f" ({by_status})" if by_status else "")),
        ("Rejected options", f"{active} active, {reopened} reopened"),
        ("Average quality", _score(session.average_quality())),
        ("Latest quality", _score(session.quality[-1].overall if session.quality else None)),
        ("Answer lengths", ", ".join(str(n) for n in metrics.answer_lengths) or "–"),
        ("Bloat ratio (last ÷ first)", bloat_label(metrics.bloat_ratio)),
        ("First full answer attempt", _turn_or_dash(metrics.first_answer_attempt_turn)),
        ("Consolidation turns", _turns(metrics.consolidation_turns)),
        ("STATUS turns", _turns(metrics.status_turns)),
        ("LLM calls", str(calls)),
        (
            "Tokens",
            f"{metrics.tokens.prompt} prompt, {metrics.tokens.completion} completion, "
            f"{metrics.tokens.cached} cached",
        ),
        ("Restated requirements", str(len(metrics.restated_requirements))),
        ("Fallbacks to heuristics", str(metrics.fallbacks)),
    ]
    lines = ["## Metrics", ""]
    lines.extend(f"- **{label}:** {value}" for label, value in rows)
    return "\n".join(lines)


def _turn_or_dash(turn: int | None) -> str:
    return "–" if turn is None else f"turn {turn}"


def _turns(turns: list[int]) -> str:
    return ", ".join(str(t) for t in turns) or "–"


def write_private(
    target: Path, text: str, *, overwrite: bool = True, make_parents: bool = True
) -> None:
    """Write an export as private as the session it comes from (0600, folder 0700).

    A lone surrogate (a broken paste) becomes "?" rather than failing the whole export.
    Without `overwrite`, O_EXCL closes the gap between a caller's exists() check and the write.
    A symlink at `target` is never written through (see `safe_files`).
    """
    if make_parents:  # the default exports folder; a path the user typed must exist
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    write_file(target, text.encode("utf-8", "replace"), overwrite=overwrite)

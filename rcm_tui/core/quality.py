"""Scoring one reply on the seven dimensions of PRODUCT.md.

Heuristics always run; an LLM judge, when enabled and valid, refines the soft dimensions. The
checks a judge cannot be trusted with — premature full answers and bloat against the first
answer — are always the heuristics' call. Re-advocacy of a rejected option is the judge's call
where it answered for that option (it sees members and variants no list holds), the
heuristics' call otherwise (readvocacy.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import BaseModel, Field

from . import evidence, heuristics, prompts
from .markers import strip_markers
from .models import Dimensions, QualityRecord, Session, UnitScore, graded
from .readvocacy import judged_readvocacy
from .structured import validate_answer
from .terms import content_terms, overlap

_HEDGES = re.compile(
    r"\b(assum(e|ing|ption)|presumably|probably|likely|i guess|i think|might be|"
    r"should be fine|typically|usually)\b|假设|可能|大概",
    re.IGNORECASE,
)
# Similarity to the previous reply from which a reply counts as a repeat.
REPEAT = 0.9


@dataclass
class ReplyContext:
    """What the scorer needs to know about the turn around a reply."""

    turn: int
    user_text: str
    pending: list[tuple[str, str, int]]  # (id, text, source_turn)
    rejected: list[str]
    first_answer_length: int | None
    requirements_known: int
    moderate_bloat: float = 1.5
    previous_reply: str = ""


class Scores(Dimensions[float]):
    issues: list[str] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    readvocated: list[str] = Field(default_factory=list)
    # The reply's words for each re-advocated option, when not its own name.
    evidence: dict[str, str | None] = Field(default_factory=dict)
    addressed: list[str] = Field(default_factory=list)
    judge: str = "heuristic"
    # Says (nearly) word for word what the previous reply said.
    repeated: bool = False
    # Parrots the ledger block of its own prompt.
    echoed: bool = False

    @property
    def overall(self) -> float:
        return overall_score(self)


def overall_score(s: Scores) -> float:
    """Mean of the six graded dimensions (two inverted), halved on a premature attempt."""
    parts = [
        s.clarity,
        s.completeness,
        s.middle_turn_reference,
        s.requirement_tracking,
        1.0 - s.assumptions,
        1.0 - s.verbosity,
    ]
    score = sum(parts) / len(parts)
    return round(score / 2 if s.premature_attempt else score, 3)


def _clamp(x: float) -> float:
    return max(0.0, min(1.0, x))


def addressed_requirements(reply: str, pending: list[tuple[str, str, int]]) -> list[str]:
    # Evidence that the reply meets each requirement, not an echo of its words (issue 12).
    return evidence.addressed(reply, pending)


def heuristic_scores(reply: str, ctx: ReplyContext) -> Scores:
    terms = content_terms(reply)
    issues, suggestions = _bloat_notes(reply, ctx)
    clarity = _clarity(reply)
    completeness = _completeness(reply, ctx, terms)
    hedges = len(_HEDGES.findall(reply))
    assumptions = _clamp(0.1 + 0.12 * hedges)
    verbosity = _verbosity(reply, ctx)
    markers = heuristics.premature_markers(reply, len(ctx.pending), ctx.turn)
    premature = bool(markers) and ctx.requirements_known < 2
    if premature:
        issues.append("gives a full solution before the requirements are known")
        suggestions.append("ask for the missing facts instead of answering in full")
    evidence = _evidence(reply, ctx.rejected)
    readvocated = list(evidence)
    for option in readvocated:
        issues.append(prompts.readvocated_issue(option, evidence[option]))
    repeated = bool(ctx.previous_reply) and (
        heuristics.text_similarity(reply, ctx.previous_reply) >= REPEAT
    )
    if repeated:
        # Small models fall into repeating their last answer word for word: nothing new was
        # answered, however on-topic the words are.
        completeness = min(completeness, 0.3)
        issues.append(prompts.REPEATED_ISSUE)
        suggestions.append("answer the newest message; do not repeat the last reply")
    # An empty reply is what is left of one that only copied the ledger (see core/echo.py).
    echoed = not reply.strip() or any(marker in reply for marker in prompts.LEDGER_MARKERS)
    if echoed:
        # Copying a requirement out of the ledger block neither answers nor addresses it.
        completeness = min(completeness, 0.2)
        issues.append(prompts.ECHOED_ISSUE)
        suggestions.append("answer the message in your own words; the ledger is not for the user")
    addressed = [] if echoed else addressed_requirements(reply, ctx.pending)
    tracking = _tracking(reply, ctx, addressed, readvocated)
    middle = _middle_reference(ctx, terms)
    if tracking < 0.8 and not readvocated:
        missing = [rid for rid, _t, _s in ctx.pending if rid not in addressed][:3]
        if missing:
            issues.append("does not take pending requirements into account: " + ", ".join(missing))
    return Scores(
        clarity=clarity,
        completeness=completeness,
        assumptions=assumptions,
        verbosity=verbosity,
        premature_attempt=premature,
        middle_turn_reference=middle,
        requirement_tracking=tracking,
        issues=issues,
        suggestions=suggestions,
        readvocated=readvocated,
        evidence=evidence,
        addressed=addressed,
        repeated=repeated,
        echoed=echoed,
    )


def _bloat_notes(reply: str, ctx: ReplyContext) -> tuple[list[str], list[str]]:
    """The issue and suggestion for a reply grown past `moderate_bloat` × the first answer."""
    if ctx.first_answer_length and len(reply) > ctx.moderate_bloat * ctx.first_answer_length:
        ratio = len(reply) / ctx.first_answer_length
        return (
            [f"answer is {ratio:.1f}× as long as the first answer"],
            ["cut repetition and keep to what was asked"],
        )
    return [], []


def _evidence(reply: str, rejected: list[str]) -> dict[str, str | None]:
    """The proposed rejected options, each with the reply's words for it when they are not
    the option's own name (pancakes for "flat foods")."""
    if not rejected:
        return {}
    found = heuristics.find_readvocacy_evidence(reply, rejected, as_reply=True)
    return {o: None if heuristics.same_option(o, w) else w for o, w in found.items()}


def _clarity(reply: str) -> float:
    sentences = [s for s in re.split(r"(?<=[.!?。！？])\s+|\n+", reply) if s.strip()]
    if not sentences:
        return 0.0
    words = len(reply.split())
    mean_len = words / len(sentences)
    score = 0.95
    if mean_len > 30:
        score -= min(0.35, (mean_len - 30) / 60)
    if words > 250 and not re.search(r"^\s*([-*]|\d+[.)]|#)", reply, re.MULTILINE):
        score -= 0.15  # a long wall of text without structure
    return _clamp(score)


def _completeness(reply: str, ctx: ReplyContext, terms: set[str]) -> float:
    if not reply.strip():
        return 0.0
    asked = content_terms(ctx.user_text)
    on_topic = len(asked & terms) / len(asked) if asked else 1.0
    is_question = reply.rstrip().endswith("?")
    base = 0.55 + 0.45 * min(1.0, on_topic * 2)
    # A clarifying question is a complete answer to an underspecified request.
    if is_question and ctx.requirements_known < 2:
        base = max(base, 0.85)
    return _clamp(base)


def _verbosity(reply: str, ctx: ReplyContext) -> float:
    words = len(reply.split())
    absolute = _clamp((words - 180) / 600)
    if not ctx.first_answer_length:
        return round(max(0.1, absolute), 3)
    ratio = len(reply) / ctx.first_answer_length
    growth = _clamp((ratio - 1.0) / 3.0)
    return round(max(0.1, absolute, growth), 3)


def _tracking(reply: str, ctx: ReplyContext, addressed: list[str], readvocated: list[str]) -> float:
    score = 1.0 - 0.5 * len(readvocated)
    relevant = [p for p in ctx.pending if overlap(p[1], content_terms(ctx.user_text)) > 0]
    if relevant:
        hit = sum(1 for rid, _t, _s in relevant if rid in addressed)
        score -= 0.3 * (1 - hit / len(relevant))
    return _clamp(score)


def _middle_reference(ctx: ReplyContext, reply_terms: set[str]) -> float:
    """Does the reply use what the user said in the middle of the conversation?"""
    if ctx.turn < 4:
        return 1.0
    middle = [(rid, text) for rid, text, src in ctx.pending if 1 < src < ctx.turn]
    relevant = [t for _rid, t in middle if overlap(t, content_terms(ctx.user_text)) > 0]
    if not relevant:
        return 0.9
    used = sum(1 for t in relevant if overlap(t, reply_terms) >= 0.34)
    return round(_clamp(0.4 + 0.6 * used / len(relevant)), 3)


class RejectedCheck(BaseModel):
    """The judge's answer for one rejected option."""

    option: str
    proposes: bool


class JudgeVerdict(Dimensions[UnitScore]):
    # Optional in the answer: the heuristics decide a premature attempt anyway (see combine).
    premature_attempt: bool = False
    addressed: list[str] = Field(default_factory=list)
    issues: list[str] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    rejected_options: list[RejectedCheck] = Field(default_factory=list)


def parse_judge(text: str, pending_ids: set[str]) -> JudgeVerdict:
    verdict = validate_answer(JudgeVerdict, text, "judge")
    # A judge may only mark requirements that exist and are pending (grounding).
    verdict.addressed = [rid for rid in verdict.addressed if rid in pending_ids]
    return verdict


def combine(
    heuristic: Scores, verdict: JudgeVerdict | None, rejected: list[str] | None = None
) -> Scores:
    """Blend the judge into the heuristic scores; premature and bloat stay heuristic, and the
    judge's per-option answer decides re-advocacy of the `rejected` options it answered for."""
    if verdict is None:
        return heuristic
    options = rejected if rejected is not None else heuristic.readvocated
    readvocated = judged_readvocacy(heuristic.readvocated, options, verdict.rejected_options)
    added = [o for o in readvocated if o not in heuristic.readvocated]
    cleared = [o for o in heuristic.readvocated if o not in readvocated]
    flagged = [prompts.readvocated_issue(o) for o in added]
    dropped = {prompts.readvocated_issue(o, heuristic.evidence.get(o)) for o in cleared}
    heuristic_issues = [i for i in heuristic.issues if i not in dropped]
    # The heuristic tracking score took 0.5 off per flag (see _tracking): move it with the flags.
    tracking = _clamp(heuristic.requirement_tracking + 0.5 * (len(cleared) - len(added)))

    def blend(h: float, j: float) -> float:
        return round((h + j) / 2, 3)

    return Scores(
        clarity=round(verdict.clarity, 3),
        completeness=blend(heuristic.completeness, verdict.completeness),
        assumptions=round(max(heuristic.assumptions, verdict.assumptions * 0.8), 3),
        verbosity=max(heuristic.verbosity, blend(heuristic.verbosity, verdict.verbosity)),
        premature_attempt=heuristic.premature_attempt,
        middle_turn_reference=blend(heuristic.middle_turn_reference, verdict.middle_turn_reference),
        requirement_tracking=min(tracking, blend(tracking, verdict.requirement_tracking)),
        issues=_merge_lists(flagged + heuristic_issues, verdict.issues),
        suggestions=_merge_lists(heuristic.suggestions, verdict.suggestions),
        readvocated=readvocated,
        evidence={o: heuristic.evidence.get(o) for o in readvocated},
        addressed=sorted(set(heuristic.addressed) | set(verdict.addressed)),
        judge="llm",
        repeated=heuristic.repeated,
        echoed=heuristic.echoed,
    )


def _merge_lists(a: list[str], b: list[str], limit: int = 6) -> list[str]:
    out: list[str] = []
    for item in [*a, *b]:
        item = " ".join(str(item).split())[:200]
        if item and item not in out:
            out.append(item)
    return out[:limit]


def to_record(
    scores: Scores, turn: int, attempts: int, shown: int, readvocated_in: dict[str, list[int]]
) -> QualityRecord:
    return QualityRecord(
        turn=turn,
        **{name: round(value, 3) for name, value in graded(scores).items()},
        premature_attempt=scores.premature_attempt,
        overall=scores.overall,
        issues=scores.issues,
        suggestions=scores.suggestions,
        readvocated=list(readvocated_in),
        readvocated_final=scores.readvocated,
        readvocated_in=readvocated_in,
        attempts=attempts,
        shown_attempt=shown,
        judge="llm" if scores.judge == "llm" else "heuristic",
    )


def update_length_metrics(session: Session, turn: int, reply: str) -> None:
    lengths = session.metrics.answer_lengths
    # The periodic [STATUS] block is asked for by the layer; it is not the answer growing.
    lengths.append(len(strip_markers(reply)))
    first = next((n for n in lengths if n > 0), None)
    session.metrics.bloat_ratio = round(lengths[-1] / first, 3) if first else None
    if session.metrics.first_answer_attempt_turn is None and heuristics.is_full_answer_attempt(
        reply
    ):
        session.metrics.first_answer_attempt_turn = turn

"""Validating and grounding what an LLM analyser returns.

A structured answer can be valid JSON and still nonsense: a small model constrained to the
schema invents requirements nobody stated. Every item must be supported by the user's own
words; what is not is discarded and counted, never merged into the ledger.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field, field_validator

from . import heuristics
from .analysis import Analysis, RejectionFinding, RequirementFinding
from .ledger_snapshot import LedgerSnapshot
from .structured import StructuredOutputError, validate_answer
from .terms import content_terms

GROUNDING_MIN_OVERLAP = 0.6
MAX_OPTION_WORDS = 5
# A rejection or a pivot needs the user's own words for it in the same sentence: a negation,
# a "drop / forget / instead" verb, or their Chinese counterparts.
_REJECTION_CUE = re.compile(
    r"\b(no|not|don'?t|do not|never|avoid|drop|forget|without|instead|rule[sd]? out|against|"
    r"off the table|no-go|reject\w*|skip|ditch|abandon|scrap|remove|stop using|too (heavy|slow|"
    r"complex|expensive))\b|不|别|放弃|排除|去掉",
    re.IGNORECASE,
)
_PIVOT_CUE = re.compile(
    r"\b(actually|instead|change of plan|scratch that|forget|rather|switch|pivot|on second "
    r"thought|let'?s not|no longer)\b|换个|改用|还是",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?;。！？；])\s*|\n+")


class _Rejection(BaseModel):
    option: str
    reason: str = ""


class _Requirement(BaseModel):
    text: str
    confidence: float = Field(0.7, ge=0, le=1)

    @field_validator("confidence", mode="before")
    @classmethod
    def _percent_to_fraction(cls, value: object) -> object:
        # Small models often answer 90 for 0.9; a percentage is unambiguous, keep it.
        if isinstance(value, int | float) and 1 < value <= 100:
            return value / 100
        return value


class AnalysisAnswer(BaseModel):
    requirements: list[_Requirement | str] = Field(default_factory=list)
    confirmed: list[str] = Field(default_factory=list)
    dropped: list[str] = Field(default_factory=list)
    rejections: list[_Rejection | str] = Field(default_factory=list)
    reopened: list[str] = Field(default_factory=list)
    pivot: bool = False
    facts: list[str] = Field(default_factory=list)
    trajectory: str = ""
    dialog_state: str = "information_seeking"
    topic_shift: bool = False
    questions: list[str] = Field(default_factory=list)

    @field_validator("dialog_state")
    @classmethod
    def _known_state(cls, value: str) -> str:
        known = {"greeting", "information_seeking", "problem_solving", "clarification", "closing"}
        return value if value in known else "information_seeking"


def _grounded(text: str, source_terms: set[str]) -> bool:
    terms = content_terms(text)
    if not terms:
        return False
    return len(terms & source_terms) / len(terms) >= GROUNDING_MIN_OVERLAP


def rejection_grounded(option: str, message: str) -> bool:
    """The option is a short name the user wrote, in a sentence a person would read as
    turning it down: one of the analyser's rejection constructions ("I hate using taxis",
    "anything but X", "we tried X and it was a nightmare", "除了X以外都可以") or a plain
    negation cue. Hedges ("not sure about X") and negated traps ("we don't mind X") carry
    no construction, and only the cue list can admit them."""
    if not option or len(option.split()) > MAX_OPTION_WORDS:
        return False
    for sentence in _SENTENCE.split(message):
        if not heuristics.option_matches(option, sentence):
            continue
        if heuristics.rejects_option(option, sentence) or _REJECTION_CUE.search(sentence):
            return True
    return False


def parse_analysis(answer: str, message: str, view: LedgerSnapshot) -> Analysis:
    """Validate the JSON answer and keep only items grounded in the user's message."""
    parsed = validate_answer(AnalysisAnswer, answer, "analysis")
    source = content_terms(message)
    pivot = parsed.pivot and bool(_PIVOT_CUE.search(message))
    out = Analysis(source="llm", pivot=pivot, topic_shift=parsed.topic_shift)
    out.dialog_state = parsed.dialog_state  # type: ignore[assignment]
    for item in parsed.requirements:
        req = item if isinstance(item, _Requirement) else _Requirement(text=item)
        text = " ".join(req.text.split())
        if text and not text.endswith("?") and _grounded(text, source):
            out.requirements.append(RequirementFinding(text, min(req.confidence, 0.9)))
        else:
            out.discarded.append(f"requirement: {text[:80]}")
    for rej_item in parsed.rejections:
        rej = rej_item if isinstance(rej_item, _Rejection) else _Rejection(option=rej_item)
        option = " ".join(rej.option.split())
        if rejection_grounded(option, message):
            out.rejections.append(RejectionFinding(option, rej.reason.strip()))
        else:
            out.discarded.append(f"rejection: {option[:80]}")
    for option in parsed.reopened:
        known = any(heuristics.option_matches(option, o) for o in view.reopenable)
        if known and heuristics.option_matches(option, message):
            out.reopened.append(option)
        else:
            out.discarded.append(f"reopen: {option[:80]}")
    ids = {r.id for r in view.requirements} if parsed.confirmed or parsed.dropped else set()
    out.confirmed_ids = [i for i in parsed.confirmed if i in ids]
    out.dropped_ids = [i for i in parsed.dropped if i in ids]
    out.facts = [f for f in parsed.facts if f.strip() and _grounded(f, source)]
    if parsed.trajectory and _grounded(parsed.trajectory, source):
        out.trajectory = parsed.trajectory.strip()
    out.questions = [q for q in parsed.questions if q.strip() and _grounded(q, source)][:5]
    return out


__all__ = ["AnalysisAnswer", "StructuredOutputError", "parse_analysis", "rejection_grounded"]

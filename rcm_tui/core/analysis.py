"""What an analyser (heuristic or LLM) found in one user message.

Both analysers produce an `Analysis`; `ledger.apply_analysis` merges it into the session. The
analysers never touch the session themselves, so they can run concurrently with generation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .models import DialogState


@dataclass
class RequirementFinding:
    text: str
    confidence: float = 0.7


@dataclass
class RejectionFinding:
    option: str
    reason: str = ""
    category: bool = False  # a class of things ("flat foods"), not one named option


@dataclass
class Analysis:
    requirements: list[RequirementFinding] = field(default_factory=list)
    # ids of existing requirements the user confirmed ("yes, PostgreSQL it is")
    confirmed_ids: list[str] = field(default_factory=list)
    # ids of existing requirements the user withdrew ("forget the CSV export")
    dropped_ids: list[str] = field(default_factory=list)
    rejections: list[RejectionFinding] = field(default_factory=list)
    reopened: list[str] = field(default_factory=list)
    pivot: bool = False
    facts: list[str] = field(default_factory=list)
    trajectory: str = ""
    dialog_state: DialogState = "information_seeking"
    topic_shift: bool = False
    questions: list[str] = field(default_factory=list)
    source: str = "heuristic"
    # Items an LLM analyser returned that the conversation text does not support.
    discarded: list[str] = field(default_factory=list)

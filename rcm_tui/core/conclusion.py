"""One conclusion, one source: SOLIDIFIED, the latest decision, STATUS and `/status` agree.

Three places can state where the conversation stands: the SOLIDIFIED block (written by the
model or edited by the user), the user's latest decision ("let's go with NATS JetStream", kept
as the trajectory) and the model's latest STATUS block. The newest of them is the conclusion;
at the same turn the user's own words (an edited SOLIDIFIED, then a decision) outrank the
model's. Every view — the panel, `/status`, the recap, the SOLIDIFIED fallback — asks here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .heuristics import option_matches
from .models import Session

_CONCLUSION_LINE_RE = re.compile(r"^\s*[-*]?\s*conclusion\s*[:：]\s*(?P<text>.+?)\s*$", re.I | re.M)
_UNSETTLED_RE = re.compile(r"^(?:not\s+settled(?:\s+yet)?|none|n/?a|tbd|-+|未定|暂无)\.?$", re.I)
# Questions a decision answers: "which one …?", "pick a broker", "要选数据库".
_CHOICE_QUESTION_RE = re.compile(
    r"^(?:which|what\s+(?:\w+\s+)?should\s+(?:we|i)\s+(?:use|pick|choose)|pick|choose|decide|"
    r"select|should\s+(?:we|i)\s+(?:use|go\s+with|pick))\b|选|哪个|哪一个|用哪",
    re.I,
)


@dataclass(frozen=True)
class Conclusion:
    text: str
    source: str  # "SOLIDIFIED", "decision" or "STATUS"
    turn: int


def _solidified(session: Session) -> Conclusion | None:
    block = session.solidified
    if block is None:
        return None
    m = _CONCLUSION_LINE_RE.search(block.text)
    if not m or _UNSETTLED_RE.match(m.group("text")):
        return None
    return Conclusion(m.group("text"), "SOLIDIFIED", block.turn)


def current_conclusion(session: Session) -> Conclusion | None:
    """The newest stated conclusion, or None while nothing is settled."""
    candidates: list[tuple[int, int, Conclusion]] = []
    solid = _solidified(session)
    if solid is not None and session.solidified is not None:
        candidates.append((solid.turn, 2 if session.solidified.edited else 0, solid))
    memory = session.memory
    if memory.trajectory:
        turn = memory.trajectory_turn or 0
        candidates.append((turn, 1, Conclusion(memory.trajectory, "decision", turn)))
    if session.status_blocks and session.status_blocks[-1].conclusion:
        block = session.status_blocks[-1]
        if not _UNSETTLED_RE.match(block.conclusion):
            candidates.append((block.turn, -1, Conclusion(block.conclusion, "STATUS", block.turn)))
    if not candidates:
        return None
    return max(candidates, key=lambda c: (c[0], c[1]))[2]


def close_decided_questions(session: Session, decision: str) -> int:
    """A decision answers the open questions that asked for a choice, or about what it
    chose; they leave the open list. Returns how many closed."""
    still_open = [
        q
        for q in session.memory.open_questions
        if not _CHOICE_QUESTION_RE.search(q) and not option_matches(decision, q)
    ]
    closed = len(session.memory.open_questions) - len(still_open)
    session.memory.open_questions = still_open
    return closed

"""Premature full answers: a complete solution (code, plan, final answer) before the facts it
needs are in."""

from __future__ import annotations

import re

from .sentences import (
    CODE_BLOCK_RE,
)

# Turns at the start of a conversation where a complete solution is premature on its own: the
# facts it needs have usually not been given yet.
EARLY_TURNS = 2
_SUBSTANTIAL_CODE_LINES = 15
_SUBSTANTIAL_CODE_CHARS = 600
_PLAN_MIN_STEPS = 5

_FULL_SOLUTION_RE = re.compile(
    r"\b(?:here(?:'s|\s+is)\s+(?:the|a|your)\s+(?:complete|full|final|finished|entire|whole|"
    r"working|production[- ]ready)\s+(?:\w+\s+)?(?:implementation|code|solution|version|program|"
    r"script|module|app(?:lication)?|plan|design|answer)|(?:complete|full|final|entire|"
    r"production[- ]ready)\s+(?:implementation|solution|source\s+code|code\s+listing)|"
    r"final\s+answer|putting\s+it\s+all\s+together|the\s+full\s+code|ready\s+to\s+(?:deploy|ship)"
    r"\s+as[- ]is)\b"
    r"|完整(?:的)?(?:代码|实现|方案|解决方案|程序)|最终(?:的)?(?:方案|答案|版本|代码)",
    re.I,
)
_STEP_RE = re.compile(
    r"(?:^|(?<=\s))(?:step\s+)?(?P<n>\d{1,2})[.)]\s+(?P<body>.+?)(?=(?:\s(?:step\s+)?\d{1,2}[.)]\s)|$)"
    r"|第(?P<zh>[一二三四五六七八九十\d]+)步",
    re.I | re.M,
)


def _solution_markers(reply: str) -> list[str]:
    markers: list[str] = []
    blocks = CODE_BLOCK_RE.findall(reply)
    sizes = [(len([ln for ln in b.splitlines() if ln.strip()]), len(b)) for b in blocks]
    big = [
        lines
        for lines, chars in sizes
        if lines >= _SUBSTANTIAL_CODE_LINES or chars >= _SUBSTANTIAL_CODE_CHARS
    ]
    if big:
        markers.append(f"complete code block ({max(big)} lines)")
    elif sum(lines for lines, _ in sizes) >= 2 * _SUBSTANTIAL_CODE_LINES:
        markers.append(f"code blocks totalling {sum(lines for lines, _ in sizes)} lines")
    phrase = _FULL_SOLUTION_RE.search(reply)
    if phrase:
        markers.append(f'full-solution phrase "{phrase.group().strip()}"')
    prose = CODE_BLOCK_RE.sub(" ", reply)
    steps = [m for m in _STEP_RE.finditer(prose)]
    statements = [m for m in steps if m.group("zh") or not m.group("body").rstrip().endswith("?")]
    if len(statements) >= _PLAN_MIN_STEPS:
        markers.append(f"numbered plan ({len(statements)} steps)")
    return markers


def is_full_answer_attempt(reply: str) -> bool:
    """Does the reply present a complete solution (long code, 'complete implementation', a
    5+-step plan)? Used for the first-full-answer-attempt metric."""
    return bool(_solution_markers(reply))


def premature_markers(reply: str, open_requirement_count: int, turn: int) -> list[str]:
    """The full-solution markers of a reply that is premature, else [].

    A full solution is premature while requirements are still open, or in the first
    EARLY_TURNS turns, when the facts it depends on have usually not been given yet.
    """
    markers = _solution_markers(reply)
    if not markers or (open_requirement_count <= 0 and turn > EARLY_TURNS):
        return []
    return markers

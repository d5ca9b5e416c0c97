"""Markers a model may put in its reply: [STATUS] blocks, [PIVOT], [REJECTED: option]."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_STATUS = re.compile(r"\[STATUS\](?P<body>.*?)(\[/STATUS\]|\n\s*\n|$)", re.DOTALL | re.IGNORECASE)
_FIELD = re.compile(r"^\s*[-*]?\s*(conclusion|rejected|open)\s*:\s*(.*)$", re.IGNORECASE)
_PIVOT = re.compile(r"\[PIVOT\]", re.IGNORECASE)
_REJECTED = re.compile(r"\[REJECTED:\s*([^\]\n]{1,80})\]", re.IGNORECASE)
# For the UI, which renders the markers instead of printing their tags.
STATUS_BLOCK, STATUS_FIELD, PIVOT_MARK, REJECTED_MARK = _STATUS, _FIELD, _PIVOT, _REJECTED
_NONE = {"", "none", "n/a", "-", "nothing", "无"}


@dataclass
class ReplyMarkers:
    status_found: bool = False
    conclusion: str = ""
    rejected: list[str] = field(default_factory=list)
    open: list[str] = field(default_factory=list)
    pivot: bool = False
    rejected_markers: list[str] = field(default_factory=list)


def _items(value: str) -> list[str]:
    parts = [p.strip(" .") for p in re.split(r";|\n", value)]
    return [p for p in parts if p.lower() not in _NONE]


def parse_markers(reply: str) -> ReplyMarkers:
    found = ReplyMarkers(pivot=bool(_PIVOT.search(reply)))
    found.rejected_markers = [m.strip() for m in _REJECTED.findall(reply)]
    status = _STATUS.search(reply)
    if status:
        for line in status.group("body").splitlines():
            match = _FIELD.match(line)
            if not match:
                continue
            key, value = match.group(1).lower(), match.group(2).strip()
            if key == "conclusion":
                found.conclusion = value
            elif key == "rejected":
                found.rejected = _items(value)
            else:
                found.open = _items(value)
        found.status_found = bool(found.conclusion or found.rejected or found.open)
    return found


def option_of(status_item: str) -> tuple[str, str]:
    """'MongoDB (no ACID)' → ('MongoDB', 'no ACID')."""
    match = re.match(r"\s*(.+?)\s*\((.*)\)\s*$", status_item)
    if match:
        return match.group(1), match.group(2)
    option, _sep, reason = status_item.partition(" — ")
    return option.strip(), reason.strip()


def strip_markers(reply: str) -> str:
    """The reply without marker tags, for display length and quality checks."""
    text = _STATUS.sub("", reply, count=1) if _STATUS.search(reply) else reply
    text = _PIVOT.sub("", text)
    return _REJECTED.sub("", text).strip()

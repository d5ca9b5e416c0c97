"""A reply as the transcript shows it: the model's markers rendered, not printed raw.

A periodic `[STATUS]` block is a small block of its own (one line per field), `[PIVOT]` and
`[REJECTED: X]` become short italic remarks. The stored reply keeps the markers as written.
"""

from __future__ import annotations

from ...core.markers import PIVOT_MARK, REJECTED_MARK, STATUS_BLOCK, STATUS_FIELD


def _status_block(body: str) -> str:
    lines = ["> **STATUS**", ">"]
    for line in body.splitlines():
        match = STATUS_FIELD.match(line)
        if match:
            lines.append(f"> - {match.group(1).capitalize()}: {match.group(2).strip()}")
        elif line.strip():
            lines.append(f"> - {line.strip()}")
    return "\n".join(lines) + "\n\n"


def display_reply(text: str) -> str:
    shown = STATUS_BLOCK.sub(lambda m: _status_block(m.group("body")), text, count=1)
    shown = PIVOT_MARK.sub("*(pivot)*", shown)
    return REJECTED_MARK.sub(lambda m: f"*(rejected: {m.group(1).strip()})*", shown)

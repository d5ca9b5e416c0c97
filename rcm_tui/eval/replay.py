"""Replaying a JSON Lines script through the controller, exactly as a user would type it.

A script line is `{"user": "..."}`, optionally with `"assistant": "..."` — the reply the offline
provider plays for that turn. A user line that is a slash command runs the command.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..commands import CommandResult, dispatch, is_command, unescape
from ..controller import Controller
from ..core.llm import ProviderError
from ..core.readvocacy_label import readvocacy_label
from ..providers.offline import scripted_reply

MAX_SCRIPT_BYTES = 64 * 1024 * 1024


class ScriptError(ValueError):
    """An unusable replay script; the message names the file and line."""


@dataclass(frozen=True)
class ScriptLine:
    number: int
    user: str
    assistant: str | None = None


def parse_script(text: str, source: str = "script") -> list[ScriptLine]:
    lines: list[ScriptLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, RecursionError) as exc:
            msg = getattr(exc, "msg", "nested too deeply")
            raise ScriptError(f"{source}:{number}: invalid JSON ({msg})") from None
        if not isinstance(data, dict) or not isinstance(data.get("user"), str):
            raise ScriptError(f'{source}:{number}: expected an object with a "user" string')
        assistant = data.get("assistant")
        if assistant is not None and not isinstance(assistant, str):
            raise ScriptError(f'{source}:{number}: "assistant" must be a string')
        if not data["user"].strip():
            raise ScriptError(f'{source}:{number}: "user" is empty')
        lines.append(ScriptLine(number, data["user"], assistant))
    if not lines:
        raise ScriptError(f"{source}: the script has no turns")
    return lines


def load_script(path: Path) -> list[ScriptLine]:
    try:
        if path.stat().st_size > MAX_SCRIPT_BYTES:
            raise ScriptError(f"{path}: script larger than {MAX_SCRIPT_BYTES // 2**20} MB")
        # Bounded: pipes and devices (/dev/zero) report size 0 and may never end.
        with path.open("rb") as handle:
            raw = handle.read(MAX_SCRIPT_BYTES + 1)
        if len(raw) > MAX_SCRIPT_BYTES:
            raise ScriptError(f"{path}: script larger than {MAX_SCRIPT_BYTES // 2**20} MB")
    except FileNotFoundError:
        raise ScriptError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ScriptError(f"{path}: is a directory") from None
    except OSError as exc:
        raise ScriptError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ScriptError(f"{path}: not UTF-8 text") from None
    return parse_script(text, str(path))


@dataclass
class ReplayResult:
    ok: bool = True
    error: str | None = None
    turns: int = 0
    commands: list[str] = field(default_factory=list)


async def replay(
    controller: Controller,
    script: list[ScriptLine],
    progress: Callable[[str], None] | None = None,
) -> ReplayResult:
    report = progress or (lambda _line: None)
    result = ReplayResult()
    controller.exports_confined = True  # a script does not choose where files are written
    total = sum(1 for line in script if not is_command(line.user))
    # As the TUI does while the user types: the first turn is planned knowing the model (its
    # size picks the profile) and is timed without the load. A failed load is the first turn's
    # to report.
    with contextlib.suppress(ProviderError):
        await controller.preload()
    for line in script:
        if is_command(line.user):
            outcome = await dispatch(controller, line.user)
            result.commands.append(line.user)
            _report_command(report, line.user.split()[0], outcome)
            if outcome.action == "exit":
                break
            continue
        with scripted_reply(line.assistant):
            turn = await controller.send(unescape(line.user))
        if not turn.ok:
            result.ok = False
            result.error = f"turn {turn.turn}: {turn.error}"
            break
        result.turns += 1
        report(_turn_line(controller, turn.turn, total))
    await controller.drain()
    if result.ok or controller.session.messages:
        controller.save()
    return result


def _report_command(report: Callable[[str], None], name: str, outcome: CommandResult) -> None:
    """A command's answer as the TUI would show it (what /status or /requirements says is why
    a script runs them), one progress line per line of it."""
    lines = outcome.text.splitlines() or ["ok" if outcome.ok else "failed"]
    report(f"  {name}: {lines[0]}")
    for rest in lines[1:]:
        report(f"    {rest}")


def _turn_line(controller: Controller, turn: int, total: int) -> str:
    session = controller.session
    q = session.quality_for(turn)
    cost = next((c for c in session.metrics.llm_calls if c.turn == turn), None)
    parts = [f"[{turn}/{total}]"]
    if q is not None:
        parts.append(f"quality {q.overall:.2f}")
        if q.attempts > 1:
            parts.append(f"{q.attempts} attempts")
        if q.readvocated:
            parts.append("re-advocacy flagged: " + readvocacy_label(q))
        if q.premature_attempt:
            parts.append("premature")
    if cost is not None:
        parts.append(f"{cost.calls} calls · {cost.seconds:.2f}s")
    parts.append(f"reqs {len(session.live_requirements())} · rejected "
                 f"{len(session.active_rejections())}")
    return "  ".join(parts)

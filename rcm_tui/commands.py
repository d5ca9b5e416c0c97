"""Slash commands: one router used by replay and by the TUI (keys and palette call the same
actions). Unknown commands get a clear message and are never sent to the model."""

from __future__ import annotations

import difflib
import os
import re
import shlex
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from .actions import BY_COMMAND, Action, listed_keys
from .config import data_dir, effective_values
from .controller import Controller
from .core.llm import ProviderError

if TYPE_CHECKING:
    # The pipeline loads on the first turn, not on the way to the first frame.
    from .core.turn import TurnOutcome

# What the front end does beyond showing the text: replay stops at "exit"; the TUI copies,
# asks before overwriting an export, and shows the branch a fork opened.
FollowUp = Literal["exit", "copy", "confirm_export", "forked"]


@dataclass
class CommandResult:
    text: str
    ok: bool = True
    action: FollowUp | None = None
    # The text the action works on (what to copy).
    payload: str | None = None
    # The file an export would overwrite ("confirm_export": the TUI asks first).
    path: Path | None = None


Handler = Callable[[Controller, str], Awaitable[CommandResult]]


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    help: str
    handler: Handler


# A message that starts with "/" (a path, say) is sent by doubling the slash.
ESCAPE = "//"


def is_command(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith("/") and not stripped.startswith(ESCAPE)


def unescape(text: str) -> str:
    """The message a user meant by "//etc/hosts …": one slash less."""
    stripped = text.lstrip()
    if stripped.startswith(ESCAPE):
        return text[: len(text) - len(stripped)] + stripped[1:]
    return text


def command_name(text: str) -> str:
    return text.strip()[1:].partition(" ")[0].lower()


def command_args(text: str) -> str:
    return text.strip().partition(" ")[2].strip()


def is_known(text: str) -> bool:
    return command_name(text) in COMMANDS


def unknown_command_message(name: str) -> str:
    """What an unknown command gets: the nearest command, and how to send the text instead."""
    close = difflib.get_close_matches(name.lower(), COMMANDS, n=1, cutoff=0.6)
    hint = f" Did you mean /{close[0]}?" if close else " /help lists the commands."
    return (
        f"Unknown command /{name}.{hint} To send a message that starts with “/”, "
        f"begin it with “{ESCAPE}”."
    )


async def dispatch(controller: Controller, text: str) -> CommandResult:
    """Run a typed slash command (a script's line, say)."""
    action = BY_COMMAND.get(command_name(text))
    if action is None:
        return CommandResult(unknown_command_message(text.strip()[1:].partition(" ")[0]), ok=False)
    return await run(controller, action, command_args(text))


async def run(controller: Controller, action: Action, args: str = "") -> CommandResult:
    """Run an action's command handler: the one call behind `/command`, its key and palette
    entry. Expected failures come back as a result naming the command."""
    command = COMMANDS[action.command or ""]
    try:
        return await command.handler(controller, args)
    except ProviderError as exc:
        return CommandResult(f"/{command.name} failed: {exc.message}", ok=False)
    except OSError as exc:  # names what failed and where: "No space left on device (path)"
        where = f" ({exc.filename})" if exc.filename else ""
        return CommandResult(f"/{command.name}: {exc.strerror or exc}{where}", ok=False)
    except (KeyError, ValueError) as exc:
        reason = exc.args[0] if exc.args else str(exc)
        return CommandResult(f"/{command.name}: {reason}", ok=False)


# -- handlers ---------------------------------------------------------------------------------
async def _help(c: Controller, _args: str) -> CommandResult:
    keys = c.settings.keys
    lines = ["## Commands"]
    lines += [f"- `{cmd.usage}` — {cmd.help}" for cmd in COMMANDS.values()]
    key_line = " · ".join(f"`{getattr(keys, a.name)}` {a.key_help}" for a in listed_keys())
    lines += [
        "",
        "## Keys",
        f"- {key_line}",
        f"- Enter sends; `{keys.newline}` (or ctrl+j) adds a newline; ctrl+p opens the palette.",
        "- Requirements panel (tab to it): `c` confirm · `a` addressed · `d` drop · `p` pending · "
        "`e` edit the text · `n` add one · `m` on the one to keep, then `m` on another: merge. "
        "Decisions panel: `e` edit SOLIDIFIED · `r` rejected options (Enter edit name and "
        "reason, `u` unreject). What you set there is yours: the analyser never overrides it.",
        f"- A message that starts with `/` is a command; begin it with `{ESCAPE}` to send it "
        "as a message (`//etc/hosts is wrong` sends “/etc/hosts is wrong”).",
    ]
    return CommandResult("\n".join(lines))


async def _stats(c: Controller, _args: str) -> CommandResult:
    from .core.stats import stats_markdown  # loads the heuristics: not on the first frame

    s = c.settings
    return CommandResult(stats_markdown(c.session, s.bloat_moderate, s.bloat_significant))


async def _requirements(c: Controller, _args: str) -> CommandResult:
    reqs = c.session.requirements
    if not reqs:
        return CommandResult("No requirements recorded yet.")
    lines = ["## Requirements"] + [
        f"- **{r.id}** [{r.status}] {r.text} (turn {r.source_turn}, confidence {r.confidence:.2f})"
        for r in reqs
    ]
    return CommandResult("\n".join(lines))


async def _decisions(c: Controller, _args: str) -> CommandResult:
    s = c.session
    lines = ["## Decisions"]
    if s.solidified:
        lines += ["**SOLIDIFIED**", "```", s.solidified.text, "```"]
    if s.memory.trajectory:
        lines.append(f"- Current direction: {s.memory.trajectory}")
    for r in s.rejected:
        state = f"reopened at turn {r.reopened_turn}" if r.reopened_turn else "rejected"
        reason = f" — {r.reason}" if r.reason else ""
        lines.append(f"- ~~{r.option}~~{reason} ({state}, turn {r.turn})")
    for q in s.memory.open_questions:
        lines.append(f"- Open: {q}")
    for f in s.memory.facts:
        lines.append(f"- Fact: {f}")
    if len(lines) == 1:
        lines.append("Nothing decided or rejected yet.")
    return CommandResult("\n".join(lines))


async def _config(c: Controller, _args: str) -> CommandResult:
    lines = [
        "## Effective configuration",
        f"Provider: **{c.choice.name}** ({c.choice.reason}) · file: `{c.loaded.path}`",
        "",
        "| key | value | from |",
        "|---|---|---|",
    ]
    lines += [f"| {k} | {v!r} | {src} |" for k, v, src in effective_values(c.loaded)]
    return CommandResult("\n".join(lines))


async def _solidify(c: Controller, _args: str) -> CommandResult:
    text = await c.solidify()
    return CommandResult("**SOLIDIFIED**\n```\n" + text + "\n```")


async def _status(c: Controller, _args: str) -> CommandResult:
    from .core.conclusion import current_conclusion
    from .core.ledger_blocks import heuristic_status

    block = c.session.status_blocks[-1] if c.session.status_blocks else heuristic_status(
        c.session, c.session.turn
    )
    rejected = "; ".join(block.rejected) or "none"
    opens = "; ".join(block.open) or "none"
    source = f"STATUS of turn {block.turn}" if c.session.status_blocks else "from the ledger"
    # One conclusion: the newest of SOLIDIFIED, the latest decision and STATUS.
    conclusion = current_conclusion(c.session)
    settled = (
        f"{conclusion.text} ({conclusion.source}, turn {conclusion.turn})" if conclusion else ""
    )
    return CommandResult(
        f"**Status** ({source})\n- Conclusion: {settled or 'not settled yet'}\n"
        f"- Rejected: {rejected}\n- Open: {opens}"
    )


def _option_and_reason(args: str) -> tuple[str, str]:
    option, _sep, reason = args.partition(":")
    return option.strip().strip("\"'"), reason.strip()


async def _reject(c: Controller, args: str) -> CommandResult:
    option, reason = _option_and_reason(args)
    if not option:
        return CommandResult("Usage: /reject <option> [: reason]", ok=False)
    entry = c.reject(option, reason)
    why = f" ({entry.reason})" if entry.reason else ""
    return CommandResult(f"Rejected **{entry.option}**{why}; it will not be proposed again.")


async def _unreject(c: Controller, args: str) -> CommandResult:
    option = args.strip().strip("\"'")
    if not option:
        return CommandResult("Usage: /unreject <option>", ok=False)
    entry = c.unreject(option)
    if entry is None:
        return CommandResult(f"{option} is not an active rejected option.", ok=False)
    return CommandResult(f"Reopened **{entry.option}**; it stays in the rejection history.")


REQ_USAGE = "Usage: /req add <text> · /req edit <id> <text> · /req merge <keep> <merged> [: text]"


async def _req(c: Controller, args: str) -> CommandResult:
    from .core import ledger_edits as edits

    action, _sep, rest = args.partition(" ")
    action, rest = action.lower(), rest.strip()
    if action == "add" and rest:
        req = c.edit_ledger(edits.add_requirement, rest)
        return CommandResult(f"Added **{req.id}** by hand: {req.text}")
    ref, _sep, text = rest.partition(" ")
    if action == "edit" and ref and text.strip():
        req = c.edit_ledger(edits.edit_requirement, ref, text)
        return CommandResult(f"**{req.id}** now reads: {req.text}")
    if action == "merge":
        refs, _sep, merged_text = rest.partition(":")
        pair = refs.split()
        if len(pair) == 2:
            kept = c.edit_ledger(edits.merge_requirements, *pair, merged_text.strip() or None)
            merged = edits.requirement(c.session, pair[1])
            return CommandResult(f"Merged **{merged.id}** into **{kept.id}**: {kept.text}")
    return CommandResult(REQ_USAGE, ok=False)


def exports_dir() -> Path:
    return data_dir() / "exports"


def default_export_path(c: Controller, suffix: str = "md") -> Path:
    return exports_dir() / f"{c.session.id}.{suffix}"


def write_export(c: Controller, target: Path, *, overwrite: bool) -> None:
    from .export import export_session

    export_session(
        c.session, target, overwrite=overwrite, make_parents=target.parent == exports_dir()
    )


def _inside_exports(raw: str) -> Path | None:
    """Where a script's /export may write: inside the exports folder, or nowhere."""
    folder = exports_dir()
    candidate = Path(raw).expanduser()
    if not candidate.is_absolute():
        candidate = folder / candidate
    if candidate.name in ("", ".", ".."):
        return None
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    # Resolved, so that neither "../" nor a symlinked folder inside leads out.
    parent, root = candidate.parent.resolve(), folder.resolve()
    return candidate if parent == root or root in parent.parents else None


async def _export(c: Controller, args: str) -> CommandResult:
    raw = shlex.split(args)[0] if args else ""
    if c.exports_confined:
        # A replay script or eval scenario is not the user at the keyboard: it may not choose
        # where to write. Its exports stay in the exports folder, where replacing is fine.
        target = _inside_exports(raw) if raw else default_export_path(c)
        if target is None:
            return CommandResult(
                f"/export refused: a script may only write inside {exports_dir()}", ok=False
            )
        write_export(c, target, overwrite=True)
        return CommandResult(f"Exported to `{target}`")
    target = Path(raw).expanduser() if raw else default_export_path(c)
    if os.path.lexists(target):
        return CommandResult(
            f"`{target}` already exists; not overwritten without a confirmation.",
            ok=False, action="confirm_export", path=target,
        )
    write_export(c, target, overwrite=False)
    return CommandResult(f"Exported to `{target}`")


async def _new(c: Controller, _args: str) -> CommandResult:
    c.new_session()
    return CommandResult("Started a new session.")


async def _sessions(c: Controller, _args: str) -> CommandResult:
    entries = c.store.list()[:15]
    lines = ["## Sessions"] + [
        f"- `{e.id}` {e.title} ({e.turns} turns)" + (f" — BROKEN: {e.broken}" if e.broken else "")
        for e in entries
    ]
    return CommandResult("\n".join(lines))


async def _exit(_c: Controller, _args: str) -> CommandResult:
    return CommandResult("Goodbye.", action="exit")


async def _retry(c: Controller, _args: str) -> CommandResult:
    return _rerun(
        await c.retry(),
        "retry",
        "Nothing to retry: the last message has an answer.",
        "Retried the last message.",
    )


async def _regenerate(c: Controller, _args: str) -> CommandResult:
    return _rerun(
        await c.regenerate(),
        "regenerate",
        "Nothing to regenerate: no answered reply yet.",
        "Regenerated the reply of turn {turn}.",
    )


def _rerun(outcome: TurnOutcome | None, verb: str, nothing: str, done: str) -> CommandResult:
    """What a turn run again says: nothing to run, its error, or `done` (for its {turn})."""
    if outcome is None:
        return CommandResult(nothing, ok=False)
    if not outcome.ok:
        return CommandResult(outcome.error or f"{verb} failed", ok=False)
    return CommandResult(done.format(turn=outcome.turn))


async def _edit(c: Controller, args: str) -> CommandResult:
    # The TUI opens the message in an editor (screens/rewind.py); a script gives the new text.
    turn, _sep, text = args.partition(" ")
    if not turn.isdigit() or not text.strip():
        return CommandResult("Usage: /edit <turn> <new text>", ok=False)
    outcome = await c.resend(int(turn), text.strip())
    if not outcome.ok:
        return CommandResult(outcome.error or "edit failed", ok=False)
    return CommandResult(f"Sent the edited message as turn {outcome.turn}.")


_CODE_BLOCK = re.compile(r"^```[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)


async def _copy(c: Controller, args: str) -> CommandResult:
    reply = next((m.content for m in reversed(c.session.messages) if m.role == "assistant"), None)
    if reply is None:
        return CommandResult("Nothing to copy yet: no reply.", ok=False)
    if args.strip().lower() == "code":
        blocks = _CODE_BLOCK.findall(reply)
        if not blocks:
            return CommandResult("The last reply has no code block.", ok=False)
        code = blocks[-1].rstrip("\n")
        return CommandResult(f"Copied its last code block ({len(code)} chars).", action="copy",
                             payload=code)
    return CommandResult(f"Copied the last reply ({len(reply)} chars).", action="copy",
                         payload=reply)


async def _fork(c: Controller, args: str) -> CommandResult:
    turn: int | None = None
    if args:
        if not args.isdigit():
            return CommandResult("Usage: /fork [turn]", ok=False)
        turn = int(args)
    parent = c.session.title
    branch = c.fork(turn)
    at = branch.parent.turn if branch.parent else c.session.turn
    return CommandResult(f"Forked “{parent}” at turn {at}: this is the branch.", action="forked")


async def _model(c: Controller, args: str) -> CommandResult:
    from .model_command import describe_models
    from .providers.switching import parse_model_spec

    if not args:
        return CommandResult(describe_models(c))
    label = await c.switch_model(parse_model_spec(args, c.choice.name))
    return CommandResult(f"Now using **{label}** for the next turns.")


# The handler of each slash command, by action name (rcm_tui/actions.py lists the commands).
HANDLERS: dict[str, Handler] = {
    "help": _help, "stats": _stats, "requirements": _requirements, "decisions": _decisions,
    "config": _config, "model": _model, "solidify": _solidify, "status": _status,
    "reject": _reject, "unreject": _unreject, "req": _req, "retry": _retry,
    "regenerate": _regenerate, "edit_message": _edit, "copy_reply": _copy, "fork": _fork,
    "export": _export, "new_session": _new, "sessions": _sessions, "quit": _exit,
}
COMMANDS: dict[str, Command] = {
    name: Command(name, a.usage, a.command_help, HANDLERS[a.name])
    for name, a in BY_COMMAND.items()
}

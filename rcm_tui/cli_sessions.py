"""`rcm-tui sessions ...`: list, show, search, export, delete, rename and fork saved sessions.

Every handler returns an exit code. Failures are one line on stderr starting with "rcm-tui: "
(exit 1), never a traceback. Text that came from session files is made printable before it
reaches a terminal, because a hostile title could otherwise carry escape sequences.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from . import export
from .core.models import Session
from .core.text_safety import visible_controls, visible_json, visible_line
from .store import SessionEntry, SessionStore, StoreError, printable

Handler = Callable[[argparse.Namespace], int]

# -- output helpers -------------------------------------------------------------------------


def _fail(message: str) -> int:
    print(f"rcm-tui: {visible_line(message)}", file=sys.stderr)
    return 1


def _guarded(handler: Handler) -> Handler:
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except StoreError as exc:
            return _fail(str(exc))
        except BrokenPipeError:
            # `rcm-tui sessions list | head`: the reader left; nothing is wrong.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        except OSError as exc:
            where = f"{exc.filename}: " if exc.filename else ""
            return _fail(f"{where}{exc.strerror or exc}")

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


def _json_out(data: Any) -> None:
    print(_safe_json(data))


def _safe_json(data: Any) -> str:
    # json leaves C1 controls, line separators and lone surrogates raw; escaped they are the
    # same JSON string but can neither steer a terminal nor fail to encode.
    return visible_json(json.dumps(data, ensure_ascii=False, indent=2))


def _terminal_safe(text: str) -> str:
    """Encodable text; on a TTY also with every control character made visible."""
    if sys.stdout.isatty():
        return visible_controls(text)
    return text.encode("utf-8", "replace").decode("utf-8")  # lone surrogates become "?"


def _when(value: datetime | None) -> str:
    return value.astimezone().strftime("%Y-%m-%d %H:%M") if value else "-"


def _quality(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def _table(entries: list[SessionEntry]) -> str:
    if not entries:
        return "No sessions."
    width = max(len("ID"), *(len(printable(e.id)) for e in entries))
    lines = [f"{'ID':<{width}}  {'UPDATED':<16}  {'TURNS':>5}  {'QUALITY':>7}  TITLE"]
    for e in entries:
        title = f"BROKEN: {e.broken}" if e.broken else printable(e.title, 60)
        turns = "-" if e.broken else str(e.turns)
        lines.append(
            f"{printable(e.id):<{width}}  {_when(e.updated_at):<16}  {turns:>5}  "
            f"{_quality(e.average_quality):>7}  {title}"
        )
    return "\n".join(lines)


def _print_entries(entries: list[SessionEntry], as_json: bool) -> None:
    if as_json:
        _json_out([e.to_json() for e in entries])
    else:
        print(_table(entries))


def _load(store: SessionStore, ref: str) -> Session:
    return store.load(store.resolve(ref))


# -- handlers -------------------------------------------------------------------------------


@_guarded
def run_list(args: argparse.Namespace) -> int:
    """Every saved session, newest first; broken files are listed with the reason."""
    _print_entries(SessionStore().list(), args.json)
    return 0


@_guarded
def run_search(args: argparse.Namespace) -> int:
    """Sessions whose title or messages contain every word of the query."""
    _print_entries(SessionStore().search(" ".join(args.query)), args.json)
    return 0


@_guarded
def run_show(args: argparse.Namespace) -> int:
    session = _load(SessionStore(), args.id)
    if args.json:
        print(_safe_json(session.dump()))
    else:
        print(_summary(session))
    return 0


def _summary(session: Session) -> str:
    average = session.average_quality()
    rated = f" over {len(session.quality)} rated turns" if session.quality else ""
    provider = session.provider.name + (
        f" / {session.provider.model}" if session.provider.model else ""
    )
    lines = [
        f"Title:     {printable(session.title, 200)}",
        f"ID:        {session.id}",
        f"Created:   {_when(session.created_at)}",
        f"Updated:   {_when(session.updated_at)}",
        f"Provider:  {printable(provider)}",
        f"Turns:     {session.turn}",
        f"Quality:   {_quality(average)}{rated}",
        f"Bloat:     {export.bloat_label(session.metrics.bloat_ratio)}",
    ]
    if session.parent:
        lines.append(f"Fork of:   {printable(session.parent.id)} at turn {session.parent.turn}")
    if session.solidified:
        first = session.solidified.text.strip().splitlines()[:1] or [""]
        lines.append(f"Solidified (turn {session.solidified.turn}): {printable(first[0], 100)}")
    lines.append(f"\nRequirements ({len(session.requirements)}):")
    for req in session.requirements or []:
        lines.append(
            f"  [{req.status}] {req.id}: {printable(req.text, 100)} (turn {req.source_turn})"
        )
    if not session.requirements:
        lines.append("  none")
    lines.append(f"\nRejected options ({len(session.rejected)}):")
    for option in session.rejected:
        reason = f" — {printable(option.reason, 80)}" if option.reason else ""
        reopened = f" [reopened at turn {option.reopened_turn}]" if option.reopened_turn else ""
        lines.append(f"  - {printable(option.option, 80)}{reason} (turn {option.turn}){reopened}")
    if not session.rejected:
        lines.append("  none")
    lines.append("\nLast messages:")
    for message in session.messages[-4:]:
        lines.append(f"  [turn {message.turn}] {message.role}: {printable(message.content, 160)}")
    if not session.messages:
        lines.append("  none")
    return "\n".join(lines)


@_guarded
def run_export(args: argparse.Namespace) -> int:
    fmt: export.Format = args.format or (
        "json" if args.output and args.output.endswith(".json") else "md"
    )
    session = _load(SessionStore(), args.id)
    if not args.output:
        sys.stdout.write(_terminal_safe(export.render(session, fmt)))
        return 0
    target = Path(args.output)
    if target.exists() and not args.force:
        return _fail(f"{target} already exists; pass --force to overwrite it")
    export.export_session(session, target, fmt, overwrite=args.force, make_parents=False)
    print(f"Exported session {session.id} to {target}")
    return 0


@_guarded
def run_delete(args: argparse.Namespace) -> int:
    store = SessionStore()
    session_id = store.resolve(args.id)
    if not args.yes:
        if not sys.stdin.isatty():
            return _fail(f"not deleting {session_id} without confirmation; pass --yes to delete")
        if not _confirm(store, session_id):
            print("Not deleted.")
            return 1
    store.delete(session_id)
    print(f"Deleted session {session_id}")
    return 0


def _confirm(store: SessionStore, session_id: str) -> bool:
    entry = next((e for e in store.list() if e.id == session_id), None)
    label = (
        f"BROKEN: {entry.broken}"
        if entry and entry.broken
        else printable(entry.title if entry else "")
    )
    try:
        answer = input(f"Delete session {session_id} ({label})? [y/N] ")
    except (EOFError, KeyboardInterrupt):
        print()
        return False
    return answer.strip().lower() in {"y", "yes"}


@_guarded
def run_rename(args: argparse.Namespace) -> int:
    store = SessionStore()
    session = store.rename(store.resolve(args.id), " ".join(args.title))
    print(f"Renamed session {session.id} to: {printable(session.title, 200)}")
    return 0


@_guarded
def run_fork(args: argparse.Namespace) -> int:
    """A new session with the history and the ledger of ID as of turn N; ID is unchanged."""
    from .core.branch import fork_session

    store = SessionStore()
    parent = _load(store, args.id)
    try:
        branch = fork_session(parent, args.turn if args.turn is not None else parent.turn)
    except ValueError as exc:
        return _fail(f"cannot fork {parent.id}: {exc}")
    with store.lock(branch.id):
        store.save(branch)
    if args.json:
        _json_out({"id": branch.id, "title": branch.title,
                   "parent": branch.parent.model_dump() if branch.parent else None})
    else:
        at = branch.parent.turn if branch.parent else parent.turn
        print(f"Forked {parent.id} at turn {at} into {branch.id}: "
              f"{printable(branch.title, 200)}")
    return 0


# -- argparse -------------------------------------------------------------------------------

ID_HELP = "session id, a unique prefix of one, or 'latest'"


def add_parser(subparsers: Any) -> None:
    """Register `sessions` and its subcommands on the main parser's subparsers."""
    sessions = subparsers.add_parser(
        "sessions",
        help="list, show, search, export, delete, rename or fork saved sessions",
        description="Manage saved sessions. Without a subcommand, lists them.",
    )
    sessions.set_defaults(func=run_list, json=False)
    sub = sessions.add_subparsers(dest="sessions_command", metavar="COMMAND")

    p = sub.add_parser("list", help="list saved sessions, newest first")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(func=run_list)

    p = sub.add_parser("show", help="show a summary of one session")
    p.add_argument("id", metavar="ID", help=ID_HELP)
    p.add_argument("--json", action="store_true", help="print the session document")
    p.set_defaults(func=run_show)

    p = sub.add_parser("search", help="find sessions by title and message text")
    p.add_argument("query", metavar="QUERY", nargs="+", help="words that must all appear")
    p.add_argument("--json", action="store_true", help="print a JSON array")
    p.set_defaults(func=run_search)

    p = sub.add_parser("export", help="export a session as Markdown or JSON")
    p.add_argument("id", metavar="ID", help=ID_HELP)
    p.add_argument(
        "--format", choices=("md", "json"), help="default: md, or json for an --output *.json"
    )
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--force", action="store_true", help="overwrite an existing FILE")
    p.set_defaults(func=run_export)

    p = sub.add_parser("delete", help="delete a session file")
    p.add_argument("id", metavar="ID", help=ID_HELP)
    p.add_argument("--yes", "-y", action="store_true", help="do not ask for confirmation")
    p.set_defaults(func=run_delete)

    p = sub.add_parser("rename", help="change a session's title")
    p.add_argument("id", metavar="ID", help=ID_HELP)
    p.add_argument("title", metavar="TITLE", nargs="+", help="the new title")
    p.set_defaults(func=run_rename)

    p = sub.add_parser("fork", help="branch a session at a turn into a new session")
    p.add_argument("id", metavar="ID", help=ID_HELP)
    p.add_argument("--turn", "-t", type=int, metavar="N", help="the last turn the branch keeps "
                   "(default: the last turn)")
    p.add_argument("--json", action="store_true", help="print the new id and its parent")
    p.set_defaults(func=run_fork)

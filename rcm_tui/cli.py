"""Command-line entry points: the TUI, sessions, replay, eval, bench, config.

Every error reaches the user as one line on stderr and a non-zero exit, never a traceback:
2 for bad configuration or usage, 1 for everything else, 130 for Ctrl+C.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .core.text_safety import visible_json, visible_line

log = logging.getLogger("rcm_tui.cli")
PROVIDER_CHOICES = ("auto", "openai", "anthropic", "local", "offline")


class UsageError(Exception):
    """A command used wrongly; exit 2."""


def _provider_flags() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--provider", choices=PROVIDER_CHOICES, help="model backend")
    common.add_argument("--model", help="model name (or GGUF path for local)")
    common.add_argument("--base-url", help="OpenAI-compatible or Anthropic base URL")
    common.add_argument("--config", type=Path, help="config file (default: the user config)")
    return common


def build_parser() -> argparse.ArgumentParser:
    common = _provider_flags()
    parser = argparse.ArgumentParser(
        prog="rcm-tui",
        description="A terminal app for long LLM conversations that do not get lost.",
        parents=[common],
        epilog="Commands: replay, sessions, eval, eval-guard, bench, config. Without a command "
        "the TUI starts.",
    )
    parser.add_argument("--version", action="version", version=f"rcm-tui {__version__}")
    parser.add_argument("--resume", metavar="ID|latest", help="open a saved session")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = sub.add_parser("replay", parents=[common], help="replay a JSON Lines script")
    replay.add_argument("script", type=Path, help="JSON Lines: {\"user\": ..., \"assistant\": ...}")
    replay.add_argument("--json", action="store_true", help="print the session document")
    replay.add_argument("--no-reliability", action="store_true",
                        help="plain chat without the layer (the eval baseline)")
    replay.set_defaults(func=_cmd_replay)

    from . import cli_sessions

    cli_sessions.add_parser(sub)

    _add_eval_parsers(sub, common)
    _add_bench_parser(sub, common)
    _add_config_parser(sub, common)
    return parser


def _add_eval_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    eval_p = sub.add_parser("eval", parents=[common],
                            help="A/B: the scenarios with and without the layer")
    eval_p.add_argument("dir", type=Path, nargs="?",
                        help="folder of NAME.jsonl (+ NAME.expect.json); default: the "
                        "scenarios that ship with rcm-tui")
    eval_p.add_argument("--json", action="store_true", help="print the results as JSON")
    eval_p.add_argument("--report", type=Path, help="also write a Markdown report")
    eval_p.add_argument("--jobs", type=int, default=1, help="scenarios run concurrently")
    eval_p.add_argument("--keep-sessions", action="store_true",
                        help="save the eval sessions in your session store, titled 'eval: ...' "
                        "(default: a temporary folder, removed afterwards)")
    eval_p.set_defaults(func=_cmd_eval)

    guard = sub.add_parser("eval-guard", help="measure the re-advocacy guard on labelled replies")
    guard.add_argument("file", type=Path, help="JSON Lines: conversation, rejected, reply, "
                       "proposes, kind, how (see rcm_tui/eval/guard.py)")
    guard.add_argument("--end-to-end", action="store_true",
                       help="also extract the ledger from the conversation, then guard")
    guard.add_argument("--json", action="store_true", help="print the figures as JSON")
    guard.add_argument("--verbose", action="store_true", help="list missed and false items")
    guard.set_defaults(func=_cmd_eval_guard)


def _add_bench_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    bench = sub.add_parser("bench", parents=[common],
                           help="latency-injected cost benchmark of the layer")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--turns", type=int, default=20, help="turns per mode (default 20)")
    bench.add_argument("--latency-ms", type=float, default=100.0,
                       help="injected latency before each call's first token (default 100)")
    bench.add_argument("--token-ms", type=float, default=2.0,
                       help="injected delay per streamed token (default 2)")
    bench.add_argument("--scenario", type=Path,
                       help="user turns to replay on a real provider (default: db-selection)")
    # Sizes of the side measurements; hidden, so that tests can keep the benchmark fast.
    bench.add_argument("--overhead-turns", type=int, default=200, help=argparse.SUPPRESS)
    bench.add_argument("--list-sessions", type=int, default=1000, help=argparse.SUPPRESS)
    bench.add_argument("--repetitions", type=int, default=20, help=argparse.SUPPRESS)
    bench.add_argument("--no-first-frame", action="store_true", help=argparse.SUPPRESS)
    bench.add_argument("--long", action="store_true",
                       help="cost per turn, save and resume at 20, 200 and 1,000 turns (minutes)")
    bench.add_argument("--long-sizes", default="20,200,1000", help=argparse.SUPPRESS)
    bench.add_argument("--needs", type=int, default=0,
                       help="with --long: the user restates N needs in rotation (the ledger "
                            "stays N long) instead of a new need every turn")
    bench.add_argument("--no-resume", action="store_true", help=argparse.SUPPRESS)
    bench.set_defaults(func=_cmd_bench)


def _add_config_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    config = sub.add_parser("config", help="show, create or locate the config file")
    config_sub = config.add_subparsers(dest="config_command", metavar="ACTION", required=True)
    init = config_sub.add_parser("init", help="write the default config file")
    init.add_argument("--force", action="store_true", help="overwrite an existing file")
    init.add_argument("--config", type=Path, help="where to write (default: the user config)")
    init.set_defaults(func=_cmd_config_init)
    show = config_sub.add_parser("show", parents=[common],
                                 help="effective settings and their sources")
    show.add_argument("--json", action="store_true")
    show.set_defaults(func=_cmd_config_show)
    path = config_sub.add_parser("path", help="print the config file path")
    path.set_defaults(func=_cmd_config_path)


def flag_overrides(args: argparse.Namespace) -> dict[str, Any]:
    flags: dict[str, Any] = {}
    if getattr(args, "provider", None):
        flags["provider"] = args.provider
    if getattr(args, "model", None):
        flags["model"] = args.model
    if getattr(args, "base_url", None):
        flags["base_url"] = args.base_url
    return flags


def load(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from .config import load_settings

    loaded = load_settings(getattr(args, "config", None), flag_overrides(args))
    from .logs import register_secret, setup_logging

    setup_logging(loaded.settings.logging.level)
    providers = loaded.settings.providers
    for key in (providers.openai.api_key, providers.anthropic.api_key):
        if key:
            register_secret(key)
    for warning in loaded.warnings:
        print(f"rcm-tui: warning: {visible_line(warning)}", file=sys.stderr)
    return loaded


# -- commands -----------------------------------------------------------------------------
def _cmd_replay(args: argparse.Namespace) -> int:
    from .controller import Controller
    from .eval.replay import load_script, replay
    from .store import SessionStore

    script = load_script(args.script)
    loaded = load(args)
    controller = Controller(loaded, SessionStore(), reliability=not args.no_reliability)
    print(visible_line(f"rcm-tui: replaying {len(script)} line(s) of {args.script} with "
                       f"{controller.choice.name} ({controller.choice.reason})"), file=sys.stderr)

    def progress(line: str) -> None:
        # Progress quotes script lines (a command's argument, its answer) and server errors.
        print(visible_line(line), file=sys.stderr)

    async def run() -> Any:
        try:
            return await replay(controller, script, progress)
        finally:
            await controller.aclose()

    result = asyncio.run(run())
    if args.json:
        from .export import to_json

        # The session file's own encoding, with C1 controls escaped too (the same JSON).
        sys.stdout.write(visible_json(to_json(controller.session)))
    else:
        print(f"session {controller.session.id}: {result.turns} turn(s) saved")
    if not result.ok:
        print(visible_line(f"rcm-tui: {result.error} (session {controller.session.id} keeps "
                           "the message)"), file=sys.stderr)
        return 1
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from .eval.ab import run_eval_command

    return run_eval_command(args, load(args))


def _cmd_eval_guard(args: argparse.Namespace) -> int:
    from .eval.guard import run_guard_command

    return run_guard_command(args)


def _cmd_bench(args: argparse.Namespace) -> int:
    from .eval.bench import run_bench_command

    return run_bench_command(args, load(args))


def _cmd_config_init(args: argparse.Namespace) -> int:
    import tomli_w

    from .config import default_config_path, default_settings_document
    from .safe_files import write_file

    target = args.config or default_config_path()
    if target.is_symlink():
        raise UsageError(f"{target} is a symbolic link; rcm-tui does not write through links "
                         "(pass --config with the file it points to)")
    if target.exists() and not args.force:
        raise UsageError(f"{target} exists; use --force to overwrite it")
    target.parent.mkdir(parents=True, exist_ok=True)
    data = default_settings_document()
    text = ("# rcm-tui configuration — every key is documented in config.example.toml\n"
            + tomli_w.dumps(data))
    # 0600 from the start, and a link planted after the check above is replaced, not followed.
    write_file(target, text.encode("utf-8"), overwrite=args.force)
    print(visible_line(f"wrote {target}"))
    return 0


def _cmd_config_show(args: argparse.Namespace) -> int:
    from .config import effective_values
    from .providers.registry import choose_provider

    loaded = load(args)
    rows = effective_values(loaded)
    choice = choose_provider(loaded.settings)
    if args.json:
        print(json.dumps({"file": str(loaded.path), "provider": choice.name,
                          "provider_reason": choice.reason,
                          "settings": {k: {"value": v, "source": s} for k, v, s in rows}},
                         indent=2))
        return 0
    print(visible_line(f"# file: {loaded.path}"))
    print(visible_line(f"# provider: {choice.name} ({choice.reason})"))
    width = max(len(k) for k, _v, _s in rows)
    for key, value, source in rows:
        print(visible_line(f"{key:<{width}}  {value!r:<32}  {source}"))
    return 0


def _cmd_config_path(_args: argparse.Namespace) -> int:
    from .config import default_config_path

    print(visible_line(str(default_config_path())))
    return 0


def _run_tui(args: argparse.Namespace) -> NoReturn:
    from .ui.app import run_app

    _exit_at_once(run_app(load(args), resume=args.resume))


def _exit_at_once(code: int) -> NoReturn:
    """Exit without the interpreter's teardown. The session is saved, its lock released and
    the summary printed, but freeing every object one by one (the guard's word hierarchy
    alone is 330,000) took another 0.3-1.2 s after the window had closed: a quit must take
    under a second (issue 14)."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        func = getattr(args, "func", None)
        return func(args) if func else _run_tui(args)
    except KeyboardInterrupt:
        print("rcm-tui: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # every failure becomes one line; details go to the log
        return _report(exc)


def _report(exc: Exception) -> int:
    from .config import ConfigError
    from .core.llm import ProviderError

    def say(message: str) -> None:
        # Messages quote paths, script lines and servers' words: one visible line each.
        print(f"rcm-tui: {visible_line(message)}", file=sys.stderr)

    if isinstance(exc, ConfigError | UsageError):
        say(str(exc))
        return 2
    if isinstance(exc, ProviderError):
        say(exc.message)
        return 1
    known = _known_errors()
    if isinstance(exc, known):
        say(str(exc))
        return 1
    if logging.getLogger().handlers:  # before setup, logging's last resort prints to stderr
        log.exception("unexpected error")
    say(f"unexpected error: {type(exc).__name__}: {exc} (details in the log)")
    return 1


def _known_errors() -> tuple[type[Exception], ...]:
    from .eval.guard import GuardDataError
    from .eval.replay import ScriptError
    from .store import StoreError

    return (ScriptError, StoreError, GuardDataError, OSError)


if __name__ == "__main__":
    sys.exit(main())

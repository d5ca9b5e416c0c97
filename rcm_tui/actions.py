"""The action registry: every user action listed once, with its key, slash command, footer
label, palette entry and flags. The key bindings, the palette, /help, the slash-command table
and the set of commands refused during a turn are all derived from it, so a new action is
added here and shows up everywhere (tests/test_action_registry.py checks that it does).

Pure data: no Textual, so the command parser (rcm_tui.commands, used by replay and eval) and
the settings (default keys) can use it as well as the UI.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# Where a key is bound: on the main screen, on the app (works on every screen), or in the
# composer (an editing key, not an action of the session).
Scope = Literal["screen", "app", "composer"]
# Whether a command needs an argument; one that needs it is not offered in the palette.
Args = Literal["none", "optional", "required"]
# Refused while a turn runs: never, always, or only with arguments (/model alone just shows).
Exclusive = Literal["never", "always", "with_args"]


@dataclass(frozen=True)
class Action:
    # The id: binding id and method (`action_<name>`), and the setting name under [keys].
    name: str
    # Default key (settings override it); None for commands without a key.
    key: str | None = None
    # Footer label of the binding.
    label: str = ""
    # How /help's key line calls it.
    key_help: str = ""
    # Palette entry of the key action (title, help); no title: the key is not in the palette.
    title: str | None = None
    palette_help: str = ""
    # The slash command (without "/"), how /help shows it, and what /help says of it.
    command: str | None = None
    usage: str = ""
    command_help: str = ""
    args: Args = "none"
    exclusive: Exclusive = "never"
    scope: Scope = "screen"
    # A priority binding: the composer must not swallow the key (its TextArea binds ctrl+e,
    # ctrl+f and more).
    priority: bool = False

    def in_palette_as_command(self) -> bool:
        """A command without a key gets its own palette entry unless it needs an argument."""
        return self.command is not None and self.title is None and self.args != "required"


# In /help's command order (which is also the slash-command table's order).
ACTIONS: tuple[Action, ...] = (
    Action("help", "f1", "Help", "help", "Help", "keys and commands",
           "help", "/help", "commands and keys", scope="app"),
    Action("stats", "f2", "Stats", "stats", "Statistics", "research metrics of this session",
           "stats", "/stats", "research metrics of this session"),
    Action("requirements", command="requirements", usage="/requirements",
           command_help="the requirement ledger"),
    Action("decisions", command="decisions", usage="/decisions",
           command_help="SOLIDIFIED, direction, rejected options"),
    Action("config", command="config", usage="/config",
           command_help="effective settings and where they came from"),
    Action("model", command="model", usage="/model [[provider:]name]",
           command_help="show the model and what is available, or switch "
           "(e.g. /model openai:gpt-4o)", args="optional", exclusive="with_args"),
    Action("solidify", "ctrl+s", "Solidify", "solidify", "Solidify",
           "write the SOLIDIFIED block now (same as /solidify)",
           "solidify", "/solidify", "write the SOLIDIFIED block now", exclusive="always",
           priority=True),
    Action("status", command="status", usage="/status",
           command_help="the current conclusion, rejected and open items"),
    Action("reject", command="reject", usage="/reject <option> [: reason]",
           command_help="reject an option by hand", args="required", exclusive="always"),
    Action("unreject", command="unreject", usage="/unreject <option>",
           command_help="reopen a rejected option", args="required", exclusive="always"),
    Action("req", command="req", usage="/req add|edit|merge …",
           command_help="edit the requirements by hand: `/req add <text>`, "
           "`/req edit <id> <text>`, `/req merge <keep> <merged> [: text]`", args="required"),
    Action("retry", "ctrl+r", "Retry", "retry", "Retry",
           "run the last unanswered message again (same as /retry)",
           "retry", "/retry", "run the last unanswered message again", priority=True),
    # Not f6/f7: the composer's TextArea selects a line / everything with them.
    Action("regenerate", "f8", "Regenerate", "regenerate the last reply", "Regenerate",
           "replace the last reply with a new one (same as /regenerate)",
           "regenerate", "/regenerate", "replace the last reply with a new one",
           exclusive="always"),
    Action("edit_message", "f9", "Edit", "edit and resend a message", "Edit and resend",
           "edit an earlier message and send it again; later turns are dropped (same as /edit)",
           "edit", "/edit [turn]", "edit a message and send it again (drops later turns)",
           args="optional", exclusive="always"),
    Action("copy_reply", "f4", "Copy", "copy the last reply", "Copy the last reply",
           "to the system clipboard (same as /copy)",
           "copy", "/copy [code]", "copy the last reply (or its last code block)",
           args="optional"),
    Action("fork", "f5", "Fork", "fork at a turn", "Fork",
           "branch this session at a turn into a new session (same as /fork)",
           "fork", "/fork [turn]", "branch this session at a turn (default: the last)",
           args="optional", exclusive="always"),
    Action("export", "ctrl+e", "Export", "export", "Export",
           "export this session as Markdown (same as /export)",
           "export", "/export [path]", "export as Markdown (or .json)", args="optional",
           priority=True),
    Action("new_session", "ctrl+n", "New", "new session", "New session",
           "start a new session (same as /new)",
           "new", "/new", "start a new session", exclusive="always", priority=True),
    Action("sessions", "ctrl+o", "Sessions", "sessions", "Sessions browser",
           "browse, resume, rename, delete, export",
           "sessions", "/sessions", "browse saved sessions", exclusive="always", priority=True),
    Action("quit", "ctrl+q", "Quit", "quit", "Quit", "close the session and exit",
           "exit", "/exit", "quit", exclusive="always", scope="app", priority=True),
    Action("toggle_panels", "ctrl+b", "Panels", "toggle panels", "Toggle panels",
           "hide or show the side panels", priority=True),
    Action("inspector", "f3", "Inspector", "inspector", "Inspector", "every LLM call of a turn"),
    # Priority: the TextArea's ctrl+f deletes a word to the right (ctrl+delete still does).
    Action("search", "ctrl+f", "Search", "search the chat", "Search the chat",
           "highlight and jump between matches", priority=True),
    Action("cancel", "escape", "Cancel turn", "cancel", "Cancel turn",
           "cancel the running turn; the message stays saved"),
    Action("newline", "shift+enter", "Newline", scope="composer"),
)

# The footer, most used first; keyed actions not listed here are bound but not shown (the
# footer is full at 120 columns): they are in /help and the palette.
FOOTER: tuple[str, ...] = (
    "solidify", "cancel", "retry", "sessions", "toggle_panels", "help", "quit", "new_session",
    "stats", "inspector", "export", "copy_reply",
)
# Footer entries that leave a narrow footer first (the palette entry takes the last cells).
# A focused panel's own keys come first; to keep them whole, solidify, help and quit go last.
FOOTER_DROP: tuple[str, ...] = (
    "copy_reply", "export", "inspector", "stats", "new_session", "toggle_panels", "sessions",
    "solidify", "help", "quit",
)
# /help's key line and the palette's key entries; an action missing here comes last.
KEY_LIST: tuple[str, ...] = (
    "solidify", "new_session", "sessions", "help", "stats", "inspector", "export",
    "toggle_panels", "cancel", "retry", "copy_reply", "fork", "search", "regenerate",
    "edit_message", "quit",
)

BY_NAME: dict[str, Action] = {a.name: a for a in ACTIONS}
BY_COMMAND: dict[str, Action] = {a.command: a for a in ACTIONS if a.command}


def default_key(name: str) -> str:
    key = BY_NAME[name].key
    if key is None:
        raise KeyError(f"action {name} has no key")
    return key


def _ranked(actions: list[Action], order: tuple[str, ...]) -> list[Action]:
    def rank(action: Action) -> int:
        return order.index(action.name) if action.name in order else len(order)

    return sorted(actions, key=rank)


def keyed(scope: Scope | None = None) -> list[Action]:
    """Actions with a key (of one scope), in /help's key order."""
    found = [a for a in ACTIONS if a.key and (scope is None or a.scope == scope)]
    return _ranked(found, KEY_LIST)


def listed_keys() -> list[Action]:
    """The keys /help's key line and the palette name: every key action but editing keys."""
    return [a for a in keyed() if a.scope != "composer"]


def footer_order() -> list[Action]:
    """Screen and app keys in footer order; those not in FOOTER (not shown) come last."""
    return _ranked([a for a in ACTIONS if a.key and a.scope != "composer"], FOOTER)


def is_exclusive(action: Action, args: str) -> bool:
    """Whether the action (with these arguments) must wait for a running turn to end."""
    return action.exclusive == "always" or (action.exclusive == "with_args" and bool(args))

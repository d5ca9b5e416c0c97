"""Text from a model, a file or a script, made safe to show on a terminal.

A terminal obeys control sequences wherever they appear in its output: `ESC ] 0;title BEL`
retitles the window, `ESC ] 52;c;<base64> BEL` writes the clipboard, `ESC [ 2J` clears the
screen, and the C1 byte U+009B is a one-character `ESC [` for terminals that honour 8-bit
controls. A model can be prompt-injected into writing those bytes, so every piece of text that
came from outside passes through one of the two functions below before it is drawn or printed.

They do not delete: each control becomes a visible stand-in (ESC shows as "␛", the other C0
controls as their Unicode control pictures, C1 controls and lone surrogates as "\\x9b"-style
escapes), so a user can still see that something odd was there. The stored document keeps
what was said; only what reaches the terminal is changed.
"""

from __future__ import annotations

import re

# C0 controls (but newline and tab), DEL, C1 controls, lone surrogates (unencodable, they crash
# a strict stdout), and the bidirectional overrides that reorder what a line appears to say.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
_UNSAFE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]")
# What a JSON encoder may leave raw inside strings (it must escape only C0 and quotes).
_JSON_RAW = re.compile("[\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_PICTURES = 0x2400  # U+2400 + code is the picture of C0 control `code`; ESC is "␛"
_DEL_PICTURE = "\u2421"


def _stand_in(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(_CONTROL_PICTURES + code)
    if code == 0x7F:
        return _DEL_PICTURE
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def visible_controls(text: str) -> str:
    """Multi-line text (a chat message, a panel, an exported summary) with every terminal
    control replaced by a visible stand-in; newlines and tabs stay, CRLF becomes a newline."""
    return _UNSAFE.sub(_stand_in, text.replace("\r\n", "\n"))


def visible_line(text: str) -> str:
    """Text for one line (a status line, a toast, a CLI message, a table cell): the same
    stand-ins, and line breaks and tabs become visible too, so one line stays one line."""
    return _UNSAFE_LINE.sub(_stand_in, text)


def visible_json(text: str) -> str:
    """A JSON text for a terminal: the same JSON (DEL, C1 controls, line separators, lone
    surrogates and bidi overrides become \\u escapes, which can only occur inside strings),
    so a machine reads the same values and the terminal obeys nothing."""
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)

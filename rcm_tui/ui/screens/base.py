"""What every screen of the app shares."""

from __future__ import annotations

from textual.dom import DOMNode
from textual.widgets import Input, TextArea


def follow_app_cursor_blink(node: DOMNode) -> None:
    """Text inputs in `node` (a screen, or a bar mounted later) blink unless the app says not
    to (tests freeze them so pictures repeat)."""
    blink = bool(getattr(node.app, "CURSOR_BLINK", True))
    for widget in node.query(Input):
        widget.cursor_blink = blink
    for area in node.query(TextArea):
        area.cursor_blink = blink

"""What every screen of the app shares."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Input, TextArea


def follow_app_cursor_blink(screen: Screen[Any]) -> None:
    """Text inputs blink unless the app says not to (tests freeze them so pictures repeat)."""
    blink = bool(getattr(screen.app, "CURSOR_BLINK", True))
    for widget in screen.query(Input):
        widget.cursor_blink = blink
    for area in screen.query(TextArea):
        area.cursor_blink = blink

"""Small UI choices kept between runs (the theme picked in the palette), in the app's data
folder, separate from the user's config file, which the app never rewrites on its own."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from ..config import data_dir

log = logging.getLogger("rcm_tui.ui")
STATE_NAME = "ui-state.json"


def _path() -> Path:
    return data_dir() / STATE_NAME


def load_theme() -> str | None:
    try:
        value = json.loads(_path().read_text(encoding="utf-8")).get("theme")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def save_theme(theme: str) -> None:
    from ..export import write_private

    try:
        write_private(_path(), json.dumps({"theme": theme}))
    except OSError:  # a read-only data folder costs the theme, not the session
        log.warning("could not keep the theme", exc_info=True)


def screenshots_dir() -> Path:
    """Where the palette's screenshot goes (Textual's default, ~/Downloads, may not exist)."""
    return data_dir() / "screenshots"

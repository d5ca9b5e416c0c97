"""What an unexpected exception leaves behind: a traceback file in the private log folder and
one line on the terminal.

Textual's default prints a traceback with every local variable, which for this app means the
session document, message text included, on the user's screen and in their scrollback. The
file keeps the stack without locals (and with API keys blanked) for a bug report.
"""

from __future__ import annotations

import logging
import os
import traceback
from datetime import UTC, datetime
from pathlib import Path

log = logging.getLogger("rcm_tui.ui")


def write_crash_report(error: BaseException) -> Path | None:
    """Write the traceback of `error` (no locals) to the log folder; None if that failed."""
    from ..config import log_dir
    from ..logs import redact

    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = folder / f"crash-{stamp}.txt"
        text = "".join(traceback.format_exception(error))
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(redact(text))
    except OSError:
        return None
    log.error("unexpected error, traceback in %s", path, extra={"error": type(error).__name__})
    return path


def crash_line(error: BaseException, report: Path | None) -> str:
    """The one line the terminal gets: the kind of error and where the details are."""
    where = f"details in {report}" if report else "the traceback could not be written"
    return (
        f"rcm-tui stopped on an unexpected error ({type(error).__name__}); {where}. "
        "Your session is saved."
    )

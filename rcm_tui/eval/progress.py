"""A small progress indicator on stderr for the long-running eval and bench commands.

On a terminal it redraws one line in place (carriage return); anywhere else (a pipe, a CI log)
a redrawn line would be noise, so it prints one plain line when a phase starts instead. Results
go to stdout, progress never does, so `--json` output stays machine-readable.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from ..core.text_safety import visible_line

BAR_WIDTH = 24


class Progress:
    def __init__(self, total: int, title: str, stream: TextIO | None = None) -> None:
        self.total = max(total, 1)
        self.title = title
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.phase = ""
        self.started = time.perf_counter()
        self._tty = _is_tty(self.stream)
        self._width = 0
        # Concurrent work alternates between phases: a log gets each phase once.
        self._announced: set[str] = set()

    def advance(self, phase: str, detail: str = "", steps: int = 1) -> None:
        """Count `steps` units of work done in `phase` (detail is shown on a terminal only)."""
        self.done = min(self.done + steps, self.total)
        if self._tty:
            self._draw(phase, detail)
        elif phase not in self._announced:
            self._announced.add(phase)
            self._line(f"{self.title}: {phase}")
        self.phase = phase

    def note(self, text: str) -> None:
        """A line that stays (a finished scenario, a warning), above the redrawn bar."""
        if self._tty:
            self._clear()
        self._line(f"{self.title}: {text}")
        if self._tty:
            self._draw(self.phase, "")

    def close(self) -> None:
        elapsed = time.perf_counter() - self.started
        if self._tty:
            self._clear()
        self._line(f"{self.title}: done in {elapsed:.1f}s")

    # -- drawing ------------------------------------------------------------------------------
    def _draw(self, phase: str, detail: str) -> None:
        filled = round(BAR_WIDTH * self.done / self.total)
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        percent = 100 * self.done // self.total
        text = visible_line(f"{self.title} [{bar}] {percent:3d}% {phase} {detail}".rstrip())
        pad = max(self._width - len(text), 0)
        self.stream.write("\r" + text + " " * pad)
        self.stream.flush()
        self._width = len(text)

    def _clear(self) -> None:
        if self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def _line(self, text: str) -> None:
        # Notes quote scenario names and server errors: one visible line each.
        self.stream.write(visible_line(text) + "\n")
        self.stream.flush()


def _is_tty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or detached stream
        return False

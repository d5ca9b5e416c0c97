"""Quitting takes under a second (issue 14, defect 2), measured on the real program under a
pseudo-terminal: once the window has closed and the summary is printed, the process is gone
at once (the interpreter's teardown, freeing the guard's word hierarchy among the rest, took
another 0.3-1.2 s, seen in tmux as a 1.1 s quit)."""

from __future__ import annotations

import time

from .test_hardening_terminal import Terminal

# What is left after the summary: flushing and exiting. Generous for a loaded machine; the
# teardown it replaces took 0.3 s on an idle one.
AFTER_SUMMARY = 0.2


def test_the_process_exits_as_soon_as_the_summary_is_printed() -> None:
    term = Terminal("--provider", "offline")
    assert term.read_until(b"Enter sends")
    term.type(b"We need an API that serves 200 requests per second.\r")
    assert term.read_until(b"quality", timeout=60)
    term.settle(1.0)  # the guard has read its word hierarchy by now
    pressed = time.monotonic()
    term.type(b"\x11")  # ctrl+q
    assert term.read_until(b"resume with", timeout=20)
    summary = time.monotonic()
    term.proc.wait(timeout=20)
    gone = time.monotonic()
    term.settle(0.2)
    assert term.proc.returncode == 0
    assert gone - summary < AFTER_SUMMARY, (
        f"exited {gone - summary:.2f} s after the summary ({gone - pressed:.2f} s after ctrl+q)"
    )

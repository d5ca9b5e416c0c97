"""The TUI's first frame, timed in a fresh process.

`measure_first_frame` runs this module as `python -m rcm_tui.eval.first_frame WIDTH HEIGHT` with
private data and config folders. The probe takes the start path of `rcm-tui --provider offline`
(arguments, settings, controller, app) headless, and prints one JSON line: milliseconds from
the start of our code to the first frame, of which imports, and the wall-clock times that let
the parent add the interpreter's own start.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any

FIRST_FRAME_TIMEOUT = 120
FIRST_FRAME_SIZE = (120, 40)


def probe(size: tuple[int, int]) -> dict[str, Any]:
    started = time.perf_counter()
    started_wall = time.time()
    from .. import cli
    from ..controller import Controller
    from ..store import SessionStore
    from ..ui.app import RcmApp

    imported = time.perf_counter()
    frames: list[tuple[float, float]] = []

    class FirstFrame(RcmApp):
        def on_ready(self) -> None:
            # Textual posts Ready once the first frame has been drawn.
            frames.append((time.perf_counter(), time.time()))
            self.exit(0)

    loaded = cli.load(cli.build_parser().parse_args(["--provider", "offline"]))
    controller = Controller(loaded, SessionStore())
    try:
        FirstFrame(controller).run(headless=True, size=size)
    finally:
        controller.release()
    frame, frame_wall = frames[0]
    return {
        "ms": (frame - started) * 1000,
        "import_ms": (imported - started) * 1000,
        "started_wall": started_wall,
        "frame_wall": frame_wall,
    }


def measure_first_frame() -> dict[str, Any]:
    """Time to the first frame of the real start path, headless, in a fresh process.

    The first figure starts when the interpreter starts running our code (imports, settings,
    controller, app, first frame); the second also includes starting the interpreter.
    """
    command = [sys.executable, "-m", __name__, *map(str, FIRST_FRAME_SIZE)]
    with tempfile.TemporaryDirectory(prefix="rcm-bench-") as home:
        # A private data and config folder: the probe must not touch the user's sessions.
        env = dict(
            os.environ,
            XDG_DATA_HOME=f"{home}/data",
            XDG_CONFIG_HOME=f"{home}/config",
            XDG_STATE_HOME=f"{home}/state",
        )
        spawned = time.time()
        try:
            proc = subprocess.run(
                command,
                capture_output=True,
                text=True,
                env=env,
                timeout=FIRST_FRAME_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return no_frame(f"no first frame within {FIRST_FRAME_TIMEOUT}s")
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        detail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return no_frame(f"the TUI probe failed: {detail[:200]}")
    try:
        data = json.loads(lines[-1])
    except json.JSONDecodeError:
        return no_frame("the TUI probe printed no measurement")
    return {
        "tui_first_frame_ms": round(data["ms"], 2),
        "tui_first_frame_with_interpreter_ms": round((data["frame_wall"] - spawned) * 1000, 2),
        "tui_import_ms": round(data["import_ms"], 2),
    }


def no_frame(note: str) -> dict[str, Any]:
    return {
        "tui_first_frame_ms": None,
        "tui_first_frame_with_interpreter_ms": None,
        "tui_import_ms": None,
        "note": note,
    }


if __name__ == "__main__":
    width, height = (int(arg) for arg in sys.argv[1:3])
    print(json.dumps(probe((width, height))))

"""Two rcm-tui instances at once: on one session the second is refused clearly and nothing is
lost; on different sessions they do not disturb each other."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from rcm_tui import config
from rcm_tui.config import load_settings
from rcm_tui.controller import Controller
from rcm_tui.core.models import Session
from rcm_tui.store import INDEX_NAME, SessionLocked, SessionStore

# A second instance in its own process: opens the session, says so, then waits for a line on
# stdin before each step, so the test decides what happens while it holds the session.
HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from rcm_tui.config import load_settings
    from rcm_tui.controller import Controller
    from rcm_tui.store import SessionStore

    async def main(session_id: str, text: str) -> None:
        loop = asyncio.get_running_loop()
        controller = Controller(load_settings(None, {"provider": "offline"}), SessionStore())
        controller.open_session(session_id)
        print("open", flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)
        outcome = await controller.send(text)
        print("sent" if outcome.ok else f"failed {outcome.error}", flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)
        await controller.aclose()

    asyncio.run(main(sys.argv[1], sys.argv[2]))
    """
)
HOLDER_TEXT = "From the other window: the exporter must also write a CSV summary."


class Holder:
    """The first instance, running in a subprocess."""

    def __init__(self, session_id: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOLDER, session_id, HOLDER_TEXT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.expect("open")

    def expect(self, word: str) -> None:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        assert line == word, f"holder said {line!r} (rc {self.proc.poll()})"

    def step(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)


Make = Callable[[], Controller]


@pytest.fixture
async def controllers() -> AsyncIterator[Make]:
    made: list[Controller] = []

    def make() -> Controller:
        controller = Controller(load_settings(None, {"provider": "offline"}), SessionStore())
        made.append(controller)
        return controller

    yield make
    for controller in made:
        await controller.aclose()


def transcript(session: Session) -> list[tuple[str, int, str]]:
    return [(m.role, m.turn, m.content) for m in session.messages]


@pytest.mark.timeout(120)
async def test_a_second_instance_is_refused_and_then_sees_every_turn(controllers: Make) -> None:
    first = controllers()
    for text in ("We export invoices nightly.", "Failed exports must be retried."):
        assert (await first.send(text)).ok
    session_id = first.session.id
    await first.aclose()
    path = SessionStore().path_for(session_id)

    holder = Holder(session_id)
    try:
        second = controllers()
        own = second.session
        with pytest.raises(SessionLocked) as refused:
            second.open_session(session_id)
        message = str(refused.value)
        assert "\n" not in message and f"pid {holder.proc.pid}" in message
        assert second.session is own  # still on its own session, nothing half-switched
        before = path.read_bytes()

        holder.step()  # the holder runs a turn while the second instance waits
        holder.expect("sent")
        assert path.read_bytes() != before
        with pytest.raises(SessionLocked):
            second.open_session(session_id)
        holder.step()  # the holder closes the session and exits
        assert holder.proc.wait(timeout=30) == 0
    finally:
        holder.close()

    session = second.open_session(session_id)
    users = [m.content for m in session.messages if m.role == "user"]
    assert users == ["We export invoices nightly.", "Failed exports must be retried.", HOLDER_TEXT]
    assert [m.turn for m in session.messages if m.role == "assistant"] == [1, 2, 3]
    assert (await second.send("Which format for the summary?")).ok
    await second.aclose()

    saved = SessionStore().load(session_id)
    assert transcript(saved)[:6] == transcript(session)[:6]
    assert [(m.role, m.turn) for m in saved.messages] == [
        (role, turn) for turn in (1, 2, 3, 4) for role in ("user", "assistant")
    ]


@pytest.mark.timeout(120)
def test_resuming_a_held_session_from_the_command_line_is_refused_in_one_line(
    controllers: Make,
) -> None:
    first = controllers()
    first.record_user_message("Hold this session open.")
    first.release()
    holder = Holder(first.session.id)
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "rcm_tui",
                "--resume",
                first.session.id,
                "--provider",
                "offline",
            ],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=60,
        )
    finally:
        holder.close()
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "Traceback" not in proc.stderr
    assert "open in another rcm-tui" in proc.stderr and f"pid {holder.proc.pid}" in proc.stderr


def write_script(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(json.dumps({"user": line}) + "\n" for line in lines), "utf-8")
    return path


@pytest.mark.timeout(180)
def test_two_replays_of_different_sessions_at_once_keep_every_turn(tmp_path: Path) -> None:
    scripts = {
        "billing": [f"Billing question {n}: how do we round tax on line {n}?" for n in range(6)],
        "search": [f"Search question {n}: should field {n} be indexed?" for n in range(6)],
    }
    env = {**os.environ, "RCM_TUI_PROVIDERS__OFFLINE__LATENCY_MS": "40"}
    procs = {
        name: subprocess.Popen(
            [
                sys.executable,
                "-m",
                "rcm_tui",
                "replay",
                str(write_script(tmp_path / f"{name}.jsonl", lines)),
                "--provider",
                "offline",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
        )
        for name, lines in scripts.items()
    }
    for name, proc in procs.items():
        _out, err = proc.communicate(timeout=150)
        assert proc.returncode == 0, (name, err)

    folder = config.sessions_dir()
    files = [p for p in folder.glob("*.json") if p.name != INDEX_NAME]
    assert len(files) == 2
    store = SessionStore()
    found: dict[str, list[str]] = {}
    for path in files:
        session = store.load(path.stem)
        users = [m.content for m in session.messages if m.role == "user"]
        assert [m.turn for m in session.messages if m.role == "assistant"] == [1, 2, 3, 4, 5, 6]
        found[users[0].split()[0].lower()] = users
    assert found == scripts
    entries = store.list()  # the shared index may have raced; listing repairs it
    assert sorted(e.id for e in entries) == sorted(p.stem for p in files)
    assert all(e.broken is None and e.turns == 6 for e in entries)

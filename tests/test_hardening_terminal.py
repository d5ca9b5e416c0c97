"""Hostile text never reaches the terminal raw: a stored message, a streamed reply, a server's
error body and a script line are driven through the real app under a pseudo-terminal (and
through `replay`), and the bytes written are searched for the control sequences.

The session document keeps what was said; only what is shown is made visible ("␛]0;pwn␇").
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rcm_tui.config import sessions_dir
from rcm_tui.core.text_safety import visible_controls, visible_line

from .providers.fake_server import FakeServer, Reply, openai_stream, openai_usage

TITLE = "\x1b]0;pwn\x07"  # retitles the window
CLIPBOARD = "\x1b]52;c;aGk=\x07"  # writes "hi" into the clipboard
CLEAR = "\x1b[2J"  # clears the screen
C1_CSI = "\x9b31m"  # the 8-bit form of ESC [
HOSTILE = f"t {TITLE} c {CLIPBOARD} x {CLEAR} r {C1_CSI} end"
# What must never appear in the bytes written to the terminal.
RAW = [b"\x1b]0;pwn", b"\x1b]52;", b"\x1b[2J", b"\xc2\x9b", b"\x9b31m", b"\x07 c"]
SHOWN = "␛]0;pwn␇".encode()


def assert_no_raw(out: bytes) -> None:
    found = [needle for needle in RAW if needle in out]
    assert not found, f"raw control sequences reached the terminal: {found}"


# -- the function every display path uses ------------------------------------------------------


def test_visible_controls_replaces_every_terminal_control_and_keeps_lines() -> None:
    shown = visible_controls(f"a\tb\r\nline {HOSTILE} \x7f \x00 \ud800 \u202e")
    assert shown.startswith("a\tb\nline t ␛]0;pwn␇ c ␛]52;c;aGk=␇ x ␛[2J r \\x9b31m end")
    assert shown.endswith("␡ ␀ \\ud800 \\u202e")
    assert not any(ord(ch) < 0x20 and ch not in "\n\t" for ch in shown)
    assert visible_controls("plain text, ünïcode 中文 ✓\n") == "plain text, ünïcode 中文 ✓\n"


def test_visible_line_keeps_one_line_one_line() -> None:
    assert visible_line("a\nb\tc\r\x1b[2J") == "a␊b␉c␍␛[2J"
    assert "\n" not in visible_line("x\n" * 3)


# -- driving the real app under a pseudo-terminal -----------------------------------------------


def rcm(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "rcm_tui", *args], capture_output=True,
                          env=dict(os.environ), timeout=timeout)


class Terminal:
    """rcm-tui on a pseudo-terminal (TERM=xterm-256color, 140×40); `out` is every byte it wrote."""

    def __init__(self, *args: str) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 140, 0, 0))
        env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rcm_tui", *args],
            env=env, stdin=slave, stdout=slave, stderr=slave, close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.out = b""

    def read_until(self, needle: bytes, timeout: float = 30) -> bool:
        deadline = time.monotonic() + timeout
        while needle not in self.out and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    return needle in self.out
                if not chunk:
                    break
                self.out += chunk
        return needle in self.out

    def settle(self, seconds: float) -> None:
        """Keep reading for `seconds` (let the app draw what it was doing)."""
        self.read_until(b"\x00never", timeout=seconds)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def quit(self) -> bytes:
        self.type(b"\x11")  # ctrl+q
        self.read_until(b"resume with", timeout=20)  # the exit summary comes last
        self.proc.wait(timeout=20)
        self.settle(0.5)
        os.close(self.master)
        return self.out


@pytest.fixture
def hostile_session(tmp_path: Path) -> str:
    """A session replayed from a script whose user and assistant lines and ledger are hostile."""
    script = tmp_path / "hostile.jsonl"
    lines = [
        {"user": f"We must support exports {HOSTILE}", "assistant": f"Reply {HOSTILE}"},
        {"user": f"/reject Redis {CLIPBOARD} : too slow {TITLE}"},
        {"user": f"Let's not use Mongo {TITLE}.", "assistant": f"Noted {CLEAR} done"},
    ]
    script.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    proc = rcm("replay", str(script), "--provider", "offline", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    # The document keeps what was said, bytes and all; printed, its C1 bytes are \u escapes.
    assert doc["messages"][0]["content"].endswith(HOSTILE)
    assert b"\xc2\x9b" not in proc.stdout and b"\\u009b31m" in proc.stdout
    return str(doc["id"])


def test_a_stored_hostile_session_resumes_without_raw_controls(hostile_session: str) -> None:
    term = Terminal("--resume", hostile_session, "--provider", "offline")
    assert term.read_until(b" done"), term.out[-2000:]
    out = term.quit()
    assert_no_raw(out)
    assert SHOWN in out  # shown, visibly, not dropped
    assert b"resume with" in out


def test_a_hostile_session_in_inspector_and_stats_screens(hostile_session: str) -> None:
    term = Terminal("--resume", hostile_session, "--provider", "offline")
    assert term.read_until(b" done")
    term.type(b"\x1bOR")  # f3: the inspector (prompts and responses of the last turn)
    assert term.read_until(b"Inspector")
    term.type(b"\x1b")
    term.type(b"\x1bOQ")  # f2: stats
    assert term.read_until(b"Statistics")
    term.type(b"\x1b")
    assert_no_raw(term.quit())


@pytest.fixture
def openai_config(tmp_path: Path) -> Iterator[tuple[FakeServer, Path]]:
    config = tmp_path / "config.toml"
    config.write_text(
        "llm_analysis = false\nllm_judge = false\nmax_refinement_attempts = 0\n"
        "[providers.openai]\nmax_retries = 0\ntimeout = 10\n",
        encoding="utf-8",
    )
    with FakeServer() as server:
        yield server, config


def hostile_stream() -> Reply:
    pieces = ["Stream ", TITLE[:3], TITLE[3:], " and ", CLIPBOARD, " ", CLEAR, " ", C1_CSI,
              " END-OF-REPLY"]
    return Reply.sse(openai_stream(pieces, usage=openai_usage(5, 9)))


def test_a_streamed_hostile_reply_and_a_hostile_server_error_in_the_tui(
    openai_config: tuple[FakeServer, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    server, config = openai_config
    server.push(hostile_stream())
    server.push(Reply.json(500, {"error": {"message": f"boom {TITLE} {CLIPBOARD} BOOM-END"}}))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-7f3a9c1e5b2d4f60")
    term = Terminal("--provider", "openai", "--base-url", f"{server.url}/v1",
                    "--config", str(config))
    assert term.read_until(b"Enter sends")
    term.type(b"hello there\r")
    assert term.read_until(b"END-OF-REPLY"), term.out[-3000:]
    term.type(b"and again\r")
    assert term.read_until(b"BOOM-END"), term.out[-3000:]
    out = term.quit()
    assert_no_raw(out)
    assert SHOWN in out


def test_replay_stderr_shows_script_lines_and_server_errors_visibly(
    tmp_path: Path, openai_config: tuple[FakeServer, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "script.jsonl"
    lines = [
        {"user": f"/no-such-command{TITLE}"},
        {"user": f"/unreject {CLIPBOARD}{CLEAR}"},
        {"user": f"Hello {C1_CSI}"},
    ]
    script.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    server, config = openai_config
    server.push(Reply.json(500, {"error": {"message": f"boom {TITLE} {CLIPBOARD} BOOM-END"}}))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-7f3a9c1e5b2d4f60")

    proc = rcm("replay", str(script), "--provider", "openai", "--base-url",
               f"{server.url}/v1", "--config", str(config))

    assert proc.returncode == 1
    assert_no_raw(proc.stderr)
    err = proc.stderr.decode()
    assert "Unknown command /no-such-command␛]0;pwn␇" in err
    assert "␛]52;c;aGk=␇␛[2J is not an active rejected option" in err
    assert "boom ␛]0;pwn␇" in err and "BOOM-END" in err
    # The session keeps the user's words as typed, and our own error field clean.
    [path] = [p for p in sessions_dir().glob("*.json") if p.name != "index.json"]
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["messages"][0]["content"] == f"Hello {C1_CSI}"
    errors = [call["error"] for call in doc["calls"] if call.get("error")]
    assert errors and all("\x1b" not in e and "\x07" not in e for e in errors)
    assert any("␛]0;pwn␇" in e for e in errors)


def test_the_sessions_browser_and_its_dialogs_show_hostile_titles_and_names() -> None:
    from rcm_tui.core.models import Message, Session
    from rcm_tui.store import SessionStore

    store = SessionStore()
    session = Session(id="20250301-090000-aaaaaa", title=f"Title {TITLE} {CLIPBOARD} {C1_CSI}")
    session.messages.append(Message(role="user", content=f"Hi {CLEAR}", turn=1))
    store.save(session)
    (store.root / f"evil{TITLE}.json").write_text("{not json", encoding="utf-8")
    term = Terminal("--provider", "offline")
    assert term.read_until(b"Enter sends")
    term.type(b"\x0f")  # ctrl+o: the browser
    assert term.read_until(b"BROKEN"), term.out[-3000:]
    asked = False
    for _ in range(3):  # a loaded machine may not have moved the focus yet: ask again
        term.settle(1.0)
        term.type(b"\x7f")  # a "d" that reached the filter instead is taken back
        term.settle(0.5)
        term.type(b"\x1b[B")  # down into the table
        term.settle(1.0)
        term.type(b"d")  # delete asks first, naming the session by its title
        asked = term.read_until(b"Cancel (n)", timeout=10)
        if asked:
            break
    assert asked, term.out[-3000:]
    term.type(b"n")
    term.settle(0.5)
    term.type(b"\x1b")
    out = term.quit()
    assert_no_raw(out)
    assert SHOWN in out


async def test_toasts_are_plain_visible_text() -> None:
    from rcm_tui.ui.app import RcmApp

    from .ui.conftest import make_controller

    app = RcmApp(make_controller())
    async with app.run_test(size=(100, 30)) as pilot:
        app.notify(f"could not save: [b]{TITLE}[/b]", title=f"x{CLEAR}")
        await pilot.pause()
        [toast] = list(app._notifications)
        assert toast.message == "could not save: [b]␛]0;pwn␇[/b]" and not toast.markup
        assert toast.title == "x␛[2J"

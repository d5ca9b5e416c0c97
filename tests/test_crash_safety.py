"""Crash safety: `rcm-tui replay` killed with SIGKILL at random moments loses nothing typed and
never leaves a file that cannot be loaded.

A SIGKILL gives the process no chance to clean up, so these tests see exactly what a power cut
or an OOM kill would leave behind: whatever the atomic writes had renamed into place.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from rcm_tui import config, journal
from rcm_tui.config import load_settings
from rcm_tui.controller import Controller
from rcm_tui.core.models import Session, session_from_data
from rcm_tui.eval.long_session import build_session, user_turn
from rcm_tui.store import INDEX_NAME, SessionStore, encode_document

LATENCY_MS = 150
KILLS = 8
# Never kill before this: a kill during interpreter start-up tests nothing of ours.
MIN_DELAY = 0.3
SEED = 20250301

SCRIPT = [
    "We need a cache in front of the billing API; responses must stay under 200 ms.",
    "No Memcached, because we need persistence across restarts.",
    "We are a team of 4 engineers and we run everything on Kubernetes.",
    "What about Redis with a TTL per tenant?",
    "It must keep working when one node is down.",
    "Budget is at most 500 USD per month.",
    "Let's go with Redis then.",
    "Summarise the plan in three bullet points.",
]
PROGRESS_RE = re.compile(r"^\[(\d+)/\d+\]", re.M)


@dataclass
class Run:
    """One replay process and the files its output went to."""

    proc: subprocess.Popen[bytes]
    stderr: Path

    def progress(self) -> int:
        """The last turn the process reported as finished (it prints after each save)."""
        turns = [int(n) for n in PROGRESS_RE.findall(self.stderr.read_text(errors="replace"))]
        return max(turns, default=0)


def write_script(folder: Path, lines: list[str]) -> Path:
    path = folder / "script.jsonl"
    path.write_text("".join(json.dumps({"user": line}) + "\n" for line in lines), "utf-8")
    return path


def replay_env(latency_ms: int) -> dict[str, str]:
    # The autouse fixture already points HOME and the XDG dirs at this test's tmp home.
    return {**os.environ, "RCM_TUI_PROVIDERS__OFFLINE__LATENCY_MS": str(latency_ms)}


def start_replay(script: Path, workdir: Path, name: str, latency_ms: int = LATENCY_MS) -> Run:
    stderr = workdir / f"{name}.stderr"
    with open(stderr, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "rcm_tui", "replay", str(script), "--provider", "offline"],
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=replay_env(latency_ms),
            cwd=workdir,
        )
    return Run(proc, stderr)


def session_files() -> dict[str, Path]:
    folder = config.sessions_dir()
    if not folder.exists():
        return {}
    return {p.stem: p for p in folder.glob("*.json") if p.name != INDEX_NAME}


def load_file(path: Path) -> Session:
    """Exactly what a later rcm-tui would do with the file: parse and validate it, then replay
    the journal beside it. The document must be a valid session on its own as well."""
    data = json.loads(path.read_bytes())
    session_from_data(json.loads(path.read_bytes()))
    return session_from_data(journal.replay(data, journal.read_journal(path, 1 << 30)))


def check_folder() -> dict[str, Session]:
    """Every file in the sessions folder is usable; returns the sessions by id."""
    folder = config.sessions_dir()
    index = folder / INDEX_NAME
    if index.exists():
        json.loads(index.read_bytes())  # the index is written atomically too
    sessions = {sid: load_file(path) for sid, path in session_files().items()}
    broken = [e for e in SessionStore().list() if e.broken]
    assert not broken, f"broken after a kill: {[(e.id, e.broken) for e in broken]}"
    return sessions


def check_transcript(session: Session, script: list[str]) -> tuple[int, int]:
    """No answer without its question, nothing typed lost or reordered.

    Returns (user turns on disk, answered turns on disk).
    """
    users = [m for m in session.messages if m.role == "user"]
    assert [m.content for m in users] == script[: len(users)], "user turns lost or reordered"
    assert [m.turn for m in users] == list(range(1, len(users) + 1))
    answered: list[int] = []
    for index, message in enumerate(session.messages):
        if message.role != "assistant":
            continue
        asked_before = [m for m in session.messages[:index] if m.role == "user"]
        assert any(m.turn == message.turn for m in asked_before), (
            f"answer for turn {message.turn} without its question before it"
        )
        answered.append(message.turn)
    assert answered == sorted(set(answered)), "a turn answered twice or out of order"
    # Only the newest question may be waiting for its answer.
    assert answered in (list(range(1, len(users) + 1)), list(range(1, len(users))))
    return len(users), len(answered)


def wait_until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.mark.timeout(240)
def test_sigkill_at_random_moments_never_corrupts_or_loses_a_turn(tmp_path: Path) -> None:
    script = write_script(tmp_path, SCRIPT)
    # One full run first: its duration bounds the random kill moments, and its finished session
    # must survive every later crash byte for byte.
    started = time.monotonic()
    full = start_replay(script, tmp_path, "full")
    assert full.proc.wait(timeout=120) == 0, full.stderr.read_text()
    runtime = time.monotonic() - started
    ((finished_id, finished_path),) = session_files().items()
    finished_bytes = finished_path.read_bytes()
    assert check_transcript(load_file(finished_path), SCRIPT) == (len(SCRIPT), len(SCRIPT))

    rng = random.Random(SEED)
    kills = pending_seen = 0
    attempts = 0
    while kills < KILLS:
        attempts += 1
        assert attempts <= 3 * KILLS, "the replays kept finishing before the kill"
        before = set(session_files())
        run = start_replay(script, tmp_path, f"kill{attempts}")
        time.sleep(rng.uniform(MIN_DELAY, max(runtime, MIN_DELAY + 0.1)))
        if run.proc.poll() is None:
            run.proc.send_signal(signal.SIGKILL)
            kills += 1
        run.proc.wait(timeout=60)
        reported = run.progress()

        sessions = check_folder()
        created = set(sessions) - before
        assert len(created) <= 1, "one replay made more than one session"
        if not created:
            assert reported == 0, "turns were reported done but no session file exists"
            continue
        asked, answered = check_transcript(sessions[created.pop()], SCRIPT)
        assert answered >= reported, "a turn reported as saved is missing from the file"
        pending_seen += asked > answered

    assert finished_path.read_bytes() == finished_bytes, "a crash elsewhere touched a session"
    assert finished_id in session_files()
    # Most of a turn is spent waiting for the model, so some kill must land there; if none did,
    # the test did not exercise the case it is about.
    assert pending_seen >= 1


def killed_while_waiting_for_the_model(tmp_path: Path) -> tuple[str, list[str]]:
    """A replay killed after saving its first question, while the model is still 'thinking'."""
    lines = ["Keep the audit log for seven years; what storage should we use?", "Thanks."]
    script = write_script(tmp_path, lines)
    run = start_replay(script, tmp_path, "slow", latency_ms=120_000)
    try:

        def question_on_disk() -> bool:
            files = list(session_files().values())
            return bool(files) and any(m.role == "user" for m in load_file(files[0]).messages)

        wait_until(question_on_disk, 60, "the first question to be saved")
    finally:
        run.proc.send_signal(signal.SIGKILL)
        run.proc.wait(timeout=60)
    (session_id,) = session_files()
    return session_id, lines


@pytest.mark.timeout(120)
async def test_a_question_killed_mid_turn_is_on_disk_and_retry_answers_it(
    tmp_path: Path,
) -> None:
    session_id, lines = killed_while_waiting_for_the_model(tmp_path)
    on_disk = check_folder()[session_id]
    assert [(m.role, m.content) for m in on_disk.messages] == [("user", lines[0])]
    assert on_disk.pending_user_turn is not None

    # The killed process's lock died with it: a new instance can open and retry the turn.
    controller = Controller(load_settings(None, {"provider": "offline"}), SessionStore())
    try:
        session = controller.open_session(session_id)
        assert session.pending_user_turn is not None
        assert session.pending_user_turn.content == lines[0]
        outcome = await controller.retry()
        assert outcome is not None and outcome.ok, outcome
        assert await controller.retry() is None  # nothing left to retry
        follow_up = await controller.send("And how do we back it up?")
        assert follow_up.ok and follow_up.turn == 2
    finally:
        await controller.aclose()

    saved = load_file(session_files()[session_id])
    assert [(m.role, m.turn) for m in saved.messages] == [
        ("user", 1),
        ("assistant", 1),
        ("user", 2),
        ("assistant", 2),
    ]
    assert saved.messages[0].content == lines[0]  # retried, not typed again
    assert saved.messages[1].content == outcome.reply
    assert saved.pending_user_turn is None
    check_transcript(saved, [lines[0], "And how do we back it up?"])


@pytest.mark.timeout(120)
def test_a_new_replay_after_a_crash_starts_its_own_session(tmp_path: Path) -> None:
    crashed_id, _ = killed_while_waiting_for_the_model(tmp_path)
    crashed_bytes = session_files()[crashed_id].read_bytes()
    script = write_script(tmp_path, SCRIPT[:2])
    run = start_replay(script, tmp_path, "after", latency_ms=0)
    assert run.proc.wait(timeout=120) == 0, run.stderr.read_text()

    sessions = check_folder()
    (new_id,) = set(sessions) - {crashed_id}
    assert check_transcript(sessions[new_id], SCRIPT[:2]) == (2, 2)
    assert session_files()[crashed_id].read_bytes() == crashed_bytes


# -- a 1,000-turn session ---------------------------------------------------------------------
LONG_TURNS = 1000
LONG_KILLS = 5
# Continues a session in the foreground as the TUI would: retry an unanswered question, then
# one turn after another. The journal is folded into the document every few saves, so that the
# kills land in rewrites of the 2 MB document as well as in appends to the journal.
CONTINUE_SCRIPT = textwrap.dedent(
    """
    import asyncio, sys
    from rcm_tui import journal
    from rcm_tui.config import load_settings
    from rcm_tui.controller import Controller
    from rcm_tui.eval.long_session import reply_turn, user_turn
    from rcm_tui.providers.offline import scripted_reply
    from rcm_tui.store import SessionStore

    journal.SessionJournal.due_for_compaction = property(lambda j: j.journal_bytes > 40_000)
    session_id, last = sys.argv[1], int(sys.argv[2])

    async def main():
        controller = Controller(load_settings(None, {"provider": "offline"}), SessionStore())
        controller.open_session(session_id)
        pending = controller.session.pending_user_turn
        if pending is not None:
            assert (await controller.retry()).ok
            print(f"[{pending.turn}/{last}]", file=sys.stderr, flush=True)
        for number in range(controller.session.turn + 1, last + 1):
            with scripted_reply(reply_turn(number)):
                outcome = await controller.send(user_turn(number))
            assert outcome.ok, outcome.error
            print(f"[{number}/{last}]", file=sys.stderr, flush=True)
        await controller.aclose()

    asyncio.run(main())
    """
)


@pytest.mark.timeout(300)
def test_sigkill_during_a_1000_turn_session_loses_nothing(tmp_path: Path) -> None:
    store = SessionStore()
    session = build_session(LONG_TURNS, "long-session")
    store.save(session)
    path = store.path_for(session.id)
    last = LONG_TURNS + 40
    script = [user_turn(n) for n in range(1, last + 1)]
    rng = random.Random(SEED)
    reported = LONG_TURNS
    for attempt in range(LONG_KILLS):
        stderr = tmp_path / f"long{attempt}.stderr"
        with open(stderr, "wb") as err:
            proc = subprocess.Popen(
                [sys.executable, "-c", CONTINUE_SCRIPT, session.id, str(last)],
                stdout=subprocess.DEVNULL, stderr=err, env=replay_env(40), cwd=tmp_path,
            )
        run = Run(proc, stderr)
        # Past start-up and the load of the 2 MB document: kill somewhere in the next turns.
        wait_until(lambda run=run: run.progress() > 0 or run.proc.poll() is not None, 120,
                   "a turn")
        time.sleep(rng.uniform(0.0, 1.5))
        # The kill must land while turns are being written, not after the run has ended.
        assert proc.poll() is None, "the run ended before the kill"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        reported = max(reported, run.progress())

        sessions = check_folder()  # 0 broken files
        asked, answered = check_transcript(sessions[session.id], script)
        assert answered >= reported, "a turn reported as saved is missing"  # 0 lost turns
        assert asked >= LONG_TURNS
    # Every run saved at least one turn before its kill (a slow first turn, such as one that
    # loads the guard's lexicon, may be all a run gets to).
    assert reported >= LONG_TURNS + LONG_KILLS, "the kills did not land in the turns"
    # What the store loads is what the files say, and the old turns are untouched.
    loaded = SessionStore().load(session.id)
    assert encode_document(loaded) == encode_document(load_file(path))
    assert [m.content for m in loaded.messages[: 2 * LONG_TURNS]] == [
        m.content for m in session.messages
    ]

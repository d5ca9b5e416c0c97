"""Scripts never write outside the exports folder, no writer follows a planted symlink, a
full disk gives one line naming the file and leaves no lock behind, and a read-only sessions
folder still lists and shows."""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rcm_tui import logs, safe_files
from rcm_tui.config import data_dir, default_config_path, log_dir, sessions_dir
from rcm_tui.store import SessionStore, StoreError

from .conftest import build_session


def rcm(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rcm_tui", *args], capture_output=True,
                          text=True, env=dict(os.environ), timeout=180)


def write_script(path: Path, lines: list[dict[str, str]]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def bashrc(isolated_env: Path) -> Path:
    target = isolated_env / ".bashrc"
    target.write_text("alias ll='ls -l'\n", encoding="utf-8")
    return target


# -- /export from scripts ---------------------------------------------------------------------


def test_replay_export_cannot_leave_the_exports_folder(tmp_path: Path, bashrc: Path) -> None:
    outside = tmp_path / "outside.md"
    script = write_script(tmp_path / "s.jsonl", [
        {"user": "We need an export test.", "assistant": "Sure."},
        {"user": "/export ~/.bashrc"},
        {"user": f"/export {outside}"},
        {"user": "/export ../../escape.md"},
        {"user": "/export notes.md"},
    ])

    proc = rcm("replay", str(script), "--provider", "offline")

    assert proc.returncode == 0, proc.stderr
    assert bashrc.read_text(encoding="utf-8") == "alias ll='ls -l'\n"
    assert not outside.exists()
    assert not any(folder.joinpath("escape.md").exists()
                   for folder in (data_dir(), data_dir().parent))
    refusals = [line for line in proc.stderr.splitlines() if "/export refused" in line]
    assert len(refusals) == 3
    assert all(str(data_dir() / "exports") in line for line in refusals)
    assert "# " in (data_dir() / "exports" / "notes.md").read_text(encoding="utf-8")


def test_an_eval_scenario_cannot_export_outside(tmp_path: Path, bashrc: Path) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    write_script(folder / "sneaky.jsonl", [
        {"user": "We need a queue.", "assistant": "Which throughput?"},
        {"user": "/export ~/.bashrc"},
    ])

    proc = rcm("eval", str(folder), "--provider", "offline", "--json")

    assert proc.returncode == 0, proc.stderr
    assert bashrc.read_text(encoding="utf-8") == "alias ll='ls -l'\n"


async def test_tui_export_asks_before_overwriting(tmp_path: Path) -> None:
    from .ui.conftest import converse, make_controller, send_message

    target = tmp_path / "mine.md"
    target.write_text("precious\n", encoding="utf-8")
    from rcm_tui.ui.app import RcmApp
    from rcm_tui.ui.screens.dialogs import ConfirmDialog

    controller = make_controller()
    app = RcmApp(controller)
    async with app.run_test(size=(120, 36)) as pilot:
        await converse(controller, 1)
        await send_message(pilot, f"/export {target}")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "already exists" in app.screen.question
        await pilot.press("n")
        await pilot.pause()
        assert target.read_text(encoding="utf-8") == "precious\n"

        await send_message(pilot, f"/export {target}")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await pilot.pause()
        assert target.read_text(encoding="utf-8").startswith("# ")


# -- writers refuse symlinks ----------------------------------------------------------------------


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


def test_the_log_writer_refuses_a_planted_symlink(tmp_path: Path, restore_logging: None) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n", encoding="utf-8")
    victim.chmod(0o644)
    log_dir().mkdir(parents=True, exist_ok=True)
    (log_dir() / logs.LOG_NAME).symlink_to(victim)

    with pytest.raises(OSError, match="symbolic link"):
        logs.setup_logging("info")
        logging.getLogger("rcm_tui.test").warning("appended through the link")

    assert victim.read_text(encoding="utf-8") == "keep\n"
    assert stat.S_IMODE(victim.stat().st_mode) == 0o644  # not chmod-ed through the link


def test_config_init_refuses_a_symlinked_config(tmp_path: Path) -> None:
    victim = tmp_path / "victim.toml"
    victim.write_text("# mine\n", encoding="utf-8")
    default_config_path().parent.mkdir(parents=True, exist_ok=True)
    default_config_path().symlink_to(victim)

    for args in (("config", "init"), ("config", "init", "--force")):
        proc = rcm(*args)
        assert proc.returncode == 2 and "symbolic link" in proc.stderr
    assert victim.read_text(encoding="utf-8") == "# mine\n"


def test_config_init_writes_a_private_file() -> None:
    assert rcm("config", "init").returncode == 0
    assert stat.S_IMODE(default_config_path().stat().st_mode) == 0o600
    assert rcm("config", "init").returncode == 2  # exists: --force is needed
    assert rcm("config", "init", "--force").returncode == 0


def test_sessions_export_force_replaces_a_link_instead_of_writing_through(
    tmp_path: Path,
) -> None:
    SessionStore().save(build_session(session_id="20250301-090000-aaaaaa"))
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n", encoding="utf-8")
    link = tmp_path / "out.md"
    link.symlink_to(victim)

    proc = rcm("sessions", "export", "20250301-090000-aaaaaa", "-o", str(link), "--force")

    assert proc.returncode == 0, proc.stderr
    assert victim.read_text(encoding="utf-8") == "keep\n"
    assert not link.is_symlink() and link.read_text(encoding="utf-8").startswith("# ")


def test_a_new_export_refuses_a_dangling_symlink(tmp_path: Path) -> None:
    link = tmp_path / "new.md"
    link.symlink_to(tmp_path / "would-be-created")
    with pytest.raises(FileExistsError):
        safe_files.write_file(link, b"x", overwrite=False)
    assert not (tmp_path / "would-be-created").exists()


# -- a full disk and a read-only folder ------------------------------------------------------------


def enospc(*_args: object, **_kwargs: object) -> int:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_at_the_lock_names_the_file_and_leaves_no_lock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = SessionStore()
    monkeypatch.setattr(os, "pwrite", enospc)
    with pytest.raises(StoreError) as caught:
        store.lock("20250301-090000-aaaaaa")
    message = str(caught.value)
    assert "No space left on device" in message
    assert str(sessions_dir() / "20250301-090000-aaaaaa.lock") in message
    assert list(sessions_dir().iterdir()) == []


def test_a_full_disk_at_the_first_save_names_the_file_and_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rcm_tui.config import load_settings
    from rcm_tui.controller import Controller

    controller = Controller(load_settings(None, {"provider": "offline"}), SessionStore())
    monkeypatch.setattr(os, "fsync", enospc)
    with pytest.raises(StoreError) as caught:
        controller.record_user_message("We must keep every message.")
    assert str(sessions_dir() / f"{controller.session.id}.json") in str(caught.value)
    assert "No space left on device" in str(caught.value)
    assert [p.name for p in sessions_dir().iterdir()] == []


def test_the_index_warning_names_the_file(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store = SessionStore()
    store.save(build_session(session_id="20250301-090000-aaaaaa"))
    (sessions_dir() / "index.json").unlink()
    monkeypatch.setattr(os, "write", enospc)
    with caplog.at_level(logging.WARNING, logger="rcm_tui.store"):
        assert [e.id for e in store.list()] == ["20250301-090000-aaaaaa"]
    [warning] = [r.getMessage() for r in caplog.records if "index" in r.getMessage()]
    assert str(sessions_dir() / "index.json") in warning and "No space left" in warning


def test_a_read_only_sessions_folder_lists_and_shows() -> None:
    SessionStore().save(build_session(session_id="20250301-090000-aaaaaa", title="Read only"))
    (sessions_dir() / "index.json").unlink()
    sessions_dir().chmod(0o500)
    try:
        listed = rcm("sessions", "list")
        shown = rcm("sessions", "show", "20250301-090000-aaaaaa")
        mode = stat.S_IMODE(sessions_dir().stat().st_mode)
    finally:
        sessions_dir().chmod(0o700)
    assert listed.returncode == 0 and "Read only" in listed.stdout, listed.stderr
    assert shown.returncode == 0 and "Read only" in shown.stdout, shown.stderr
    assert mode == 0o500  # opening the store to read does not chmod the folder


@pytest.fixture
def tiny_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 64 kB tmpfs (needs root and mount); skipped where it cannot be made."""
    mount_point = tmp_path / "tiny"
    mount_point.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount_point)],
                          capture_output=True)
    if made.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True)


def test_a_really_full_disk_and_a_read_only_mount(
    tiny_tmpfs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tiny_tmpfs))
    script = write_script(tmp_path / "s.jsonl", [{"user": "We must use Postgres."}])
    assert rcm("replay", str(script), "--provider", "offline").returncode == 0
    before = sorted(p.name for p in sessions_dir().iterdir())
    filler = tiny_tmpfs / "filler"
    with open(filler, "wb", buffering=0) as handle, pytest.raises(OSError):
        while True:
            handle.write(b"\0" * 4096)
    # One page free: room for a lock's pid, not for a session. A lock left behind by the
    # first failing run would take it, and the second run would fail differently.
    os.truncate(filler, filler.stat().st_size - 4096)

    for _ in range(2):
        proc = rcm("replay", str(script), "--provider", "offline")
        assert proc.returncode == 1
        [line] = [x for x in proc.stderr.splitlines() if "No space left on device" in x]
        assert "cannot save session" in line and str(sessions_dir()) in line
    assert sorted(p.name for p in sessions_dir().iterdir()) == before

    subprocess.run(["mount", "-o", "remount,ro", str(tiny_tmpfs)], check=True)
    listed = rcm("sessions", "list")
    assert listed.returncode == 0 and "We must use Postgres" in listed.stdout, listed.stderr
    assert rcm("sessions", "show", "latest").returncode == 0

"""Structured, private, redacted logs that never touch the terminal."""

from __future__ import annotations

import json
import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from rcm_tui import config, logs
from rcm_tui.logs import register_secret, setup_logging


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level, raise_exceptions = list(root.handlers), root.level, logging.raiseExceptions
    yield
    logging.raiseExceptions = raise_exceptions
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)
    logs._extra_secrets.clear()


def records(path: Path) -> list[dict]:
    for handler in logging.getLogger().handlers:
        handler.flush()
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_json_lines_in_the_log_dir_with_private_modes(isolated_env: Path) -> None:
    path = setup_logging("info")
    assert path == config.log_dir() / "rcm-tui.log"
    assert str(path).startswith(os.environ["XDG_STATE_HOME"])
    logging.getLogger("rcm_tui.test").info("turn saved", extra={"turn": 3, "ms": 12.5})
    (entry,) = records(path)
    assert entry["level"] == "info"
    assert entry["logger"] == "rcm_tui.test"
    assert entry["msg"] == "turn saved"
    assert entry["turn"] == 3 and entry["ms"] == 12.5
    assert entry["ts"].endswith("+00:00")
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_setup_is_idempotent(isolated_env: Path) -> None:
    first = setup_logging("info")
    second = setup_logging("debug")
    assert first == second
    ours = [
        h for h in logging.getLogger().handlers if isinstance(h, logs.PrivateRotatingFileHandler)
    ]
    assert len(ours) == 1
    logging.getLogger("x").info("once")
    assert [r["msg"] for r in records(first)] == ["once"]
    assert logging.getLogger().level == logging.DEBUG


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown log level 'loud'"):
        setup_logging("loud")


def test_api_keys_are_redacted_everywhere(
    isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_key = "custom-proxy-token-4f9a2b"
    monkeypatch.setenv("OPENAI_API_KEY", env_key)
    path = setup_logging("debug")
    register_secret("from-config-file-77aa")
    log = logging.getLogger("rcm_tui.providers")
    log.info("calling with %s", "sk-proj-abcdefghijklmnop1234")
    log.info("anthropic sk-ant-api03-ZZZZYYYYXXXX0000 failed", extra={"key": env_key})
    log.warning("header", extra={"headers": {"Authorization": "Bearer abcdef1234567890"}})
    log.error("config key from-config-file-77aa rejected")
    try:
        raise RuntimeError(f"auth failed for {env_key}")
    except RuntimeError:
        log.exception("provider error")
    text = path.read_text()
    for secret in (
        "sk-proj-abcdefghijklmnop1234",
        "sk-ant-api03-ZZZZYYYYXXXX0000",
        env_key,
        "abcdef1234567890",
        "from-config-file-77aa",
    ):
        assert secret not in text
    entries = records(path)
    assert entries[0]["msg"] == "calling with [REDACTED]"
    assert entries[1]["key"] == "[REDACTED]"
    assert "RuntimeError: auth failed for [REDACTED]" in entries[-1]["exc"]


def test_nothing_reaches_stderr(isolated_env: Path, capfd: pytest.CaptureFixture[str]) -> None:
    setup_logging("debug")
    logging.getLogger("rcm_tui.anything").error("visible only in the file")
    assert capfd.readouterr().err == ""


def test_rotation_keeps_files_private(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logs, "MAX_BYTES", 2000)
    path = setup_logging("info")
    log = logging.getLogger("rcm_tui.bulk")
    for number in range(100):
        log.info("line %d %s", number, "x" * 100)
    rotated = sorted(path.parent.glob("rcm-tui.log*"))
    assert len(rotated) == 1 + logs.BACKUP_COUNT
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in rotated)


def test_a_bad_format_call_is_still_logged(isolated_env: Path) -> None:
    path = setup_logging("info")
    logging.getLogger("rcm_tui.x").info("two %s %s", "sk-ant-api03-ONLYONEARG1234")
    (entry,) = records(path)
    assert entry["msg"].startswith("two %s %s") and "ONLYONEARG" not in entry["msg"]


def test_control_characters_never_reach_the_log_file_raw(isolated_env: Path) -> None:
    path = setup_logging("debug")
    hostile = "reply \x1b]0;pwn\x07 and \x9b31m red"
    logging.getLogger("rcm_tui.test").debug("model said", extra={"text": hostile})
    raw = path.read_bytes()
    assert b"\x1b" not in raw and b"\x07" not in raw and "\x9b".encode() not in raw
    (entry,) = records(path)
    assert entry["text"] == hostile  # escaped on disk, the same text when read back

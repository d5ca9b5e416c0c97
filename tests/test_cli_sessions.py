"""`rcm-tui sessions ...`, in-process through argparse and end to end as a subprocess."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from rcm_tui import cli_sessions
from rcm_tui.core.models import session_from_data
from rcm_tui.store import SessionStore


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="rcm-tui")
    cli_sessions.add_parser(root.add_subparsers(dest="command"))
    return root


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    args = parser().parse_args(["sessions", *argv])
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, fragment: str) -> None:
    assert err.startswith("rcm-tui: "), err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert fragment in err
    assert "Traceback" not in err


@pytest.fixture
def saved(make_session) -> SessionStore:
    """Two sessions: 'older-aaa' and 'newer-bbb' (the latest), with known times."""
    sessions = SessionStore()
    base = datetime(2025, 5, 1, 12, 0, tzinfo=UTC)
    for session_id, title, offset in (
        ("older-aaa", "Kafka consumer lag", 0),
        ("newer-bbb", "Postgres vacuum tuning", 1),
    ):
        session = make_session(session_id=session_id, title=title, turns=2 + offset)
        sessions.save(session)
        data = session.dump()
        data["updated_at"] = (base + timedelta(days=offset)).isoformat()
        sessions.path_for(session_id).write_text(json.dumps(data))
    return sessions


def test_list_json(saved: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "list", "--json")
    assert (code, err) == (0, "")
    entries = json.loads(out)
    assert [e["id"] for e in entries] == ["newer-bbb", "older-aaa"]
    assert set(entries[0]) == {
        "id",
        "title",
        "updated_at",
        "created_at",
        "turns",
        "average_quality",
        "path",
        "broken",
        "parent",
    }
    assert entries[0]["title"] == "Postgres vacuum tuning"
    assert entries[0]["turns"] == 3
    assert entries[0]["updated_at"] == "2025-05-02T12:00:00+00:00"
    assert entries[0]["path"] == str(saved.path_for("newer-bbb"))
    assert entries[0]["broken"] is None


def test_list_json_when_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "list", "--json") == (0, "[]\n", "")


def test_list_table_with_a_broken_file(
    saved: SessionStore, capsys: pytest.CaptureFixture[str]
) -> None:
    (saved.root / "bad.json").write_text('{"schema_version": 1')
    code, out, _ = run(capsys, "list")
    assert code == 0
    header, *rows = out.splitlines()
    assert header.split() == ["ID", "UPDATED", "TURNS", "QUALITY", "TITLE"]
    newer = next(r for r in rows if r.startswith("newer-bbb"))
    assert newer.split()[3:] == ["3", "0.72", "Postgres", "vacuum", "tuning"]
    bad = next(r for r in rows if r.startswith("bad"))
    assert "BROKEN: invalid JSON" in bad


def test_sessions_without_subcommand_lists(saved: SessionStore, capsys) -> None:
    code, out, _ = run(capsys)
    assert code == 0 and "Kafka consumer lag" in out


def test_hostile_title_cannot_drive_the_terminal(make_session, capsys) -> None:
    sessions = SessionStore()
    sessions.save(make_session(session_id="evil", title="\x1b[2J\x1b]0;pwned\x07 title\x9b31m"))
    _, out, _ = run(capsys, "list")
    assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
    assert "title" in out
    _, out, _ = run(capsys, "list", "--json")
    assert "\x1b" not in out and "\x9b" not in out
    assert json.loads(out)[0]["title"] == "\x1b[2J\x1b]0;pwned\x07 title\x9b31m"
    _, out, _ = run(capsys, "show", "evil")
    assert "\x1b" not in out


def test_show_summary(saved: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "latest")
    assert (code, err) == (0, "")
    assert "Title:     Postgres vacuum tuning" in out
    assert "ID:        newer-bbb" in out
    assert "Turns:     3" in out
    assert "Quality:   0.72 over 3 rated turns" in out
    assert "[pending] R1: Responses must stay under 200 ms (turn 1)" in out
    assert "- Memcached — no persistence (turn 2)" in out
    assert "[turn 3] assistant: Assistant answer 3" in out


def test_show_by_prefix_and_json(saved: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "old", "--json")
    assert code == 0
    document = session_from_data(json.loads(out))
    assert document.id == "older-aaa"
    assert document.dump() == saved.load("older-aaa").dump()


def test_show_unknown_id(saved: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", "nope")
    assert code == 1 and out == ""
    assert_one_line_error(err, "no session with id 'nope'")


def test_show_broken(saved: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    (saved.root / "bad.json").write_bytes(b"\xff\xfe")
    code, _, err = run(capsys, "show", "bad")
    assert code == 1
    assert_one_line_error(err, "session 'bad' is broken: not UTF-8 text")


def test_ambiguous_prefix(saved: SessionStore, make_session, capsys) -> None:
    saved.save(make_session(session_id="older-abc"))
    code, _, err = run(capsys, "show", "older-a")
    assert code == 1
    assert_one_line_error(err, "ambiguous id 'older-a'")


def test_search(saved: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "search", "vacuum", "--json")
    assert code == 0 and [e["id"] for e in json.loads(out)] == ["newer-bbb"]
    code, out, _ = run(capsys, "search", "CACHE", "keys")  # message content, several words
    assert code == 0 and "newer-bbb" in out and "older-aaa" in out
    code, out, _ = run(capsys, "search", "nothing-like-this")
    assert (code, out) == (0, "No sessions.\n")


def test_export_markdown_to_stdout(saved: SessionStore, capsys) -> None:
    code, out, err = run(capsys, "export", "older")
    assert (code, err) == (0, "")
    assert out.startswith("# Kafka consumer lag\n")
    assert "| R1 | Responses must stay under 200 ms | pending |" in out
    assert "- **Memcached** — no persistence" in out
    assert "### Turn 2" in out and "User message 2 about cache keys" in out


def test_export_to_files(saved: SessionStore, tmp_path: Path, capsys) -> None:
    target = tmp_path / "out.md"
    code, out, _ = run(capsys, "export", "older-aaa", "--output", str(target))
    assert code == 0 and str(target) in out
    assert target.read_text().startswith("# Kafka consumer lag")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600

    target.write_text("my notes")
    code, _, err = run(capsys, "export", "older-aaa", "-o", str(target))
    assert code == 1
    assert_one_line_error(err, "already exists; pass --force")
    assert target.read_text() == "my notes"

    code, _, _ = run(capsys, "export", "older-aaa", "-o", str(target), "--force")
    assert code == 0 and target.read_text().startswith("# Kafka consumer lag")

    as_json = tmp_path / "out.json"  # format follows the extension unless --format says so
    assert run(capsys, "export", "older-aaa", "-o", str(as_json))[0] == 0
    assert json.loads(as_json.read_text()) == saved.load("older-aaa").dump()
    forced_md = tmp_path / "notes.json"
    assert run(capsys, "export", "older-aaa", "-o", str(forced_md), "--format", "md")[0] == 0
    assert forced_md.read_text().startswith("# ")


def test_export_into_a_missing_folder(saved: SessionStore, tmp_path: Path, capsys) -> None:
    code, _, err = run(capsys, "export", "older-aaa", "-o", str(tmp_path / "no" / "x.md"))
    assert code == 1
    assert_one_line_error(err, "No such file or directory")


def test_delete_with_yes(saved: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "delete", "older-aaa", "--yes")
    assert code == 0 and "Deleted session older-aaa" in out
    assert not saved.path_for("older-aaa").exists()
    assert [e.id for e in saved.list()] == ["newer-bbb"]


def test_delete_without_tty_or_yes_refuses(
    saved: SessionStore, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False)
    code, _, err = run(capsys, "delete", "older-aaa")
    assert code == 1
    assert_one_line_error(err, "pass --yes")
    assert saved.path_for("older-aaa").exists()


@pytest.mark.parametrize(("answer", "deleted"), [("y", True), ("n", False), ("", False)])
def test_delete_asks_on_a_tty(
    saved: SessionStore, capsys, monkeypatch: pytest.MonkeyPatch, answer: str, deleted: bool
) -> None:
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    prompts: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt: prompts.append(prompt) or answer)
    code, _, _ = run(capsys, "delete", "older")
    assert prompts == ["Delete session older-aaa (Kafka consumer lag)? [y/N] "]
    assert code == (0 if deleted else 1)
    assert saved.path_for("older-aaa").exists() is not deleted


def test_delete_a_broken_file(saved: SessionStore, capsys) -> None:
    (saved.root / "bad.json").write_text("[")
    assert run(capsys, "delete", "bad", "--yes")[0] == 0
    assert not (saved.root / "bad.json").exists()


def test_rename(saved: SessionStore, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rename", "older", "Consumer", "lag", "deep-dive")
    assert code == 0 and "Consumer lag deep-dive" in out
    assert saved.load("older-aaa").title == "Consumer lag deep-dive"
    code, _, err = run(capsys, "rename", "older", " ")
    assert code == 1
    assert_one_line_error(err, "cannot be empty")


# -- end to end through `python -m rcm_tui` -------------------------------------------------

CLI_AVAILABLE = importlib.util.find_spec("rcm_tui.cli") is not None
needs_cli = pytest.mark.skipif(not CLI_AVAILABLE, reason="rcm_tui/cli.py has not landed yet")


def rcm(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rcm_tui", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env=os.environ.copy(),
    )


@needs_cli
def test_subprocess_list_json(saved: SessionStore) -> None:
    result = rcm("sessions", "list", "--json")
    assert result.returncode == 0, result.stderr
    assert [e["id"] for e in json.loads(result.stdout)] == ["newer-bbb", "older-aaa"]


@needs_cli
def test_subprocess_show_unknown_is_one_line(saved: SessionStore) -> None:
    result = rcm("sessions", "show", "does-not-exist")
    assert result.returncode == 1
    assert result.stdout == ""
    assert_one_line_error(result.stderr, "no session with id 'does-not-exist'")


@needs_cli
def test_subprocess_export_and_delete(saved: SessionStore, tmp_path: Path) -> None:
    result = rcm("sessions", "export", "latest", "--format", "md")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("# Postgres vacuum tuning")
    refused = rcm("sessions", "delete", "newer-bbb")
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert saved.path_for("newer-bbb").exists()
    done = rcm("sessions", "delete", "newer-bbb", "--yes")
    assert done.returncode == 0, done.stderr
    assert not saved.path_for("newer-bbb").exists()
    listed = rcm("sessions", "list", "--json")
    assert [e["id"] for e in json.loads(listed.stdout)] == ["older-aaa"]

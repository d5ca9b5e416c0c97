"""API keys never reach disk or output, and what is written is private.

The runs here use the real openai provider against a loopback server with the key in use (the
server checks the Authorization header), at debug log level, where the SDKs log the most.
Afterwards every file under the test's home (data, config, cache, state/logs) and every byte
printed is searched for the key.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rcm_tui import config
from rcm_tui.store import SessionStore

from .providers.fake_server import FakeServer, Reply, openai_stream, openai_usage

ENV_KEY = "sk-test-SECRET-4242-env0c7d"
# A key for a self-hosted server that looks nothing like an OpenAI key: only the exact-value
# redaction can catch it, no pattern does.
FILE_KEY = "lan-token-7Hq2Zp9Wm4"
QUESTION = "Where should the nightly invoice export keep its retry state?"
ANSWER = "Keep it in PostgreSQL next to the invoices; a retry table is enough."


@pytest.fixture
def server() -> Iterator[FakeServer]:
    with FakeServer() as fake:
        yield fake


def answer_everything(server: FakeServer, count: int = 60) -> None:
    # Analysis, judge and generation calls run concurrently in no fixed order, so every reply
    # is the same; the structured steps simply fall back to heuristics.
    server.push(
        *(Reply.sse(openai_stream([ANSWER], usage=openai_usage(30, 12))) for _ in range(count))
    )


def rcm(
    *args: str, env: dict[str, str] | None = None, umask: int | None = None
) -> subprocess.CompletedProcess[str]:
    preexec = (lambda: os.umask(umask)) if umask is not None else None
    return subprocess.run(
        [sys.executable, "-m", "rcm_tui", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
        preexec_fn=preexec,
    )


def write_script(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(json.dumps({"user": line}) + "\n" for line in lines), "utf-8")
    return path


def files_containing(folder: Path, needle: str) -> list[Path]:
    found = []
    for root, _dirs, names in os.walk(folder):
        for name in names:
            path = Path(root) / name
            if path.is_file() and needle.encode() in path.read_bytes():
                found.append(path)
    return found


def only_session_id() -> str:
    (entry,) = SessionStore().list()
    return entry.id


def log_text() -> str:
    return "".join(p.read_text("utf-8") for p in sorted(config.log_dir().glob("rcm-tui.log*")))


@pytest.mark.timeout(240)
def test_an_env_key_in_use_appears_in_no_file_and_no_output(
    tmp_path: Path, isolated_env: Path, server: FakeServer
) -> None:
    answer_everything(server)
    script = write_script(
        tmp_path / "s.jsonl", [QUESTION, "Add a metric for it.", "/export", "/solidify"]
    )
    env = {"OPENAI_API_KEY": ENV_KEY, "RCM_TUI_LOGGING__LEVEL": "debug"}
    runs = [
        rcm(
            "replay", str(script), "--provider", "openai", "--base-url", f"{server.url}/v1", env=env
        ),
    ]
    assert runs[0].returncode == 0, runs[0].stderr
    session_id = only_session_id()
    runs += [
        rcm("sessions", "export", session_id, "--format", "md", env=env),
        rcm("sessions", "export", session_id, "--format", "json", env=env),
        rcm("sessions", "export", session_id, "-o", str(tmp_path / "out.json"), env=env),
        rcm("sessions", "show", session_id, "--json", env=env),
        rcm("config", "show", env=env),
        rcm("config", "show", "--json", env=env),
    ]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]

    # The key was really in use, and the runs really wrote what is searched below.
    assert {r.headers.get("authorization") for r in server.requests} == {f"Bearer {ENV_KEY}"}
    assert QUESTION in runs[1].stdout and QUESTION in runs[2].stdout
    assert '"logger": "openai.' in log_text(), "no SDK debug records: the search proves little"
    assert list(config.data_dir().glob("exports/*.md")), "/export wrote nothing"

    for run in runs:
        assert ENV_KEY not in run.stdout + run.stderr
    assert files_containing(tmp_path, ENV_KEY) == []  # the home and everything else
    shown = runs[5].stdout + runs[6].stdout
    assert "set (hidden)" in shown and "providers.openai.api_key" in shown


@pytest.mark.timeout(120)
def test_a_server_that_echoes_the_key_in_an_error_leaks_it_nowhere(
    tmp_path: Path, server: FakeServer
) -> None:
    echo = {"error": {"message": f"Incorrect request for key {ENV_KEY}; check your settings"}}
    server.push(*(Reply.json(400, echo) for _ in range(10)))
    script = write_script(tmp_path / "s.jsonl", [QUESTION])
    env = {"OPENAI_API_KEY": ENV_KEY, "RCM_TUI_LOGGING__LEVEL": "debug"}

    run = rcm(
        "replay", str(script), "--provider", "openai", "--base-url", f"{server.url}/v1", env=env
    )

    assert run.returncode == 1
    assert "the server refused the request (400)" in run.stderr  # the echo did come back
    assert ENV_KEY not in run.stdout + run.stderr
    session = SessionStore().load(only_session_id())
    errors = [c.error for c in session.calls if c.error]
    assert errors and all("Incorrect request for key" in e for e in errors)
    assert files_containing(tmp_path, ENV_KEY) == []


def write_config(text: str, mode: int) -> Path:
    path = config.default_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    path.chmod(mode)
    return path


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660])
def test_a_config_file_with_a_key_readable_by_others_warns(mode: int) -> None:
    path = write_config(f'[providers.openai]\napi_key = "{FILE_KEY}"\n', mode)

    run = rcm("config", "show")

    assert run.returncode == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1, run.stderr
    assert str(path) in warnings[0] and f"chmod 600 {path}" in warnings[0]
    assert f"{mode:o}" in warnings[0]
    assert FILE_KEY not in run.stdout + run.stderr
    assert "set (hidden)" in run.stdout


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        (f'[providers.openai]\napi_key = "{FILE_KEY}"\n', 0o600),
        (f'[providers.anthropic]\napi_key = "{FILE_KEY}"\n', 0o400),
        ('[providers.openai]\napi_key = ""\nmodel = "gpt-test"\n', 0o644),  # no key: no secret
    ],
)
def test_a_private_config_file_or_one_without_a_key_does_not_warn(text: str, mode: int) -> None:
    write_config(text, mode)
    run = rcm("config", "show")
    assert run.returncode == 0 and run.stderr == "", run.stderr
    assert FILE_KEY not in run.stdout


@pytest.mark.timeout(120)
def test_a_config_file_key_is_redacted_from_debug_logs_and_sessions(
    tmp_path: Path, server: FakeServer
) -> None:
    answer_everything(server)
    write_config(f'[providers.openai]\napi_key = "{FILE_KEY}"\n', 0o600)
    script = write_script(tmp_path / "s.jsonl", [QUESTION])

    run = rcm(
        "replay",
        str(script),
        "--provider",
        "openai",
        "--base-url",
        f"{server.url}/v1",
        env={"RCM_TUI_LOGGING__LEVEL": "debug"},
    )

    assert run.returncode == 0, run.stderr
    assert {r.headers.get("authorization") for r in server.requests} == {f"Bearer {FILE_KEY}"}
    assert '"logger": "openai.' in log_text()
    assert FILE_KEY not in run.stdout + run.stderr
    # The config file itself holds it, of course; nothing else may.
    assert files_containing(tmp_path, FILE_KEY) == [config.default_config_path()]


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


@pytest.mark.timeout(120)
def test_sessions_logs_and_exports_are_private_even_with_umask_0(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.jsonl", [QUESTION, "/export"])

    run = rcm("replay", str(script), "--provider", "offline", umask=0)

    assert run.returncode == 0, run.stderr
    sessions = config.sessions_dir()
    assert mode_of(sessions) == 0o700
    written = [p for p in sessions.iterdir() if not p.name.startswith(".")]
    assert {p.suffix for p in written} == {".json", ".lock"}
    assert {p.name: mode_of(p) for p in written} == {p.name: 0o600 for p in written}
    assert mode_of(config.log_dir()) == 0o700
    logs = list(config.log_dir().iterdir())
    assert logs and all(mode_of(p) == 0o600 for p in logs)
    # An export holds the whole conversation, like the session file it came from.
    (exported,) = config.data_dir().glob("exports/*.md")
    assert QUESTION in exported.read_text("utf-8")
    assert mode_of(exported) == 0o600
    assert mode_of(exported.parent) == 0o700


def log_records() -> list[dict[str, object]]:
    return [json.loads(line) for line in log_text().splitlines()]


@pytest.mark.timeout(120)
def test_conversation_text_reaches_the_log_only_at_debug_level(
    tmp_path: Path, server: FakeServer
) -> None:
    answer_everything(server)
    distinctive = "Quokka-Marmalade-7781 must never be logged at info"
    script = write_script(tmp_path / "s.jsonl", [distinctive, f"Also: {distinctive.lower()}"])
    base = ["replay", str(script), "--provider", "openai", "--base-url", f"{server.url}/v1"]

    run = rcm(*base)

    assert run.returncode == 0, run.stderr
    records = log_records()  # one JSON object per line, or this raises
    assert {"ts", "level", "logger", "msg"} <= set(records[0])
    # The structured steps fell back (the server answers prose): the log has something to say.
    assert any("fell back" in str(r["msg"]) for r in records), records
    assert {r["level"] for r in records} <= {"info", "warning", "error"}
    assert "quokka-marmalade" not in log_text().lower()

    run = rcm(*base, env={"RCM_TUI_LOGGING__LEVEL": "debug"})

    assert run.returncode == 0, run.stderr
    assert any(r["level"] == "debug" for r in log_records())

"""`rcm-tui replay` through the whole pipeline against real servers running SmolLM2-135M:
the openai provider against llama-cpp-python's server and llama.cpp's llama-server, the
anthropic provider against llama-server's Messages API. The API key is in the environment, as
a user would set it, and must reach no file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import FAKE_API_KEY, ServerProcess, files_containing

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
FILE_UPLOAD = ROOT.parent / "shared" / "scenarios" / "file-upload.jsonl"
# The first four user turns, with no scripted replies: the model answers every one.
FALLBACK_TURNS = [
    "I need help creating a Python function that handles file uploads.",
    "Flask. Store them on local disk under /srv/uploads.",
    "Actually, it should also validate file types for security — only PNG, JPEG and PDF.",
    "Can you add error handling for large files too? Reject anything over 20 MB.",
]


def four_user_turns(tmp_path: Path) -> Path:
    if FILE_UPLOAD.is_file():
        lines = FILE_UPLOAD.read_text(encoding="utf-8").splitlines()[:4]
        turns = [json.loads(line)["user"] for line in lines]
    else:
        turns = FALLBACK_TURNS
    script = tmp_path / "four.jsonl"
    script.write_text("\n".join(json.dumps({"user": t}) for t in turns) + "\n", encoding="utf-8")
    return script


def replay(script: Path, provider: str, base_url: str, key_var: str, **env_extra: str) -> dict:
    env = {**os.environ, key_var: FAKE_API_KEY, **env_extra}
    proc = subprocess.run(
        [sys.executable, "-m", "rcm_tui", "replay", str(script), "--provider", provider,
         "--base-url", base_url, "--model", "smollm2", "--json"],
        capture_output=True, text=True, env=env, timeout=420,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert FAKE_API_KEY not in proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def assert_four_real_replies(doc: dict) -> None:
    replies = [m["content"] for m in doc["messages"] if m["role"] == "assistant"]
    assert len(replies) == 4
    assert all(len(r.split()) >= 5 for r in replies), replies
    assert len(doc["quality"]) == 4
    generations = [c for c in doc["calls"] if c["purpose"] == "generation"]
    assert len(generations) >= 4 and all(c["completion_tokens"] > 0 for c in generations)


def assert_key_nowhere(home: Path) -> None:
    assert files_containing(home, FAKE_API_KEY) == []


def test_replay_with_openai_against_a_real_server(
    openai_server: ServerProcess, tmp_path: Path, isolated_env: Path
) -> None:
    # llama-cpp-python's server serves one request at a time and interrupts a running stream
    # for a new one: the documented setting keeps the analysis from cutting the reply off.
    serial = {"RCM_TUI_PROVIDERS__OPENAI__PARALLEL_CALLS": "false"}
    extra = serial if openai_server.kind == "llama_cpp.server" else {}
    doc = replay(four_user_turns(tmp_path), "openai", f"{openai_server.root_url}/v1",
                 "OPENAI_API_KEY", **extra)
    assert doc["provider"]["name"] == "openai"
    assert_four_real_replies(doc)
    assert_key_nowhere(isolated_env)


def test_replay_with_anthropic_against_llama_server(
    llama_server: ServerProcess, tmp_path: Path, isolated_env: Path
) -> None:
    doc = replay(four_user_turns(tmp_path), "anthropic", llama_server.root_url,
                 "ANTHROPIC_API_KEY")
    assert doc["provider"]["name"] == "anthropic"
    assert_four_real_replies(doc)
    assert_key_nowhere(isolated_env)

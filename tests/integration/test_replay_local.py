"""`rcm-tui replay` through the whole pipeline on the embedded SmolLM2-135M, in-process.

Two runs of the same four user turns of file-upload.jsonl: the default ("auto" picks the lean
profile for a 135M model, and the as-sent ledger layout for a one-call backend) and
`profile = "full"`, where the tiny model's analysis and judge answers are exercised and fall
back to the heuristics when unusable. Both run on the engine "auto" picks: xllamacpp after the
test command, llama-cpp-python where it is installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rcm_tui.core.prompts import CHECKLIST_HEADER
from rcm_tui.core.structured import extract_json

from .test_replay_servers import assert_four_real_replies, four_user_turns

pytestmark = pytest.mark.integration


def replay_local(script: Path, **env_extra: str) -> dict[str, Any]:
    env = {**os.environ, "RCM_TUI_PROVIDERS__LOCAL__N_THREADS": "1", **env_extra}
    proc = subprocess.run(
        [sys.executable, "-m", "rcm_tui", "replay", str(script), "--provider", "local", "--json"],
        capture_output=True, text=True, env=env, timeout=420,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_lean_replay_extends_the_kv_cache_every_turn(tmp_path: Path, isolated_env: Path) -> None:
    doc = replay_local(four_user_turns(tmp_path))
    assert_four_real_replies(doc)
    assert {c["purpose"] for c in doc["calls"]} <= {"generation", "refinement"}
    assert all(q["judge"] == "heuristic" for q in doc["quality"])
    users = [m for m in doc["messages"] if m["role"] == "user"]
    # A small model gets no bracketed block: at most a plain list of the needs not met yet.
    sent = [u["ledger_sent"] for u in users if u.get("ledger_sent")]
    assert all(block.startswith(CHECKLIST_HEADER) for block in sent), sent
    firsts = [c for c in doc["calls"] if c["purpose"] == "generation" and c["attempt"] == 1]
    # Every later prompt extends the one before it: the model re-reads mostly the new tail.
    # Not turn by turn: a reply re-tokenized from its text can differ from the tokens the model
    # generated (here about 50 tokens into a reply with code), and a turn that showed an
    # earlier attempt than its last leaves the last one's text in the cache.
    later = firsts[1:]
    assert sum(c["cached_tokens"] for c in later) > sum(c["prompt_tokens"] for c in later) // 2


def test_full_profile_exercises_the_tiny_models_analysis_and_judge(
    tmp_path: Path, isolated_env: Path
) -> None:
    doc = replay_local(four_user_turns(tmp_path), RCM_TUI_PROFILE="full")
    assert_four_real_replies(doc)
    structured = [c for c in doc["calls"] if c["purpose"] in ("analysis", "judge")]
    assert {c["purpose"] for c in structured} == {"analysis", "judge"}
    # The 135M model's structured answers are validated: one the pipeline used holds a JSON
    # object; an unusable one is retried, then falls back to the heuristics, counted. Whether
    # any falls back depends on the engine: on llama-cpp-python some did; on xllamacpp, whose
    # JSON grammar allows no indentation, every answer parsed in the runs measured.
    for call in structured:
        assert call["fallback"] or call["error"] or extract_json(call["response"])
    fell_back = [c for c in doc["calls"] if c["fallback"]]
    assert doc["metrics"]["fallbacks"] >= len(fell_back)

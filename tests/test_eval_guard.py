"""`rcm-tui eval-guard FILE`: the guard measured with the rejections given and end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rcm_tui.cli import main

ITEMS = [
    {  # proposes a member of the rejected category; the ledger can see the rejection
        "id": "p1",
        "conversation": ["Breakfast ideas?", "No pancakes, please — I'm sick of them.",
                         "Something quick for Saturday?"],
        "rejected": [{"option": "pancakes"}],
        "reply": "1. **Buttermilk pancakes** with berries.\n2. Egg muffins.",
        "proposes": ["pancakes"], "kind": "readvocates", "how": "variant",
    },
    {  # mentions it only to exclude it
        "id": "m1",
        "conversation": ["Breakfast ideas?", "No pancakes, please — I'm sick of them.",
                         "Something quick for Saturday?"],
        "rejected": [{"option": "pancakes"}],
        "reply": "Since you're sick of pancakes, try egg muffins or overnight oats.",
        "proposes": [], "kind": "mention_only", "how": "exclusion_mention",
    },
    {  # proposes, but nothing in the conversation says so to the analyser
        "id": "p2",
        "conversation": ["How do I get to the museum from the hotel?"],
        "rejected": ["taxis"],
        "reply": "| Option | Time |\n|---|---|\n| **A quick cab** | 15 min |",
        "proposes": True, "kind": "readvocates", "how": "member",
    },
    {  # 清洁的回答 (clean, Chinese)
        "id": "c1",
        "conversation": ["不要打车。", "怎么去机场？"],
        "rejected": ["打车"],
        "reply": "坐地铁2号线到终点站，大约40分钟。",
        "proposes": [], "kind": "clean", "how": "none",
    },
]


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "guard.jsonl"
    path.write_text("\n".join(json.dumps(i, ensure_ascii=False) for i in ITEMS) + "\n")
    return path


def test_eval_guard_reports_recall_precision_and_mentions_both_ways(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval-guard", str(data), "--end-to-end", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    given, e2e = result["given"], result["end_to_end"]
    assert given["total"]["recall"] == 1.0 and given["total"]["precision"] == 1.0
    assert given["total"]["mention_only"] == 1 and given["total"]["mention_only_flagged"] == 0
    assert given["by_how"]["member"]["recall"] == 1.0
    assert given["by_lang"]["zh"]["items"] == 1 and given["by_lang"]["en"]["items"] == 3
    # End to end the ledger comes from the conversation: p2's rejection was never said.
    assert e2e["total"]["recall"] == 0.5 and e2e["total"]["missed"] == ["p2"]
    assert e2e["total"]["mention_only_flagged"] == 0


def test_eval_guard_prints_a_table_and_rejects_a_bad_line(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["eval-guard", str(data)]) == 0
    out = capsys.readouterr().out
    assert "rejections given:" in out and "how=member" in out and "end to end" not in out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"reply": "x"}\n')
    assert main(["eval-guard", str(bad)]) == 1
    assert "line 1: needs at least 'reply' and 'proposes'" in capsys.readouterr().err

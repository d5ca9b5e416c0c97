"""The development corpus (corpus/) must stay well-formed: every file parses, every family is
covered in both splits, and no user sentence is shared between dev and heldout."""
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def test_corpus_check_passes() -> None:
    proc = subprocess.run([sys.executable, str(CORPUS / "check.py")], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert "PROBLEM" not in proc.stdout


def test_corpus_has_both_splits_with_chinese() -> None:
    for split in ("dev", "heldout"):
        scripts = list((CORPUS / "ledger" / split).glob("*.jsonl"))
        assert len(scripts) >= 40
        chinese = [s for s in scripts if s.stem.startswith(("zh-", "mixed-"))]
        assert len(chinese) / len(scripts) >= 0.25

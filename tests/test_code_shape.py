"""The package's shape (issue 11): no module past 500 lines, no function past 60, so each stays
readable whole: lines counted per file, functions measured with ast, over all of rcm_tui/."""

from __future__ import annotations

import ast
from pathlib import Path

import rcm_tui

PACKAGE = Path(rcm_tui.__file__).parent
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60


def _modules() -> list[tuple[str, str]]:
    return [
        (path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
    ]


def test_no_module_is_longer_than_500_lines() -> None:
    too_long = {name for name, source in _modules() if len(source.splitlines()) > MAX_MODULE_LINES}
    assert too_long == set()


def test_no_function_is_longer_than_60_lines() -> None:
    too_long = []
    for name, source in _modules():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{name}:{node.name} ({length} lines)")
    assert too_long == []

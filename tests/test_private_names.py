"""A module's underscore names are its own: what another module needs is a public name of the
module that defines it (issue 11: the heuristics were split by file, not by interface)."""

from __future__ import annotations

import ast
from pathlib import Path

import rcm_tui

PACKAGE = Path(rcm_tui.__file__).parent


def private_imports(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                found += [
                    f"{path.relative_to(root)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    return found


def test_no_module_imports_another_modules_private_name() -> None:
    assert private_imports(PACKAGE) == []

"""Data that ships inside the package: the bench's conversation and the default scenarios.

An installed `rcm-tui bench` or `rcm-tui eval` finds them here, without the repository's
`shared/` folder beside it. `data/scenarios/` is a copy of `shared/scenarios/`.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from .replay import parse_script

_DATA = files("rcm_tui.eval") / "data"
# The user turns `rcm-tui bench --provider local` replays when no --scenario is given.
DEFAULT_SCENARIO = "db-selection.jsonl"


def bench_conversation() -> tuple[tuple[str, str], ...]:
    """A realistic design conversation with scripted replies. Turn 5 rejects an option and the
    reply at turn 13 proposes it again, as models do, so the layer's refinement is part of the
    cost the bench measures."""
    source = _DATA / "bench-conversation.jsonl"
    lines = parse_script(source.read_text(encoding="utf-8"), source.name)
    return tuple((line.user, line.assistant or "") for line in lines)


def scenarios_dir() -> Path:
    """The folder of the packaged scenarios (NAME.jsonl and NAME.expect.json)."""
    folder = _DATA / "scenarios"
    # A package installed as files (what pip does) gives a path; a zipped one does not.
    if not isinstance(folder, Path):
        raise FileNotFoundError("the packaged scenarios are not files on disk; name a folder")
    return folder

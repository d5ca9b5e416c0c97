"""The requirements table lays out a long ledger once (issue 15: resuming 1,000 requirements
wrapped every text seven times while the app started), with the heights rich gives."""

from __future__ import annotations

import random

from rich.console import Console
from rich.text import Text

from rcm_tui.ui.widgets.requirements import wrapped_lines

WORDS = ("Kafka", "part", "of", "the", "mobile", "platform", "must", "handle", "101",
         "requests", "per", "second", "averyveryverylongidentifierwithoutspaces", "数据", "保留7天")


def test_row_heights_are_what_rich_wraps() -> None:
    rng = random.Random(15)
    console = Console(width=200)
    for _ in range(500):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 30)))
        width = rng.randint(10, 60)
        expected = max(1, len(Text(text, overflow="fold").wrap(console, width)))
        assert max(1, wrapped_lines(text, width)) == expected, (text, width)

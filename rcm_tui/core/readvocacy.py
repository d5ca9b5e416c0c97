"""Who decides re-advocacy: the judge's per-option verdict, else the heuristic guard.

The heuristic guard sees names, their variants and the members of a known category; a capable
judge also sees what no list holds (a "15-minute ride" offered to someone who hates taxis).
So when the judge answered for a rejected option, its answer stands, in both directions: it
adds a flag the heuristics missed and clears one they raised on a mere mention. An option the
judge did not answer for (a truncated or partial answer) keeps the heuristic call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from .heuristics import same_option


class OptionCheck(Protocol):
    """One judge answer: does the reply propose this rejected option?"""

    option: str
    proposes: bool


def judged_readvocacy(
    heuristic_flags: Sequence[str], rejected: Sequence[str], checks: Iterable[OptionCheck]
) -> list[str]:
    """The rejected options the reply proposes, the judge's answer winning where it gave one.

    A check is grounded by name: one that names no rejected option is ignored, so a judge
    cannot flag an option the user never rejected.
    """
    answered: dict[str, bool] = {}
    for check in checks:
        option = next((o for o in rejected if same_option(o, check.option)), None)
        if option is not None and option not in answered:
            answered[option] = bool(check.proposes)
    # The heuristic flags are items of `rejected` itself (find_readvocacy returns them so).
    return [o for o in rejected if answered.get(o, o in heuristic_flags)]

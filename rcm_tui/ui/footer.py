"""Which bindings the footer shows: when they do not all fit, the least used leave it (they stay
bound, and in the help and the palette) instead of being cut mid-word."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from textual.binding import ActiveBinding, Binding

from ..actions import FOOTER_DROP


def fitted(
    bindings: dict[str, ActiveBinding], room: int, key_display: Callable[[Binding], str]
) -> dict[str, ActiveBinding]:
    """`bindings` with entries hidden, in actions.FOOTER_DROP order, until `room` cells hold
    the rest."""

    def cells() -> int:
        return sum(
            len(key_display(b.binding)) + len(b.binding.description) + 2
            for b in bindings.values()
            if b.binding.show
        )

    for name in FOOTER_DROP:
        if cells() <= room:
            break
        for key, active in list(bindings.items()):
            if active.binding.id == name:
                bindings[key] = active._replace(binding=replace(active.binding, show=False))
    return bindings

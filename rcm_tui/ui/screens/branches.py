"""Order the sessions browser so that each branch sits right under its parent."""

from __future__ import annotations

from ...store import SessionEntry


def branches_under_parents(
    entries: list[SessionEntry],
) -> tuple[list[SessionEntry], dict[str, int]]:
    """Entries reordered (parents keep their order; their branches follow them, newest
    first), and the depth of each branch whose parent is listed (1 = a fork of a root).
    A branch whose parent is not listed (deleted, filtered out) stays where it was."""
    listed = {e.id for e in entries}
    children: dict[str, list[SessionEntry]] = {}
    roots: list[SessionEntry] = []
    for entry in entries:
        parent = entry.parent[0] if entry.parent else None
        if parent is not None and parent in listed and parent != entry.id:
            children.setdefault(parent, []).append(entry)
        else:
            roots.append(entry)
    ordered: list[SessionEntry] = []
    depth: dict[str, int] = {}
    seen: set[str] = set()

    def visit(entry: SessionEntry, level: int) -> None:
        if entry.id in seen:  # a hand-edited file could make a cycle
            return
        seen.add(entry.id)
        ordered.append(entry)
        if level:
            depth[entry.id] = level
        for child in children.get(entry.id, []):
            visit(child, level + 1)

    for root in roots:
        visit(root, 0)
    # Members of a cycle have no root to be reached from: list them rather than lose them.
    ordered += [e for e in entries if e.id not in seen]
    return ordered, depth

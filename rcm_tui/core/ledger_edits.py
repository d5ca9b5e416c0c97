"""The ledger edited by hand: a requirement's text, a requirement added, two merged, a rejected
option renamed, given another reason or reopened.

Each change is recorded in `session.ledger_edits` with `origin: user` and marks the item, so
the analysers of later turns leave it alone (core/ledger.py asks `follow_user_edits` and
`reopened_by_user`): a text the user wrote is never replaced, a requirement merged away never
comes back (what matches it goes to the one it was merged into), a status the user set is
never flipped, and an option the user reopened is not rejected again by the model's markers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .heuristics import requirement_similarity, same_option
from .ledger import MERGE_THRESHOLD, find_requirement, next_id
from .models import LedgerEdit, RejectedOption, Requirement, Session
from .requirement_writes import Position, holds, position, positions_of, written_since
from .tracked_lists import Seen, kept_prefix, seen

USER_CONFIDENCE = 1.0


def _clean(text: str, what: str) -> str:
    text = " ".join(text.split())
    if not text:
        raise ValueError(f"the {what} is empty")
    return text


def requirement(session: Session, ref: str) -> Requirement:
    """The requirement `ref` names: its id ("R3", "r3") or its number ("3")."""
    ref = ref.strip()
    return find_requirement(session, f"R{ref}" if ref.isdigit() else ref)


def add_requirement(session: Session, text: str, *, turn: int) -> Requirement:
    text = _clean(text, "requirement")
    same = next((r for r in session.live_requirements() if r.text.casefold() == text.casefold()),
                None)
    if same is not None:
        raise ValueError(f"{same.id} already says that")
    req = Requirement(
        id=next_id("R", [r.id for r in session.requirements]),
        text=text,
        source_turn=turn,
        confidence=USER_CONFIDENCE,
        origin="user",
        text_set_by="user",
    )
    session.requirements.append(req)
    session.ledger_edits.append(LedgerEdit(turn=turn, action="add", target=req.id, after=text))
    return req


def edit_requirement(session: Session, ref: str, text: str, *, turn: int) -> Requirement:
    req = requirement(session, ref)
    if req.merged_into:
        raise ValueError(f"{req.id} was merged into {req.merged_into}; edit that one")
    text = _clean(text, "requirement")
    if text == req.text:
        return req
    before = req.text
    req.replaced_texts.append(before)
    req.text = text
    req.text_set_by = "user"
    session.ledger_edits.append(
        LedgerEdit(turn=turn, action="edit", target=req.id, before=before, after=text)
    )
    return req


def merge_requirements(
    session: Session, keep_ref: str, merged_ref: str, text: str | None = None, *, turn: int
) -> Requirement:
    """Merge `merged_ref` into `keep_ref`: the kept one gets `text` (default: its own), the
    other is dropped and points at it, and both its texts stay matched to the kept one."""
    keep, merged = requirement(session, keep_ref), requirement(session, merged_ref)
    if keep.id == merged.id:
        raise ValueError("name two different requirements to merge")
    for req in (keep, merged):
        if req.merged_into:
            raise ValueError(f"{req.id} was already merged into {req.merged_into}")
    before = keep.text
    new_text = _clean(text, "merged text") if text is not None else keep.text
    for old in (keep.text, merged.text, *merged.replaced_texts):
        if old != new_text and old not in keep.replaced_texts:
            keep.replaced_texts.append(old)
    keep.text = new_text
    keep.text_set_by = "user"
    keep.confidence = max(keep.confidence, merged.confidence)
    if keep.status == "dropped":
        keep.status = "pending"
        keep.updated_turn = turn
    merged.status = "dropped"
    merged.status_set_by = "user"
    merged.merged_into = keep.id
    merged.updated_turn = turn
    session.ledger_edits.append(LedgerEdit(
        turn=turn, action="merge", target=keep.id, merged=merged.id, before=before,
        after=new_text,
    ))
    return keep


def follow_user_edits(
    session: Session, found: Requirement | None, text: str
) -> Requirement | None:
    """The requirement an analyser's finding is about, once the user's edits are known: a
    merged-away one stands for the one it was merged into, and a text the user edited away
    or merged in still belongs to the requirement that now holds it."""
    if found is None:
        # Few requirements stand for other texts: find those first.
        found = next(
            (r for r in _standing(session.requirements)
             if any(requirement_similarity(text, old) >= MERGE_THRESHOLD
                    for old in r.replaced_texts)),
            None,
        )
    seen: set[str] = set()
    while found is not None and found.merged_into and found.id not in seen:
        seen.add(found.id)
        found = next((r for r in session.requirements if r.id == found.merged_into), None)
    return found


@dataclass
class _Standing:
    """The requirements that stand for other texts (`replaced_texts` not empty), followed as
    the ledger grows: a pass over every requirement to find them cost ~0.7 ms a turn at 1,000.
    Their lists are assigned (logged by `Requirement.__setattr__`) or changed in place (a
    NotedList logs itself), so only the requirements written to or added are read again."""

    items: list[Requirement] = field(default_factory=list)
    # id of a requirement or of its list -> its position (requirement_writes.positions_of)
    where: dict[int, int] = field(default_factory=dict)
    positions: set[int] = field(default_factory=set)
    writes: Position = field(default_factory=position)
    seen: Seen | None = None

    def note(self, at: int) -> None:
        req = self.items[at]
        positions_of([req], _STANDS_FOR, at, self.where)
        if req.replaced_texts:
            self.positions.add(at)
        else:
            self.positions.discard(at)


_STANDS_FOR = ("replaced_texts",)
_held = _Standing()


def _standing(requirements: list[Requirement]) -> list[Requirement]:
    """The requirements of the list whose replaced_texts are not empty, in ledger order."""
    global _held
    writes = position()  # first: a write while they are read is seen next time
    now = seen(requirements)
    written = written_since(_held.writes)
    if written is None or not kept_prefix(requirements, _held.seen, _held.items):
        _held, written = _Standing(), []
    for item in written:
        at = _held.where.get(id(item))
        if at is not None and holds(_held.items[at], item, _STANDS_FOR):
            _held.note(at)
    for at in range(len(_held.items), len(requirements)):
        _held.items.append(requirements[at])
        _held.note(at)
    _held.writes, _held.seen = writes, now
    return [_held.items[at] for at in sorted(_held.positions)]


# -- rejected options ----------------------------------------------------------------------------


def rejection(session: Session, ref: str) -> RejectedOption:
    """The rejected option `ref` names: its id ("X2") or its exact name."""
    ref = ref.strip()
    found = next((r for r in session.rejected if r.id.lower() == ref.lower()), None)
    found = found or next((r for r in reversed(session.rejected)
                           if r.option.casefold() == ref.casefold()), None)
    if found is None:
        known = ", ".join(f"{r.id} {r.option}" for r in session.rejected) or "none yet"
        raise KeyError(f"no rejected option {ref!r} (known: {known})")
    return found


def edit_rejection(
    session: Session, ref: str, option: str, reason: str, *, turn: int
) -> RejectedOption:
    entry = rejection(session, ref)
    option = _clean(option, "option name")
    reason = " ".join(reason.split())
    clash = next((r for r in session.active_rejections()
                  if r is not entry and r.option.casefold() == option.casefold()), None)
    if clash is not None:
        raise ValueError(f"{clash.option} is rejected already ({clash.id})")
    if (option, reason) == (entry.option, entry.reason):
        return entry
    session.ledger_edits.append(LedgerEdit(
        turn=turn, action="edit_rejected", target=entry.id, before=entry.option,
        after=option, reason_before=entry.reason, reason_after=reason,
    ))
    entry.option, entry.reason = option, reason
    entry.edited_by = "user"
    return entry


def unreject(session: Session, ref: str, *, turn: int) -> RejectedOption:
    entry = rejection(session, ref)
    if not entry.active:
        raise ValueError(f"{entry.option} was reopened already (turn {entry.reopened_turn})")
    entry.reopened_turn = turn
    entry.reopened_by = "user"
    session.ledger_edits.append(
        LedgerEdit(turn=turn, action="unreject", target=entry.id, before=entry.option)
    )
    return entry


def reopened_by_user(session: Session, option: str) -> RejectedOption | None:
    """The user's own reopening of `option`, when the newest entry for it is one."""
    entry = next((r for r in reversed(session.rejected) if same_option(r.option, option)), None)
    return entry if entry is not None and entry.reopened_by == "user" else None


# -- the ledger as of an earlier turn (fork, rewind) ---------------------------------------------


def undo_edits_after(session: Session, turn: int) -> None:
    """Take back, newest first, the edits made after `turn`, in place: a fork or a rewind to
    that turn starts from the ledger as the user had left it then."""
    later = [e for e in session.ledger_edits if e.turn > turn]
    session.ledger_edits = [e for e in session.ledger_edits if e.turn <= turn]
    for edit in reversed(later):
        _UNDO[edit.action](session, edit)
    kept = {e.target for e in session.ledger_edits}
    for req in session.requirements:
        if req.text_set_by == "user" and req.id not in kept:
            req.text_set_by = None
    for entry in session.rejected:
        if entry.edited_by == "user" and entry.id not in kept:
            entry.edited_by = None


def _drop_last(texts: list[str], text: str) -> None:
    if text in texts:
        del texts[len(texts) - 1 - texts[::-1].index(text)]


def _undo_add(session: Session, edit: LedgerEdit) -> None:
    session.requirements = [r for r in session.requirements if r.id != edit.target]


def _undo_edit(session: Session, edit: LedgerEdit) -> None:
    req = find_requirement(session, edit.target)
    req.text = edit.before
    _drop_last(req.replaced_texts, edit.before)


def _undo_merge(session: Session, edit: LedgerEdit) -> None:
    keep = find_requirement(session, edit.target)
    merged = find_requirement(session, edit.merged or "")
    for text in (edit.before, merged.text, *merged.replaced_texts):
        _drop_last(keep.replaced_texts, text)
    keep.text = edit.before
    merged.merged_into = None
    merged.status_set_by = None


def _undo_edit_rejected(session: Session, edit: LedgerEdit) -> None:
    entry = rejection(session, edit.target)
    entry.option, entry.reason = edit.before, edit.reason_before or ""


def _undo_unreject(session: Session, edit: LedgerEdit) -> None:
    entry = rejection(session, edit.target)
    entry.reopened_turn = None
    entry.reopened_by = None


_UNDO = {
    "add": _undo_add,
    "edit": _undo_edit,
    "merge": _undo_merge,
    "edit_rejected": _undo_edit_rejected,
    "unreject": _undo_unreject,
}

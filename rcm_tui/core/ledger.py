"""Merging what the analysers found into the session's ledger.

The ledger is the one place where requirements and rejected options live, so every change goes
through here: requirements are merged and de-duplicated (never replaced wholesale, never
duplicated), rejections keep their history when reopened, and every change is described in a
short human-readable line the UI and the inspector show.
"""

from __future__ import annotations

import itertools
from typing import cast, get_args

from .analysis import Analysis
from .conclusion import close_decided_questions
from .heuristics import (
    find_readvocacy,
    more_specific,
    normalise_option,
    option_matches,
    requirement_similarity,
    restates,
    same_option,
    text_similarity,
)
from .ledger_index import index_of, requirement_items
from .ledger_snapshot import LedgerSnapshot, RejectedItem
from .models import (
    Origin,
    RejectedOption,
    Requirement,
    RequirementStatus,
    Restatement,
    Session,
)
from .requirement_ids import requirement_ids

# A finding at least this similar to an existing requirement is the same requirement.
MERGE_THRESHOLD = 0.6
FACT_DUPLICATE_THRESHOLD = 0.8
MAX_OPEN_QUESTIONS = 8
RECENT_USER_MESSAGES = 6
_ORIGINS: frozenset[str] = frozenset(get_args(Origin))


def _origin(source: str) -> Origin:
    return cast(Origin, source) if source in _ORIGINS else "heuristic"


def next_id(prefix: str, ids: list[str]) -> str:
    tail = [i[len(prefix) :] for i in ids if i.startswith(prefix)]
    numbers = [int(t) for t in tail if t.isdigit()]
    return f"{prefix}{max(numbers, default=0) + 1}"


# -- rejected options ---------------------------------------------------------------------------


def _active_rejection(session: Session, option: str) -> RejectedOption | None:
    return next((r for r in session.active_rejections() if same_option(r.option, option)), None)


def _rejected_as_category(session: Session, option: str, turn: int) -> RejectedOption | None:
    """'document store' when this turn already rejected MongoDB "so a document store is off
    the table": the category is part of that rejection's reason, not a second option."""
    return next(
        (
            r
            for r in session.active_rejections()
            if r.turn == turn and r.reason and option_matches(option, r.reason)
        ),
        None,
    )


def _drop_requirements_proposing(session: Session, option: str, turn: int) -> list[str]:
    """A requirement to use an option the user now rejects no longer holds."""
    changes: list[str] = []
    for req in session.requirements:
        if req.status_set_by == "user":
            continue  # the user set this status by hand
        if req.status != "dropped" and find_readvocacy(req.text, [option]):
            req.status = "dropped"
            req.updated_turn = turn
            changes.append(f"{req.id} dropped ({option} rejected)")
    return changes


def _reject(
    session: Session,
    option: str,
    reason: str,
    turn: int,
    origin: Origin,
    overwrite_reason: bool,
    category: bool = False,
) -> tuple[RejectedOption, list[str]]:
    from .ledger_edits import reopened_by_user  # it builds on this module

    option, reason = option.strip(), reason.strip()
    existing = _active_rejection(session, option) or _rejected_as_category(session, option, turn)
    if existing is not None:
        changes: list[str] = []
        by_hand = existing.edited_by == "user" and origin != "user"
        if reason and not by_hand and (
            not existing.reason or (overwrite_reason and reason != existing.reason)
        ):
            existing.reason = reason
            changes.append(f"{existing.option}: reason noted")
        return existing, changes
    # An option the user reopened by hand is rejected again only by the user's own words (the
    # reading of a new message) or by hand, never by a model's marker or summary.
    reopened = reopened_by_user(session, option)
    if reopened is not None and origin not in ("user", "heuristic"):
        return reopened, []
    entry = RejectedOption(
        id=next_id("X", [r.id for r in session.rejected]),
        option=option,
        reason=reason,
        turn=turn,
        origin=origin,
        category=category,
    )
    session.rejected.append(entry)
    return entry, [f"rejected {option}", *_drop_requirements_proposing(session, option, turn)]


def reject_option(
    session: Session, option: str, reason: str, turn: int, origin: Origin = "user"
) -> RejectedOption:
    """Reject an option by hand (`/reject X: reason`); an explicit reason replaces the old one."""
    if not option.strip():
        raise ValueError("name the option to reject, e.g. /reject Redis: we run PostgreSQL")
    entry, _ = _reject(session, option, reason, turn, origin, overwrite_reason=origin == "user")
    return entry


def rejections_named(
    session: Session, name: str
) -> tuple[RejectedOption | None, list[RejectedOption]]:
    """For a name the user typed: the active rejection it names exactly (same key), else
    the ones it names only in part ("redis" for "Redis Streams"), which a command must not
    act on without asking."""
    key = normalise_option(name).replace(" ", "")
    active = session.active_rejections()
    exact = next((r for r in active if normalise_option(r.option).replace(" ", "") == key), None)
    if exact is not None or not key:
        return exact, []
    partial = [r for r in active if same_option(r.option, name) or option_matches(name, r.option)]
    return None, partial


def reopen_option(session: Session, option: str, turn: int) -> RejectedOption | None:
    """Take an option off the active rejected list (`/unreject X`); its entry stays as history."""
    entry = _active_rejection(session, option)
    if entry is not None:
        entry.reopened_turn = turn
    return entry


# -- requirements -------------------------------------------------------------------------------


def find_requirement(session: Session, req_id: str) -> Requirement:
    found = requirement_ids(session.requirements).positions({req_id.strip().lower()})
    if found:
        return session.requirements[found[0]]
    known = ", ".join(r.id for r in session.requirements) or "none yet"
    raise KeyError(f"no requirement {req_id!r} (known: {known})")


def set_requirement_status(
    session: Session, req_id: str, status: RequirementStatus, turn: int
) -> Requirement:
    """Change a requirement's status by hand; KeyError names the known ids."""
    req = find_requirement(session, req_id)
    req.status = status
    req.updated_turn = turn
    req.status_set_by = "user"
    return req


def mark_addressed(session: Session, req_ids: list[str], turn: int) -> list[str]:
    """Pending requirements the reply addressed become `addressed` (confirmed ones stay, and
    so does a status the user set by hand: "pending" from the user means not met yet)."""
    changes: list[str] = []
    wanted = {i.strip().lower() for i in req_ids}
    reqs = session.requirements
    for req in (reqs[at] for at in requirement_ids(reqs).positions(wanted)):
        if req.status_set_by == "user":
            continue
        if req.status == "pending":
            req.status = "addressed"
            req.updated_turn = turn
            changes.append(f"{req.id} addressed")
    return changes


def _similar_requirement(session: Session, text: str) -> Requirement | None:
    best: tuple[float, Requirement] | None = None
    reqs = session.requirements
    positions = index_of(reqs).candidates(text)
    for req in reqs if positions is None else (reqs[p] for p in positions):
        score = requirement_similarity(text, req.text)
        if score >= MERGE_THRESHOLD and (best is None or score > best[0]):
            best = (score, req)
    return best[1] if best else None


def _merge_requirement(
    session: Session, text: str, confidence: float, turn: int, origin: Origin
) -> list[str]:
    text = " ".join(text.split())
    if not text:
        return []
    active = [r.option for r in session.active_rejections()]
    if active and find_readvocacy(text, active):
        return []  # "use MongoDB" after MongoDB was rejected is not a requirement
    from .ledger_edits import follow_user_edits  # it builds on this module

    existing = follow_user_edits(session, _similar_requirement(session, text), text)
    if existing is None:
        req = Requirement(
            id=requirement_ids(session.requirements).next_id(),
            text=text,
            source_turn=turn,
            confidence=round(min(max(confidence, 0.0), 1.0), 2),
            origin=origin,
        )
        session.requirements.append(req)
        return [f"+{req.id} {req.text}"]
    return _update_requirement(session, existing, text, confidence, turn)


def _update_requirement(
    session: Session, req: Requirement, text: str, confidence: float, turn: int
) -> list[str]:
    changes: list[str] = []
    first_touch_this_turn = req.source_turn < turn and req.updated_turn != turn
    if first_touch_this_turn and restates(text, req.text) and turn not in req.restated_turns:
        # The user had to say it again: forgetting, seen from the user's side.
        req.restated_turns.append(turn)
        session.metrics.restated_requirements.append(
            Restatement(turn=turn, requirement_id=req.id, text=text)
        )
        confidence += 0.1
        changes.append(f"{req.id} restated")
        by_hand = req.status_set_by == "user"  # a status the user set stays
        if req.status == "dropped" and not by_hand:
            req.status = "pending"
            changes.append(f"{req.id} reinstated")
        elif req.status == "addressed" and not by_hand:
            # Said again after it was addressed: the reply evidently lost it.
            req.status = "pending"
            changes.append(f"{req.id} pending again")
    elif text != req.text and req.text_set_by != "user" and more_specific(text, req.text):
        req.text = text
        changes.append(f"{req.id} updated: {text}")
    new_confidence = round(min(max(req.confidence, confidence), 1.0), 2)
    if changes or new_confidence != req.confidence:
        req.confidence = new_confidence
        req.updated_turn = turn
    return changes


def _set_status(
    session: Session, ids: list[str], status: RequirementStatus, turn: int
) -> list[str]:
    changes: list[str] = []
    for req_id in ids:
        try:
            req = find_requirement(session, req_id)
        except KeyError:
            continue  # an analyser may name an id that no longer exists; nothing to change
        if req.status_set_by == "user":
            continue  # the user set this status by hand
        if req.status != status:
            req.status = status
            req.updated_turn = turn
            changes.append(f"{req.id} {status}")
    return changes


# -- memory -------------------------------------------------------------------------------------


def _merge_facts(session: Session, facts: list[str]) -> list[str]:
    changes: list[str] = []
    for fact in facts:
        fact = " ".join(fact.split())
        known = session.memory.facts
        if not fact or any(
            requirement_similarity(fact, f) >= FACT_DUPLICATE_THRESHOLD for f in known
        ):
            continue
        known.append(fact)
        changes.append(f"fact: {fact}")
    return changes


def _merge_questions(session: Session, questions: list[str]) -> None:
    open_questions = session.memory.open_questions
    for question in questions:
        question = " ".join(question.split())
        if not question:
            continue
        for old in [q for q in open_questions if text_similarity(q, question) >= 0.8]:
            open_questions.remove(old)  # asked again: move it to the end, keep one copy
        open_questions.append(question)
    del open_questions[:-MAX_OPEN_QUESTIONS]


# -- the merge ----------------------------------------------------------------------------------


def apply_analysis(session: Session, analysis: Analysis, turn: int) -> list[str]:
    """Merge one analysis into the session in place; return what changed, one line each.

    Order matters: reopening before rejecting (so "reconsider X" then "no, drop X" in one
    message ends rejected), rejections before requirements (so a requirement to use a
    just-rejected option is never added).
    """
    origin = _origin(analysis.source)
    changes: list[str] = []
    for option in analysis.reopened:
        if reopen_option(session, option, turn) is not None:
            changes.append(f"reopened {option}")
    for finding in analysis.rejections:
        if finding.option.strip() and normalise_option(finding.option):
            _, rejected = _reject(
                session,
                finding.option,
                finding.reason,
                turn,
                origin,
                overwrite_reason=False,
                category=finding.category,
            )
            changes.extend(rejected)
    changes.extend(_set_status(session, analysis.dropped_ids, "dropped", turn))
    changes.extend(
        _set_status(
            session,
            [i for i in analysis.confirmed_ids if i not in analysis.dropped_ids],
            "confirmed",
            turn,
        )
    )
    for req_finding in analysis.requirements:
        changes.extend(
            _merge_requirement(session, req_finding.text, req_finding.confidence, turn, origin)
        )
    if analysis.pivot and turn not in session.pivots:
        session.pivots.append(turn)
        changes.append("pivot")
    changes.extend(_merge_facts(session, analysis.facts))
    trajectory = analysis.trajectory.strip()
    _merge_questions(session, analysis.questions)
    if trajectory and trajectory != session.memory.trajectory:
        session.memory.trajectory = trajectory
        session.memory.trajectory_turn = turn
        changes.append(f"trajectory: {trajectory}")
        closed = close_decided_questions(session, trajectory)
        if closed:
            changes.append(f"{closed} open question(s) decided")
    session.dialog_state = analysis.dialog_state
    return changes


# Replies before the last one that the analyser reads for options still on the table.
EARLIER_REPLIES = 2


def ledger_snapshot(session: Session) -> LedgerSnapshot:
    """The ledger as it stands, with the last few messages: independent of the session."""
    # From the end: the snapshot needs the last few messages, not a pass over the history.
    recent = itertools.islice((m.content for m in reversed(session.messages) if m.role == "user"),
                              RECENT_USER_MESSAGES)
    users = tuple(recent)[::-1]
    replies = tuple(
        itertools.islice(
            (m.content for m in reversed(session.messages) if m.role == "assistant"),
            EARLIER_REPLIES + 1,
        )
    )[::-1]
    reopenable: list[str] = []
    for entry in session.rejected:
        if not any(same_option(entry.option, o) for o in reopenable):
            reopenable.append(entry.option)
    return LedgerSnapshot(
        requirements=requirement_items(session.requirements),
        rejected=tuple(
            RejectedItem(r.option, r.reason, r.turn, r.origin)
            for r in session.active_rejections()
        ),
        reopenable=tuple(reopenable),
        solidified=session.solidified.text if session.solidified else None,
        facts=tuple(session.memory.facts),
        trajectory=session.memory.trajectory,
        open_questions=tuple(session.memory.open_questions),
        recent_user_messages=users,
        last_assistant_message=replies[-1] if replies else "",
        earlier_assistant_messages=replies[:-1],
    )

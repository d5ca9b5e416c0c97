"""The ledger's per-turn views reuse what did not change (issue 15) and never show a stale
requirement: a snapshot after an edit has the edit, a bounded block after an edit too."""

from __future__ import annotations

import random

import pytest

from rcm_tui.core.context import render_ledger
from rcm_tui.core.ledger import ledger_snapshot, set_requirement_status
from rcm_tui.core.ledger_edits import _standing
from rcm_tui.core.models import Requirement, Session
from rcm_tui.core.requirement_ids import requirement_ids
from rcm_tui.eval.long_session import build_session


def test_a_snapshot_shows_each_change_of_a_requirement() -> None:
    session = build_session(100)
    before = ledger_snapshot(session)
    assert ledger_snapshot(session).requirements is before.requirements  # nothing changed
    set_requirement_status(session, "R7", "dropped", turn=101)
    session.requirements[8].text = "We need the audit part to keep 90 days of logs"
    after = ledger_snapshot(session).requirements
    assert after[6].status == "dropped" and before.requirements[6].status == "addressed"
    assert after[8].text == "We need the audit part to keep 90 days of logs"
    session.requirements.append(Requirement(id="R101", text="Backups daily", source_turn=101))
    assert ledger_snapshot(session).requirements[-1].text == "Backups daily"


def test_the_bounded_block_follows_the_ledger() -> None:
    session = build_session(300)

    def block() -> str:
        return render_ledger(ledger_snapshot(session), status_requested=False,
                             focus="the checkout part", limit=40)

    first = block()
    assert block() == first
    session.requirements[0].origin = "user"  # set by hand: always shown in full
    second = block()
    assert session.requirements[0].text in second and session.requirements[0].text not in first
    session.requirements[0].text = "We need the checkout part to keep 7 days of receipts"
    assert "7 days of receipts" in block()


def test_a_snapshot_follows_replaced_requirements_and_other_sessions() -> None:
    session, other = build_session(50), build_session(60)
    ledger_snapshot(session)
    session.requirements[3] = Requirement(id="R4", text="Replaced in place", source_turn=4)
    assert ledger_snapshot(session).requirements[3].text == "Replaced in place"
    assert len(ledger_snapshot(other).requirements) == 60
    other.requirements[0].status = "confirmed"
    assert ledger_snapshot(session).requirements[0].status == "addressed"
    assert ledger_snapshot(other).requirements[0].status == "confirmed"
    del session.requirements[10:]
    assert [r.id for r in ledger_snapshot(session).requirements] == [f"R{n}" for n in range(1, 11)]


def _changed(rng: random.Random, session: Session, step: int) -> None:
    reqs = session.requirements
    at = rng.randrange(len(reqs))
    match rng.randrange(8):
        case 0 | 1:
            reqs.append(Requirement(id=f"N{step}", text=f"need {step}", source_turn=step))
        case 2 | 3:
            reqs[at].status = rng.choice(("pending", "addressed", "confirmed", "dropped"))
        case 4:
            reqs[at] = Requirement(id=f"S{step}", text=f"swapped {step}", source_turn=step,
                                   status=rng.choice(("pending", "dropped")))
        case 5:
            reqs[at].replaced_texts.append(f"older wording {step}")
        case 6:
            del reqs[at]
        case _:
            reqs.insert(at, Requirement(id=f"I{step}", text=f"inserted {step}", source_turn=step))


@pytest.mark.parametrize("seed", range(4))
def test_the_views_that_follow_the_ledger_match_a_full_pass(seed: int) -> None:
    """The snapshot's live and pending lists (patched where a requirement changed), the ids,
    and the requirements standing for other texts, after random changes, against a scan."""
    rng = random.Random(seed)
    session = build_session(80)
    for step in range(300):
        for _ in range(rng.randint(0, 2)):
            _changed(rng, session, step)
        view = ledger_snapshot(session)
        reqs = session.requirements
        assert [r.id for r in view.live_requirements] == [
            r.id for r in reqs if r.status != "dropped"]
        assert [(r.id, r.status) for r in view.pending] == [
            (r.id, r.status) for r in reqs if r.status == "pending"]
        assert _standing(reqs) == [r for r in reqs if r.replaced_texts]
        assert requirement_ids(reqs).ids == [r.id for r in reqs]

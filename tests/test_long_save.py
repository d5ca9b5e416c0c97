"""A save of a long session costs what the turn changed: pruning the text of a call record 30
turns old writes that record, not every record between it and the turns just played."""

from __future__ import annotations

import random
from pathlib import Path

from rcm_tui import journal
from rcm_tui.core import call_text
from rcm_tui.core.models import SentLedger
from rcm_tui.eval.long_session import build_session
from rcm_tui.store import SessionStore, encode_document

from .test_journal import add_turn

PROMPT = "x" * 2000


def test_pruning_an_old_record_journals_that_record_only(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "sessions")
    session = build_session(60)
    for record in session.calls:
        if record.turn >= 30:  # the older ones were pruned at earlier turns
            record.prompt = [{"role": "user", "content": f"{PROMPT} {record.turn}"}]
            record.response = "a reply"
    store.save(session)
    journal_file = journal.journal_path(store.path_for(session.id))
    add_turn(session, 61)
    call_text.prune(session, 61 - 30)
    store.save(session)
    # Turns 30 and 31 lose their text; turns 32–60 (18 of them before the journal's window
    # of changes in place) are unchanged and stay out of the line, ~2 KB of prompt each.
    assert [r.turn for r in session.calls if r.turn <= 31 and r.response] == []
    assert journal_file.stat().st_size < 8_000
    assert encode_document(SessionStore(store.root).load(session.id)) == encode_document(session)


def test_releasing_blocks_empties_what_a_full_pass_would(tmp_path: Path) -> None:
    """call_text.release finds the entries still holding text by following the list (appended
    with a text, emptied by replacement): after random blocks kept and released, the entries
    emptied are those a pass over every entry empties."""
    rng = random.Random(5)
    session, plain = build_session(10), build_session(10)
    for step in range(400):
        ref = f"b{rng.randrange(60)}"
        if rng.random() < 0.6:
            for target in (session, plain):
                target.sent_ledgers.append(SentLedger(id=ref, text=f"block {ref}", turn=step))
        else:
            call_text.release(session, {ref})
            entries = plain.sent_ledgers
            for index, entry in enumerate(entries):
                if entry.text and entry.id == ref:
                    entries[index] = SentLedger(id=entry.id, text="", turn=entry.turn)
        if step % 13 == 0 and plain.sent_ledgers:  # an entry replaced by one with a text
            at = rng.randrange(len(plain.sent_ledgers))
            for target in (session, plain):
                target.sent_ledgers[at] = SentLedger(id=ref, text=f"again {ref}", turn=step)
        if step % 97 == 0:  # another list now and then (a rewind, a branch): read again
            session.sent_ledgers = list(session.sent_ledgers)
        assert [(e.id, e.text) for e in session.sent_ledgers] == [
            (e.id, e.text) for e in plain.sent_ledgers]

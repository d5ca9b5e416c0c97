"""What a call record keeps of its text: the ledger block it sent by reference, not by copy,
and its prompt and response only for the last CALL_TEXT_TURNS turns.

Every call of a turn (generation, analysis, judge, refinement) sends the same ledger block,
and with a steady ledger every turn sends the same one again. Copied into each record's
prompt, it was stored ~5 times a turn: with 1,000 requirements ~90 KB each, 6.3 MB of a
10 MB document and most of each turn's journal line. Now a block is stored once in
`Session.sent_ledgers` and a record's prompt message names it: {"role": "user", "content":
<the text after the block>, "ledger": <id>}; `as_sent` puts it back for the inspector,
byte for byte what the model received. Records written before this have no "ledger" key
and read as they are.

A block's text is emptied (the entry is replaced, so the journal sees it) once no record
still keeping its prompt names it: records lose their text CALL_TEXT_TURNS turns later, so
the blocks kept are those of the last turns, whatever the length of the session.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from . import prompts
from .llm import ChatMessage
from .models import CallRecord, SentLedger, Session
from .prompt_ledger import with_ledger
from .tracked_lists import Seen, replaced_since, seen

LEDGER_KEY = "ledger"
# What ends a full ledger block (prompts.ledger_block), then the blank line before the message.
_BLOCK_END = "[/ledger]\n\n"
NOT_KEPT = "[ledger block {id} not kept]"
# Records without text in a row that mark the pruned part of the log (a turn makes 3–6).
PRUNED_RUN = 20


def ledger_id(block: str) -> str:
    return hashlib.sha256(block.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def dump_prompt(session: Session, turn: int, messages: list[ChatMessage]) -> list[dict[str, str]]:
    """The messages as a call record keeps them, a full ledger block by reference."""
    dumped: list[dict[str, str]] = []
    for message in messages:
        block, rest = _split(message)
        if block:
            ref = _keep(session, block, turn)
            dumped.append({"role": message.role, "content": rest, LEDGER_KEY: ref})
        else:
            dumped.append({"role": message.role, "content": message.content})
    return dumped


def _split(message: ChatMessage) -> tuple[str, str]:
    """(the full ledger block the message opens with, the rest), or ("", content)."""
    content = message.content
    if message.role != "user" or not content.startswith(prompts.LEDGER_HEADER):
        return "", content
    head, sep, rest = content.partition(_BLOCK_END)
    block = head + _BLOCK_END[: -len("\n\n")]
    # Whatever the split, with_ledger puts it back exactly: checked, never assumed.
    if not sep or with_ledger(block, rest) != content:
        return "", content
    return block, rest


def _keep(session: Session, block: str, turn: int) -> str:
    ref = ledger_id(block)
    if not (_named_by_a_kept_record(session, ref) or _newest_entry_has(session, ref)):
        session.sent_ledgers.append(SentLedger(id=ref, text=block, turn=turn))
    return ref


def _kept_records(session: Session) -> Iterator[CallRecord]:
    """The records that still keep their text: the newest ones. Older ones are pruned from the
    oldest up, so a run of PRUNED_RUN records without text marks where they end (a single one
    does not: a consolidation finishing after the next turn's calls writes its record after
    theirs)."""
    without = 0
    for record in reversed(session.calls):
        if record.prompt or record.response:
            without = 0
            yield record
        else:
            without += 1
            if without >= PRUNED_RUN:
                return


def prune(session: Session, horizon: int) -> None:
    """Drop the prompt and response of the records of turns up to `horizon`, and the ledger
    blocks only they named. Each call prunes what crossed the horizon since the last one: the
    walk stops at the run of records pruned before, not at the start of the log."""
    released: set[str] = set()
    without = 0
    calls = session.calls
    for index in range(len(calls) - 1, -1, -1):
        record = calls[index]
        if not (record.prompt or record.response):
            without += 1
            if without >= PRUNED_RUN:
                break
            continue
        without = 0
        if record.turn > horizon:
            continue
        released |= refs_of(record)
        # A new record, not one changed in place: the journal looks for changes in place only
        # among the items of the last turns (journal_lists.WINDOW_TURNS), and for a replaced
        # item anywhere.
        note = (record.note + " · text pruned (old turn)").strip(" ·")
        calls[index] = record.model_copy(update={"prompt": [], "response": "", "note": note})
    release(session, released)


def refs_of(record: CallRecord) -> set[str]:
    return {m[LEDGER_KEY] for m in record.prompt if m.get(LEDGER_KEY)}


def _named_by_a_kept_record(session: Session, ref: str) -> bool:
    return any(ref in refs_of(record) for record in _kept_records(session))


def _newest_entry_has(session: Session, ref: str) -> bool:
    """Kept by a call of this turn whose record is not written yet (analysis runs beside the
    reply): the entries since the last emptied one."""
    for entry in reversed(session.sent_ledgers):
        if not entry.text:
            return False
        if entry.id == ref:
            return True
    return False


def release(session: Session, refs: Iterable[str]) -> None:
    """Empty the blocks of `refs` that no record keeping its prompt names any more (called
    after records were pruned)."""
    dead = set(refs)
    if not dead:
        return
    for record in _kept_records(session):
        dead -= refs_of(record)
    if not dead:
        return
    entries = session.sent_ledgers
    for index in sorted(at for at, ref in _with_text(entries).items() if ref in dead):
        entry = entries[index]
        if entry.text and entry.id in dead:
            entries[index] = SentLedger(id=entry.id, text="", turn=entry.turn)


@dataclass
class _WithText:
    seen: Seen | None = None
    # position -> id of the entries that hold a text
    ids: dict[int, str] = field(default_factory=dict)


_held = _WithText()


def _with_text(entries: list[SentLedger]) -> dict[int, str]:
    """position -> id of the entries still holding a text: the few of the last turns, among a
    thousand in a long session (a pass over all cost ~0.7 ms a turn at 1,000 turns). An entry
    is appended with its text and emptied by replacement (`release`), never changed in place,
    so only the entries added or replaced since the last call are read."""
    global _held
    now = seen(entries)
    replaced = replaced_since(entries, _held.seen)
    if replaced is None or _held.seen is None:
        _held, replaced, start = _WithText(), [], 0
    else:
        start = _held.seen[1]
    for at in [*replaced, *range(start, len(entries))]:
        if entries[at].text:
            _held.ids[at] = entries[at].id
        else:
            _held.ids.pop(at, None)
    _held.seen = now
    return _held.ids


def block_text(session: Session, ref: str) -> str | None:
    for entry in reversed(session.sent_ledgers):
        if entry.id == ref and entry.text:
            return entry.text
    return None


def as_sent(session: Session, record: CallRecord) -> list[dict[str, str]]:
    """The record's prompt messages as the model received them."""
    messages: list[dict[str, str]] = []
    for message in record.prompt:
        ref = message.get(LEDGER_KEY)
        content = message.get("content", "")
        if ref:
            text = block_text(session, ref)
            content = with_ledger(text if text is not None else NOT_KEPT.format(id=ref), content)
        messages.append({"role": message.get("role", "?"), "content": content})
    return messages

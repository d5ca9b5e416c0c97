"""Clauses the rejection rules read as turning an option down that state a constraint instead:
a prohibition bounded in time (time_limits.py) and a lack of the user's (lacks.py). Their hits
are taken out of the scan and the words that state the constraint become requirements; a lack
said where no rule saw a rejection ("I have no car") is a requirement too, unless it explains a
rejection beside it ("Magento is out, we have no developers")."""

from __future__ import annotations

from collections.abc import Sequence

from .lacks import lacked, stated_lacks
from .rejections import RejectionHit, RejectionScan
from .sentences import Sentence
from .time_limits import time_rule


def _constraint(hit: RejectionHit, by_index: dict[int, Sentence]) -> str | None:
    sentence = by_index.get(hit.sentence)
    if sentence is None or hit.clause >= len(sentence.clauses):
        return None
    clause = sentence.clauses[hit.clause]
    return time_rule(hit.option, clause) or lacked(hit.option, clause)


def release_constraints(scan: RejectionScan, sentences: Sequence[Sentence]) -> list[str]:
    """Take the hits that state a constraint out of the scan; return every constraint's words
    (those of the hits, then the lacks stated elsewhere), each to be read as a requirement."""
    by_index = {s.index: s for s in sentences}
    stated: list[str] = []
    kept: list[RejectionHit] = []
    released: list[RejectionHit] = []
    for hit in scan.hits:
        words = _constraint(hit, by_index)
        if words is None:
            kept.append(hit)
        else:
            released.append(hit)
            stated.append(words)
    scan.hits = kept
    _unmark_clauses(scan, released)
    # "Magento is out, we have no developers": a lack beside a rejection is its reason.
    reasons = " ".join(h.reason for h in kept).casefold()
    rejecting = {h.sentence for h in kept}
    for sentence in sentences:
        if sentence.index in rejecting:
            continue
        for clause in sentence.clauses:
            stated += [p for _, p in stated_lacks(clause) if p.casefold() not in reasons]
    return list(dict.fromkeys(stated))


def forget_dropped(scan: RejectionScan, read_before: Sequence[RejectionHit]) -> None:
    """Unmark the clauses of hits read before and since withdrawn (the rejection model's cut
    replacing a rule's, the tagger's veto, a release or a non-thing): a clause marked as
    rejecting with no rejection left in it would be read neither as a rejection nor as what it
    says ("Lets go with zulip" came out as a requirement)."""
    kept = {id(h) for h in scan.hits}
    gone = [h for h in read_before if id(h) not in kept]
    _unmark_clauses(scan, gone)
    # What explained a rejection that is gone explains nothing.
    rejecting = {h.sentence for h in scan.hits}
    emptied = {h.sentence for h in gone} - rejecting
    scan.reason_clauses -= {rc for rc in scan.reason_clauses if rc[0] in emptied}


def _unmark_clauses(scan: RejectionScan, gone: Sequence[RejectionHit]) -> None:
    """The clauses of `gone` no hit left in the scan holds are no longer rejecting clauses."""
    held = {(h.sentence, h.clause) for h in scan.hits}
    for hit in gone:
        if (hit.sentence, hit.clause) not in held:
            scan.clauses.pop((hit.sentence, hit.clause), None)

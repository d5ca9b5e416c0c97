"""What a turn's re-advocacy label may claim, from which attempts proposed which option.

"Refined away" is a claim that a rewrite fixed something: it holds only when an attempt before
the shown one proposed the option and the shown one does not. A rewrite that proposed it and
was discarded fixed nothing (an earlier attempt is shown), and a shown attempt that still
proposes it is said as such. One wording for the chat caption, the quality panel and replay.
"""

from __future__ import annotations

from .models import QualityRecord


def option_verdict(record: QualityRecord, option: str) -> str:
    """'refined away', 'still in the shown reply: all 2 attempts proposed it', or 'attempt 2
    proposed it; attempt 1 shown'."""
    if option in record.readvocated_final:
        if record.attempts > 1:
            return f"still in the shown reply: all {record.attempts} attempts proposed it"
        return "still in the shown reply"
    proposed_in = record.readvocated_in.get(option)
    if proposed_in is None:
        # A record written before attempts were kept per option: only the outcome is known.
        return "not in the shown attempt"
    if min(proposed_in) < record.shown_attempt:
        return "refined away"
    attempts = ", ".join(str(a) for a in proposed_in)
    # "attempt", not "rewrite": a small model's later attempts are fresh samples.
    which = "attempt" if len(proposed_in) == 1 else "attempts"
    return f"{which} {attempts} proposed it; attempt {record.shown_attempt} shown"


def readvocacy_label(record: QualityRecord) -> str:
    """'MongoDB (refined away); Redis (still in the shown reply)' for every option the guard
    flagged in the turn."""
    return "; ".join(f"{o} ({option_verdict(record, o)})" for o in record.readvocated)

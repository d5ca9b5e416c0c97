"""The rejection tagger's reading joined to the rules' (issue 12).

The rules and the rejection model read constructions; the tagger (rejection_tagger.py) reads
what eight writers' labelled messages taught it. An option the tagger reads as turned down is
added when no rule read it, the assistant had put it on the table, the sentence could turn it
down at all (not praised, hedged, asked for, nor the subject of a need:
`rejection_model.plausibly_rejected`), and the rejection model, judging the option in the
masked sentence, agrees. Each condition removed errors the tagger alone made with confidence
("I don't hate jazz", "Rule out DynamoDB" → "Rule"): a CRF over a thousand messages does not
learn the scope of a negation. The tagger never withdraws a rule's hit: tried, a low tagger
probability withdrew "let's not use MongoDB" — the design register was rare in the first
writers' messages — and cost more recall than it gained precision; it withdraws only the
rejection model's own additions it is sure are kept. The thresholds were chosen by
leave-one-writer-out over the training writers (scripts/score_labelled_messages.py), with the
shared scenarios and the trap tests held; never on the splits reported as held out.
"""

from __future__ import annotations

from ..ledger_snapshot import LedgerSnapshot
from .options import option_matches, same_option
from .rejection_model import (
    Candidate,
    candidate_features,
    current_model,
    plausibly_rejected,
    proposal_text,
    reason_after,
)
from .rejection_tagger import KEPT, REJECTED, TaggedSpan, tag
from .rejections import RejectionHit, RejectionScan
from .sentences import Sentence

# A tagged rejection no rule read is added from this confidence.
ADD_FROM = 0.5
# ... and the rejection model, judging the same option in the masked sentence, agrees this much.
JUDGED_FROM = 0.6
# The rejection model's addition is withdrawn when the tagger reads the option as kept from
# this confidence.
KEEP_FROM = 0.9


def _overlap(a: str, b: str) -> bool:
    """ "Visual Basic" and the rules' "Visual Basic for Applications" are one option."""
    return same_option(a, b) or option_matches(a, b) or option_matches(b, a)


def _kept(hit: RejectionHit, tagged: list[TaggedSpan]) -> bool:
    """The rejection model added an option the tagger is sure the user keeps ("vault is more
    flexible but someone has to run it"). Only the model's additions: over three writers held
    out in turn, the tagger was right about 16 of 19 of them, and wrong about both rule hits
    it would have withdrawn ("把燃气灶换成电磁炉" reads to it as keeping 燃气灶)."""
    return hit.family == "model" and any(
        s.label == KEPT and s.confidence >= KEEP_FROM and _overlap(s.text, hit.option)
        for s in tagged
    )


def _sentence_of(span: TaggedSpan, sentences: list[Sentence]) -> Sentence | None:
    for sentence in sentences:
        if span.text in sentence.text:
            return sentence
    return None


def _clause_of(option: str, sentence: Sentence) -> int:
    for index, clause in enumerate(sentence.clauses):
        if option in clause:
            return index
    return 0


def apply_tagger(
    sentences: list[Sentence],
    scan: RejectionScan,
    view: LedgerSnapshot,
    skip: set[int],
) -> None:
    # The sentences as the rules read them: code and quotations already left out.
    proposal = proposal_text(view)
    tagged = tag(" ".join(s.text for s in sentences), proposal)
    scan.hits[:] = [h for h in scan.hits if not _kept(h, tagged)]
    for span in tagged:
        if span.label != REJECTED or span.confidence < ADD_FROM:
            continue
        if any(_overlap(span.text, h.option) for h in scan.hits):
            continue
        sentence = _sentence_of(span, sentences)
        if sentence is None or sentence.index in skip or sentence.question:
            continue
        if not plausibly_rejected(span.text, sentence.text):
            continue
        if not option_matches(span.text, proposal):
            continue  # off the table, the tagger took verbs and subjects ("Rule out X")
        candidate = Candidate(span.text, sentence.index, "tagger")
        judged = current_model().probability(candidate_features(candidate, sentences, proposal))
        if judged < JUDGED_FROM:
            continue
        clause = _clause_of(span.text, sentence)
        reason = reason_after(sentence.text, span.text)
        hit = RejectionHit(span.text, reason, sentence.index, clause, False, "", False, "tagger")
        scan.hits.append(hit)
        scan.clauses[(sentence.index, clause)] = ""
        scan.reason_clauses.update(
            (sentence.index, ci) for ci in range(len(sentence.clauses)) if ci != clause
        )


__all__ = ["ADD_FROM", "apply_tagger"]

"""Does a reply meet a requirement, or only repeat its words?

"Addressed" moves a requirement out of the model's pending list, so it needs evidence: a
sentence of the reply that names the requirement's subject *and says how it is met* — words of
its own beyond the requirement's (a mechanism, a number, a name), stated rather than asked.
A reply that echoes "You need 7-day retention." or asks "Do you need 7-day retention?" has
met nothing.
"""

from __future__ import annotations

import re

from .heuristics.quantities import quantity_keys
from .heuristics.text import REPLY_SENTENCE_RE, content_tokens

# How much of the requirement's wording a sentence must carry to be about it.
ABOUT = 0.5
# Words of its own a sentence needs beyond the requirement's to say how it is met.
OWN_WORDS = 2

# Sentences that hand the requirement back instead of meeting it.
_ECHO_RE = re.compile(
    r"^\s*(?:[-*•>]\s*)?(?:you(?:'ve|\s+have)?\s+(?:need|want|said|mentioned|asked|require|"
    r"noted|told)|as\s+you\s+(?:said|mentioned|asked)|"
    # A heading that names the requirements ("Noted as requirements:", "Your requirements so
    # far:") introduces them; it does not meet them.
    r"(?:(?:noted\s+)?as\s+|(?:here\s+are\s+)?(?:your|the)\s+)?requirements?"
    r"(?:\s+(?:so\s+far|noted|recorded))?\s*[:：]|"
    # The ledger read back under its own labels ("Ruled out: …", "Keeping to: …").
    r"(?:ruled\s+out|rejected|keeping\s+to|constraints?)\s*[:：]|"
    r"r\d+\b|so\s+you\s+need|(?:to\s+)?recap\b|你(?:需要|要求|说|提到))",
    re.I,
)
# An acknowledgement in front of a sentence says nothing either way: read what follows it.
_ACK_RE = re.compile(
    r"^\s*(?:noted|got\s+it|understood|ok(?:ay)?|sure|right|great|明白|好的|收到)\b[\s,:：.!-]*",
    re.I,
)


# The sentences of a reply that could meet a requirement, each with its content words.
_Stated = list[tuple[str, frozenset[str]]]


def _sentences(reply: str) -> list[str]:
    return [_ACK_RE.sub("", s.strip()) for s in REPLY_SENTENCE_RE.split(reply) if s and s.strip()]


def _stated(reply: str) -> _Stated:
    """The reply's sentences that could meet something (no question, no echo), with their words."""
    return [
        (s, content_tokens(s))
        for s in _sentences(reply)
        if not (s.endswith(("?", "？")) or _ECHO_RE.match(s))
    ]


def _meets_in(stated: _Stated, requirement: str, theirs: frozenset[str]) -> bool:
    wanted = content_tokens(requirement)
    if not wanted:
        return False
    numbers = quantity_keys(requirement)
    for sentence, said in stated:
        about = len(wanted & said) / len(wanted) >= ABOUT or bool(
            numbers and numbers & quantity_keys(sentence)
        )
        if about and len(said - wanted - theirs) >= OWN_WORDS:
            return True
    return False


def meets(reply: str, requirement: str, others: tuple[str, ...] = ()) -> bool:
    """True when some sentence of `reply` is about `requirement` and says how it is met.

    `others` are the other requirements' texts: their words are not words of the reply's own,
    so a sentence that lists the requirements back ("Keeping to: a; b.") meets none of them.
    """
    theirs = frozenset[str]().union(*(content_tokens(text) for text in others))
    return _meets_in(_stated(reply), requirement, theirs - content_tokens(requirement))


def addressed(reply: str, pending: list[tuple[str, str, int]]) -> list[str]:
    """Ids of the pending requirements the reply gives evidence of meeting."""
    stated = _stated(reply)
    words = [content_tokens(text) for _, text, _ in pending]
    met: list[str] = []
    for index, (rid, text, _) in enumerate(pending):
        # The other requirements' words (a requirement of the same text is no other).
        theirs = frozenset[str]().union(*(w for j, w in enumerate(words) if pending[j][1] != text))
        if _meets_in(stated, text, theirs - words[index]):
            met.append(rid)
    return met

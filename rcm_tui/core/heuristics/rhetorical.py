"""A rhetorical question answered with a refusal: "Kafka for 40 messages a minute? lol no."

People turn an option down by naming it as a question and answering it themselves ("Renting
a van? Not a chance, my back's knackered.", "coach tour? nah, we're not 80 mate.",
"自己开车？算了吧"). Such a question is answered: it is no open question either.
Over seven writers' labelled messages (corpus/ledger/labels) ten of the eleven questions
followed by such an answer turned down the option the question opens with; the eleventh
answered a question about the speaker ("Would I be too old …? Never p…"), which is why a
question that opens with a verb or a question word names no option here.
"""

from __future__ import annotations

import re

from .cues import REFUSAL_IDIOMS
from .rejections import RejectionHit
from .sentences import Sentence, tidy
from .text import REASON_EDGE_PUNCT, STOPWORDS

# A refusal answering the question: alone, or before a comma, full stop or dash.
_REFUSAL_RE = re.compile(
    r"^(?:(?:lol|haha|yeah|ugh|honestly|um+|uh|hmm+)[\s,]+)?"
    r"(?:nope(?:[\s,]+nope)*|nah|no(?:[\s,]+no)*|not\s+a\s+(?:chance|hope)|no\s+way|no\s+thanks|"
    rf"hard\s+pass|i'?ll\s+pass|pass|never(?:\s+again)?|yeah\s+no|hell\s+no|{REFUSAL_IDIOMS})"
    r"(?:\s+(?:lol|haha|thanks))?\s*(?:[.,!;:—–-]|$)"
    r"|^(?:算了|拉倒|免了|不了|不要|不用了|没门|想都别想|pass)[吧啊呀哈了]*",
    re.I,
)
# Where the option phrase ends: "Kafka | for 40 messages a minute", "starbucks | every day".
_OPTION_END_RE = re.compile(
    r"\s+(?:for|with|at|to|every|in|on|from|when|while|just|again|instead|because)\b|,|，",
    re.I,
)
_DETERMINER_RE = re.compile(r"^(?:a|an|the|some|more|another)\s+", re.I)
# A question that opens with these asks about something else than an option it names.
_NOT_AN_OPTION = STOPWORDS | frozenset(
    """what how why when where who which is are was were do does did can could should would
    will shall may might have has had am me you we they i it this that there so and or but
    really seriously wait sorry""".split()
)
_MAX_OPTION_WORDS = 4
_REASON_LIMIT = 200


def _option(question: str) -> str:
    text = question.strip().rstrip("?？ ").strip()
    text = _OPTION_END_RE.split(text, maxsplit=1)[0].strip()
    text = _DETERMINER_RE.sub("", text)
    words = text.split()
    if not words or len(words) > _MAX_OPTION_WORDS or words[0].lower() in _NOT_AN_OPTION:
        return ""
    if re.search(r"[\u4e00-\u9fff]", text):
        return text if len(text) <= 8 else ""  # a Chinese option names a thing in a few characters
    return text


def _answered(sentences: list[Sentence], skip: set[int]) -> list[tuple[list[Sentence], str]]:
    """The questions (one or two) each refusal answers, with the refusal's reason."""
    out: list[tuple[list[Sentence], str]] = []
    for answer in sentences:
        refusal = _REFUSAL_RE.match(answer.text.strip())
        if answer.question or refusal is None or answer.index in skip:
            continue
        asked = [s for s in sentences if answer.index - 2 <= s.index < answer.index]
        if not asked or not asked[-1].question:
            continue
        asked = asked if asked[0].question else asked[-1:]
        reason = tidy(answer.text.strip()[refusal.end() :].strip(REASON_EDGE_PUNCT), _REASON_LIMIT)
        out.append((asked, reason))
    return out


def rhetorical_rejections(sentences: list[Sentence], skip: set[int]) -> list[RejectionHit]:
    """Options named by a question the user answers with a refusal in the next sentence (one
    or two questions before it: "starbucks every day? in this economy? lol no.")."""
    hits: list[RejectionHit] = []
    for asked, reason in _answered(sentences, skip):
        option = _option(asked[0].text)
        if option:
            hits.append(RejectionHit(option, reason, asked[0].index, 0, False, family="rhetorical"))
    return hits


def self_answered(sentences: list[Sentence]) -> set[str]:
    """Every question the user answered with a refusal (lower case): no open question."""
    return {s.text.strip().lower() for asked, _ in _answered(sentences, set()) for s in asked}


__all__ = ["rhetorical_rejections", "self_answered"]

"""Chinese chat that separates its clauses with spaces, not commas: "Uber 太贵了 不考虑",
"plug-in 的 也不太行", "keelboat 那种大船 都不要".

The sentence reader cuts a message at a space between Chinese words (chat has no other
punctuation), so the verdict lands in a sentence of its own and has no topic there. A verdict
sentence typed right after the piece before it, with only a space between, is read with that
piece as the comma-joined sentence would be ("Uber太贵了，不考虑"), and the hit is the piece's.
"""

from __future__ import annotations

import itertools
import re

from .constructions_zh import not_a_zh_topic, zh_option_core
from .rejections import RejectionHit
from .sentences import Sentence, strip_discourse
from .text import CJK, CJK_CHAR_RE, ZH_LATIN_NAME
from .zh_topic_verdicts import is_bare_verdict

# A piece that is only a name and what kind of it ("plug-in 的", "keelboat 那种大船"): the
# topic whole, as a comma-joined sentence could not show it.
_NAME_ONLY_RE = re.compile(
    rf"^(?P<t>{ZH_LATIN_NAME}(?:\s{ZH_LATIN_NAME}){{0,2}})\s*(?:的|(?:那|这)(?:种|类|个)[{CJK}]{{0,4}})?$"
)
# A piece that opens with its topic and judges it ("Uber 太贵了", "Notion 太慢了"); a piece
# that tells what happens ("每天早上送孩子能急死") names no topic to refuse.
_JUDGED_TOPIC_RE = re.compile(
    rf"^(?P<t>{ZH_LATIN_NAME}(?:\s{ZH_LATIN_NAME}){{0,2}}|[{CJK}]{{2,8}}?)\s?"
    r"(?:太|很|有点|比较|实在|真的|挺|不|没)"
)
_FAMILY = "explicit_refusal"


def _space_joined(text: str, sentences: list[Sentence]) -> list[bool]:
    """For each two neighbouring pieces, whether only spaces were typed between them: the
    pieces are found in order, each after the one before, so a piece typed twice is placed
    where it stands."""
    joined: list[bool] = []
    end: int | None = None  # where the piece before ended; None when it was not found
    for i, sentence in enumerate(sentences):
        at = text.find(sentence.text, end or 0)
        if i:
            gap = text[end:at] if end is not None and at >= 0 else ""
            joined.append(bool(gap) and not gap.strip(" \u3000"))
        end = at + len(sentence.text) if at >= 0 else None
    return joined


def _verdicts(before: str, after: str) -> list[str]:
    if not is_bare_verdict(after):
        return []
    named = _NAME_ONLY_RE.match(before) or _JUDGED_TOPIC_RE.match(before)
    if not named:
        return []
    option = zh_option_core(named.group("t"))
    return [] if not_a_zh_topic(option) or len(option) < 2 else [option]


def spaced_verdicts(
    text: str, sentences: list[Sentence], hits: list[RejectionHit]
) -> list[RejectionHit]:
    """A hit for each verdict piece whose topic is the piece typed just before it."""
    ruled = {h.sentence for h in hits}
    found: list[RejectionHit] = []
    joined = _space_joined(text, sentences)
    for at, (before, after) in enumerate(itertools.pairwise(sentences)):
        if before.index in ruled or before.question or not CJK_CHAR_RE.search(after.text):
            continue
        # "海底捞 排队太久 算了": a piece that comments on the one before it is no topic.
        if not joined[at] or (at and joined[at - 1]):
            continue
        for option in _verdicts(strip_discourse(before.text) or before.text, after.text):
            found.append(RejectionHit(option, "", before.index, 0, False, family=_FAMILY))
    return found

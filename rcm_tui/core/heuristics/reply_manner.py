""""Don't beat around the bush, just tell me", "别绕弯子，直接说": how to answer, not an option.

An impatient user waves off the assistant's manner of speaking ("no fluff", "skip the small
talk", "不要长篇大论", "别废话") and asks for the answer itself in the next breath. What is
waved off is never something the assistant could recommend, so it is no rejection. The frame
is the directive that follows it: a request for the answer with no option as its object ("just
tell me", "just the answer", "get to the point", "直接说", "说重点", "给个结论"). "No hotels,
just give me the hostels" and "别订酒店了，直接说民宿哪家好" name what they want instead and
keep their rejection.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .cues import LEAD_IN_RE
from .next_steps import states_a_plan
from .options import option_spans
from .requests import states_the_goal_zh

if TYPE_CHECKING:  # requirements.py reads this module, and rejections.py reads requirements.py
    from .rejections import RejectionHit
    from .sentences import Sentence

_ANSWER_WORDS = (
    r"(?:the\s+|a\s+|one\s+)?(?:straight\s+|short\s+|quick\s+|honest\s+)?(?:answer|facts|"
    r"bottom\s+line|gist|short\s+version|tl;?dr|verdict|point|recommendation|pick|name|"
    r"list(?!\s+of))"
)
# The answer asked for: a speech verb with no object, or an answer word. Not a wh-clause: "No
# hotels, just tell me which hostel" wants something else instead.
_DIRECTIVE_EN_RE = re.compile(
    r"\b(?:just|simply|only)\s+(?:tell|say|answer|give)\s+(?:me|us)?\s*"
    r"(?=$|[,.!?;:]|please\b|" + _ANSWER_WORDS + r")"
    r"|\b(?:just|only)\s+" + _ANSWER_WORDS + r"\b"
    r"|\bgive\s+(?:me|us)\s+" + _ANSWER_WORDS + r"\b"
    r"|\b(?:get|come|cut)\s+(?:straight\s+)?to\s+the\s+(?:point|chase)\b"
    r"|\b(?:straight|right)\s+to\s+the\s+point\b",
    re.I,
)
# 直接说/讲/告诉我/回答 with nothing after it but a particle or punctuation (not "直接说民宿
# 哪家好"); 说重点, 说人话, 给(我)(个)结论/答案, 一句话(说/结论).
_DIRECTIVE_ZH_RE = re.compile(
    r"直接(?:点)?(?:说|讲|告诉我|回答)(?=$|[吧呗啊呀嘛就，。！？,.!?、]|结论|重点|答案)"
    r"|(?:说|讲|挑)重点|说人话|捞干的说|给(?:我)?(?:个|一个)?(?:结论|答案|准话)|一句话(?:说|讲|结论|总结)"
)


def _directs_the_answer(text: str) -> bool:
    return bool(_DIRECTIVE_EN_RE.search(text) or _DIRECTIVE_ZH_RE.search(text))


_LEFT_OVER_RE = re.compile(
    r"^[\s,.!?;:，。！？、]*(?:please|pls|thanks|thx|吧|呗|啊|谢谢)?[\s,.!?;:，。！？、]*$", re.I
)


def only_asks_for_the_answer(clause: str) -> bool:
    """A clause that is nothing but a request for the answer ("Just the answer please", "说重
    点"): how to reply, no need of the user's."""
    for pattern in (_DIRECTIVE_EN_RE, _DIRECTIVE_ZH_RE):
        found = pattern.search(clause)
        if found and not clause[: found.start()].strip(" ,.!，。") and _LEFT_OVER_RE.match(
            clause[found.end() :]
        ):
            return True
    return False


# A complaint told in Chinese: a degree that says how bad ("真的太乱了", "游客多到走不动",
# "甲醛味一直有", "老是坏"). With no word of wanting or limiting in the clause it is a reason or a
# story; "不能太贵", "别太远", "一直要开车" still ask, and so does what the user cannot stand
# ("轰轰响受不了": a limit).
_ZH_COMPLAINT_RE = re.compile(
    r"(?:真的|实在|简直)太|多到|一直有|老是|总是|烦死|累死|吵死|要命"
)
_ZH_NEED_WORD_RE = re.compile(
    r"要|想|需|必|得|最好|只|不能|别|希望|尽量|以内|之内|不超过|至少|最多|以上|以下|行|可以"
)


def states_a_complaint_zh(text: str) -> bool:
    """A Chinese clause that says how bad things are and asks for nothing ("游客多到走不动")."""
    return bool(_ZH_COMPLAINT_RE.search(text)) and not _ZH_NEED_WORD_RE.search(text)


def states_no_need(text: str) -> bool:
    """A request for the answer ("Just the answer please"), a lead-in ("To recap for my
    husband", "Regarding pendant"), the user's next step ("I will order it this weekend") or a
    complaint ("这几天真的太乱了"): the clause states no need of its own. Every requirement
    reader asks this (`statements.stated_requirement`, `requirements.not_a_need`)."""
    return (
        only_asks_for_the_answer(text)
        or bool(LEAD_IN_RE.match(text.strip()))
        or states_a_plan(text)
        or states_a_complaint_zh(text)
        or states_the_goal_zh(text)
    )


def _waved_off(hit: RejectionHit, by_index: dict[int, str]) -> bool:
    """Is the hit's option the manner of answering, waved off before the answer is asked for
    (in the rest of its sentence or the next one)?"""
    said = by_index.get(hit.sentence, "")
    spans = option_spans(hit.option, said)
    if not spans:
        return False
    rest = said[spans[0][1] :]
    return _directs_the_answer(rest) or _directs_the_answer(by_index.get(hit.sentence + 1, ""))


def without_manner_of_answering(
    hits: list[RejectionHit], sentences: Sequence[Sentence]
) -> list[RejectionHit]:
    """The hits kept: one that waves off how the assistant talks ("no fluff, just the
    answer") is dropped."""
    by_index = {s.index: s.text for s in sentences}
    return [h for h in hits if not _waved_off(h, by_index)]


__all__ = ["only_asks_for_the_answer", "states_no_need", "without_manner_of_answering"]

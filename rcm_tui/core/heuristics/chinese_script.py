"""Traditional Chinese read as Simplified, and what was read given back in the user's script.

Every Chinese construction, cue and model feature of the analyser was written and trained on
Simplified characters, so a user in Taipei or Hong Kong ("台大就不要了啦", "那個就先不用了")
went mostly unread: 個 is not 个, 還 is not 还. The message is converted with OpenCC (BYVoid's
converter, Apache-2.0, the `opencc` wheel) before it is read; OpenCC converts character by
character and phrase by phrase to strings of the same length, so a span found in the converted
text is the same span of what the user typed, and every option, reason and requirement is
shown in their own characters. A conversion that changes the length is not used.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable

from ..analysis import Analysis
from ..ledger_snapshot import LedgerSnapshot
from .text import CJK_CHAR_RE

# Cantonese function words read as their Mandarin ones, character for character, so a Hong
# Kong user's "直聘平台我唔想再搞", "佢冇車" reads as "不想再搞", "他没车" (the constructions are
# Mandarin). Only words no Mandarin text uses this way: 唔 before a character (not the "唔，"
# of hesitation); 唔该 ("thanks") is thanks.
_CANTONESE_CHARS = str.maketrans(
    {"咁": "那", "冇": "没", "佢": "他", "咗": "了", "嘅": "的", "啲": "些", "揾": "找", "睇": "看",
     "畀": "给", "喺": "在", "嚟": "来", "嗰": "那", "𠮶": "那"}
)
# 唔使 is "no need" (不用). 唔好 stays: it is "don't" (迪士尼就唔好啦) or "not good" (佢牙唔好),
# and the constructions read it as Cantonese.
# 唔係好想 is "not really keen" (不怎么想: OpenCC has made 係 系 by then); 唔好有 before a noun is
# "let there be no" (唔好有電池嗰啲: 不要有).
# 唔得 is "won't do" (不行), never the written 不得 ("must not": a requirement's modal); 唔得闲 is
# "not free" (没空闲).
_CANTONESE_WORDS = (
    ("唔该", "谢谢"), ("唔使", "不用"), ("唔要", "不要"), ("唔系好", "不怎么"),
    ("唔好有", "不要有"), ("唔得闲", "没空闲"), ("唔得", "不行"),
)
_CANTONESE_NOT_RE = re.compile(r"唔(?=[\u4e00-\u9fff])(?!好)")
# 呢 before a classifier is "this" (呢個價錢, 呢種): Mandarin's particle 呢 never precedes one.
_CANTONESE_THIS_RE = re.compile(r"呢(?=[个种些条间位只部架款套对件])")
# 喇 closing a clause is the particle 啦 ("唔使睇喇"), not the 喇 of 喇叭.
_CANTONESE_LA_RE = re.compile(r"喇(?=[，。！？,.!?\s~]|$)")


def _as_mandarin(text: str) -> str:
    for cantonese, mandarin in _CANTONESE_WORDS:
        text = text.replace(cantonese, mandarin)
    text = text.translate(_CANTONESE_CHARS)
    text = _CANTONESE_THIS_RE.sub("这", _CANTONESE_NOT_RE.sub("不", text))
    return _CANTONESE_LA_RE.sub("啦", text)


@functools.lru_cache(maxsize=1)
def _converter() -> Callable[[str], str]:
    import opencc  # imported on first Chinese message only

    return opencc.OpenCC("t2s.json").convert


def simplified(text: str) -> str:
    """`text` in Simplified characters, or `text` itself when nothing changes or the length
    would (then spans could not be given back)."""
    if not CJK_CHAR_RE.search(text):
        return text
    try:
        converted = _converter()(text)
    except UnicodeEncodeError:
        return text  # a lone surrogate pasted in: OpenCC reads UTF-8 only
    if len(converted) != len(text):
        return text
    return _as_mandarin(converted)


def simplified_view(view: LedgerSnapshot) -> LedgerSnapshot:
    """The assistant's messages as the analyser reads them: the options on the table."""
    return dataclasses.replace(
        view,
        last_assistant_message=simplified(view.last_assistant_message),
        earlier_assistant_messages=tuple(map(simplified, view.earlier_assistant_messages)),
    )


def as_typed(phrase: str, read: str, typed: str) -> str:
    """`phrase`, taken from `read` (the converted `typed`), in the characters of `typed`. A
    phrase the analyser tidied ("Xyz" capitalised, a clause re-joined) is not found as it
    stands: its characters are given back one by one."""
    if read is typed or read == typed:
        return phrase
    at = read.find(phrase) if phrase else -1
    if at >= 0:
        return typed[at : at + len(phrase)]
    changed = {r: t for r, t in zip(read, typed, strict=True) if r != t}
    return "".join(changed.get(char, char) for char in phrase)


def in_users_script(analysis: Analysis, read: str, typed: str) -> Analysis:
    """The analysis with every phrase taken from `read` given back as the user `typed` it."""

    def back(phrase: str) -> str:
        return as_typed(phrase, read, typed)

    for rejection in analysis.rejections:
        rejection.option, rejection.reason = back(rejection.option), back(rejection.reason)
    for requirement in analysis.requirements:
        requirement.text = back(requirement.text)
    analysis.reopened = [back(o) for o in analysis.reopened]
    analysis.facts = [back(f) for f in analysis.facts]
    analysis.questions = [back(q) for q in analysis.questions]
    analysis.trajectory = back(analysis.trajectory)
    return analysis

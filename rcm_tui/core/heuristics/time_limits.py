""""No power tools after 9pm", "晚上九点以后不能用电钻": a rule with its hours, no option set aside.

A prohibition bounded by a time of day or week limits when a thing may be done; outside those
hours the thing is allowed. The user is stating a constraint every answer has to respect, so
the clause is a requirement and the thing stays available ("no calls after 6pm", "no screens
before school", "no coffee after 2pm", "工作日晚上八点以后不能打扰"). The time is a closed class —
a clock time, a meal or part of the day, a day of the week — because "after" also introduces a
reason ("no Airbnb after last time", "no cruises after what happened in 2019"), which stays a
rejection.
"""

from __future__ import annotations

import re

from .options import option_matches
from .text import CJK_CHAR_RE

_CLOCK = (
    r"(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|h|o'?clock)|\d{1,2}:\d{2}|noon|midday|"
    r"midnight|\d{1,2}(?=\s*(?:$|[,.;!?)]|at\s+night|in\s+the\s+(?:evening|morning))))"
)
_DAYPART = (
    r"(?:breakfast|lunch|dinner|supper|tea|bed(?:time)?|dark|sunset|sunrise|dawn|dusk|school|"
    r"work|class|nap(?:time)?|lights[- ]out|curfew|hours|(?:the\s+)?(?:morning|afternoon|evening))"
)
_DAYS = (
    r"(?:weekdays?|weekends?|week\s*nights?|school\s+nights?|work\s+days?|mondays?|tuesdays?|"
    r"wednesdays?|thursdays?|fridays?|saturdays?|sundays?)"
)
_EN_TIME_LIMIT_RE = re.compile(
    rf"\b(?:after|before|past|until|till|from)\s+(?:about\s+|around\s+)?(?:{_CLOCK}|{_DAYPART})\b"
    rf"|\b(?:on|during)\s+(?:the\s+)?{_DAYS}\b|\bduring\s+(?:the\s+)?(?:day|night|week|"
    r"school\s+hours|work(?:ing)?\s+hours|office\s+hours|quiet\s+hours|nap(?:time)?)\b"
    r"|\b(?:at|late\s+at)\s+night\b|\bovernight\b",
    re.I,
)
# The user's own prohibition ("no", "don't", "can't"), not a dislike ("I hate driving at night").
_EN_PROHIBITION_RE = re.compile(
    r"\b(?:no|not|never|don'?t|do\s+not|can'?t|cannot|mustn'?t|must\s+not|shouldn'?t|won'?t|"
    r"forbidden|prohibited|banned)\b",
    re.I,
)
_PIECE_RE = re.compile(r"\s*[,;—–]\s*|\s+-\s+")
_ZH_NUM = "〇零一二两三四五六七八九十\\d"
# A clock time or part of the day, then the bound: "九点以后", "晚上", "饭后", "睡前", "工作日".
_ZH_TIME_LIMIT_RE = re.compile(
    rf"[{_ZH_NUM}]+点(?:半|钟|[{_ZH_NUM}]+分?)?(?:以后|之后|后|以前|之前|前)"
    r"|(?:晚上|夜里|夜间|半夜|深夜|午休|睡前|饭后|饭前|工作日|上班时间|上课时间)"
)
# A prohibition, not a dislike: "不能", "不许", "别", "禁止" (not "不喜欢", "不吃").
# (别 of 特别, 区别, 别人 is no prohibition.)
_ZH_PROHIBITION_RE = re.compile(
    r"不能|不许|不准|不让|不可以|禁止|(?<![特区分告离性级类个差识辨派鉴])别(?![人的墅处])|不要|不得"
)


def time_rule(option: str, clause: str) -> str | None:
    """The words of the clause that forbid the option only at certain times, or None. The
    time, the prohibition and the option sit in one piece of it ("An acoustic upright our house
    rules do not allow, playing is forbidden after 20:00" bans the upright at any hour); in
    English that piece is the rule ("I need her on the water by July 4th, no power tools after
    9pm" → "no power tools after 9pm"), in Chinese the whole clause."""
    if CJK_CHAR_RE.search(clause):
        limit = _ZH_TIME_LIMIT_RE.search(clause)
        # The time, then the ban, then what is banned: "晚上九点以后 不能 用电钻".
        ban = _ZH_PROHIBITION_RE.search(clause, limit.end()) if limit else None
        if limit is None or ban is None or limit.group() in option:
            return None
        return clause if clause.find(option, ban.end()) >= 0 else None
    pieces = [p for p in _PIECE_RE.split(clause) if p]
    piece = next((p for p in pieces if option_matches(option, p)), clause)
    limit = _EN_TIME_LIMIT_RE.search(piece)
    if limit is None or not _EN_PROHIBITION_RE.search(piece):
        return None
    return None if option_matches(limit.group(), option) else piece


def limited_in_time(option: str, clause: str) -> bool:
    """Does the clause forbid the option only at certain times?"""
    return time_rule(option, clause) is not None

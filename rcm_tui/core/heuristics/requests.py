"""A request to find, book or recommend something states what narrows it (issue 12).

"Can you recommend a hotel in Lisbon under 150 a night?", "Please find me three tickets from
San Diego", "Could you suggest a gift for my dad under $50?": what is asked for (a hotel,
tickets, a gift) is the request's goal; what narrows it — a count, a place, a date, a price,
who it is for, what it must have — binds every answer, whether it is asked as a question or
said as an instruction. A request that narrows nothing ("Can you find me a restaurant?")
states only its goal, and gives no requirement.
"""

from __future__ import annotations

import re

from .sentences import tidy

# The verbs that ask the assistant to pick something out of the world for the user. Verbs
# that ask to be told something ("tell", "show", "give me the address") ask a question.
_REQUEST_RE = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+|(?:i|we)(?:'d|\s+would)\s+like\s+you\s+to\s+)?"
    r"(?:please\s+|pls\s+|just\s+|also\s+|now\s+)*"
    r"(?P<verb>find(?!\s+out\b)|get|book|reserve|search(?:\s+for)?|look\s+(?:for|up)|recommend|suggest|"
    r"buy|order|rent|schedule|arrange|pick|choose|make|change|move|try|put|cast|play)\s+"
    r"(?:(?:me|us)\s+)?(?:(?:also|please)\s+)?(?P<rest>.+)$",
    re.I,
)
_COUNT = r"\d|\b(?:two|three|four|five|six|seven|eight|nine|ten|twelve|a\s+couple\s+of)\s+\w"
# A preposition or a relative clause after what is asked for narrows it; "to" only with a
# place ("to Denver"; "something to watch" is a purpose), "for" not with the asker ("for me").
_NARROWING_RE = re.compile(
    rf"{_COUNT}"
    r"|\b(?:in|from|near|around|at|on|by|with|without|under|below|within|between|before|after|"
    r"during|close\s+to|less\s+than|no\s+more\s+than|over|above|that|which|who)\s+"
    r"(?!(?:that|this|it|them|those|these|there|here)\b)\w"
    r"|\bto\s+(?:the\s+)?(?:(?-i:[A-Z])|\d|(?:quarter|half)\s)"
    r"|\bfor\s+(?!(?:me|us|you|it|now|a\s+(?:bit|while|moment))\b)\w",
    re.I,
)

# "Get me the weather for Morgan Hill", "find the address of…": information, asked for.
_INFORMATION_RE = re.compile(
    r"^(?:the|their|its|his|her|your)\s+(?:weather|forecast|address|phone|number|contact|balance|"
    r"price|cost|total|directions|details|info(?:rmation)?|time|hours|rating|website|email|name)",
    re.I,
)

_AT_A_NAMED_PLACE_RE = re.compile(
    r"\bat\s+(?:the\s+)?(?-i:[A-Z])[\w'&-]*(?:\s+(?-i:[A-Z])[\w'&-]*)*", re.I
)


# Chinese asks the same way: "帮我推荐一个评分在4.5分以上的高档型酒店", "能帮我找一家人均50-100元的
# 餐馆吗？", "请给我推荐一家豪华型酒店". What narrows it is a modifier before the noun: a 的
# phrase, an amount, a class (经济型).
_ZH_REQUEST_RE = re.compile(
    r"^(?:(?:你好|您好|亲)[，,！!]?)?(?P<request>(?:那)?(?:请|麻烦你?|麻烦您|你能|您能|你可以|您可以|能|"
    r"可以|再|在)*(?:帮我们?|给我们?|替我们?|为我们?)(?:再)?(?:推荐|找|订|预订|预定|查|搜|介绍|选|挑)"
    r"(?:一下)?(?P<rest>.+?))[吗呢吧呗啊]?$"
)
_ZH_NUMERAL = "[一二两三四五六七八九十百千万]"
# A modifier that narrows what is asked for: a 的 phrase, an amount, a class, a range, a place.
_ZH_NARROWING = rf"的|\d|型|{_ZH_NUMERAL}+[块元个人晚天分星]|以上|以下|以内|左右|附近|周边"
_ZH_NARROWING_RE = re.compile(_ZH_NARROWING)
_ZH_POLITE_TAIL_RE = re.compile(r"[，,]?\s*(?:谢谢|多谢|谢啦|感谢)[了啊呀！!。.]*$")


# The goal that opens a Chinese conversation, with nothing that narrows it: "公司需要一个团队网
# 盘", "想买辆电动车上下班", "我们需要一个客户管理工具". It names what the talk is about, as "帮我推
# 荐一个酒店" does; "需要一个能坐七个人的车", "想买辆两万以内的电动车" narrow it and stay needs,
# and so does a quality wanted with no thing counted ("需要安静").
_ZH_BARE_GOAL_RE = re.compile(
    r"^(?:我们?|咱们?|我们?(?:公司|家|团队)|公司|家里|团队)?(?:现在|最近|准备|打算)?"
    r"(?:需要|想买|想找|想要|想换|要买|打算买|准备买|想配)一?(?:个|台|辆|款|家|套|部|把|张|只)"
    # Besides what narrows a request: any number, a quality it must have (能, 带, 有, 不 …).
    rf"(?![^，,。]*(?:{_ZH_NARROWING}|{_ZH_NUMERAL}|能|可以|不|带|有|要))"
    r"[\u4e00-\u9fff]{2,8}[。.！!]?$"
)


def states_the_goal_zh(clause: str) -> bool:
    """Does a Chinese clause only name what the user is after ("公司需要一个团队网盘")?"""
    return bool(_ZH_BARE_GOAL_RE.match(clause.strip()))


def narrowed_request(clause: str) -> str | None:
    """The request as a requirement ("Recommend a hotel in Lisbon under 150 a night") when it
    narrows what it asks for, else None."""
    body = clause.strip().rstrip("?？.!。！")
    zh = _ZH_REQUEST_RE.match(_ZH_POLITE_TAIL_RE.sub("", body))
    if zh:
        rest = re.sub(r"^(?:一个|一家|一间|个|家|几个|几家|一处|一些)", "", zh.group("rest"))
        return tidy(zh.group("request")) if _ZH_NARROWING_RE.search(rest) else None
    m = _REQUEST_RE.match(body)
    if m is None:
        return None
    rest = m.group("rest").strip()
    if _INFORMATION_RE.match(rest):
        return None
    # "Book a viewing at the Midland": the place named is the option chosen, not a constraint.
    if not _NARROWING_RE.search(_AT_A_NAMED_PLACE_RE.sub(" ", rest)):
        return None
    return tidy(f"{m.group('verb')} {rest}")


__all__ = ["narrowed_request", "states_the_goal_zh"]

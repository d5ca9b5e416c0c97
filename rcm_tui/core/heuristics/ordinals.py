"""An option named by its place in the assistant's list: "the first one is a hard pass",
"not option 2", "那第一个就不行了" (issue 12).

The ledger records what was turned down, not where it stood: "the first one" means nothing two
turns later, and the guard cannot see "the first one" proposed again. The reply the user
answers lists its options in order — as list items (the bold name, or the words before a dash
or a colon) or, in running text, as one sentence's series ("the Yeatman in Gaia, a boutique
hotel in Ribeira, or an apartment in Baixa"; "飞利浦 HX6730、小米 T500 或者舒客 G32"). The
ordinal picks one; with no list to pick from, the words are kept as they were.
"""

from __future__ import annotations

import re

from .options import strip_option_noise
from .sentences import BULLET_RE
from .text import CJK, REPLY_SENTENCE_RE

_EN_PLACES = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3,
              "4th": 3, "fifth": 4, "5th": 4, "last": -1}  # fmt: skip
_ZH_PLACES = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4}
_EN_ORDINAL_RE = re.compile(
    r"^(?:the\s+)?(?P<place>first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)"
    r"(?:\s+(?:one|option|choice|pick|suggestion|idea|recommendation))?$"
    r"|^(?:option|number|no\.?|#)\s*(?P<digit>[1-5])$",
    re.I,
)
_ZH_ORDINAL_RE = re.compile(
    r"^(?:那个|这个|那|这)?(?:第(?P<place>[一二三四五1-5])|(?P<last>最后)(?:一|那)?)"
    r"(?:个|款|家|种|条|套|项|款|位|所|间)?(?:方案|选项|推荐)?$"
)
_BOLD_RE = re.compile(r"\*\*(?P<name>[^*]{1,60})\*\*")
_NAME_END_RE = re.compile(r"\s+[-—–]\s+|[:：，,(（]|\s+—|—")
# What a reply says before the series it offers: "look at", "you could try", "可以选".
_LEAD_IN_RE = re.compile(
    r"^.*?\b(?:look\s+at|try|consider|go\s+for|go\s+with|options?\s+(?:are|include)|"
    r"(?:suggest|recommend)(?:ing)?|such\s+as|like|include|including|either|choose|pick|"
    r"there'?s|there\s+are|check\s+out|book)\s+"
    rf"|^.*?(?:可以看看?|可以选|可以考虑|可以试试|推荐|可以去|比如|例如|有|考虑)(?=[A-Za-z0-9{CJK}])",
    re.I,
)
_SERIES_SPLIT_RE = re.compile(r",\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+|、|或者|还是|以及|；|;")
# Where the series' last item ends and the sentence goes on about them all.
_PREDICATE_RE = re.compile(
    r"\s+(?:are|is|would|could|will|should|can|all|both|each|were|might)\b.*$|[都也].*$", re.I
)
_ALTERNATIVE_RE = re.compile(r"\bor\b|或者|还是", re.I)
_MAX_NAME_WORDS = 8


def place_of(option: str) -> int | None:
    """The list index an ordinal names (-1 for "the last"); None when `option` is no ordinal."""
    text = option.strip()
    m = _EN_ORDINAL_RE.match(text)
    if m:
        digit = m.group("digit")
        return int(digit) - 1 if digit else _EN_PLACES[m.group("place").lower()]
    z = _ZH_ORDINAL_RE.match(text)
    if z is None:
        return None
    if z.group("last"):
        return -1
    place = z.group("place")
    return int(place) - 1 if place.isdigit() else _ZH_PLACES[place]


def _list_names(reply: str) -> list[str]:
    names: list[str] = []
    for line in reply.splitlines():
        if not BULLET_RE.match(line):
            continue
        body = BULLET_RE.sub("", line).strip()
        bold = _BOLD_RE.search(body)
        name = bold.group("name") if bold and bold.start() < 4 else _NAME_END_RE.split(body)[0]
        names.append(name.strip(" *_.。"))
    return names


def _series_names(reply: str) -> list[str]:
    best: list[str] = []
    for sentence in REPLY_SENTENCE_RE.split(reply):
        offered = _LEAD_IN_RE.sub("", sentence.strip().rstrip(".!?。！？"), count=1)
        offered = re.split(r"[:：]\s*", offered)[-1]
        items = [re.split(r"[，。]", i)[0].strip() for i in _SERIES_SPLIT_RE.split(offered)]
        if items:
            items[-1] = _PREDICATE_RE.sub("", items[-1])
        # Two items make a series only as alternatives ("X or Y"): "Sounds good, enjoy!"
        # is none.
        paired = len(items) >= 3 or bool(_ALTERNATIVE_RE.search(offered))
        if paired and len(items) > len(best) and all(items):
            best = items
    return best


def offered_in_order(reply: str) -> list[str]:
    """The options `reply` lists, in its order: its list items, else its longest series."""
    names = _list_names(reply)
    if len(names) < 2:
        names = _series_names(reply)
    return [n for n in names if n and len(n.split()) <= _MAX_NAME_WORDS]


def resolved(option: str, reply: str) -> str:
    """The option an ordinal names in `reply`'s list; `option` itself otherwise."""
    place = place_of(option)
    if place is None:
        return option
    offered = offered_in_order(reply)
    if not offered or place >= len(offered):
        return option
    return strip_option_noise(offered[place]) or option

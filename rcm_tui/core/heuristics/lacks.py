""""We have no elevator", "the flat has no balcony", "我们家没有电梯": what the user's place or
means lacks is a constraint, not an option turned down.

Negated possession or existence describes the user's situation: every answer has to fit it
(no lift means carrying the kiln up the stairs; no car means no drive to the outlet), so it is
a requirement, and the thing lacked is no rejected option — the user would welcome it. The
construction is grammatical: a subject, then "have/has no", "'ve got no", "don't have a/any",
or "there is no"; a bare "no X" right after such a clause shares its verb ("we have only a
normal socket, no three-phase"). In Chinese: a place or a person, then 没有/没 and the noun
("楼里没电梯", "我没车"). Having no view ("I have no preference", "no idea", "没有意见") is not a
lack of anything an answer must fit.
"""

from __future__ import annotations

import re

from .bridge_zh import chinese_words, english_heads
from .options import option_matches
from .text import CJK_CHAR_RE

_SUBJECT = (
    r"(?:i|we|you|they|he|she|it|(?:my|our|the|his|her|their|this|that)\s+[\w-]+(?:\s+[\w-]+)?|"
    r"(?-i:[A-Z][\w-]+))"
)
_LACK_EN_RE = re.compile(
    rf"(?:^|\b(?:and|but|so|since|as|because|also|plus)\s+){_SUBJECT}\s+"
    r"(?:(?:only|also|still|really)\s+)?(?:(?:have|has)\s+(?:no|zero)|(?:'ve|'s|have|has)\s+got\s+no|got\s+no|"
    r"(?:do|does)(?:n'?t|\s+not)\s+(?:have|own)\s+(?:a|an|any)|"
    r"(?:have|has)(?:n'?t|\s+not)\s+got\s+(?:a|an|any))\s+(?P<thing>[\w-]+(?:\s+[\w-]+){0,2})"
    r"|\bthere(?:(?:'s|\s+is|\s+are)\s+no|\s+isn'?t\s+(?:a|an|any)|\s+aren'?t\s+any)\s+"
    r"(?P<thing2>[\w-]+(?:\s+[\w-]+){0,2})",
    re.I,
)
# What one has no view of, not a lack an answer must fit.
_NO_VIEW_RE = re.compile(
    r"^(?:preference|idea|clue|opinion|problem|issue|issues|problems|objection|objections|"
    r"favourite|favorite|interest|plans?|rush|hurry|doubt|complaints?|choice|reason|way|"
    r"need|one|time|patience|use|love|desire|energy|appetite|stomach|tolerance|intention)\b",
    re.I,
)
# "In flat we have only normal socket, no three-phase": a bare "no X" after the possession.
_BARE_NO_RE = re.compile(r"^(?:and\s+|but\s+)?no\s+(?P<thing>[\w-]+(?:\s+[\w-]+){0,2})$", re.I)
# "apiary's on an allotment, no power there": what a place lacks, said after the place.
_NONE_THERE_RE = re.compile(
    r"^(?:and\s+|but\s+)?no\s+(?P<thing>[\w-]+(?:\s+[\w-]+)?)\s+(?:there|here)$", re.I
)
_HAVE_RE = re.compile(r"\b(?:have|has|'ve\s+got|got)\b", re.I)
_PIECE_RE = re.compile(r"\s*[,;—–]\s*")
# Chinese: a place or a person, then 没有/没 and a noun ("楼里没电梯", "我们家没有烤箱", "我没车").
_LACK_ZH_RE = re.compile(
    r"(?:我们?|咱们?|俺|家里?|我家|我们家|楼里|楼上|小区里?|房子里?|屋里|宿舍里?|公司里?|"
    r"学校里?|村里|附近|阳台|厨房|店里|我哋|屋企|层楼)(?:也|都|还)?没有?"
    r"(?P<thing>[\u4e00-\u9fffA-Za-z]{1,6})"
)
_ZH_NO_VIEW_RE = re.compile(
    r"^(?:意见|想法|问题|兴趣|必要|关系|办法|时间|要求|所谓|什么|精力|心思|功夫|心情|用|这|那)"
)


# "as long as there's no glitter", "if there's no lift": a condition on what is wanted, which
# turns the thing down; no description of what the user has.
_CONDITION_BEFORE_RE = re.compile(
    r"\b(?:as|so)\s+long\s+as|\bprovided(?:\s+that)?|\bif|\bunless|\bmake\s+sure|\bensure|"
    r"\bwhere|\bsomewhere|\bsomething|\bone\s+(?:that|where|with)\s*$",
    re.I,
)


def _english_lacks(clause: str) -> list[tuple[str, str]]:
    """(thing, piece) for each lack stated in an English clause."""
    found: list[tuple[str, str]] = []
    had = False
    for index, piece in enumerate(_PIECE_RE.split(clause.strip(" .!?"))):
        m = _LACK_EN_RE.search(piece)
        if m and _CONDITION_BEFORE_RE.search(piece[: m.start()]):
            m = None
        # "No Airbnb there." on its own refuses; after a place told of, it says what is lacking.
        there = _NONE_THERE_RE.match(piece) if index else None
        bare = (_BARE_NO_RE.match(piece) if had else None) or there
        thing = (m.group("thing") or m.group("thing2")) if m else ""
        thing = thing or (bare.group("thing") if bare else "")
        if thing and not _NO_VIEW_RE.match(thing):
            found.append((thing, piece))
        had = had or bool(_HAVE_RE.search(piece))
    return found


def _names_a_thing(thing: str, after: str) -> bool:
    """没 before a noun ("没电梯", "没车。"), not before a verb ("还没办下来", "没想好")."""
    if _ZH_NO_VIEW_RE.match(thing):
        return False
    words = chinese_words(thing)
    if words and words[0][1] == 0:
        return bool(english_heads(words[0][0]))
    return len(thing) == 1 and not CJK_CHAR_RE.match(after)


def stated_lacks(clause: str) -> list[tuple[str, str]]:
    """(thing lacked, the words that say so) for every lack the clause states."""
    if CJK_CHAR_RE.search(clause):
        return [
            (m.group("thing"), clause)
            for m in _LACK_ZH_RE.finditer(clause)
            if _names_a_thing(m.group("thing"), clause[m.end() :])
        ]
    return _english_lacks(clause)


def lacked(option: str, clause: str) -> str | None:
    """The words that say the user lacks the option, when the clause says so."""
    for thing, piece in stated_lacks(clause):
        if option_matches(option, thing) or option in thing or thing in option:
            return piece
    return None

""""We will book the Speyside Way", "周末去看": what the user will do next, not what they need.

People close a conversation by saying what they will do: book, order, call, go and look
("I will order the Kong Extreme this weekend", "Will book the tour this week", "I believe I
shall proceed with the Treasury ladder", "那我先打电话约猫大夫", "周末去谈", "我现在就去
order"). Such a clause has a time word or a future and an action of the speaker's own; it sets
no constraint on an answer, so it is no requirement. A need said in the future ("we will need
two rooms", "I'll be travelling with my kids") names no such action and stays one.
"""

from __future__ import annotations

import re

from .text import CJK

_OPENER = r"(?:(?:ok(?:ay)?|so|then|great|perfect|cool|good|alright|right|yes|yeah)\b[,!.\s]*)*"
_FUTURE = (
    r"(?:(?:i|we)\s*(?:'ll|’ll|\s+will|\s+shall|\s+am\s+going\s+to|'m\s+going\s+to|"
    r"\s+are\s+going\s+to|'re\s+going\s+to|'m\s+gonna|'re\s+gonna)|ill|will|shall)"
)
# The speaker's own next actions ("keep" is left out: "I'll keep it under 300" sets a limit).
_ACTION = (
    r"(?:book|order|buy|get|start|call|ring|email|text|message|contact|ask|check|"
    r"look\s+(?:at|into)|head\s+(?:to|over)|pick\s+up|proceed|send|sign\s+up|reach\s+out|visit|"
    r"grab|schedule|download|install|print|talk\s+to|speak\s+to|make\s+(?:an?|the)\s+"
    r"(?:appointment|booking|call|reservation)|go\s+(?:for|with|ahead|and|to|see)|try|apply|"
    r"submit|write|draft|reserve|arrange|set\s+up)"
)
_PLAN_EN_RE = re.compile(
    rf"^{_OPENER}(?:i\s+(?:believe|think|guess|suppose)\s+)?{_FUTURE}\s+"
    rf"(?:(?:probably|just|now|then|also|first|definitely|go\s+and|try\s+and)\s+)*{_ACTION}\b",
    re.I,
)
# Said in the present, as people also plan ("I go to see it on Saturday with my friend",
# "Writing it up tonight", "Heading over there tomorrow"): the speaker's own action and a day
# it happens on. A deadline ("by Friday") is a constraint and is no plan.
_WHEN_EN = (
    r"\b(?:tonight|tomorrow|today|later\s+today|this\s+(?:morning|afternoon|evening|weekend|week)|"
    r"next\s+(?:week|weekend)|(?:on\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|"
    r"sunday)(?:\s+(?:morning|afternoon|evening))?)\b"
)
# (Going somewhere is a trip to plan for — "Going to Rome next week with my wife" — so "go"
# counts only as going to look at or fetch something.)
_PRESENT_ACTION = (
    r"(?:(?:go|going|head|heading)\s+(?:(?:over\s+|back\s+)?(?:to|and)\s+(?:see|look|check|"
    r"pick|collect|get|buy|view)|over\s+there|there)|call|calling|ring|ringing|email|emailing|"
    r"see|seeing|meet|meeting|order|ordering|book|booking|pick|picking|write|writing|check|"
    r"checking|buy|buying|collect|collecting)"
)
_PLAN_PRESENT_EN_RE = re.compile(
    rf"^{_OPENER}(?:(?:i|we)(?:'m|'re|\s+am|\s+are)?\s+)?(?:(?:then|also|first|just)\s+)?"
    rf"{_PRESENT_ACTION}\b(?!.*\b(?:by|before|until|no\s+later\s+than)\s+{_WHEN_EN})"
    rf".*{_WHEN_EN}",
    re.I,
)
_EN_MODAL_RE = re.compile(r"\b(?:need|needs|must|have\s+to|has\s+to|got\s+to|should|want)\b", re.I)
_ZH_WHEN = (
    r"(?:周末|明天|后天|下周|今晚|晚上|回头|待会儿?|等会儿?|现在|马上|这就|先|就|一会儿?|"
    # A day named: "周六我们先去瞅瞅", "我星期六打去约" (the day sits before or after the subject).
    r"(?:这|下)?(?:周|星期|礼拜)[一二三四五六日天]|明早|今天|今早|下午|上午|这周)"
)
# Calling, asking, ordering, signing up, trying or looking: an errand done without going.
_ZH_ERRAND = r"打电话|打个电话|联系|问问|下单|报名|试试|瞅瞅|看看"
_ZH_PLAN_ACTION = rf"(?:去|带[他她它]去|打去|打过去|约|写|坚持|观察|试用|{_ZH_ERRAND})"
_PLAN_ZH_RE = re.compile(
    rf"^(?:那|那就|好的?|行|嗯)?\s*(?:{_ZH_WHEN}\s*)*(?:我们?|咱们?)?\s*(?:{_ZH_WHEN}\s*)+"
    rf"{_ZH_PLAN_ACTION}"
    # "我去写方案了": going off to do it.
    rf"|^(?:那|好的?|行)?\s*(?:我们?|咱们?)(?:这就|就)?去[{CJK}\w ]{{1,8}}了$"
)
# What the plan is about, said first ("两家我周六先去看看场地", "外婆护照下周一去办", "小鹿C2
# 这周六去报名"); a day, then going somewhere to look, try or sign up ("周六上二手车市场溜达溜达",
# "周末我再去建材市场看看样子"); trying something first ("先报个寒假班试试水", "周末先把今年的数据
# 导进去试试"); and putting a matter off ("等明年真出蜜了再说"). Each is what the user will do.
_ZH_DAY = r"(?:(?:这|下)(?:个)?)?(?:周|星期|礼拜)[一二三四五六日天末]|周末|明天|后天|回头|改天"
# (Going somewhere is a trip to plan for — "下周五春游去植物园" — so 去 counts only with an
# errand after it.)
_ZH_GO_DO = (
    r"(?:去|上|到)[^，,。；;]{0,10}?(?:看看|瞅瞅|问问|试试|试一下|逛逛|溜达|报名|办|参观|谈)"
    rf"|{_ZH_ERRAND}"
)
_PLAN_ZH_LATER_RE = re.compile(
    rf"^[^，,。；;！!？?]{{0,12}}?(?:{_ZH_DAY})(?:[^，,。；;]{{0,6}}?)(?:{_ZH_GO_DO})"
    rf"|^(?:那|那就|行|好)?\s*(?:{_ZH_DAY})?\s*(?:我们?)?\s*先[^，,。；;]{{1,16}}试(?:试|一下|水)$"
    rf"|^等[^，,。；;]{{1,16}}再说$"
)
# A plan with a firm modal in it still states a need ("周末必须去看房").
_ZH_MODAL_RE = re.compile(r"必须|一定|务必|需要|得要|只能")


def states_a_plan(text: str) -> bool:
    """Does the clause say what the user will do next (and nothing they need)?"""
    body = text.strip()
    if _PLAN_EN_RE.match(body):
        return True
    if _PLAN_PRESENT_EN_RE.match(body) and not _EN_MODAL_RE.search(body):
        return True
    zh_plan = _PLAN_ZH_RE.match(body) or _PLAN_ZH_LATER_RE.match(body)
    return bool(zh_plan) and not _ZH_MODAL_RE.search(body)

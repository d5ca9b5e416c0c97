"""The shape of an option phrase, beside the rules that cut it (issue 12): what a contrasting
"not" names, "the … one" pointing at an offered option, an object put first or preferred over
another, and what the Chinese rules cut that is no option at all."""

from __future__ import annotations

import re

from .text import CJK

# "…, not really", "…, not that much", "…, not at all": what follows a contrasting "not" that
# is no option.
_NOT_AN_OPTION_RE = re.compile(
    r"^(?:really|quite|exactly|necessarily|always|much|many|too|so|very|just|only|even|"
    r"that|this|to|for|in|on|at|now|today|tonight|anymore|any|a\s+(?:big\s+)?(?:deal|problem|"
    r"lot)|an?\s+issue|bad|great|ideal|cheap|likely|everyone|everything|all|me|us|him|her|them|"
    r"because|if|when|until|as|like|worth|enough|sure|gonna|going|kidding|joking|lying|saying)\b",
    re.I,
)


_POINTED_OPTION_RE = re.compile(
    r"^the\s+(?:[\w-]+\s+){1,2}(?:one|ones|option|options|version|model|plan)$", re.I
)


def contrasted_option(opt: str) -> bool:
    """"…, not email": a short noun after a contrasting "not" is an option; "…, not really"
    is none."""
    return not _NOT_AN_OPTION_RE.match(opt) and len(opt.split()) <= 3


# "Not a dog though, …", "Not the ground floor — …", "Not flowers, …": a thing said alone
# refuses that thing; "Not a fan", "Not the cheapest", "Not a good idea" judge instead.
_EVERYDAY_THING_RE = re.compile(
    r"^(?:a|an|the)\s+(?!(?:big|good|bad|great|real|huge|problem|fan|deal|chance|lot|bit|thing|"
    r"point|idea|option|choice|issue|question|way|case|word|moment|priority|must|joke|end|fit|"
    r"match|concern|worry|dealbreaker|requirement|need|time|day|clue|hope)\b)"
    r"(?:[a-z-]+\s+)?(?![a-z-]*(?:est|ly|ous|ful|ive|able|ible)\b)[a-z-]{3,}s?$"
    # A bare plural names things as well: "Not flowers, she's allergic to pollen".
    r"|^(?!(?:always|sometimes|perhaps|besides|nowadays|thanks|this|yes|us|its|is|was|has|"
    r"less|unless|regardless|nevertheless|afterwards|towards)$)[a-z-]{3,}[^s']s$",
    re.I,
)


_TRAILING_WORD_RE = re.compile(
    r"\s+(?:though|tho|either|please|thanks|this\s+time|again|any\s*more)$", re.I
)
# "Not renting a boom lift again": a light verb before the thing refused.
_LIGHT_GERUND_RE = re.compile(
    r"^(?:renting|hiring|buying|booking|taking|doing|getting|ordering|paying\s+for)\s+", re.I
)


def names_an_everyday_thing(opt: str) -> bool:
    """ "Not a dog though": an article and a plain noun phrase of one or two words."""
    thing = _LIGHT_GERUND_RE.sub("", _TRAILING_WORD_RE.sub("", opt.strip()))
    return bool(_EVERYDAY_THING_RE.match(thing))


def points_at_an_option(opt: str) -> bool:
    """"Not the camera one": "the … one" points at an offered option as surely as a name."""
    return bool(_POINTED_OPTION_RE.match(opt))


# The object put first for weight, as people (and many non-native speakers) do: "Algolia we
# cannot use", "The Clavinova with more than 3000 euro we cannot afford", "Karaoke I can't
# stand", "Three pedals we need not".
_FRONTED_REFUSAL_RE = re.compile(
    r"^(?!(?:if|when|what|which|who|that|because|since|as|so|but|although|though|even|unless|"
    r"until|whatever|anything|everything|something|nothing|it|this|there|(?:the\s+)?(?:only\s+|one\s+)?thing)\b)"
    r"(?P<opt>[^,;:]{2,60}?)\s+(?:(?:for\s+now|for\s+the\s+moment|right\s+now|honestly)\s+)?"
    r"(?:we|i|he|she|they|(?:my|our)\s+\w+)\s+(?:really\s+|just\s+|"
    r"simply\s+)?(?:(?:can'?t|cannot|can\s+not|won'?t|will\s+not|don'?t|do\s+not|never)\s+"
    r"(?:afford|use|stand|eat|drink|do|take|manage|support|accept|allow|touch|trust|bear|"
    r"justify|join|want|need|like|buy|wear|have)|need\s+not"
    # "Football for now I leave it", "Padel we'll skip": set aside, the object said again.
    r"|(?:(?:will|'ll)\s+)?(?:leave|skip|drop|ditch|forget)\s+(?:it|them|that)(?=\s*(?:[,.;!]|$|"
    r"for\s+now|aside|out)))\b(?!\s+(?:to|with|without|for|is|was|are|were)\b)",
    re.I,
)
# "Then MkDocs over Docusaurus", "Trains over planes any day": a verbless preference of one
# option to another; the second is turned down.
_OVER_RE = re.compile(
    r"^(?:then\s+|so\s+|ok(?:ay)?\s+|definitely\s+)?(?P<keep>[\w.+#'-]+(?:\s+[\w.+#'-]+){0,2})"
    r"\s+over\s+(?!(?:the\s+top|budget|time|there|here|it|them|that|this|then|now|again|yet|"
    r"too|already|\d)\b)"
    r"(?P<opt>[\w.+#'-]+(?:\s+[\w.+#'-]+){0,2}?)"
    r"(?:\s+(?:any\s+day|every\s+time|for\s+(?:sure|now|this|me|us)|then|please))?\s*(?:[.!]?$|(?=,))",
    re.I,
)
_NOT_A_KEEP_RE = re.compile(
    r"\b(?:is|are|was|were|be|been|go|went|come|came|hand|think|get|got|take|took|win|won|fight|"
    r"argue|argued|all|game|run|ran|left|pull|turn|fall|fell|roll|i|we|you|he|she|they|"
    r"it|stay|stayed|sleep|slept|bit|lot|little|way|much)\b|'s\b",
    re.I,
)


def fronted_and_preferred(core: str) -> list[tuple[str, str, str]]:
    """(option, text after it, family) for a fronted refusal or a verbless "X over Y"."""
    found: list[tuple[str, str, str]] = []
    fronted = _FRONTED_REFUSAL_RE.match(core)
    if fronted:
        found.append((fronted.group("opt"), core[fronted.end() :], ""))
    over = _OVER_RE.match(core)
    if over and not _NOT_A_KEEP_RE.search(over.group("keep")):
        found.append((over.group("opt"), "", "replacement"))
    return found


# What no option is: a pronoun ("我是不会再碰它了" takes "碰它"; the option is the one named
# before), laughter ("不要哈哈"), a verb of thinking left by "想都别想" / "别寻思了", or a
# unit cut from its number ("保留7天这条别漏了" takes "天这条").
_ZH_NOT_AN_OPTION_RE = re.compile(
    r"[它他她俺咱您]|^(?:哈|呵|嘿|嘻|哦|嗯|啊)+$|^(?:就|才|都|也|还|又|再)|(?:想|寻思|琢磨)$"
)
_ZH_UNIT_START_RE = re.compile(r"^[天个条年月次周号点块元岁]")
_ZH_NUMERAL_RE = re.compile(r"[\d一二两三四五六七八九十几]")


def zh_cut_option(option: str, clause: str) -> bool:
    """An option the Chinese rules cut from a clause that names no option there."""
    if _ZH_NOT_AN_OPTION_RE.search(option):
        return True
    at = clause.find(option)
    before = clause[at - 1 : at] if at > 0 else ""
    return bool(_ZH_UNIT_START_RE.match(option) and _ZH_NUMERAL_RE.match(before))


# An English construction reads an English noun phrase: Chinese after a name ("no Redis 太贵了
# 微服务") is what is said about it, not part of it.
_BEFORE_CHINESE_RE = re.compile(rf"^([^{CJK}]*[A-Za-z0-9][^{CJK}]*?)\s*[{CJK}]")


def english_part(raw: str) -> str:
    """`raw` up to the first Chinese character after its latin words; itself without one."""
    m = _BEFORE_CHINESE_RE.match(raw)
    return m.group(1) if m else raw


# A time, a span of time or a bare amount is when or how much, never what is turned down
# ("别到时候又坐地起价", "前年做过一回", "two nights in the desert", "价格一万二"): a closed class
# of words, in both languages.
_ZH_NUM = r"[\d一二两三四五六七八九十百千万几半]+"
_TIME_OR_AMOUNT_ZH_RE = re.compile(
    rf"^(?:(?:到|那|这)?时候|[今明后前去]年|[上下这本]个?(?:周|星期|月)|以后|以前|之后|之前|当时|"
    rf"现在|最近|刚才|平时|每天|每周|早上|晚上|上午|下午|中午|半夜|周末|工作日|"
    rf"(?:[早晚]上)?{_ZH_NUM}(?:个)?(?:天|年|月|周|星期|小时|分钟|点钟?|晚|次|遍|回|块|元)"
    rf"(?:以后|之后|以前|之前|以上|以内|左右|多)?)$"
)
_TIME_OR_AMOUNT_EN_RE = re.compile(
    r"^(?:(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|a\s+few|couple(?:\s+of)?|"
    r"several|\d+)\s+)?(?:nights?|days?|weeks?|months?|years?|yrs?|hours?|hrs?|minutes?|mins?)"
    r"$|^(?:this|next|last)\s+(?:week|weekend|month|year|yr|time)$|^(?:today|tonight|tomorrow|"
    r"yesterday|now|later|soon)$",
    re.I,
)
# What only points ("这种的", "那个"), or a word of talk ("right", "ppl", 比如).
_POINTER_ZH_RE = re.compile(
    r"^(?:这|那)(?:个|种|些|样|款|类|家)?的?$|^(?:比如|然后|就是|所以)$"
    # "不考虑别的了": the others, set aside for the one chosen, are no option.
    r"|^(?:别的|其他|其它|别家|其余)(?:的|家|方案|选项)?$"
)
# A verb left where the option should be ("美卓就不用考虑了" read 不 + "用考虑", "不用看啦"):
# looking at or thinking about something is no thing.
_VERB_ZH_RE = re.compile(r"^用?(?:看|考虑|想|管|理|问|找|试|弄|搞|睇)(?:了|啦|吧|啊|喇)?$")
# ... and a place pointed at ("I won't set foot in there") when no antecedent was found.
_TALK_EN_RE = re.compile(
    r"^(?:right|ok|okay|yeah|yes|ppl|people|guys|folks|lol|haha|there|here)$", re.I
)
# A person doing or saying something inside the phrase makes it a clause, not a thing: "大家都说
# 这牌子(不行)", "吉利银河这个我没(看过)", "界面跟俺(八字不合)". A brand may hold a pronoun's
# character (爱他美), never one as a subject before an adverb or verb.
_ZH_PERSON = r"(?:[我你他她它俺咱您]们?|大家|别人|人家)"
_ZH_CLAUSE_RE = re.compile(
    rf"{_ZH_PERSON}(?=[没不也都就还说觉认看想真要会能可很太])|(?:跟|和|给|对|让|叫|帮){_ZH_PERSON}"
)


# Sentence adverbs, a closed class: how the speaker says it ("honestly it was a nightmare"),
# never what is turned down. (A brand may end in -ly: "launchdarkly", "Grammarly".)
_SENTENCE_ADVERB_RE = re.compile(
    r"^(?:honestly|frankly|seriously|really|actually|literally|basically|definitely|totally|"
    r"probably|obviously|clearly|personally|truly|certainly|absolutely|genuinely|apparently|"
    r"luckily|unfortunately|sadly|hopefully|ideally|currently|usually|normally|generally|"
    r"mostly|finally|originally|initially|eventually|especially|particularly|lately|recently|"
    r"surprisingly|admittedly|supposedly|realistically|practically|technically|naturally)$",
    re.I,
)


def names_no_thing(option: str) -> bool:
    """The option a rule read is a time, an amount, a pointer, a word of talk, a sentence
    adverb or a clause."""
    bare = option.strip(" .,!?，。！？")
    return bool(
        _SENTENCE_ADVERB_RE.match(bare)
        or _TIME_OR_AMOUNT_ZH_RE.match(bare)
        or _TIME_OR_AMOUNT_EN_RE.match(bare)
        or _POINTER_ZH_RE.match(bare)
        or _VERB_ZH_RE.match(bare)
        or _TALK_EN_RE.match(bare)
        or _ZH_CLAUSE_RE.search(bare)
    )

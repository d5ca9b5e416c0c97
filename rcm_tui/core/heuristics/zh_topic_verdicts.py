"""A topic, what is said of it, then a bare verdict on it (issue 12): "Slack在国内访问不稳定，
不考虑", "众包平台一事，…，此方案不再考虑", "零跑的话，…，已拉黑". Chinese names the topic first and
ends on a verdict with no object of its own or with an anaphor; the verdict turns the topic
down, and what was said between is its reason."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from .construction_parts import Construction
from .constructions_zh import (
    ZH_ADVERB,
    ZH_EXPERIENCER,
    ZH_HEDGE_RE,
    ZH_LEAD_RE,
    ZH_NEGATIVE_EVAL_RE,
    ZH_NOT_OPTIONS,
    chinese_sentence_constructions,
    is_zh_condition,
    not_a_zh_topic,
    zh_option_core,
)
from .text import CJK, ZH_LATIN_NAME

_ZH_NAME = ZH_LATIN_NAME


# What a verdict may open with to point back at the topic: "…，此方案不再考虑", "这个就别提了".
_ZH_ANAPHOR = (
    r"(?:此方案|该方案|这个方案|那个方案|此事|这事|那事|这个|那个|这种|那种|这家|那家|这款|那款|它)"
)
# A clause that is only a verdict ("…，不考虑。", "…，算了吧") turns down the topic of the clause
# before it: "Slack在国内访问不稳定，不考虑".
_ZH_BARE_VERDICT_RE = re.compile(
    rf"^{_ZH_ANAPHOR}?(?:{ZH_EXPERIENCER})?(?:可|应)?{ZH_ADVERB}*(?:不再考虑|不再用|不考虑|不要|不用|算[了啦咯喇]|pass|PASS|免[了啦]|不行|排除|不选|放弃|"
    r"拉倒|不予考虑|别提了|就别提了|跳过|告辞|拒绝|拉黑|不(?:再)?(?:纳入|列入)(?:本次|此次)?(?:[\u4e00-\u9fff]{0,4}范围)?|[\u4e00-\u9fff]{0,2}?换(?:一家|一个|个地方|个|别的|别家)|"
    r"去掉|删掉|划掉|拿掉|取消|换掉|不(?:太|大)?行|不需要|用不着|用不上|不(?:太|大)?合适|skip|SKIP|"
    # "前程无忧账号去年已到期，不拟续费", "现在用的X，就是要把它换掉".
    r"不(?:拟|打算|准备|再)?续(?:费|约|签|订)?|(?:就是)?要?把(?:它|这个|那个)(?:换掉|去掉|砍掉|停掉|退掉)|"
    r"不在考虑范围[内之]?|不在考虑之内|"
    # English typed in a Chinese message: "Vita 我看了 £250 一周起, can't afford that lol".
    r"(?i:nah|nope|no-?go|hard\s+pass|never\s+again|not\s+for\s+(?:me|us)|"
    r"can'?t\s+afford\s+(?:it|that|them))(?:\s+(?i:lol|lmao|haha|tbh))?)"
    r"[了吧啊呀哈]*[。！!.]?$"
)
_ZH_CLAUSE_TOPIC_RE = re.compile(
    rf"^(?:{ZH_EXPERIENCER}(?:觉得|感觉))?(?!本来|想|打算|准备|要|去)"
    rf"(?P<t>{_ZH_NAME}(?:\s{_ZH_NAME})?|[{CJK}]{{1,4}}{_ZH_NAME}|[{CJK}]{{2,10}}?)"
    # 好 as "so" ("石斑好贵，算啦"), not 好吃/好看/好用 (good to eat, to look at, to use).
    r"(?=\s?(?:太|很|好(?![吃看用玩听的像多])|不|没|在|有点|比较|实在|的?价格|也|都|就|还是|用起来|吃起来|看起来|听说|据说|"
    r"我|他|她|大家|团队|孩子|老人|对|去年|上次|之前|此前|以前|曾经|因|由于|是|"
    # "伏见稻荷那个要爬山，这个先跳过": "that X thing" names the topic of what follows.
    r"那个|那种)"
    # A clause that only names the topic: "兼职会计一事，…", "GL8那种，…".
    r"|(?:一事|那个|那种|这个|这种|那家|这家|方面|这块|那块|的话)$)"
)
# A Latin name opens the clause, whatever it says of it: "BOSS直聘以基层岗位为主，…".
_ZH_NAME_LEAD_RE = re.compile(
    # "Hays 20%也超了, skip": a space typed after it ends the name too.
    rf"^(?P<t>{_ZH_NAME}(?:\s{_ZH_NAME})?[{CJK}]{{0,3}}?)(?=[以是在的有太很不没也都就还比要能只]|\s)"
)


# Failing that, the Latin name alone, whatever Chinese follows ("Datadog按量计费，…，免了") or
# as the whole clause ("Fallowfield，学长说晚上不太安全, nah").
_ZH_BARE_NAME_LEAD_RE = re.compile(rf"^(?P<t>{_ZH_NAME}(?:\s{_ZH_NAME})?)(?=[{CJK}]|\s*$)")
# A clause that is only "as for X": "至于高校校友会，…".
_ZH_AS_FOR_RE = re.compile(rf"^(?:至于|关于)(?P<t>{_ZH_NAME}(?:\s{_ZH_NAME})?|[{CJK}]{{2,10}})$")


def _clause_topic(clause: str) -> re.Match[str] | None:
    return (
        _ZH_CLAUSE_TOPIC_RE.match(clause)
        or _ZH_NAME_LEAD_RE.match(clause)
        or _ZH_BARE_NAME_LEAD_RE.match(clause)
        or _ZH_AS_FOR_RE.match(clause)
    )


def is_bare_verdict(clause: str) -> bool:
    """The clause is only a verdict ("不考虑", "也不太行", "算了吧") on a topic said before it."""
    return bool(_ZH_BARE_VERDICT_RE.match(clause.strip()))


# "经内部讨论：华为IdeaHub因…": a short label before a colon is no part of the topic.
_ZH_LABEL_LEAD_RE = re.compile(r"^[^：:，,]{1,8}[：:]\s*")


def _bare_verdicts(sentence: str) -> list[Construction]:
    # A semicolon ends one topic's clauses: "华为…，暂不纳入本次选型范围；小鱼易连…，本次不再列入".
    return [
        found
        for part in re.split(r"[；;]", sentence)
        for found in (*_part_verdicts(part), *_other_chosen(part), *_resumed_topics(part))
    ]


# A name taken up again by "that one" and complained of in the same breath: "塑料那种太软了",
# "史密斯那个不是说不好就是太贵了", "东鹏那个经销商把我坑惨了".
_ZH_RESUMED_TOPIC_RE = re.compile(
    rf"^(?P<t>{_ZH_NAME}(?:\s{_ZH_NAME})?|[{CJK}]{{2,8}}?)\s?"
    r"(?:那种|那个|那款|那家|那台|那套|那玩意儿?|那东西)(?P<eval>[^，,。！!？?]+)$"
)


def _resumed_topics(sentence: str) -> list[Construction]:
    found: list[Construction] = []
    for clause in (c.strip() for c in re.split(r"[，,]", sentence)):
        m = _ZH_RESUMED_TOPIC_RE.match(clause)
        if not m or is_zh_condition(clause) or re.search(r"[吗嘛呢]$", m.group("eval")):
            continue
        said = m.group("eval")
        complaint = _complaint(said)
        hedge = ZH_HEDGE_RE.search(said)
        if complaint is None or (hedge is not None and hedge.start() < complaint.end()):
            continue  # "汗蒸宝那个也不是不行": a double negative keeps it (one said later in a
            # run-on, "…太贵了…海尔的也不是不行", is about another)
        option = zh_option_core(m.group("t"))
        if _an_option(option):
            found.append(Construction(option, "，" + said, "explicit_refusal"))
    return found


# "还是专车吧", "那还是住酒店吧": the other one chosen, said as a settling suggestion.
_ZH_OTHER_CHOSEN_RE = re.compile(
    rf"^(?:那|那就|算了)?还是(?:用|住|去|选|买|吃|坐|订|走|找|报|请|开|租)?(?P<y>[{CJK}A-Za-z0-9]{{1,10}}?)吧"
)
# Too much of something ("太折腾了", "太远了") is a complaint as plainly as a listed one.
_ZH_TOO_MUCH_RE = re.compile(rf"太[{CJK}]{{1,3}}了")


def _complaint(said: str) -> re.Match[str] | None:
    """Where what was said of a topic complains of it, if it does."""
    return ZH_NEGATIVE_EVAL_RE.search(said) or _ZH_TOO_MUCH_RE.search(said)


def _other_chosen(sentence: str) -> list[Construction]:
    """A topic complained of, then the other one chosen: "火车的话太折腾了，还是专车吧" turns
    the train down for the car, the complaint its reason."""
    clauses = [c.strip() for c in re.split(r"[，,]", sentence)]
    found: list[Construction] = []
    for before, clause in itertools.pairwise(clauses):
        chosen = _ZH_OTHER_CHOSEN_RE.match(clause)
        topic = _clause_topic(before)
        if not (chosen and topic) or is_zh_condition(before):
            continue
        said = before[topic.end() :]
        option = zh_option_core(re.sub(r"的话$", "", topic.group("t")))
        if _complaint(said) and _an_option(option) and option not in chosen.group("y"):
            found.append(Construction(option, "，" + said, "explicit_refusal"))
    return found


def _part_verdicts(sentence: str) -> list[Construction]:
    clauses = [c.strip() for c in re.split(r"[，,]", _ZH_LABEL_LEAD_RE.sub("", sentence.strip()))]
    found: list[Construction] = []
    first = _clause_topic(clauses[0])
    for at, (before, clause) in enumerate(itertools.pairwise(clauses)):
        topic = _clause_topic(before)
        if at and first and not not_a_zh_topic(first.group("t")):
            topic = first  # "折叠车轮子小，骑长途不稳，也算了": the sentence's topic
        if at and ("换" in clause or not topic or not_a_zh_topic(topic.group("t"))):
            # "北海道十月有点冷吧，我怕冷，算了" / "…服务也跟不上，今年换一家": the sentence's
            # first clause holds what is turned down.
            before = clauses[0]
            topic = first
        if topic and _ZH_BARE_VERDICT_RE.match(clause):
            # The reason is all that was said of the topic before the verdict.
            said = [before[topic.end() :]] if topic is not first else [
                clauses[0][first.end() :], *clauses[1 : at + 1]
            ]
            option = zh_option_core(topic.group("t"))
            if _an_option(option) and not is_zh_condition(before):
                rest = "，" + "，".join(part for part in said if part)
                found.append(Construction(option, rest, "explicit_refusal"))
    return found


def _an_option(option: str) -> bool:
    """A topic that can be an option: not a wish, a plan or a guess ("我妈应该撑(不住)"), not a
    pronoun or a lead word, not a time, a price or a condition."""
    return (
        len(option) >= 2
        and not re.search(r"想|去|打算|要|应该|可能|估计|大概|恐怕", option)
        and option not in ZH_NOT_OPTIONS
        and not ZH_LEAD_RE.fullmatch(option)
        and not not_a_zh_topic(option)
    )


def zh_sentence_verdicts(sentence: str) -> list[Construction]:
    """Every construction read over a whole Chinese sentence: topic verdicts first."""
    return [*_bare_verdicts(sentence), *chinese_sentence_constructions(sentence)]


def clauses_told_in(clauses: Sequence[str], ruled: Sequence[bool], ci: int, rest: str) -> set[int]:
    """The clauses after `ci`, with no rejection of their own (`ruled`), that `rest` tells
    whole: "Zabbix 俺瞅着就闹心，那界面跟俺八字不合，拉倒吧" gives its topic's reason in them."""
    return {
        j
        for j in range(ci + 1, len(clauses))
        if not ruled[j] and len(clauses[j].strip()) >= 2 and clauses[j].strip() in rest
    }


# A sentence that is only a verdict on "that one" ("那个就算了", "这个先跳过。", "那家就免了吧"):
# in a message typed with spaces for commas each piece is a sentence of its own, so what it
# points back at is named in a sentence before it.
_ZH_ANAPHORIC_VERDICT_RE = re.compile(
    rf"^(?:那|所以|反正)?(?:那个|这个|那家|这家|那款|这款|那种|这种|此方案|它)(?:{ZH_ADVERB}|我看)*"
    r"(?:算[了啦咯喇]|免[了啦]|拉倒|不考虑|pass|跳过|不要了|不用了|别提了|不行)[了吧啊呀哈]*[。！!～~]*$"
)
# What such a verdict points back at: a sentence that opens with a latin name ("GL8老款我二舅开过")
# or with a topic taken up by "that one" ("伏见稻荷那个千本鸟居…").
_ZH_RESUMED_LEAD_RE = re.compile(rf"^(?P<t>[{CJK}]{{2,8}}?)(?:那个|那种|那家|那款)")


def is_anaphoric_verdict(sentence: str) -> bool:
    """The sentence is a verdict on "that one", or ends on one after clauses that name nothing
    ("我妈应该撑不住，这个先跳过": who cannot, then the verdict)."""
    *before, last = re.split(r"[，,]", sentence.strip())
    if not _ZH_ANAPHORIC_VERDICT_RE.match(last.strip()):
        return False
    topics = (_clause_topic(clause.strip()) for clause in before)
    return not any(t and _an_option(zh_option_core(t.group("t"))) for t in topics)


def named_topic(sentence: str) -> str | None:
    """The option a Chinese sentence opens with, when it opens with a name or a topic taken up
    by "that one"; None otherwise (a clause topic such as "一个月油钱" names no option)."""
    text = sentence.strip()
    lead = _ZH_BARE_NAME_LEAD_RE.match(text) or _ZH_RESUMED_LEAD_RE.match(text)
    if lead is None:
        return None
    option = zh_option_core(lead.group("t"))
    return option if _an_option(option) else None

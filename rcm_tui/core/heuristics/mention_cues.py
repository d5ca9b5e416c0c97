"""How a reply's clause frames one mention of a rejected option: the cues right before it
("instead of", "不用", "try", "推荐"), right after it ("is ruled out", "would be ideal", 不考虑),
a reason clause ("Since a dog would be alone…"), a comparison (比青旅安静, 和生酮不同). Read by
`replies.py` mention by mention; True proposes, False names it as rejected, None is neutral."""

from __future__ import annotations

import re

from .text import CJK_CHAR_RE

# Cues right before a mention, nearest wins; a longer cue ending at the same place beats a
# shorter one, so "don't use X" / "不用X" read as negative although they contain "use" / "用".
_NEGATIVE_BEFORE_RE = re.compile(
    # "no need to reconsider X" before the bare "no", so the longer cue is found at all.
    r"\b(?:no\s+need\s+to\s+(?:\w+\s+)?(?:use|add|revisit|reconsider|go\s+back\s+to|return\s+to)|"
    r"no|not|without|instead\s+of|rather\s+than|unlike|except(?:\s+for)?|other\s+than|"
    r"apart\s+from|besides|avoid(?:s|ing|ed)?|drop(?:s|ping|ped)?|skip(?:s|ping|ped)?|"
    r"forget(?:ting)?(?:\s+about)?|ditch(?:ing)?|replac(?:e|ing)|"
    r"(?:migrat|mov)(?:e|ing)\s+(?:away\s+)?from|(?:leav(?:e|ing)|left)\s+out|"
    r"(?:set(?:ting)?|put(?:ting)?)\s+aside|steer(?:ing)?\s+clear\s+of|"
    r"stay(?:ing)?\s+away\s+from|free\s+(?:of|from)|no\s+more|"
    # The user's aversion reported back: "since you hate X", "you're sick of X".
    r"hate|hated|dislike|loathe|can'?t\s+stand|(?:not|aren'?t|isn'?t)\s+(?:a\s+)?fan\s+of|"
    r"allergic\s+to|sick\s+of|tired\s+of|fed\s+up\s+with|burn(?:ed|t)\s+by|"
    r"(?:not|aren'?t|isn'?t)\s+into|minus|sans|hold\s+the|"
    # A warning of where it hides: "peanuts often hide in satay", "may contain traces of X",
    # "listed as chicken meal", "watch out for hidden X", "be careful with satay".
    r"(?:hid(?:e|es|ing|den)|lurk(?:s|ing)?|sneak(?:s|ing)?|(?:turn|show)(?:s|ing)?\s+up)\s+in|"
    r"contain(?:s|ing)?(?:\s+traces\s+of)?|traces?\s+of|(?:listed|labell?ed|disguised)\s+as|"
    r"watch\s+(?:out\s+)?for|look\s+out\s+for|beware(?:\s+of)?|careful\s+(?:with|of|about)|"
    # "vegan leather", "gluten-free pasta", "non-alcoholic beer": not the thing itself.
    r"faux|vegan|fake|imitation|[\w]+-free|non-[\w]+|nonalcoholic|decaf(?:feinated)?|"
    r"away\s+from|off|against|rul(?:e|es|ed|ing)[\s-]+out|reject(?:ed|ing)?|exclud(?:e|ed|ing)|"
    r"no\s+longer|compared\s+(?:with|to)|than|versus|vs\.?|over|"
    # "it beats any iPhone": the option is what the offer is measured against.
    r"beat(?:s|ing)?|outperform(?:s|ing)?|outclass(?:es|ing)?|trump(?:s|ing)?|"
    r"(?:don'?t|do\s+not|won'?t|will\s+not|shouldn'?t|can'?t|cannot|never)\s+"
    r"(?:\w+\s+)?(?:use|using|need|want|add|go\s+with|recommend|suggest|propose|"
    r"go\s+back\s+to|return\s+to|revisit|reconsider|bring\s+back))\b"
    r"|不用|不要|别用?|不使用|不采用|既然不用|放弃了?|排除了?|除了|而不是|没有|不考虑|去掉|不再|"
    r"不想|不喜欢|不爱|不能|不吃|不坐|不含|不带|不去|不买|不住|不选|避免|避开|远离|无需|拒绝|"
    r"不推荐|没推荐|讨厌|受不了|过敏|不感冒|吃不了|喝不了|除去|不包括|怕|小心|留意|警惕|当心|含有?|"
    # "安热沙小金瓶不适合你（酒精含量高）": what follows an unsuitability is its reason.
    r"不适合|不建议|"
    # A comparison: "比青旅安静得多", "相比自驾", "不同于生酮" (not 比如 "for example", 比较).
    r"(?<![对相])比(?![如较方])|相比于?|比起|不同于|区别于|不像",
    re.I,
)
_POSITIVE_BEFORE_RE = re.compile(
    r"\b(?:use|using|into|to|with|via|in|on|onto|consider|considering|recommend|suggest|try|"
    r"adopt|adopting|add|adding|introduce|pick|choose|go\s+with|leverage|switch\s+to|"
    r"move\s+to|migrate\s+to|like|such\s+as|prefer|put|store|keep|back(?:ed)?\s+by|run|"
    r"deploy|i'd\s+(?:go\s+with|use|pick)|opt\s+for|let|alternatively|otherwise|or\s+else|"
    r"how\s+about|what\s+about|"
    # Everyday offers: "take a cab", "book a river cruise", "grab some satay", "order the
    # pancakes", "head to the Goodwill", "stay at a hostel".
    r"take|grab|book|order|get|buy|rent|hire|visit|catch|hop\s+on|head\s+to|stay\s+at|"
    # Dishes and things made or brought: "share a paella", "bake a tiramisu", "pack a cab fare".
    # Not "make": "it would make Kafka unnecessary".
    r"share|serve|bake|cook|whip\s+up|enjoy|bring|pack|check\s+out|look\s+into|"
    r"pop\s+(?:in)?to|swing\s+by|stop\s+by|"
    # "you need a MongoDB index": a need the reply asserts is an offer ("don't need" is negative).
    r"(?<!if\s)(?<!when\s)(?:you|you'll|you\s+will|we|we'll)\s+(?:\w+\s+)?need|"
    r"go\s+for|treat\s+(?:her|him|them|yourself)\s+to|pick\s+up|sign\s+up\s+for|"
    r"i'd\s+(?:recommend|suggest|start\s+with)|start\s+with|"
    # "let's go back to Kafka", "we could revisit Kafka": going back to an option proposes it.
    r"go(?:ing)?\s+back\s+to|return(?:ing)?\s+to|revisit(?:ing)?|reconsider(?:ing)?|"
    r"bring(?:ing)?\s+back|"
    r"(?:answer|choice|option|solution|pick|recommendation|bet|candidate|approach|fix|tool)\s+"
    r"(?:here\s+)?(?:is|would\s+be))\b"
    r"|建议(?:使用|用|采用)?|推荐|可以(?:用|考虑|使用)|使用|采用|改用|换成|迁移到|放到|存到|存入|放进|选择|"
    # 考虑到 gives a reason ("考虑到有客人海鲜过敏"); 考虑 alone considers the option.
    r"考虑(?!到)|"
    # 上 as a verb ("上Kafka"), not the suffix of 本质上, 基本上, 实际上, 晚上, 网上.
    r"拆成|拆分成|改成|做成|引入|(?<![质本际论则面体身晚早路网线马以之])上|用|试试|坐|叫|打|订|买|去|住|报|送|点|吃|喝|带|来一?[个份杯瓶碗]|不如|不妨",
    re.I,
)
_POSITIVE_AFTER_RE = re.compile(
    r"^\W{0,3}(?:(?:would|will|could)\s+(?:also\s+|equally\s+)?(?:be|work|handle|fit|give)|"
    # An appraisal: "X is an excellent choice", "X is the right tool", "X is a proven option".
    r"(?:is|are|remains?)\s+(?:still\s+)?(?:the\s+|an?\s+)?(?:very\s+|really\s+)?"
    r"(?:usual|best|natural|obvious|simplest|easiest|excellent|superb|outstanding|reliable|"
    r"robust|proven|popular|mature|suitable|appropriate|viable|well[\s-]suited|top|fine|"
    r"reasonable|"
    r"right|ideal|recommended|standard|go-to|better|good|great|solid|strong|perfect|"
    r"sensible|clear|quickest|fastest|cheapest|safest|most\s+\w+)\b|fits|handles|gives\s+you|shines|excels|works\s+(?:well|best|great)|"
    r"is\s+(?:ideal|perfect|better|best|great)\s+for|"
    # "a Redis cache in front would help"
    r"(?:[\s-]+[\w-]+){0,4}\s+(?:would|could|will|can)\s+(?:really\s+)?(?:help|work|shine|"
    r"solve|simplify|handle|fit|be\s+(?:ideal|best|better|great|perfect|simpler|faster|easier|"
    r"the\s+(?:\w+est|best|right|way|answer|choice|pick)|(?:a\s+)?(?:good|great|natural|solid|"
    r"easy|quick|fast|sensible))|make\s+(?:\w+\s+){0,3}(?:much\s+|far\s+|a\s+lot\s+)?"
    r"(?:easier|simpler|faster|trivial|safer|cleaner))\b)|"
    r"\s*(?:is|are)\s+(?:purpose[- ]built|designed|made|built|tailor[- ]made)\s+for|"
    # "Kafka might be worth revisiting", "Kafka deserves another look"
    r"^\W{0,3}(?:might|may|could|would|is|are)\s+(?:well\s+)?(?:be\s+)?worth\s+(?:revisiting|"
    r"reconsidering|another\s+look|a\s+(?:second\s+)?look|a\s+try)|"
    r"^\W{0,3}deserves?\s+(?:another|a\s+second|a\s+fresh)\s+look"
    r"|^(?:更好|最好|更合适|是最佳|是首选|很合适|非常适合|比较合适)",
    re.I,
)
_NEGATIVE_AFTER_RE = re.compile(
    r"^\W{0,3}(?:(?:is|was|has\s+been|were|are|had\s+been)\s+(?:now\s+|already\s+)?"
    r"(?:ruled\s+out|rejected|off\s+the\s+table|out|excluded|dropped|not\s+an?\s+option|"
    r"not\s+allowed|no\s+longer\s+an?\s+option|not\s+on\s+the\s+table|out\s+of\s+the\s+question|"
    r"a\s+no[- ]?go)|,?\s*(?:which|that)\s+you\s+(?:rejected|ruled\s+out|excluded|dropped)|"
    r"out\s+of\s+(?:the\s+picture|it|this|the\s+stack|scope)|"
    r"(?:is|was)\s+not\s+(?:wanted|welcome)|"
    # "peanut-free", "MongoDB Atlas would have been the easy choice": not on offer.
    r"-free\b|(?:would|could|might)\s+have\s+been\b|aside\b|"
    # "X isn't really your thing", "X is off the menu"
    r"(?:is|are)(?:n't|\s+not)\s+(?:really\s+)?(?:your|my|their|his|her)\s+thing|"
    r"(?:is|are)\s+off\s+the\s+(?:menu|list)|(?:you|they)\s+(?:hate|dislike|can'?t\s+stand)|"
    # A participle of exclusion with no copula: "with Heroku crossed off", "Redis excluded,".
    r"(?:crossed|struck|scratched|ticked)\s+(?:off|out)\b|(?:left|taken|ruled|cut|filtered)\s+"
    r"out\b|(?:excluded|removed|eliminated|set\s+aside)\b|off\s+the\s+(?:table|list|menu)\b)"
    # "a peanut allergy", "海鲜过敏": the user's condition, which rules the option out.
    r"|^\W{0,3}(?:allerg(?:y|ies|ic)|intoleran(?:t|ce))\b"
    # A warning of where it hides: "chicken hides in ingredient lists", "X can turn up in pesto".
    r"|^\W{0,3}(?:(?:often|can|may|might|sometimes|also|usually)\s+)?(?:hides?|hidden|lurks?|"
    r"sneaks?\s+in(?:to)?|(?:turns?|shows?)\s+up\s+in)\b"
    r"|^(?:被排除|已经排除|不行|不考虑|已被否决|被否决|已排除|除外|过敏|不耐受)"
    # "酒吧街就跳过了", "KTV就不考虑了": the topic first, then what is done with it.
    # "出现乙醇就放下", "看到酒精就别买": if it shows up, put it back.
    r"|^[^\n]{0,24}?就(?:放下|放回去|别买|不要买|pass)"
    r"|^[\u4e00-\u9fff]{0,3}(?:就|也|都|先)?(?:跳过|算了|免了|省了|不去了|不考虑|不推荐|排除|去掉|"
    r"不安排|不用了|不要了)"
    r"|^[\u4e00-\u9fff]{0,5}(?:就|也|都)?(?:没有?|不|未)(?:再)?(?:放|安排|推荐|考虑|选|列|包括|包含|含|"
    r"涉及|需要)",
    re.I,
)
# "..., but you ruled it out": an acknowledgement that covers the mentions before it.
ACK_LATER_RE = re.compile(
    r"\b(?:(?:you|we)\s+(?:rejected|ruled\s+out|excluded|dropped|said\s+no\s+to)\s+\w|"
    r"(?:you|we)\s+(?:ruled|crossed|struck)\s+(?:[\w-]+\s+){1,3}out\b|"
    r"(?:it|that|this|which)\s+(?:was|is|has\s+been|had\s+been)\s+"
    r"(?:ruled\s+out|rejected|off\s+the\s+table|excluded)\b)",
    re.I,
)
_NEGATOR_BEFORE_CUE_RE = re.compile(
    r"(?:\b(?:not|never|no|without)|n't)\s+(?:\w+\s+){0,1}$|"
    r"(?:不|别|没有?|未)(?:想|要|打算|愿意?|会|能|再)?$",
    re.I,
)
# 不/没/别 and at most one verb right before the mention: 不喝酒, 没坐的士, 别打车 (not 不如, 不妨,
# 不错, which recommend).
# 无 negates the noun right after it (无酒精啤酒), not a head noun further on (无痛胃镜 is a
# painless gastroscopy, 无糖可乐 still a cola).
_ZH_NEGATED_VERB_RE = re.compile(
    # "这类不是刺激性酒精": denied to be it, with the modifier of what it is not.
    r"(?:(?:不(?![如妨错少仅但管])|没(?![错])|别|无需)[\u4e00-\u9fff]{0,3}|无|不是[\u4e00-\u9fff]{0,5})$"
)
# A comparison measures the offer against the option: 和生酮不同, 跟青旅比, 与地铁相比.
_ZH_COMPARED_BEFORE_RE = re.compile(r"(?:和|跟|与|同)$")
_ZH_COMPARED_AFTER_RE = re.compile(r"^(?:相比|比起来|比较起来|比|不同|不一样|有别|区别)")
_ZH_SCOPE_CHARS = 8
_ZH_SCOPE_BREAK_RE = re.compile(r"[^\u4e00-\u9fff]|但|而|就|再|然后|或者|还是|可以|建议|推荐")
# A subordinate clause that gives a reason or a premise: what it names is not on offer.
_REASON_CLAUSE_RE = re.compile(
    r"^\W{0,3}(?:since|because|as|given(?:\s+that)?|now\s+that|seeing\s+(?:as|that)|"
    r"considering(?:\s+that)?)\s+(?:[\w'-]+\s+){0,4}$|^\W{0,3}(?:既然|因为|由于|考虑到)",
    re.I,
)
CLAUSE_SPLIT_RE = re.compile(r"\s*(?:;|；|:\s|：|[—–]|\s-\s|,|，|\(|\))\s*")


# "Option 2: Redis" — a list of proposals.
PROPOSAL_LABEL_RE = re.compile(
    r"\b(?:option|alternative|candidate|recommendation|suggestion|choice|pick|answer|proposal)"
    r"\s*[\w.)-]{0,3}\s*[:：]\s*$|(?:建议|推荐|方案\s*\w?)\s*[:：]\s*$",
    re.I,
)
# "..., I would reconsider it": the reply argues for the option it just named.
URGE_REOPEN_RE = re.compile(
    r"\b(?:i|we|you)\s*(?:would|'d|should|could|might\s+want\s+to)\s+(?:really\s+)?"
    r"(?:reconsider|revisit)\b|建议重新考虑|"
    # "I know you said no screens, but this one is worth an exception": a concession to the
    # user's rule, then the case against it.
    r"\b(?:but|however|though|that\s+said|even\s+so)\b.{0,120}?\b(?:make\s+an\s+exception|"
    r"worth\s+an\s+exception|(?:one|an)\s+exception\s+(?:here|for|worth)|hear\s+me\s+out|"
    r"bend\s+(?:the|that|your|this)\s+rule|just\s+this\s+once|giv(?:e|ing)\s+(?:it|them)\s+"
    r"(?:another|a\s+second)\s+(?:chance|try|go|shot))\b"
    r"|(?:但是?|不过).{0,30}?(?:破个?例|例外一次|网开一面|再给.{0,4}一次机会)",
    re.I,
)


CUE_WINDOW = 200
_SCOPE_WORDS = 4
_WEAK_POSITIVE_RE = re.compile(r"with|in|on|into|onto|to|via|like|such\s+as", re.I)
# A preposition's object ends at a conjunction, a relative pronoun or punctuation: what comes
# after it is another phrase, not the thing offered "in" or "with".
_CLAUSE_BREAK_RE = re.compile(
    r"[,;:.!?()]|\b(?:but|and|or|yet|though|although|which|that|who)\b", re.I
)


def cue_before(prefix: str) -> str | None:
    """'neg' / 'pos' for the cue nearest the end of `prefix` (within a few words), or None."""
    if len(prefix) > CUE_WINDOW:
        # Only cues a few words before the mention count: look no further back than that
        # (cut at a word boundary), so a long clause costs no more than a short one.
        cut = len(prefix) - CUE_WINDOW
        space = prefix.find(" ", cut)
        prefix = prefix[space + 1 :] if space >= 0 else prefix[cut:]
    best: tuple[int, int, str] | None = None  # (end, -start, kind)
    for kind, pattern in (("neg", _NEGATIVE_BEFORE_RE), ("pos", _POSITIVE_BEFORE_RE)):
        for m in pattern.finditer(prefix):
            gap = prefix[m.end() :]
            if len(gap.split()) > 4 or len(CJK_CHAR_RE.findall(gap)) > 6:
                continue
            if kind == "pos" and _WEAK_POSITIVE_RE.fullmatch(m.group().strip()) and (
                _CLAUSE_BREAK_RE.search(gap)
            ):
                continue  # "common in shade but poisonous": the mention is not its object
            candidate = (m.end(), -m.start(), kind)
            if best is None or candidate[:2] > best[:2]:
                best = candidate
    if best is None:
        return None
    end, neg_start, kind = best
    if kind == "pos" and _NEGATOR_BEFORE_CUE_RE.search(prefix[:-neg_start]):
        return "neg"
    if kind == "pos" and _WEAK_POSITIVE_RE.fullmatch(prefix[-neg_start:end].strip()):
        # "avoid anything with peanuts", "no dishes like satay": a preposition inside the
        # object of a negative verb stays in its scope.
        near = " ".join(prefix[:-neg_start].split()[-_SCOPE_WORDS:])
        if _NEGATIVE_BEFORE_RE.search(near):
            return "neg"
    if kind == "pos" and CJK_CHAR_RE.match(prefix[-neg_start:end]):
        # "排除了所有需要坐出租车的路线": a Chinese verb of offering inside the scope of a
        # negative one a few characters before it, with no clause break between them.
        near = prefix[:-neg_start][-_ZH_SCOPE_CHARS:]
        negatives = list(_NEGATIVE_BEFORE_RE.finditer(near))
        if negatives and not _ZH_SCOPE_BREAK_RE.search(near[negatives[-1].end() :]):
            return "neg"
    return kind


def mention_proposes(clause: str, start: int, end: int) -> bool | None:
    """True: proposes; False: mentions it as rejected; None: a neutral mention."""
    before, after = clause[:start], clause[end:]
    if _NEGATIVE_AFTER_RE.match(after):
        return False
    kind = cue_before(before)
    if kind == "neg" or _ZH_NEGATED_VERB_RE.search(before):
        return False
    if _ZH_COMPARED_BEFORE_RE.search(before) and _ZH_COMPARED_AFTER_RE.match(after):
        return False
    last_word = before.split()[-1] if before.split() else ""
    weak = kind == "pos" and bool(_WEAK_POSITIVE_RE.fullmatch(last_word))
    if (kind is None or weak) and _REASON_CLAUSE_RE.match(before):
        # "Since a dog would be alone all day, ...", "Given your experience with Kafka, ...":
        # the option is the reason for what the main clause offers, not the offer.
        return False
    if kind == "pos" or _POSITIVE_AFTER_RE.match(after):
        return True
    return None

"""Needs stated without a modal: the way people describe what they are planning.

"Throwing a party for my daughter, she's turning 7. About 12 kids coming." holds no "must",
yet the age and the head count constrain every answer. A clause is a requirement here when it
states a constraint a reply has to fit — a quantity or an age, a date or a time window, a
preference ("I'd prefer …", "ideally …", "最好 …"), who it is for or what it has to fit — and it
is not small talk, a question, a decision or a story about the past.
"""

from __future__ import annotations

import re

from .reply_manner import states_no_need
from .sentiment import evaluative
from .text import CJK

_ZH_NUM = "一二两三四五六七八九十百千万几半"
# A number with what it counts: "12 kids", "4 nights", "a6400" is a model, "2.2 x 1.8 m".
_COUNT_RE = re.compile(
    r"(?:^|[\s~<>≤≥(])(?:\d+(?:[.,]\d+)*(?:\s*[x×]\s*\d+(?:[.,]\d+)*)?\+?|one|two|three|four|"
    r"five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|a\s+dozen)"
    r"(?:[- ]?(?:k|m|cm|mm|km|kg|g|ml|l|gb|tb|pm|am|h|hrs?|mins?|ppl|pp|yo|x))?[\s-]*"
    r"(?:[a-z][\w-]*\s+){0,2}?(?:[a-z]{3,}s|people|ppl|kids|children|guests|adults|nights|"
    r"days|weeks|months|years|hours|minutes|rooms|beds?|bed|tables|cats|dogs|pets|jobs|agents|"
    r"staff|crew|employees|voices|"
    r"users|seats|tenants|persons?|year[- ]old|month[- ]old|am|pm|k|m|kg|g|cm|m²|sq\s*m)\b"
    r"|\b\d{1,2}:\d{2}\b"
    # Not an ordinal (第二天) nor "those few" (那几个舅舅): no amount of anything.
    r"|(?<![第那这])[\d两三四五六七八九十百千万几]+个"
    r"|[一二两三四五六七八九十\d]+(?:座|口人?)|一家[三四五六]口|人均"
    rf"|(?<![第\d{_ZH_NUM}])[\d{_ZH_NUM}]+\s*个?(?:人|岁|天|晚|夜|小时|分钟|周|年|个月|月|桌|块|元|次|公里|米|平米|"
    r"平|大卡|字|G|GB|万|千|点|号|室|间|楼|层|斤|公斤|克"
    # Measure words: "四十份", "七十公分", "两台", "三套".
    r"|份|公分|厘米|毫米|寸|英寸|升|瓦|套|台|辆|张|件|本|箱|盒|瓶|双|位|只|节|站)",
    re.I,
)
_AGE_RE = re.compile(
    r"\b(?:turning|turns|aged?|i'?m|she'?s|he'?s|is|are)\s+(?:about\s+)?\d{1,2}\b(?!\s*(?:%|\$))"
    r"|\b\d{1,2}(?:th|st|nd|rd)\b"
    # "她七十了", "他们都六十多了": an age said as a number and 了.
    rf"|(?:他|她|我|爸|妈|孩子|老人|女儿|儿子)(?:们)?(?:都|也|已经|今年)*[\d{_ZH_NUM}]{{1,4}}多?(?:岁)?了",
    re.I,
)
_WHEN_RE = re.compile(
    r"\b(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun|weekends?|weekdays?|"
    r"tomorrow|tonight|next\s+(?:week|month|year)|mornings?|evenings?|overnight|daily|weekly|"
    r"twice|by\s+the\s+\w+|per\s+(?:day|night|week|month))\b"
    r"|周[一二三四五六日末]|星期|下周|本周|这周|月份|[一二三四五六七八九十\d]+月|国庆|春节|"
    r"周末|晚上|早上|上午|下午|每天|每周|每晚|以内|之内|之前|以前|下个?月|明年|月底|年底|暑假|寒假",
    re.I,
)
_PREFER_RE = re.compile(
    # A liking said outright: "drama movies are my thing", "I'm in the mood for sichuan", "I
    # like pop songs" — not "I like that" (an assent) nor "I like the idea" (a verdict).
    r"\b(?:is|are)\s+(?:really\s+)?my\s+thing\b|\bin\s+the\s+mood\s+for\b"
    r"|\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:really\s+|very\s+|quite\s+)?(?:interested\s+in|into)\b"
    r"|^(?:i|we)\s+(?:really\s+|also\s+)?(?:like|love|enjoy)\s+"
    r"(?!(?:it|that|this|them|those|these|the\s+idea|your|what|how|to\s+know)\b)|"
    r"\b(?:prefer|preferred|preferably|ideally|works?\s+better|suits?\s+(?:us|me)\s+better|(?:i|we|he|she|they|you)'?d\s+(?:like|love|prefer|rather|want)|"
    r"would\s+rather|as\s+long\s+as|so\s+long\s+as|provided\s+that|"
    # "A boat would be our preference", "The family would like it near the sea": a wish of the
    # people planned for.
    r"(?:is|would\s+be|'d\s+be)\s+(?:our|my|his|her|their)\s+(?:first\s+|strong\s+|clear\s+)?"
    r"(?:preference|choice|priority)|(?:our|my)\s+preference\s+(?:is|would\s+be)|"
    r"(?:family|wife|husband|partner|kids|children|son|daughter|mum|mom|mother|dad|father|"
    r"parents|team|boss|client|guests|everyone)\s+would\s+(?:like|love|prefer|rather)|"
    r"(?:sounds?|would\s+be|'d\s+be)\s+(?:better|best|ideal|great|perfect|preferable|nice|"
    r"amazing|lovely|wonderful|fantastic)|"
    r"(?:is|are)\s+what\s+(?:i|we|he|she|they)(?:'m|'re|\s+am|\s+are|\s+is|'s)?\s*"
    r"(?:after|looking\s+for|want|need)|otherwise|"
    r"hoping\s+for|goal\s+is|aim\s+is|(?:is|are)\s+preferable|"
    r"(?:is|are|would\s+be|'d\s+be|will\s+be)\s+(?:a\s+)?(?:big\s+|huge\s+|real\s+|definite\s+|nice\s+)?"
    r"(?:plus|bonus|must)|"
    r"mostly|mainly)\b"
    r"|最好|希望|偏好|尽量|只能|只有|只要|主要|一定要|适合|为主|(?<![不没])(?:特别|很|最|比较|超|挺)?喜欢"
    r"|(?<![不没])爱(?:吃|喝|玩|看|画|听|读)|(?:不要|别)(?:离[\u4e00-\u9fff]{1,6})?太"
    # "自动挡就行", "国产的就可以": what is enough is what is wanted ("这样就行" acknowledges).
    r"|(?<!这样)(?<!那样)(?<!这个)(?<!那个)(?<!随便)(?<![都也])(?:就行|就可以|就好|即可)(?:了)?[。！.!]?$"
    # "更想领养", "想要国产的", "我想自己办": a wish (not "想问", "想知道", "不想", "想法"; nor
    # thinking: "帮我想想", "也想过", "脑壳都想痛了"; nor feeling sick: "想吐"). The softened
    # "not" is text.ZH_HALF_NOT spelt out: a lookbehind must have a fixed width.
    r"|(?<![不没理感思设梦回猜联他她想])(?<!不太)(?<!不大)(?<!不怎么)(?<!不是很)(?<!不是太)想"
    r"(?!法|到|起|象|像|问|知道|了解|请教|咨询|听|看看|说|必|清楚|一想|想|过|痛|吐)"
    r"(?=[\u4e00-\u9fff])",
    re.I,
)
# Who it is for and what it has to fit: "for my dad", "I'm vegan", "I have a dog".
_PEOPLE = (
    r"(?:dad|father|mom|mum|mother|parents?|wife|husband|partner|son|daughter|kids?|children|"
    r"family|sister|brother|friend|boss|guests|grandma|grandpa|baby|toddler|niece|nephew|"
    r"girlfriend|boyfriend|\d+[- ]year[- ]old|dogs?|cats?|puppy)"
)
_CONTEXT_RE = re.compile(
    rf"\bfor\s+(?:my|our|a|an|his|her)\s+(?:\w+\s+)?{_PEOPLE}\b"
    r"|^(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:a\s+|an\s+)?(?:total\s+|complete\s+)?\w+"
    r"(?:\s+person)?$"
    r"|^(?:i|we|he|she|they|(?:my|our)\s+\w+)(?:\s+(?:have|has|own|owns|shoot|use)|"
    r"(?:'ve|'s|\s+have|\s+has)\s+got)\s+"
    r"(?:a|an|two|three|four|\d)\b"
    # What the person planned for likes: "she's obsessed with ocean stuff", "he loves
    # gardening" — a reply should fit it.
    r"|^(?:he|she|they|(?:my|our|his|her)\s+\w+)(?:'s|'re|\s+is|\s+are)\s+(?:really\s+)?"
    r"(?:obsessed\s+with|into|crazy\s+about|a\s+(?:big\s+)?fan\s+of|big\s+on)\s+\w+"
    r"|^(?:he|she|they|(?:my|our|his|her)\s+\w+)(?:'s|'re|\s+is|\s+are)\s+an?\s+(?:keen|avid|big|"
    r"huge|passionate|serious|fussy|picky|light|heavy)\s+\w+"
    r"|\b(?:moving|moved|relocating)\s+(?:in)?to\s+(?:a|an|the)\s+\w+"
    r"|^(?:he|she|they|(?:my|our|his|her)\s+\w+)\s+(?:really\s+)?(?:loves?|enjoys?|likes?)\s+"
    r"(?!it\b|that\b|this\b)\w+"
    # Where: "in Soho", "near Shinjuku", "around Leeds".
    r"|\b(?:near|around|close\s+to|next\s+to|(?:stay|staying|live|living|based|located|hotel|"
    r"place|somewhere|something|trip|flat|apartment)\s+(?:\w+\s+)?in)\s+(?!I\b)(?-i:[A-Z][a-z]{2,})"
    r"|^(?:written|built|running)\s+(?:in|on)\b"
    # Where and how the person lives or works: "we live in a walk-up", "I work from home".
    r"|^(?:i|we|he|she|they|(?:my|our)\s+\w+)\s+(?:live|lives|work|works)\s+(?:in|from|on|at|"
    r"nights|shifts|late|remotely)\b"
    r"|(?:'re|are|'m|am)\s+(?:also\s+|really\s+)?keen\s+on\b"
    # Chinese: health and skill that constrain, where one lives or works, who comes along.
    r"|膝盖|腰不好|颈椎|鼻炎|哮喘|怕冷|怕热|晕车|晕船|晕针|晕血|恐高|零基础|新手|初学|有老有小|"
    r"人在[\u4e00-\u9fff]{2}|"
    r"(?:公司|家|住|我们)在[\u4e00-\u9fff]{2,6}|从[\u4e00-\u9fff]{2,4}到[\u4e00-\u9fff]{2,4}"
    r"|过敏|不耐受|高原反应|高血压"
    # An illness one has ("我有糖尿病", "他有中耳炎"), where one is (坐标成都, 我住北投).
    r"|有[\u4e00-\u9fff]{1,4}(?:病|炎|症)|乳糖不耐|坐标|(?:我|我们|我家)住[\u4e00-\u9fff]{2}",
    re.I,
)
# Not a requirement whatever else it holds.
_SMALL_TALK_RE = re.compile(
    r"\b(?:lol|haha+|ugh|lmao|omg|hehe|sorry|hey|hi|hello|wow|oops|ooh+|aww+|yay|by\s+the\s+way|"
    r"to\s+be\s+clear|to\s+be\s+fair|no\s+doubt)\b|哈哈|呵呵|天气",
    re.I,
)
# What happened, counted: a verb, the perfective 了 or 过, then how many or how long ("吐了好几天",
# "前后换了三个人", "做过一回"). A state reached ("六岁了") and a limit ("多了不行") are no story.
ZH_PAST_COUNT_RE = re.compile(
    # (过 after a time is a verb: "下个月过十岁生日".)
    rf"[{CJK}](?<![岁多少月年天周])(?:了|过)(?:快|近|将近|足足|整整|不到)?(?:[一二三四五六七八九十两几半]|好几|\d)"
    r"(?![一二三四五六七八九十两\d]*岁)"
)
_STORY_RE = re.compile(
    r"(?<!'ve\s)(?<!have\s)(?<!has\s)(?<!'s\s)\bgot\b(?!\s+to\b)"
    r"|\b(?:was|were|had|did|went|met|bought|tried|said|told|thought|used\s+to|yesterday|"
    r"ago|once|took|spent|ran|came|saw|broke|failed|crashed|last\s+(?:week|month|night|time))\b"
    r"|以前|之前买|上次|本来|已经|问一个问题|之前|被[\u4e00-\u9fff]{0,4}过|坏了|第一次|听说|据说"
    r"|去年|前年|那次|那年|小时候|当时|上回|上个月|上周|前几天|前阵子|那会儿?|后来"
    rf"|{ZH_PAST_COUNT_RE.pattern}",
    re.I,
)
# Someone did something: a regular past tense right after its subject ("We stayed in one in
# Osaka", "they turned up 40 mins late"); a story unless the sentence also says what is wanted
# ("I just moved into a north-facing flat and I'd love plants that cope with low light").
_DID_RE = re.compile(
    r"\b(?:i|we|he|she|they)\s+(?:\w+ly\s+|already\s+|just\s+|also\s+|once\s+)?"
    r"(?!(?:need|want|hop|plann|intend|prefer|requir|expect)ed\b)\w{2,}ed\b",
    re.I,
)
# A day's routine told in Chinese ("早上喝豆浆", "晚上自己做", "下班到家都八点了"): a time of day
# and what is done then, with no word of wanting, limiting or refusing in it.
_ZH_ROUTINE_RE = re.compile(
    r"^(?:[我他她]们?|孩子|娃|老公|老婆|我们家)?(?:每天|天天|平时|一般|早上|中午|晚上|下午|上午|"
    r"半夜|下班(?:到家)?|这[一二两三几]?周)"
    # (A distance, a length of time or money is a constraint: "每天通勤来回60公里".)
    r"(?![^，,。]*(?:\d|公里|千米|小时|分钟|米|块|元|万))[^，,。！!？?要能想需必别不没最只得行以内前后]{1,10}$"
)
_CHAT_RE = re.compile(
    r"^(?:thanks|thank\s+you|ok|okay|cool|great|nice|perfect|sounds\s+good|looks\s+good|"
    r"interesting|hmm|sure|got\s+it|makes\s+sense|let\s+me\s+think|i\s+see)\b|再想想|好的$"
    # A bare verdict on the last proposal ("Skip.", "Pass."): nothing wanted.
    r"|^(?:skip|pass|nope|nah)$"
    # Thanks and sign-offs, in the languages people sign off in: a closed class.
    r"|^(?:cheers|ta|thx|ty|tysm|much\s+appreciated|obrigad[oa]|gracias|merci|danke|grazie|"
    r"arigato|cheers\s+all|bye|good\s+night|night|thank\s*u+|god\s+bless)\b|^(?:谢谢|多谢|感谢|拜拜)"
    # Openers and cheers said alone: "Quick one", "LETS GO", "you're a lifesaver".
    r"|^(?:quick\s+(?:one|q|question)|let'?s\s+go+|done|sorted|deal|final\s+answer|"
    r"that'?s\s+(?:it|all)|you'?re\s+(?:a\s+)?(?:lifesaver|legend|star|"
    r"the\s+best))[\s!.🎉]*$",
    re.I,
)
_CJK_RE = re.compile(f"[{CJK}]")


# A salutation on its own ("Hiya!", "Good afternoon.", "Dear all,"): it opens a message.
_SALUTATION_RE = re.compile(
    r"^(?:hiya|hi|hello|hey|howdy|greetings|(?:good\s+)?(?:morning|afternoon|evening|day)|"
    r"dear\s+(?:sir\s+or\s+madam|sir|madam|\w+(?:\s+\w+)?))(?:\s+(?:all|everyone|there|folks|team|guys))?$",
    re.I,
)
# "Hello, I'm organising lunch…": the greeting opens the sentence, the rest is read.
_SALUTATION_LEAD_RE = re.compile(r"^(?:hiya|hi|hello|hey|dear\s+\w+)\s*[,!]\s*", re.I)
# "we'd want a pub at the end for a pint lol": laughter closes a sentence that still says a need.
_LAUGH_TAIL_RE = re.compile(r"[\s,]*\b(?:lol|haha+|lmao|hehe)\b[\s!.:)]*$", re.I)
# Words that only stress a spec: "Indoor heated pool for sure", "dinghy if poss".
_STRESS_TAIL_RE = re.compile(
    r"\s+(?:for\s+sure|definitely|ideally|if\s+possible|if\s+poss|pls|please)$",
    re.I,
)
_VERB_OR_PRONOUN_RE = re.compile(
    r"\b(?:is|are|was|were|do|does|did|i|we|you|it|they|that|this|she|he|"
    r"change|again|please|thanks|looks?|seems?|sounds?|maybe|later|thoughts?|some|not|no|"
    r"never|nope|absolutely|definitely|slightly|honestly|really|totally|probably|"
    r"certainly|seriously|literally|actually|worried|sure|fine|eh|meh|hmm|might|may|could|"
    r"would|will|hates?|hated|loves?|loved|likes|liked|enjoys|everyone|everybody|nobody)\b|'",
    re.I,
)
# "A hot tub would be a nice bonus but not essential": a wish the user calls optional.
_OPTIONAL_RE = re.compile(
    r"\bnot\s+(?:essential|a\s+must|a\s+dealbreaker|necessary|required|needed|crucial)\b"
    r"|\b(?:no\s+big\s+deal|nice\s+to\s+have\s+at\s+most)\b",
    re.I,
)


def stated_requirement(core: str) -> str | None:
    """The clause itself when it states a constraint without a modal, else None."""
    body = _LAUGH_TAIL_RE.sub("", _SALUTATION_LEAD_RE.sub("", core)).strip(" .!。！")
    if body.endswith((":", "：")):
        return None  # a header ("Some thoughts:"), what follows says the rest
    if not body or _SALUTATION_RE.match(body) or states_no_need(body):
        return None
    if _SMALL_TALK_RE.search(body) or _CHAT_RE.match(body) or _OPTIONAL_RE.search(body):
        return None
    counted = bool(_COUNT_RE.search(body) or _AGE_RE.search(body))
    timed = bool(_WHEN_RE.search(body))
    story = _STORY_RE.search(body) or (_DID_RE.search(body) and not _PREFER_RE.search(body))
    if story and not _AGE_RE.search(body):
        return None  # "之前买的空调三年坏了两次": what happened, not what is wanted
    if (timed or counted) and _ZH_ROUTINE_RE.match(body):
        return None
    if counted or timed or _PREFER_RE.search(body) or _CONTEXT_RE.search(body):
        return body
    # A short noun phrase on its own line answers what is wanted ("Walk-in shower.",
    # "veg friendly", "Self-hosted only"): a spec, not a sentence.
    if _spec_fragment(_STRESS_TAIL_RE.sub("", body)):
        return body
    please = re.match(
        r"^(?P<np>[A-Za-z][\w-]*(?:\s+[\w-]+){0,7}),?\s+please(?:$|,\s)", body, re.I
    )
    if (
        please
        and not _VERB_OR_PRONOUN_RE.search(please.group("np"))
        and not re.search(r"\b(?:thanks|yes|no|ok|okay|go|more|less|again)\b", body, re.I)
    ):
        return please.group("np")  # "Ski school with English-speaking instructors please"
    # "Indoor heated pool for sure, she catches cold easily": a spec, then why.
    head, _, tail = body.partition(", ")
    if (
        tail
        and _REASON_CLAUSE_RE.match(tail)
        # "queues everywhere, the kids hated it": a memory, not a reason.
        and not (_STORY_RE.search(tail) or re.search(r"\b\w{2,}ed\b", tail))
        and _spec_fragment(_STRESS_TAIL_RE.sub("", head))
    ):
        return head
    return None


# A clause with its own subject: after a spec, it says why.
_REASON_CLAUSE_RE = re.compile(
    r"^(?:because\s+|since\s+|as\s+)?(?:i|we|he|she|they|it|my|our|his|her|their|the)\s+\w+"
    r"|^so(?:\s+that)?\s+\w+\s+\w+",
    re.I,
)


def _spec_fragment(body: str) -> bool:
    words = body.split()
    if len(words) == 1 and evaluative(words[0]):
        return False  # "Lovely." judges what was said; it specifies nothing
    return (
        1 <= len(words) <= 4
        and len(body) <= 60
        and not _VERB_OR_PRONOUN_RE.search(body)
        and not _CJK_RE.search(body)
        and not _ACTION_TOLD_RE.match(body)
    )


_OBJECT_START = r"(?:the|a|an|my|our|your|his|her|their|this|that|these|those|it|them)\b"
# "Booking the Ivy", "getting the blue one": a gerund that takes an object is a verb phrase, an
# action reported or decided; "heated pool", "parking for two cars" name a thing wanted.
GERUND_WITH_OBJECT_RE = re.compile(
    rf"^(?!(?:some|any|no|every)thing\b)\w+ing\s+{_OBJECT_START}", re.I
)
# As a line of its own, only a transaction or the planning itself is told ("Booking the Ivy",
# "Planning our end-of-year party"); "Having a garden", "Keeping the cost down" may be wanted.
_ACTION_TOLD_RE = re.compile(
    r"^(?:booking|ordering|buying|purchasing|reserving|renting|hiring|planning|organi[sz]ing)"
    rf"\s+{_OBJECT_START}",
    re.I,
)

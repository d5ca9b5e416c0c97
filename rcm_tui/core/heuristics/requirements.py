"""Requirements in a user message: needs, constraints, answers to the assistant's questions."""

from __future__ import annotations

import re

from .cues import (
    ACK_WORDS,
    ASSENT_RE,
    BUILD_VERB_RE,
    EXCLUDED_LABEL_RE,
    OUTPUT_VERB_RE,
    SYSTEM_VERB_RE,
    YES_NO_OPENER,
)
from .options import option_matches
from .reply_manner import states_no_need
from .requests import narrowed_request
from .sentences import COMMA_RE, ZH_PARTICLES_RE, strip_discourse, tidy
from .statements import GERUND_WITH_OBJECT_RE, ZH_PAST_COUNT_RE
from .text import CJK, CJK_CHAR_RE

# Written Chinese says 需 alone ("所有内容需提前过法务"); not 无需, 所需, 急需 or 需求 (a noun).
_ZH_WRITTEN_XU = r"(?<![无所急])需(?![求要])"
_PRONOUN_MODAL_RE = re.compile(
    r"^(?:we|i|you|it|they|this|that|the\s+(?:app|system|function|service|api|code|endpoint|"
    # "we must" / "we'd like to": a space, or straight into the contraction.
    r"tool|solution))(?:\s+|(?='))(?:really\s+|also\s+|still\s+|definitely\s+|absolutely\s+)?"
    r"(?P<modal>must(?:\s+also)?|need\s+to|needs\s+to|have\s+to|has\s+to|have\s+got\s+to|"
    r"has\s+got\s+to|got\s+to|gotta|should|shall|will\s+need\s+to|'ll\s+need\s+to|"
    r"are\s+required\s+to|is\s+required\s+to|'re\s+required\s+to|want\s+to|'d\s+like\s+to|"
    r"would\s+like\s+to)\s+(?:also\s+)?(?P<rest>.+)$",
    re.I,
)
STRONG_MODAL_RE = re.compile(
    r"\b(?:must|mustn'?t|need\s+to|needs\s+to|have\s+to|has\s+to|has\s+got\s+to|"
    r"have\s+got\s+to|(?:'s|'ve)\s+got\s+to|gotta|required?|requires|requirement|mandatory|"
    r"shall|should|shouldn'?t|is\s+essential|"
    r"it'?s\s+essential|is\s+critical|make\s+sure|ensure|guarantee|can\s+only|"
    # "can only get up there weekends": a limit as firm as 只能.
    r"(?:i|we)\s+only\s+have)\b"
    # "we need an audit trail" — but not "no need for", "don't need", "need help".
    r"|(?<!no\s)(?<!n't\s)(?<!not\s)\bneeds?\b(?!\s+(?:to|help)\b)"
    # "Data can't leave our VPC", "the dryer cannot be vented outside": a limit on a thing (a
    # person's "can't" is an inability, read by the rejection constructions).
    r"|^(?!(?:i|we|you|he|she|they|my\s+\w+|our\s+\w+)\b)(?:[\w'-]+\s+){1,4}?"
    r"(?:can'?t|cannot|can\s+not|may\s+not|must\s+never)\s+(?!stand\b|bear\b)\w+"
    r"|必须|需要|要求|一定要|务必|应该|应当|只能|只支持|只允许|(?<!不是)不能(?!不|妥协|再多|再少)|不超过|不得|至少|最多|记得"
    rf"|{_ZH_WRITTEN_XU}(?=[\u4e00-\u9fff])"
    r"|(?:别|不要|唔好)超过|控制在"
    r"|别忘了|不要忘记|还要|也要|得要|(?<![主重只想不还也])要(?![不是么求问看说知了])"
    # 得 (děi) "must": "车得是能上牌的", "房子得有电梯" — not the 得 of 觉得, 值得, 跑得有点快.
    r"|(?<![觉记值获取懂显晓舍使免难省怪见认跑说做写搞弄长听看变来去弄吃睡])得(?:是|能|有(?![点些]))"
    # A body that cannot ("我爸爬不了楼梯", "太沉的箱子搬不动"): a hard limit on every answer.
    r"|(?:爬|走|搬|抬|扛|拎|站|蹲|跪|弯|举|骑)(?:不了|不动)",
    re.I,
)
# "need to pick/decide ..." states an open decision, not a constraint.
_DECISION_AFTER_MODAL_RE = re.compile(
    # "I need to pick the car up at 3:30": collecting it, not choosing.
    r"^(?:pick(?!\s+(?:[\w-]+\s+){0,2}?up\b)|choose|decide|select|figure\s+out|think\s+about|discuss|know|understand|ask|"
    r"learn|explore|find\s+out|work\s+out|compare|evaluate|settle)\b",
    re.I,
)
_WANT_TO_CHAT_RE = re.compile(
    r"^(?:know|understand|ask|learn|see|discuss|talk|explore|check|hear|get\s+your|start|"
    r"begin|try|understand)\b",
    re.I,
)
_NEED_HELP_RE = re.compile(
    r"^(?:i|we)\s*(?:need|want|would\s+like|'d\s+like)\s+(?:some\s+)?help\s+(?:with\s+|"
    r"(?:in\s+)?(?P<ing>creat|build|writ|mak|design|implement)ing\s+|"
    r"to\s+(?P<verb>create|build|write|make|design|implement)\s+)(?P<task>.+)$",
    re.I,
)
INFO_VERB_RE = re.compile(
    r"^(?:tell|explain|summari[sz]e|describe|remind|clarify|compare|recap|elaborate|walk|"
    r"go\s+through|talk|review|evaluate|assess)\b",
    re.I,
)
SCOPE_MARKER_RE = re.compile(
    r"\b(?:also|too|as\s+well|additionally|in\s+addition|plus)\b|还要|也要|另外", re.I
)
# "Test coverage is low" starts with a verb-looking noun; an imperative has no finite verb
# right behind its first word.
_NOT_IMPERATIVE_RE = re.compile(
    r"^\S+(?:\s+\S+)?\s+(?:is|are|was|were|has|have|had|will|would|can|could|should|must|"
    r"does|did|seems|looks|sounds|'s)\b|^use\s+cases?\b",
    re.I,
)
_LETS_RE = re.compile(r"^let'?s\s+(?!not\b)(?P<rest>.+)$", re.I)
_LETS_CHAT_RE = re.compile(
    r"^(?:start|begin|talk|discuss|see|look|think|focus|move\s+on|recap|review|continue|"
    r"go\s+back|go\s+through|take|try\s+to\s+understand|brainstorm|explore|get\s+started|"
    r"dig|dive|step\s+back|say)\b",
    re.I,
)
_DONT_FORGET_RE = re.compile(
    r"^(?:don'?t|do\s+not|never)\s+forget\s+(?:to\s+|about\s+|that\s+)?(?P<rest>.+)$|"
    r"^(?:不要忘记|别忘了|记得)(?P<zh>.+)$",
    re.I,
)
TRAJECTORY_RE = re.compile(
    r"\b(?:keep\s+(?:it|them|everything|sessions?|data)\s+(?:in|on)|stay\s+(?:with|on)|"
    r"stick\s+(?:with|to)|switch\s+to|move\s+to|migrate\s+to|go\s+with|let'?s\s+use|"
    r"we(?:'ll|\s+will)\s+use)\s+[A-Z]"
    r"|就用|决定用|改用|换成|选用",
    re.I,
)
_NUMBER_PATTERN = (
    r"(?:\d+(?:[.,]\d+)*\s*(?:k|m|bn|million|thousand|billion)?|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|"
    r"a\s+(?:hundred|thousand|million)|dozens?\s+of)"
)
_UNIT_PATTERN = (
    r"(?:%|percent|ms|milliseconds?|secs?|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|"
    r"months?|years?|kb|mb|gb|tb|pb|bytes?|kib|mib|gib|tib|rps|qps|tps|req/s|writes?|reads?|"
    r"quer(?:y|ies)|transactions?|events?|messages?|users?|customers?|clients?|tenants?|"
    r"accounts?|records?|rows?|items?|files?|uploads?|requests?|calls?|connections?|"
    r"sessions?|engineers?|developers?|devs?|people|persons?|members?|servers?|nodes?|"
    r"instances?|cores?|cpus?|regions?|zones?|usd|eur|dollars?|euros?)"
)
_QUANTITY_RE = re.compile(
    rf"[$€£¥]\s*\d[\d,.]*\s*(?:k|m|bn)?\b|\b{_NUMBER_PATTERN}\s*(?:-\s*|\s+)?"
    rf"(?:[a-z][a-z-]*\s+){{0,2}}{_UNIT_PATTERN}(?![a-z])"
    r"|\d+(?:\.\d+)?\s*(?:MB|GB|KB|TB|个|人|名|年|个月|月|天|小时|分钟|秒|次|万|千|条|倍)",
    re.I,
)
_TEAM_RE = re.compile(
    rf"\b(?:team\s+of|we\s+are|we're|with)\s+(?P<n>{_NUMBER_PATTERN})\s*"
    r"(?P<unit>engineers?|developers?|devs?|people|persons?)?\b"
    rf"|^(?P<n2>{_NUMBER_PATTERN})\s+(?P<unit2>engineers?|developers?|devs?|people|persons?)$"
    rf"|\b(?P<n3>{_NUMBER_PATTERN})[- ](?:person|people|engineer|developer|member)\s+team\b"
    r"|团队(?:有|共)?(?P<n4>\d+|[一二三四五六七八九十]+)(?:个)?人",
    re.I,
)
_PAST_RE = re.compile(
    r"\b(?:was|were|had|did|took|tried|spent|ran|went|came|saw|broke|failed|crashed|"
    r"used\s+to|yesterday|last\s+(?:week|month|year|time|night)|ago)\b"
    # "We've got a small grant", "it's got to be step-free": possession and obligation.
    r"|(?<!'ve\s)(?<!have\s)(?<!has\s)(?<!'s\s)(?<!'d\s)\bgot\b(?!\s+to\b)",
    re.I,
)
_CONSTRAINT_NOUN_RE = re.compile(
    r"\b(?:deadline|budget|sla|slo|quota|limit|cap|ceiling|retention|due\s+date)\b|预算|截止|上限|期限",
    re.I,
)
# "Budget: under $200/month", "Database: PostgreSQL": a spec line.
_LABEL_VALUE_RE = re.compile(r"^[A-Za-z][\w /&-]{0,30}:\s+\S")
# "评分是4.5分以上", "价格在100-200元", "时长控制在2小时": an attribute and its amount, the
# Chinese spec line. A person opening the clause tells a story instead ("我在2019年…").
_ZH_ATTRIBUTE_VALUE_RE = re.compile(
    r"^(?![我你他她它这那])[\u4e00-\u9fff]{1,6}(?:(?:是|在|要在|要|为|控制在|不低于|不高于|不超过|低于|高于)"
    r"\s*\d[\d.]*(?:\s*[-~到至]\s*\d[\d.]*)?\s*[\u4e00-\u9fffA-Za-z%]{0,3}"
    # "门票20元以下的就行": an amount and its bound need no verb; "票价是免费的": nor a number.
    r"|\d[\d.]*\s*[\u4e00-\u9fffA-Za-z%]{0,2}(?:以下|以上|以内|之内)"
    r"|(?:是|要|得)(?:不)?(?:免费|收费)的?)"
)
_CANNOT_RE = re.compile(
    r"^(?:we|i)\s+(?:can'?t|cannot|can\s+not|(?:are|am|'re|'m)\s+(?:not|un)able\s+to|"
    r"(?:are|'re)\s+not\s+allowed\s+to)\s+(?!use\b)\w+",
    re.I,
)
ONLY_RE = re.compile(
    r"^(?:only|just|at\s+(?:least|most)|no\s+more\s+than|up\s+to|max(?:imum)?|"
    r"min(?:imum)?|except|excluding|under|below|within)\b",
    re.I,
)
CAN_YOU_ADD_RE = re.compile(
    r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:also\s+)?(?P<rest>(?:add|include|"
    r"support|handle|validate|log|store|limit|reject|encrypt|write|make\s+(?:it|sure))\b.+)$",
    re.I,
)
_WH_WORDS_RE = re.compile(r"\b(?:what|how|why|where|when|which|who)\b", re.I)


_NEGATED_REST_RE = re.compile(r"^(?:not|never)\b", re.I)
_NEED_TO_SPLIT_RE = re.compile(r"\b(?:need|needs|have|has)\s+to\s+", re.I)
_WE_WANT_RE = re.compile(
    # "Want it family-friendly", as notes drop the subject.
    r"^(?:(?:we|i)\s+|(?=want\s))(?:want|\s*'d\s+like|would\s+like)\s+(?!to\b)",
    re.I,
)
_ZH_VERB_CHAR_RE = re.compile("[用是要得会能把让]")
_REASON_TAIL_RE = re.compile(r"\s*(?:because|since|as|for|so)\b", re.I)
_CLAUSE_WORDS_RE = re.compile(
    r"\b(?:is|are|was|were|do|does|did|can|will|would|should|i|we|you|it|sounds?|seems?|"
    r"looks?|works?|feels?)\b",
    re.I,
)
TRAILING_SCOPE_RE = re.compile(r"\s+(?:too|as\s+well)$", re.I)
CAN_YOU_RE = re.compile(r"^(?:can|could|would)\s+you\b", re.I)
AND_NEED_RE = re.compile(r"\s+and\s+(?:need|want|have|would|should)\b")
DECLARATIVE_VERB_RE = re.compile(r"\b(?:will|is|are|be|should|use|uses|runs?|goes)\b", re.I)


_STATE_RE = re.compile(r"^(?:be|stay|remain)\b", re.I)


def _reqs_from_modal(core: str) -> str | None:
    """A clause with a modal of obligation, reduced to what is required."""
    m = _PRONOUN_MODAL_RE.match(core)
    if m:
        rest = m.group("rest")
        modal = m.group("modal").lower()
        if _DECISION_AFTER_MODAL_RE.match(rest):
            return None
        if modal in {"want to", "'d like to", "would like to"} and _WANT_TO_CHAT_RE.match(rest):
            return None
        if _NEGATED_REST_RE.match(rest):
            return tidy(core)
        if core[: m.start("modal")].lower().startswith("the ") and _STATE_RE.match(rest):
            # "The API must be versioned": a state of a named thing keeps its subject ("Be
            # versioned" would not say what); "we must store X" keeps only what is done.
            return tidy(core)
        return tidy(rest)
    if not STRONG_MODAL_RE.search(core):
        return None
    after = _NEED_TO_SPLIT_RE.split(core, maxsplit=1)
    if len(after) == 2 and _DECISION_AFTER_MODAL_RE.match(after[1]):
        return None
    return tidy(core)


_INDEPENDENT_TAIL_RE = re.compile(
    r",\s+(?!(?:and|or|but|which|who|where|because|since|so|as|with|without|only|e\.g\.|"
    r"including|except)\b)(?:[\w-]+\s+){0,3}?(?:is|are|was|were|will|would|can|could|should|"
    r"'s|'re|seems|looks)\b.*$",
    re.I,
)


def main_clause(core: str) -> str:
    """'Keep X for now, multi-region is a later problem' → 'Keep X for now'."""
    return _INDEPENDENT_TAIL_RE.sub("", core)


# "It meets the ordering requirement": a verdict on an option, not a new need.
_EVALUATES_RE = re.compile(
    r"^(?:it|this|that|they|these|those|both|[A-Z][\w.+-]*(?:\s+[A-Z][\w.+-]*)?)\s+"
    r"(?:also\s+|already\s+|still\s+)?(?:meets?|satisf(?:y|ies)|fulfil+s?|covers?|ticks?|"
    r"matches|match|fits?|handles?|supports?)\b.*\b(?:requirements?|needs?|criteria|boxes|"
    r"constraints?|budget|bill)\b",
    re.I,
)


# Chinese clauses with a modal that state no need: a habit of someone's day ("他每天要背去教室",
# "大家第二天还要上班"), hearsay ("听说…"), a story ("之前被套路过"), or a bare confirmation that
# points at a requirement already stated ("这个是硬性要求", "这个要求不变").
NOT_A_NEED_ZH_RE = re.compile(
    r"(?:他|她|我|大家|孩子|老公|老婆|媳妇|先生|同事)们?"
    r"(?:每天|第二天|早上|上午|下午|晚上|白天|平时|平日|平常|天天|周末|还|也)+要"
    r"|^(?:每天|白天|平时)(?:还|也)?要(?!能|求)"
    r"|^(?:听说|据说)|之前被|被[\u4e00-\u9fff]{0,4}过"
    r"|^(?:这个|这|那个)(?:是|还是)?(?:硬性)?(?:要求|条件)(?:不变|是硬性的?)?[。.！!]?$"
    r"|^(?:这个|这|那个)?(?:硬性)?要求(?:不变|还是不变)[。.！!]?$"
    # A verdict on an option's price ("超出我们的预算", "预算不够"), money already spent
    # ("一次花了三千"), a removal ("浴缸要拆掉": a withdrawal), and what is merely allowed
    # ("海鲜多一点也行") state no need.
    r"|超(?:出)?了?(?:我们|我)?的?预算|预算不够|(?:花|拖|用)了[\d一二两三四五六七八九十百千万半几]"
    r"|要(?:拆|去|扔|删|砍)掉|(?:也行|也可以|也没关系|也无所谓)[。.！!]?$"
    # "一万多": a price said about an option; a limit says 以内, 左右 or 不超过.
    r"|^[\d一二两三四五六七八九十百千万]+多(?:块钱?|元)?[。.！!]?$"
    # Something that happened a number of times or for a while: "它戴过一次", "排队排了一上午",
    # "最近摔了一次" tell a story, they ask for nothing.
    r"|[\u4e00-\u9fff](?<![超不没])[过了][一两二三四五六七八九十几半\d]+(?:次|回|遍|趟|个?小时|天|个?上午|个?下午|"
    r"个?晚上|个?月|年|周)"
    # Leave to go over a limit ("可以稍微超一点") relaxes it; a verdict that an option is too
    # much ("一年制时间太短", "四十台一年下来太贵了") judges; "不要太贵" still asks.
    r"|可以(?:稍微|适当)?超|稍微超一点"
    r"|(?<![不别要能])太(?:贵|短|长|远|小|大|吵|累|难|慢|麻烦|复杂)了?[。.！!]?$"
    # What opens the next clause: "另需说明的是，…", "想请问一下，…", "出于合规要求，…",
    # "具体要求如下：" (the need is said after it).
    r"|的是[:：]?$|如下[:：。]?$|^[欸诶嗯]?(?:我)?(?:想)?(?:请问|问一下|请教)(?:一下)?(?:各位|大家)?$"
    r"|^(?:出于|由于|基于|鉴于|考虑到)[\u4e00-\u9fff]{1,10}$"
)
# Read in a short clause only — in an unpunctuated run-on a need said beside them stays: what
# happened within a span ("一年不到好几个琴键就卡住了", "半年就来了仨简历"; "两个小时以内就够了",
# "一周就得交了" and "一万步就是极限了" still ask); a guess ("应该没问题吧", "讯飞好像要收费") or a
# rhetorical question ("我总不能每年去求爷爷告奶奶吧", "头一年能有多少蜜啊"); someone's routine
# ("我跟我先生都要上班"); asking what it takes ("报名要带啥"). ("老婆说了每年要回老家" is the
# family's need: what someone said is not read as hearsay.)
_ZH_SHORT_NO_NEED_RE = re.compile(
    r"[一两二三四五六七八九十几半\d]个?(?:年|月|天|周|星期|次|回)(?:不到|多)?[^，,。；]{0,8}?就"
    r"(?!(?:要|得|必须|够|行|可以|好|对|是)了?)[^，,。；]{0,8}了"
    r"|(?:应该|估计)[^，,。；]*吧[。.！!？?]?$|总不能[^，,。；]*吧"
    r"|(?:多少|哪|咋|怎么|啥|什么)[^，,。；]{0,12}[啊嘛呢]啊*[。.！!？?]?$"
    r"|要(?:上班|上学|返工|加班|接孩子|接送孩子|值班|倒班)"
    r"|(?:好像|似乎|听说|据说|怕是|估计)[^，,。；]{0,6}(?:要|只能|得)"
    r"|要[^，,。；]{0,8}(?:啥|什么|怎么|咋|哪些)"
)
_SHORT_CLAUSE_CHARS = 24
# A price said about an option ("一节课两百多", "一节三四百", "学费一年四五十万", "一个月几万美元"):
# an approximate amount and no word that makes it a limit.
_ZH_PRICE_SAID_RE = re.compile(
    r"(?:[一两二三四五六七八九]{2}|几)[十百千万]+(?=[块元美刀]|台币|港币|日元|日币|欧元|英镑|[。，,.！!]?$)"
    r"|[百千万]多(?:块|元)?(?![以之])"
)
_ZH_LIMIT_RE = re.compile(
    r"以内|左右|不超过|不要超过|别超过|预算|控制|最多|以下|至多|上限|之内|不能超"
)
# English verdicts on an option or exclusions, which the modal words in them make look like
# needs: a price verdict ("B2 is over budget", "way over budget"), and a need or wish the user
# negates ("Dont need any app or subscription stuff", "We don't require one") — an exclusion is
# a rejection, never a requirement; a prohibition ("it must not ask for a PIN") still is one.
_OVER_BUDGET_RE = re.compile(
    r"\b(?:over|above|beyond|outside|out\s+of)\s+(?:the\s+|our\s+|my\s+|your\s+)?budget\b",
    re.I,
)
# The clause's own verb, near its start: "It needs an enclosure, …, and I don't want little
# fingers near the hotend" still needs the enclosure.
_NEGATED_NEED_RE = re.compile(
    r"^(?:[\w']+\s+){0,2}?(?:(?:do|does|did|will|would)(?:n'?t|\s+not)|dont|doesnt|didnt|wont)"
    r"\s+(?:really\s+|even\s+|actually\s+)?(?:need|require|want)\b",
    re.I,
)

_LIMIT_WORDS_RE = re.compile(
    r"\b(?:more|less|longer|shorter|bigger|smaller|heavier|further|later|earlier)\s+than\b"
    r"|\b(?:over|above|under|below|beyond|past|after|before)\s+(?:[$€£¥]|\d|an?\s)"
    r"|\b(?:max|maximum|min|minimum|at\s+most|at\s+least|tops)\b",
    re.I,
)


def not_a_need(text: str) -> bool:
    """A clause whose modal words state no need: a story, a verdict or an exclusion. "I don't
    want to spend more than £300" negates a wish and still sets a limit, and "beyond our budget,
    which is £6,000 a year" still states the budget."""
    if NOT_A_NEED_ZH_RE.search(text) or ASSENT_RE.match(text.strip()):
        return True
    if len(text) <= _SHORT_CLAUSE_CHARS and _ZH_SHORT_NO_NEED_RE.search(text):
        return True
    if states_no_need(text) or EXCLUDED_LABEL_RE.match(text.strip()):
        return True
    if _ZH_PRICE_SAID_RE.search(text) and not _ZH_LIMIT_RE.search(text):
        return True
    verdict = _OVER_BUDGET_RE.search(text) or _NEGATED_NEED_RE.search(text)
    return bool(verdict) and not (_LIMIT_WORDS_RE.search(text) or _QUANTITY_RE.search(text))


_AMOUNT_RE = re.compile(r"\d|[两一二三四五六七八九十][十百千万]?[块元千万]")


def states_a_limit(text: str) -> bool:
    """ "Budget 200 quid", "Deadline: 3 March", "预算两千": a sentence that opens on a constraint's
    name and gives its amount sets a limit of its own; it explains no rejection beside it."""
    return bool(
        _CONSTRAINT_NOUN_RE.match(text) and (_QUANTITY_RE.search(text) or _AMOUNT_RE.search(text))
    )


_ZH_SOFT_MODAL_ONLY_RE = re.compile(r"要")
_ZH_HARD_MODAL_RE = re.compile(
    rf"必须|需要|{_ZH_WRITTEN_XU}|要求|一定要|务必|只能|不能|不得|至少|最多|不超过|(?:别|不要)超过|"
    r"控制在|以内|要紧|重要"
)


def requirement_from_clause(
    clause: str, *, strong_only: bool, previous: str | None
) -> tuple[str, float] | None:
    """(text, confidence) when the clause states a need or constraint."""
    core = main_clause(strip_discourse(clause))
    if not core or _EVALUATES_RE.match(core) or not_a_need(core):
        return None
    m = _DONT_FORGET_RE.match(core)
    if m:
        return tidy(m.group("rest") or m.group("zh") or ""), 0.8
    m = _NEED_HELP_RE.match(core)
    if m:
        # "I need help creating X" states the task: "Create X".
        stem = m.group("ing")
        verb = m.group("verb") or (
            stem + ("e" if stem in {"creat", "writ", "mak"} else "") if stem else ""
        )
        if strong_only or not verb:
            return None  # "help with the deploy scripts" names a topic, not a deliverable
        return tidy(f"{verb} {m.group('task')}"), 0.6
    if strong_only and _ZH_SOFT_MODAL_ONLY_RE.search(core) and not _ZH_HARD_MODAL_RE.search(core):
        return None  # "还要自己搞服务器" explains a rejection; a reason needs a firm modal
    modal = _reqs_from_modal(core)
    if modal:
        return modal, 0.85
    if strong_only:
        return None
    lets = _LETS_RE.match(core)
    if lets:
        rest = lets.group("rest")
        if _LETS_CHAT_RE.match(rest) or OUTPUT_VERB_RE.match(rest):
            return None
        core = rest
    if ONLY_RE.match(core) and previous is None:
        return tidy(core), 0.7
    if SYSTEM_VERB_RE.match(core) and not _NOT_IMPERATIVE_RE.match(core):
        return tidy(core), 0.75
    request = narrowed_request(core)
    if request:
        return request, 0.6
    if BUILD_VERB_RE.match(core) and SCOPE_MARKER_RE.search(clause):
        return tidy(core), 0.7
    if OUTPUT_VERB_RE.match(core) or BUILD_VERB_RE.match(core):
        return None
    if _PAST_RE.search(core) or ZH_PAST_COUNT_RE.search(core) or _WH_WORDS_RE.match(core):
        return None  # "it took 5 minutes to build", "吐了好几天" report, they do not require
    if _QUANTITY_RE.search(core) or _CONSTRAINT_NOUN_RE.search(core) or _LABEL_VALUE_RE.match(core):
        return tidy(core), 0.7
    if _ZH_ATTRIBUTE_VALUE_RE.match(core):
        return tidy(core), 0.7
    if _CANNOT_RE.match(core):
        return tidy(core), 0.6
    if _WE_WANT_RE.search(core):
        return tidy(core), 0.65
    return None


def _use(option: str, said: str) -> str:
    """A chosen option as a requirement, in the language the user wrote it in (Chinese keeps
    the user's clause, which names what the choice is for: "数据库用MySQL")."""
    if CJK_CHAR_RE.search(said):
        return tidy(ZH_PARTICLES_RE.sub("", said.strip(" 。！.!")))
    return f"Use {option}"


# The assistant's last question asks yes or no ("Would you like me to book it?").
_YES_NO_ASKED_RE = re.compile(
    rf"(?:^|[.!?]\s+){YES_NO_OPENER}[^.!?]*\?\s*$",
    re.I,
)
# …or asks how many, when, where or who: the answer is a value, not an option to use.
_AMOUNT_ASKED_RE = re.compile(
    r"(?:^|[.!?]\s+)(?:[\w,]+\s+)?(?:how\s+(?:many|much|long)|when|where|who|whom|what\s+time|"
    r"what\s+date)\b[^.!?]*\?\s*$",
    re.I,
)
# 嘛 / 呢 after a name make it the topic of what follows ("北角嘛…", "千岛湖呢…").
_ZH_TOPIC_MARK_RE = re.compile(rf"[{CJK}A-Za-z0-9]\s*[嘛呢]\s*$")
_ZH_ACKS = frozenset("可以 行 好 好的 对 是 嗯 没问题 不错 还行 同意 确认".split())


def bare_answer(sentence: str, last_reply: str) -> str | None:
    """'Flask.' answering the assistant's question, or 'Django, because we want the admin'
    picking one of the options the assistant offered."""
    body = strip_discourse(sentence.rstrip(".!。！ "))
    if ASSENT_RE.match(sentence.strip()) or ASSENT_RE.match(body):
        return None  # "Yes, that's correct": the read-back is confirmed, nothing is named
    head, tail = [*COMMA_RE.split(body, maxsplit=1), ""][:2]
    if _ZH_TOPIC_MARK_RE.search(head):
        return None  # "北角嘛 我驚會唔會太嘈": "as for North Point, …" sets a topic, picks nothing
    head = ZH_PARTICLES_RE.sub("", head.strip())
    words = head.split()
    if not 1 <= len(words) <= 3 or _QUANTITY_RE.search(head):
        return None
    if CJK_CHAR_RE.search(head) and (
        not 2 <= len(head) <= 8  # one character ("定了") is a word of the sentence, no name
        or _ZH_VERB_CHAR_RE.search(head)
        or head in _ZH_ACKS
        or not option_matches(head, last_reply)
    ):
        return None  # a Chinese clause ("身体还行"), not a name the assistant offered
    asked = "?" in last_reply or "？" in last_reply
    offered = option_matches(head, last_reply)
    if not offered and (not asked or _YES_NO_ASKED_RE.search(last_reply)):
        return None  # "Not now" to "Shall I book it?": a yes/no question names no options
    chinese = bool(CJK_CHAR_RE.search(body))
    if tail and not chinese and not _REASON_TAIL_RE.match(tail):
        return None
    first = words[0].lower().strip(".!")
    if first in ACK_WORDS or first.endswith("ly") or _WH_WORDS_RE.search(head):
        return None  # "Mostly the database." describes; it names no choice
    if GERUND_WITH_OBJECT_RE.match(head):
        return None  # "booking the Ivy" reports the choice as an action; no thing to use
    if OUTPUT_VERB_RE.match(head) or SYSTEM_VERB_RE.match(head) or BUILD_VERB_RE.match(head):
        return None
    if _CLAUSE_WORDS_RE.search(head):
        return None
    if chinese:
        return f"使用{head.strip()}"  # the clause after a Chinese comma is its own statement
    if not offered and _AMOUNT_ASKED_RE.search(last_reply):
        return tidy(body)  # "Four of us" to "How many tickets?": the answer, not a tool to use
    return f"Use {head.strip()}" + (f", {tail.strip()}" if tail.strip() else "")


def team_size(clause: str) -> str | None:
    for segment in COMMA_RE.split(clause):
        m = _TEAM_RE.search(segment.strip(" .!;。！"))
        if not m:
            continue
        number = (m.group("n") or m.group("n2") or m.group("n3") or m.group("n4")).strip()
        unit = m.group("unit") or m.group("unit2") or ""
        if m.group("n4"):
            return f"团队{number}人"
        if m.group("n") and not unit and not re.match(r"team\s+of\b", m.group(), re.I):
            continue  # "we are 5 minutes away" is no team size; "a team of four" is one
        return f"Team of {number} {unit}".strip()
    return None

"""What a reply does: re-advocacy of a rejected option, premature full answers."""

from __future__ import annotations

import re

from .options import _option_spans, option_matches, same_option
from .sentences import _CODE_BLOCK_RE, _CODE_COMMENT_RE, _FENCED_CODE_RE, _split_sentences
from .text import _CJK_CHAR_RE, REPLY_HEAD, REPLY_TAIL, _bounded

# Cues right before a mention, nearest wins; a longer cue ending at the same place beats a
# shorter one, so "don't use X" / "不用X" read as negative although they contain "use" / "用".
_NEGATIVE_BEFORE_RE = re.compile(
    # "no need to reconsider X" before the bare "no", so the longer cue is found at all.
    r"\b(?:no\s+need\s+to\s+(?:\w+\s+)?(?:use|add|revisit|reconsider|go\s+back\s+to|return\s+to)|"
    r"no|not|without|instead\s+of|rather\s+than|unlike|except(?:\s+for)?|other\s+than|"
    r"apart\s+from|besides|avoid(?:s|ing)?|drop(?:s|ping|ped)?|skip(?:ping)?|forget(?:ting)?"
    r"(?:\s+about)?|ditch(?:ing)?|replac(?:e|ing)|(?:migrat|mov)(?:e|ing)\s+(?:away\s+)?from|"
    r"away\s+from|off|against|rul(?:e|ed|ing)[\s-]+out|reject(?:ed|ing)?|exclud(?:e|ed|ing)|"
    r"no\s+longer|compared\s+(?:with|to)|than|versus|vs\.?|"
    r"(?:don'?t|do\s+not|won'?t|will\s+not|shouldn'?t|can'?t|cannot|never)\s+"
    r"(?:\w+\s+)?(?:use|using|need|want|add|go\s+with|recommend|suggest|propose|"
    r"go\s+back\s+to|return\s+to|revisit|reconsider|bring\s+back))\b"
    r"|不用|不要|别用?|不使用|不采用|既然不用|放弃了?|排除了?|除了|而不是|没有|不考虑|去掉|不再",
    re.I,
)
_POSITIVE_BEFORE_RE = re.compile(
    r"\b(?:use|using|into|to|with|via|in|on|onto|consider|considering|recommend|suggest|try|"
    r"adopt|adopting|add|adding|introduce|pick|choose|go\s+with|leverage|switch\s+to|"
    r"move\s+to|migrate\s+to|like|such\s+as|prefer|put|store|keep|back(?:ed)?\s+by|run|"
    r"deploy|i'd\s+(?:go\s+with|use|pick)|opt\s+for|let|alternatively|otherwise|or\s+else|"
    r"how\s+about|what\s+about|"
    # "let's go back to Kafka", "we could revisit Kafka": going back to an option proposes it.
    r"go(?:ing)?\s+back\s+to|return(?:ing)?\s+to|revisit(?:ing)?|reconsider(?:ing)?|"
    r"bring(?:ing)?\s+back|"
    r"(?:answer|choice|option|solution|pick|recommendation|bet|candidate|approach|fix|tool)\s+"
    r"(?:here\s+)?(?:is|would\s+be))\b"
    r"|建议(?:使用|用|采用)?|推荐|可以(?:用|考虑|使用)|使用|采用|改用|换成|迁移到|放到|存到|存入|放进|选择|考虑|"
    r"拆成|拆分成|改成|做成|引入|上|用",
    re.I,
)
_POSITIVE_AFTER_RE = re.compile(
    r"^\W{0,3}(?:(?:would|will|could)\s+(?:also\s+|equally\s+)?(?:be|work|handle|fit|give)|"
    r"(?:is|are|remains?)\s+(?:the\s+|a\s+)?(?:usual|best|natural|obvious|simplest|easiest|"
    r"right|ideal|recommended|standard|go-to|better|good|great|solid|strong|perfect|"
    r"sensible|clear)\b|fits|handles|gives\s+you|shines|excels|works\s+(?:well|best|great)|"
    r"is\s+(?:ideal|perfect|better|best|great)\s+for|"
    # "a Redis cache in front would help"
    r"(?:[\s-]+[\w-]+){0,4}\s+(?:would|could|will|can)\s+(?:really\s+)?(?:help|work|shine|"
    r"solve|simplify|handle|fit|be\s+(?:ideal|best|better|great|perfect|simpler|faster|easier|"
    r"the\s+(?:\w+est|best|right|way|answer|choice|pick)|(?:a\s+)?(?:good|great|natural|solid|"
    r"easy|quick|fast|sensible))|make\s+(?:\w+\s+){0,3}(?:much\s+|far\s+|a\s+lot\s+)?"
    r"(?:easier|simpler|faster|trivial|safer|cleaner))\b)|"
    r"(?:is|are)\s+(?:purpose[- ]built|designed|made|built|tailor[- ]made)\s+for|"
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
    r"(?:is|was)\s+not\s+(?:wanted|welcome))"
    r"|^(?:被排除|已经排除|不行|不考虑|已被否决|被否决|已排除)",
    re.I,
)
# "..., but you ruled it out": an acknowledgement that covers the mentions before it.
_ACK_LATER_RE = re.compile(
    r"\b(?:(?:you|we)\s+(?:rejected|ruled\s+out|excluded|dropped|said\s+no\s+to)\s+"
    r"(?:it|that|this|them)|(?:it|that|this|which)\s+(?:was|is|has\s+been|had\s+been)\s+"
    r"(?:ruled\s+out|rejected|off\s+the\s+table|excluded))\b",
    re.I,
)
_NEGATOR_BEFORE_CUE_RE = re.compile(
    r"(?:\b(?:not|never|no|without)|n't)\s+(?:\w+\s+){0,1}$|(?:不|别|没)$", re.I
)
_READV_CLAUSE_SPLIT_RE = re.compile(r"\s*(?:;|；|:\s|：|[—–]|\s-\s|,|，|\(|\))\s*")


# "Option 2: Redis" — a list of proposals.
_PROPOSAL_LABEL_RE = re.compile(
    r"\b(?:option|alternative|candidate|recommendation|suggestion|choice|pick|answer|proposal)"
    r"\s*[\w.)-]{0,3}\s*[:：]\s*$|(?:建议|推荐|方案\s*\w?)\s*[:：]\s*$",
    re.I,
)
# "..., I would reconsider it": the reply argues for the option it just named.
_URGE_REOPEN_RE = re.compile(
    r"\b(?:i|we|you)\s*(?:would|'d|should|could|might\s+want\s+to)\s+(?:really\s+)?"
    r"(?:reconsider|revisit)\b|建议重新考虑",
    re.I,
)


CUE_WINDOW = 200


def _cue_before(prefix: str) -> str | None:
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
            if len(gap.split()) > 4 or len(_CJK_CHAR_RE.findall(gap)) > 6:
                continue
            candidate = (m.end(), -m.start(), kind)
            if best is None or candidate[:2] > best[:2]:
                best = candidate
    if best is None:
        return None
    _, neg_start, kind = best
    if kind == "pos" and _NEGATOR_BEFORE_CUE_RE.search(prefix[:-neg_start]):
        return "neg"
    return kind


def _mention_proposes(clause: str, start: int, end: int) -> bool | None:
    """True: proposes; False: mentions it as rejected; None: a neutral mention."""
    before, after = clause[:start], clause[end:]
    if _NEGATIVE_AFTER_RE.match(after):
        return False
    kind = _cue_before(before)
    if kind == "neg":
        return False
    if kind == "pos" or _POSITIVE_AFTER_RE.match(after):
        return True
    return None


def find_readvocacy(reply: str, rejected_options: list[str]) -> list[str]:
    """The rejected options that `reply` proposes again (not those it mentions as rejected)."""
    reply = _bounded(reply, REPLY_HEAD, REPLY_TAIL)
    proposed: list[str] = []
    for option in rejected_options:
        if not option.strip() or any(same_option(option, p) for p in proposed):
            continue
        if _proposes_option(reply, option):
            proposed.append(option)
    return proposed


def _code_uses(code: str, option: str) -> bool:
    """Code that imports or calls the option proposes it; a comment that names it does not."""
    for line in code.splitlines():
        statement = _CODE_COMMENT_RE.sub("", line)
        if statement.strip() and option_matches(option, statement):
            return True
    return False


def _proposes_option(reply: str, option: str) -> bool:
    if any(_code_uses(block, option) for block in _CODE_BLOCK_RE.findall(reply)):
        return True
    for sentence in _split_sentences(_FENCED_CODE_RE.sub("\n", reply)):
        if not option_matches(option, sentence):
            continue
        ack = _ACK_LATER_RE.search(sentence)
        if _URGE_REOPEN_RE.search(sentence):
            return True
        clauses = _READV_CLAUSE_SPLIT_RE.split(sentence)
        offset = 0
        for clause in clauses:
            position = sentence.find(clause, offset)
            offset = max(offset, position + len(clause))
            prefix = sentence[:position]
            # "Option 2: Redis" proposes; "Rejected options: Redis" does not.
            labelled = bool(_PROPOSAL_LABEL_RE.search(prefix)) and _cue_before(prefix) != "neg"
            for start, end in _option_spans(option, clause):
                if ack and position + start < ack.start():
                    continue
                verdict = _mention_proposes(clause, start, end)
                if verdict or (verdict is None and labelled and start < 3):
                    return True
    return False



# Turns at the start of a conversation where a complete solution is premature on its own: the
# facts it needs have usually not been given yet.
EARLY_TURNS = 2
_SUBSTANTIAL_CODE_LINES = 15
_SUBSTANTIAL_CODE_CHARS = 600
_PLAN_MIN_STEPS = 5

_FULL_SOLUTION_RE = re.compile(
    r"\b(?:here(?:'s|\s+is)\s+(?:the|a|your)\s+(?:complete|full|final|finished|entire|whole|"
    r"working|production[- ]ready)\s+(?:\w+\s+)?(?:implementation|code|solution|version|program|"
    r"script|module|app(?:lication)?|plan|design|answer)|(?:complete|full|final|entire|"
    r"production[- ]ready)\s+(?:implementation|solution|source\s+code|code\s+listing)|"
    r"final\s+answer|putting\s+it\s+all\s+together|the\s+full\s+code|ready\s+to\s+(?:deploy|ship)"
    r"\s+as[- ]is)\b"
    r"|完整(?:的)?(?:代码|实现|方案|解决方案|程序)|最终(?:的)?(?:方案|答案|版本|代码)",
    re.I,
)
_STEP_RE = re.compile(
    r"(?:^|(?<=\s))(?:step\s+)?(?P<n>\d{1,2})[.)]\s+(?P<body>.+?)(?=(?:\s(?:step\s+)?\d{1,2}[.)]\s)|$)"
    r"|第(?P<zh>[一二三四五六七八九十\d]+)步",
    re.I | re.M,
)


def _solution_markers(reply: str) -> list[str]:
    markers: list[str] = []
    blocks = _CODE_BLOCK_RE.findall(reply)
    sizes = [(len([ln for ln in b.splitlines() if ln.strip()]), len(b)) for b in blocks]
    big = [
        lines
        for lines, chars in sizes
        if lines >= _SUBSTANTIAL_CODE_LINES or chars >= _SUBSTANTIAL_CODE_CHARS
    ]
    if big:
        markers.append(f"complete code block ({max(big)} lines)")
    elif sum(lines for lines, _ in sizes) >= 2 * _SUBSTANTIAL_CODE_LINES:
        markers.append(f"code blocks totalling {sum(lines for lines, _ in sizes)} lines")
    phrase = _FULL_SOLUTION_RE.search(reply)
    if phrase:
        markers.append(f'full-solution phrase "{phrase.group().strip()}"')
    prose = _CODE_BLOCK_RE.sub(" ", reply)
    steps = [m for m in _STEP_RE.finditer(prose)]
    statements = [m for m in steps if m.group("zh") or not m.group("body").rstrip().endswith("?")]
    if len(statements) >= _PLAN_MIN_STEPS:
        markers.append(f"numbered plan ({len(statements)} steps)")
    return markers


def is_full_answer_attempt(reply: str) -> bool:
    """Does the reply present a complete solution (long code, 'complete implementation', a
    5+-step plan)? Used for the first-full-answer-attempt metric."""
    return bool(_solution_markers(reply))


def premature_markers(reply: str, open_requirement_count: int, turn: int) -> list[str]:
    """The full-solution markers of a reply that is premature, else [].

    A full solution is premature while requirements are still open, or in the first
    EARLY_TURNS turns, when the facts it depends on have usually not been given yet.
    """
    markers = _solution_markers(reply)
    if not markers or (open_requirement_count <= 0 and turn > EARLY_TURNS):
        return []
    return markers

"""Sentences and clauses: splitting, questions, discourse markers, tidying."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .cues import BUILD_VERB_RE, IMPERATIVE_REJECT_RE, OUTPUT_VERB_RE, SYSTEM_VERB_RE
from .run_ons import run_on_pieces
from .text import CJK, CJK_CHAR_RE, with_apostrophes

# Fenced code: whole blocks, and their bodies (for size and for what the code uses).
FENCED_CODE_RE = re.compile(r"```.*?(?:```|\Z)", re.S)
CODE_BLOCK_RE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.S)
CODE_COMMENT_RE = re.compile(r"(?:#|//|--).*$|/\*.*?\*/|<!--.*?-->")
SENTENCE_SPLIT_RE = re.compile(
    r"(?<=[!?])\s+|(?<=\.)\s+(?=[A-Z0-9\"'“(\[\u4e00-\u9fff])|(?<=[。！？])|\n+"
    # Typed without capitals ("…is kinda meh. an experience would be better"): a full stop
    # after a word of three letters or more, except the usual abbreviations.
    r"|(?<=[a-z0-9]{2}[a-z]\.)(?<!approx\.)(?<!incl\.)(?<!excl\.)(?<!etc\.)(?<!est\.)(?<!min\.)"
    r"(?<!max\.)(?<!ref\.)\s+(?=[a-z])"
    # …or after an acronym or a code ("before we go GA. context: ~30 services", "by Q3. hard cap").
    r"|(?<=[A-Z0-9][A-Z0-9]\.)\s+(?=[a-z])"
    # …and before a one-word question closing the message ("hard cap $1.5k/mo all in. options?").
    r"|(?<=\.)\s+(?=[a-z]+\?\s*$)"
    # An emoji then a space closes a thought as a full stop would ("一点都不想穿🙅‍♀️ 我们宿舍…").
    r"|(?<=[\U0001F300-\U0001FAFF\u2600-\u27BF\ufe0f])\s+"
)
# Clause boundaries that never fall inside a noun phrase.
# "0.5小时 - 1小时", "3 - 4 people": a dash between two amounts is a range, not a clause break.
_CLAUSE_SPLIT_RE = re.compile(
    r"\s*(?:;|；|(?<![\d时天元块分人个])\s[—–-]\s(?!\d)|(?<!\d)[—–](?!\d)|:\s|：)\s*"
)
_QUESTION_START_RE = re.compile(
    r"^(?:what|how|why|where|when|which|who|whom|whose|is|are|was|were|do|does|did|can|could|"
    r"would|will|should|shall|may|might|have|has|isn't|aren't|don't|doesn't|won't|wouldn't|"
    r"shouldn't|any\s+(?:idea|thoughts)"
    # "Tell me the address", "let me know the price": asked as an instruction.
    r"|(?:please\s+)?(?:tell|let)\s+me\b(?!\s+(?:think|check|see|try|decide))"
    r")\b",
    re.I,
)
# A clause that ends asking: a particle, or a question word at its end ("电话是多少", "地址在哪
# 里"); inside a clause the word is indefinite ("什么都行", "哪都想去").
_ZH_ASKS_AT_END = (
    r"(?:[吗呢么]|多少|哪里|哪儿|哪|(?<![点些没])什么|怎么样|怎样|几点|多久|多远|多大)[啊呀]?\s*$"
)
# A question word that asks wherever it stands in a clause that more clauses follow ("什么时候
# 营业，电话告诉我一下"), not when indefinite ("什么时候都行", "没啥"). In a sentence's last
# clause it may be a request's object ("帮忙看看选哪个：") and is left to the rules above.
_ZH_ASKS_ANYWHERE = (
    r"(?:什么时候|什么时间|几点|咋样|怎么样|多少钱|哪个|哪家|哪些|哪里|哪儿|(?<![没])啥)(?![都也])"
)
_ZH_CLAUSE_ASKS_RE = re.compile(f"{_ZH_ASKS_AT_END}|{_ZH_ASKS_ANYWHERE}")
_ZH_QUESTION_RE = re.compile(
    # "什么都行", "哪儿都可以": indefinite, a statement.
    r"[吗呢么]\s*$|^(?:怎么|如何|什么(?!(?:时候|时间|样的?|地方)?[都也])|哪(?!(?:个|家|里|儿|些|种)?[都也])|为什么|为何|是否|能不能|可不可以|要不要)"
    # A-not-A asks whatever its position: "青年公寓会不会太贵啊", "心超有没有必要".
    r"|(?:会不会|是不是|能不能|要不要|有没有|可不可以|值不值|贵不贵|好不好)"
    r"|" + _ZH_ASKS_AT_END
)


@dataclass
class Sentence:
    text: str
    index: int
    question: bool
    clauses: list[str] = field(default_factory=list)
    bullet: bool = False
    # A question cut from the statement before it ("I hate cruises, | any other ideas?"): the
    # whole sentence, which is what the user asked.
    asked: str = ""


LIST_HEADER_RE = re.compile(
    r"\b(?:requirements?|constraints?|must[- ]haves?|needs|specs?|specification|criteria|rules|"
    r"non[- ]negotiables?|acceptance|brief|wish\s*list|checklist|key\s+points|goals)\b"
    r"|要求|需求|约束|条件",
    re.I,
)
BULLET_RE = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)])\s+")
_LABEL_RE = re.compile(r"^(?P<label>[A-Za-z][\w /&-]{0,30}?)\s*:\s+(?P<rest>\S.*)$")
# A header word before what it introduces ("context: ~30 services on EKS", "FYI: …").
_HEADER_WORD_RE = re.compile(r"^(?:note|fyi|ps|update|context|background|btw|reminder|edit)$", re.I)
_NOT_A_LABEL_RE = re.compile(
    r"^(?:note|fyi|ps|update|context|background|question|q|summary|again|also|and|so|then|"
    r"however|anyway|plus|ok|okay|yes|no|well|first|second|third|finally|lastly|btw|"
    r"important|reminder|remember|correction|edit|actually|to\s+be\s+clear|decision|"
    r"final\s+decision|decided|conclusion|verdict|final\s+answer|confirmed|confirming)$",
    re.I,
)


# Pasted material that states nothing: Markdown headings and bold-only lines, mail headers,
# sign-offs. Markdown emphasis and paste labels ("Paragraph 1:") are formatting, not words.
_SIGN_OFF_WORDS = (
    r"(?:thanks|thank\s+you|cheers|regards|best|kind\s+regards|best\s+regards|warm\s+regards|"
    r"yours\s+(?:sincerely|faithfully|truly)|many\s+thanks|sincerely)"
)
_HEADING_LINE_RE = re.compile(
    r"^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\s*[:：]\s*$|__[^_]+__\s*[:：]\s*$)"
    r"|^\s*(?:from|to|cc|subject|date|sent|re|fwd?)\s*:\s"
    rf"|^\s*{_SIGN_OFF_WORDS}\s*,?(?:\s*[A-Z][\w.'-]*){{0,3}}\s*$",
    re.I,
)
_EMPHASIS_RE = re.compile(r"\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|^\s*>\s?")
# An inline code span loses its backticks; a stray backtick separates what it stood between
# ("0`0" is two tokens, not the number 00).
_CODE_SPAN_RE = re.compile(r"(`+)([^`]+?)\1")
_PASTE_LABEL_RE = re.compile(
    r"^(?:paragraph|para|section|part|point|item|excerpt|page|chunk|quote)\s*\d+\s*[:.)–-]\s*",
    re.I,
)


# Control characters are not text: a backspace pasted after "Redis" must not end up in the
# option the ledger records (the panels escape them, but "Redis\x08" would never match "Redis").
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _plain(line: str) -> str:
    visible = with_apostrophes(_CONTROL_RE.sub(" ", line))
    unquoted = _CODE_SPAN_RE.sub(_unquoted, visible).replace("`", " ")
    return _PASTE_LABEL_RE.sub("", _EMPHASIS_RE.sub(_unmarked, unquoted).strip())


def _unmarked(mark: re.Match[str]) -> str:
    """A marker between two word characters separates them ("must**0" is not "must0") —
    except in Chinese, which has no spaces: "**不要**再用 Groovy" is one clause."""
    if not (_word_before(mark) and _word_after(mark)):
        return ""
    text = mark.string
    chinese = CJK_CHAR_RE.match(text[mark.start() - 1]) and CJK_CHAR_RE.match(text[mark.end()])
    return "" if chinese else " "


def _unquoted(span: re.Match[str]) -> str:
    """A code span's text, kept apart from a word it touches ("0`0`" is not "00")."""
    before = " " if _word_before(span) else ""
    return f"{before}{span.group(2)}{' ' if _word_after(span) else ''}"


def _word_before(mark: re.Match[str]) -> bool:
    return mark.start() > 0 and mark.string[mark.start() - 1].isalnum()


def _word_after(mark: re.Match[str]) -> bool:
    return mark.end() < len(mark.string) and mark.string[mark.end()].isalnum()


# A bold-only line is a heading when it reads like a title ("**Budget**", "**Open Questions**");
# one with a lowercase word or sentence punctuation is a sentence the user stressed
# ("**Must be idempotent**", "**No Kafka.**") and is read like any other.
_TITLE_WORDS = r"[A-Z0-9][\w&/-]*(?:\s+[A-Z0-9][\w&/-]*)*"
# A document's title line: "**ATS Selection - Requirements (v2, signed off 14 May)**" — title
# words, another title after a dash, a parenthesised note ("**Budget - under 300**" is stressed).
_BOLD_TITLE_RE = re.compile(
    rf"^\s*(?:\*\*|__)\s*{_TITLE_WORDS}(?:\s+[-–—]\s+{_TITLE_WORDS})?(?:\s*\([^)]*\))?"
    r"\s*(?:\*\*|__)\s*$"
)


# Chinese typed in a chat box separates clauses with a space where a full stop or a comma
# would go ("合租算了 上次合租室友天天半夜打游戏 再也不"): a space between two Chinese
# characters, or one that sets a latin word off on one side only ("单间 loft直接劝退"), ends
# a clause. Spaces on both sides of a latin word ("我用 Python 写") are typography.
_ZH_SPACE_BREAK_RE = re.compile(
    rf"(?<=[{CJK}])\s+(?=[{CJK}])"
    rf"|(?<=[{CJK}])\s+(?=[A-Za-z0-9][\w.+#-]*[{CJK}])"
    # "想想还是买吧～ 披肩太阿姨了": a mark that closes a Chinese clause, then a space.
    rf"|(?<=[{CJK}][～~…])\s+(?=[{CJK}])"
    # A Latin word closing a Chinese clause ("mac直接pass 我们专业要用…"): fixed-width looks
    # back, one per word length.
    + "".join(rf"|(?<=[{CJK}][A-Za-z]{{{n}}})\s+(?=[{CJK}])" for n in range(1, 9))
)


_ZH_THE_OTHERS_RE = re.compile(r"(?:其他|其它|别的|其余)")
_ZH_TRIED_RE = re.compile(
    r"(?:试|用|买|吃|去|住|报|请|找|订|囤|做|搞|签|坐|玩)过(?:[一两几]?[次回个家袋]|一阵|半年|一年)?$"
)


def _zh_space_clauses(sentence: str) -> list[str]:
    if not CJK_CHAR_RE.search(sentence):
        return [sentence]
    pieces = [p for p in _ZH_SPACE_BREAK_RE.split(sentence) if p.strip()]
    # "婚庆公司除了金夫人 其他都可以看看": an exception and its "all the others" are one clause
    # chain, whatever separates them.
    for i in range(len(pieces) - 1, 0, -1):
        if "除了" in pieces[i - 1] and _ZH_THE_OTHERS_RE.match(pieces[i]):
            pieces[i - 1 : i + 1] = [f"{pieces[i - 1]}，{pieces[i]}"]
    # "必剪之前试过 字幕识别挺准 但导出老卡在99%": a use told, then how it went, for a piece or
    # two. (Joining every piece was tried: the rejection model then read other topics' clauses.)
    for i in range(len(pieces) - 1, -1, -1):
        if _ZH_TRIED_RE.search(pieces[i]):
            pieces[i : i + 3] = ["，".join(pieces[i : i + 3])]
    return pieces or [sentence]


# A Markdown quotation line: someone else's message pasted in ("> Hi Sam! Happy to hold Sept 20
# for you."). What its sender says of themselves or offers the user ("My standard package is 8
# hours", "I can add a second shooter if you'd like") is neither the user's need nor refusal; a
# demand relayed in it ("> Builds must finish in under 10 minutes", "> You must use Postgres")
# still binds the user.
_QUOTE_LINE_RE = re.compile(r"^\s*>")
_QUOTE_MARKS_RE = re.compile(r"^\s*(?:>\s?)+")
# A numbered list run into one line ("要求：1. 声音要大；2. 能插U盘；3. …"): each number opens an
# item, as it would at the start of a line; a number cut off as its own sentence states nothing.
_INLINE_ITEM_RE = re.compile(r"(?<=[:：;；,，。.!?！？])\s*(?:\(?\d{1,2}[.)、）]|[①-⑩])\s*(?=\D)")
# Emoji closing a sentence are tone, not words: "一点都不想穿🙅‍♀️" ends at 穿.
_EDGE_EMOJI_RE = re.compile(r"[\s\U0001F300-\U0001FAFF\u2600-\u27BF\ufe0f\u200d]+$")
# The sign-off ("Kind regards,") and the name under it close a letter.
_SIGN_OFF_RE = re.compile(rf"^\s*(?:{_SIGN_OFF_WORDS}|谢谢|此致|敬礼)\s*[,，!]?\s*$", re.I)
_SIGNATURE_RE = re.compile(r"^\s*(?:[-—–]+\s*)?[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3}\s*$")
# A notice signed at its end: "…别让楼上又投诉。——刘队长", "— Jan (HOA board)".
_SIGNED_TAIL_RE = re.compile(
    r"\s*(?:——|—|--)\s*(?:[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,2}|"
    r"[\u4e00-\u9fff]{1,3}(?:队长|老师|经理|主任|阿姨|姐|哥|总|妈|爸|组长|班长))\s*$"
)
_SENDER_VOICE_RE = re.compile(
    r"\b(?:i|i'm|i'll|i've|i'd|my|me|you|your|you'd|you'll)\b|^(?:hi|hello|hey|dear)\b|我这边|我们这边|您",
    re.I,
)
_RELAYED_DEMAND_RE = re.compile(
    r"\b(?:must|need(?:s)?\s+to|have\s+to|has\s+to|only|required|cannot|can't|mustn't)\b"
    r"|必须|需要|不能|只能|务必",
    re.I,
)


def _in_the_senders_voice(sentence: str) -> bool:
    return bool(_SENDER_VOICE_RE.search(sentence)) and not _RELAYED_DEMAND_RE.search(sentence)


def _split_lines(text: str) -> list[tuple[str, bool]]:
    """(sentence, is a list item) for every sentence, list markers and formatting removed."""
    out: list[tuple[str, bool]] = []
    signed_off = False
    for line in _INLINE_ITEM_RE.sub("\n", text).splitlines():
        line = _SIGNED_TAIL_RE.sub("", line) if _SIGNED_TAIL_RE.search(line[1:]) else line
        if signed_off and _SIGNATURE_RE.match(line):
            continue
        signed_off = bool(_SIGN_OFF_RE.match(line)) or (signed_off and not line.strip())
        if _HEADING_LINE_RE.match(line) or _BOLD_TITLE_RE.match(line):
            continue
        quoted = _QUOTE_LINE_RE.match(line) is not None
        # "> 1. 日志保留不少于30天": a list quoted from a document is a list all the same (its
        # number is no sentence of its own).
        line = _QUOTE_MARKS_RE.sub("", line) if quoted else line
        body = _plain(BULLET_RE.sub("", line))
        bullet = BULLET_RE.match(line) is not None
        spoken = (p for s in SENTENCE_SPLIT_RE.split(body) for p in run_on_pieces(s or ""))
        for sentence in spoken:
            if quoted and _in_the_senders_voice(sentence):
                continue
            for piece in _zh_space_clauses(_EDGE_EMOJI_RE.sub("", sentence)):
                if piece.strip():
                    out.append((piece.strip(), bullet))
    return out


def split_sentences(text: str) -> list[str]:
    return [s for s, _ in _split_lines(text)]


def _is_label(label: str) -> bool:
    """'Budget' in 'Budget: under $200' — a noun naming what the value constrains."""
    words = label.split()
    if not 1 <= len(words) <= 3 or _NOT_A_LABEL_RE.match(label) or not strip_discourse(label):
        return False
    verbish = (SYSTEM_VERB_RE, OUTPUT_VERB_RE, BUILD_VERB_RE, IMPERATIVE_REJECT_RE)
    return not any(p.match(label) for p in verbish) and not _NEGATIVE_START_RE.match(label)


# "Final answer: modular stairs, painted": the label says what its head is, a choice (read so
# by `rejections.choice` too).
DECISION_LABEL = (
    r"(?:final(?:\s+(?:answer|decision|pick|choice|call))?|decision|verdict|conclusion)"
)
_DECISION_LABEL_RE = re.compile(rf"^{DECISION_LABEL}$", re.I)


def _split_clauses(sentence: str) -> list[str]:
    label = _LABEL_RE.match(sentence)
    if label and _DECISION_LABEL_RE.match(label.group("label")):
        # What is chosen ends at the first comma; the needs after it are read on their own
        # ("Final answer: Rollo USB, budget under 300 dollars").
        head, _, tail = label.group("rest").partition(", ")
        return [f"{label.group('label')}: {head}", *(_split_clauses(tail) if tail else [])]
    if label and _HEADER_WORD_RE.match(label.group("label")):
        return _split_clauses(label.group("rest"))  # "context: ~30 services": no clause of its own
    if label and _is_label(label.group("label")):
        head, *rest = _split_clauses(label.group("rest"))
        return [f"{label.group('label')}: {head}", *rest]
    clauses = _CLAUSE_SPLIT_RE.split(sentence)
    if CJK_CHAR_RE.search(sentence):
        # Chinese chains clauses with full-width commas where English would start a new one.
        clauses = [part for clause in clauses for part in clause.split("，")]
    return [c.strip(" ,，") for c in clauses if c.strip(" ,，.。")] or [sentence]


def _is_question(sentence: str) -> bool:
    body = sentence.strip()
    if body.endswith(("?", "？")):
        return True
    core = strip_discourse(body.rstrip(".!。！"))
    if (
        _QUESTION_START_RE.match(core)
        and not _DONT_START_RE.match(core)
        and not _NO_SUBJECT_AFTER_AUX_RE.match(core)
    ):
        return True
    return bool(CJK_CHAR_RE.search(core) and _ZH_QUESTION_RE.search(core))


# "I hate cruises, any other ideas?", "We can't use AWS, what would you suggest?", "预算三百以内，
# 有什么推荐吗？": a statement with a question after its last comma. The statement binds every
# answer, so it is read as one; the question mark belongs to the tail. Not when the head is a
# condition or a premise to the question ("If we drop Oracle, what then?", "除了火锅，还有什么？")
# or the tail offers an alternative ("…, or should we keep it?").
_TAIL_QUESTION_RE = re.compile(r"^(?P<head>.+)[,，]\s*(?P<tail>[^,，]+[?？])\s*$")
_NOT_A_STATEMENT_HEAD_RE = re.compile(
    r"^(?:if|when|whether|unless|besides|apart|except|without|with|for|after|before|since|"
    r"assuming|given|suppose|supposing|say|in\s+case|instead|rather|other\s+than|or)\b"
    r"|^(?:如果|要是|假如|假设|万一|除了|不然|还是)|的话$",
    re.I,
)
_SHORT_TAIL_WORDS = 4
# "…, right?" asks to have the head confirmed: the head is in question too.
_TAG_QUESTION_RE = re.compile(
    r"^(?:right|correct|yes|no|ok(?:ay)?|yeah|true|isn'?t\s+it|don'?t\s+(?:they|you|we)|"
    r"aren'?t\s+(?:they|we)|is\s+that\s+(?:right|correct|true|ok))\W*$"
    r"|^(?:对吧|是吧|对吗|是吗|对不对|是不是)",
    re.I,
)
# A Chinese clause that asks: "Loki够吗", "有什么推荐吗", "怎么训练", "谁批？".
ZH_ASKS_RE = re.compile(
    r"[吗呢么?？]\s*$|什么|啥|咋|怎么|如何|哪|多少|几[个种家款]|是否|有没有|能不能|可不可以|要不要|谁"
)


def _statement_then_question(sentence: str) -> tuple[str, str] | None:
    m = _TAIL_QUESTION_RE.match(sentence)
    if m is None:
        return None
    head, tail = m.group("head").strip(), m.group("tail").strip()
    if _is_question(head) or _NOT_A_STATEMENT_HEAD_RE.search(head):
        return None
    if _NOT_A_STATEMENT_HEAD_RE.match(tail) or _TAG_QUESTION_RE.match(tail):
        return None
    if len(head.split()) < 2 and len(head) < 3:
        return None
    words = tail.rstrip("?？ ")
    if CJK_CHAR_RE.search(tail):
        return (head, tail) if ZH_ASKS_RE.search(words) else None
    asks = _is_question(words) or len(words.split()) <= _SHORT_TAIL_WORDS
    return (head, tail) if asks else None


# Chinese goes on after a question with a comma ("…有别的餐厅吗，我们想多几个选择的。",
# "地址在哪里，我俩都路痴的"): the question ends at its clause; what follows is said, not asked.
_ZH_CLAUSES_RE = re.compile(r"[^，,]+(?:[，,]|$)")


def _zh_questions_inside(sentence: str) -> list[str]:
    if not CJK_CHAR_RE.search(sentence) or "，" not in sentence:
        return [sentence]
    pieces: list[str] = []
    current = ""
    clauses = _ZH_CLAUSES_RE.findall(sentence)
    for i, clause in enumerate(clauses):
        current += clause
        body = clause.rstrip("，, ")
        if i < len(clauses) - 1 and CJK_CHAR_RE.search(body) and _ZH_CLAUSE_ASKS_RE.search(body):
            pieces.append(current.rstrip("，, ") + "？")
            current = ""
    return [*pieces, current] if current.strip() else pieces


def parse_sentences(text: str) -> list[Sentence]:
    parsed: list[Sentence] = []
    for whole, bullet in _split_lines(text):
        for s in _zh_questions_inside(whole):
            _parse_one(s, bullet, parsed)
    return parsed


def _parse_one(s: str, bullet: bool, parsed: list[Sentence]) -> None:
    cut = _statement_then_question(s) if s.endswith(("?", "？")) else None
    if cut is None:
        parsed.append(Sentence(s, len(parsed), _is_question(s), _split_clauses(s), bullet))
        return
    head, tail = cut
    parsed.append(Sentence(head, len(parsed), False, _split_clauses(head), bullet))
    parsed.append(Sentence(tail, len(parsed), True, [tail], bullet, asked=s))


_DONT_START_RE = re.compile(r"^(?:do\s+not|don't)\b", re.I)
# An inverted question puts its subject right after the auxiliary ("Has it got…", "Should we…");
# "Has to be open Saturday", "Should be quiet", "Can't be more than a day" drop the subject of a
# statement, as people do in notes.
_NO_SUBJECT_AFTER_AUX_RE = re.compile(
    r"^\S+\s+(?:to|got\s+to|be|been|not|never|also|always|only|ideally|preferably|definitely)\b"
    r"|^(?:can|could|would|will|should|shall|may|might|must)n?'?t?\s+be\b"
    # "Shouldn't cost more than 60 a month", "Won't work for us": a negative auxiliary with a
    # verb after it and no subject between.
    r"|^\w+n't\s+(?!(?:i|you|we|they|he|she|it|there|this|that|these|those|the|a|an|my|your|"
    r"our|their|his|her|its|any|some|anyone|anybody|anything|everyone|someone|people)\b)",
    re.I,
)
_NEGATIVE_START_RE = re.compile(r"^(?:no|not|don't|do)\b", re.I)
TRAILING_PLEASE_RE = re.compile(r"[\s,]+please$", re.I)
ZH_PARTICLES_RE = re.compile(r"[吧了啊呢]+$")
COMMA_RE = re.compile(r"[,，]")

# Discourse markers that open a clause without carrying content.
DISCOURSE_RE = re.compile(
    r"^(?:(?:actually|ok(?:ay)?|so|well|also|and|but|now|then|oh|right|alright|all\s+right|"
    r"yes|yeah|yep|sure|hmm+|great|cool|fine|good(?!\s+to\s+know)|perfect|"
    # Thanks as one unit: stripping "thank you" alone leaves "so much" to read as a need.
    r"(?:thanks|thank\s+(?:you|u))(?:\s+(?:so\s+|very\s+)+much|\s+a\s+(?:lot|bunch|million))?"
    # "Thank you for your help", "thanks for letting me know": what is thanked for, too.
    r"(?:\s+for\s+(?:everything|(?:letting|helping)(?:\s+(?:me|us))?(?:\s+know)?|"
    r"(?:all\s+)?(?:your|the|this|that)\s+(?:\w+\s+)?"
    r"(?:help|assistance|time|info(?:rmation)?|advice|suggestions?|support|input|tips?|"
    r"explanation|update|ideas?|list|options?|recommendations?|reply|response|answer|"
    r"kindness|patience|guidance|thoughts|work|effort|care|quick\s+\w+)"
    # "Thank you for your kindness throughout": an adverb closing what is thanked for.
    r"(?:\s+(?:throughout|again|today|so\s+far|as\s+always))?))?|"
    # "I should say at the outset that …", "I must confess": the speaker announces what follows.
    r"(?:i\s+)?(?:should|must|have\s+to|need\s+to|'d\s+like\s+to|would\s+like\s+to|want\s+to)\s+"
    r"(?:say|mention|add|point\s+out|stress|admit|confess|tell\s+you|let\s+you\s+know)"
    r"(?:\s+(?:at\s+the\s+outset|first|up\s+front|right\s+away|now))?(?:\s+that)?|"
    r"(?:i\s+)?(?:really\s+)?appreciate\s+(?:it|(?:all\s+)?(?:your|the|this)\s+(?:\w+\s+)?"
    r"(?:help|assistance|time))|much\s+appreciated|"
    r"good\s+to\s+know|wait\s+a\s+(?:minute|moment|sec(?:ond)?)|hold\s+on|never\s+mind|"
    r"no\s+worries|fair\s+enough|on\s+second\s+thoughts?|"
    r"one\s+more\s+thing|another\s+thing|by\s+the\s+way|btw|plus|additionally|finally|lastly|"
    r"quick\s+(?:one|q|question)|"
    r"anyway|in\s+addition|on\s+top\s+of\s+that|remember|note\s+that|"
    r"keep\s+in\s+mind(?:\s+that)?|however|besides|please|kindly|understood|got\s+it|because|"
    # Back-references to what was said: "As we discussed, no Kafka."
    r"as\s+(?:we|i)\s+(?:discussed|said|mentioned|agreed)(?:\s+(?:before|earlier))?|"
    r"like\s+i\s+said|to\s+be\s+clear|for\s+the\s+record|again|honestly|frankly|"
    r"obviously|basically|clearly|naturally|of\s+course|"
    r"(?:final\s+)?decision|conclusion|verdict)"
    r"\b[,，:：!]?\s*"
    # CJK characters are word characters too, so these need no (and allow no) \b.
    r"|(?:另外|还有|然后|那么|好的|嗯|对了|其实|所以|但是|不过|因为|由于|请(?!求))[,，:：!]?\s*)+",
    re.I,
)


def strip_discourse(clause: str) -> str:
    return DISCOURSE_RE.sub("", clause.strip()).strip(" ,，")


def tidy(text: str, limit: int = 0) -> str:
    """A ledger-ready clause: trimmed, no trailing punctuation or 'please', first letter up.

    Never cut mid-sentence: what the ledger holds is what the model is told, and half a
    requirement is a different requirement. `limit` only bounds a question or a reason, and
    only at a clause boundary; without one the text stays whole.
    """
    body = " ".join(text.split()).strip(" ,;:—–-，。；：")
    body = TRAILING_PLEASE_RE.sub("", body).rstrip(".!。！ ")
    if limit and len(body) > limit:
        cut = max(body.rfind(mark, 0, limit) for mark in (";", "；", "。", ". "))
        body = body[:cut] if cut > limit // 2 else body
    return body[:1].upper() + body[1:] if body else ""

"""Text primitives: tokens, similarity, and the bounded view of a long message."""

from __future__ import annotations

import functools
import itertools
import re

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
CJK_CHAR_RE = re.compile(f"[{CJK}]")
# A Latin name inside Chinese text ("Kafka", "k8s", "C++", "Hill's", "McDonald’s"): its
# apostrophe is kept when a letter follows it.
ZH_LATIN_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9_.+#/-]|['’](?=[A-Za-z]))*"
# What edges a reason said after an option or a refusal ("X, too slow." → "too slow").
REASON_EDGE_PUNCT = " ,.-—–:;，。！!"
# "Not" softened: 不太, 不怎么, 不大, 不是很, 不是太 (想 / 愿意 / 喜欢) are half-hearted refusals.
ZH_HALF_NOT = r"不(?:太|怎么|大|是很|是太)?"
# Tokens with their offsets: numbers (with thousands separators), latin words, single CJK chars.
TOKEN_RE = re.compile(rf"\d+(?:[.,]\d+)*|[A-Za-z][A-Za-z0-9]*|[{CJK}]")


def word_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


NUMBER_WORDS = {
    "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "fifteen": "15",
    "twenty": "20", "thirty": "30", "fifty": "50", "hundred": "100", "thousand": "1000",
}  # fmt: skip

# Function words and conversational filler: they make two phrasings of one requirement look
# different ("we must keep X" / "keep X, please") without changing what is required.
STOPWORDS = word_set(
    """a an the and or but if then so of to in on at by for with from as into onto is are was
    were be been being it its this that these those we our ours us you your i me my they them
    their he she his her do does did doing have has had having will would should shall must
    need needs needed can could may might also please just too very really all any some there
    here what which who whom how when where why let s t re ll ve d m use using used want wants
    like around about approximately roughly ok okay yes yeah actually now still even only
    again one more thing well sure maybe perhaps get got make sure ensure always anything
    something everything each every"""
)

_CJK_STOP_CHARS = frozenset("的了是我们你他她它在也都就吧呢吗啊和与及或")


def _singular(token: str) -> str:
    """A crude singular that is applied to both sides of every comparison, so its mistakes
    cancel out ("redis" keeps its s; "microservices" and "microservice" meet)."""
    if len(token) <= 3 or not token.isascii() or not token.isalpha():
        return token
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith("s") and not token.endswith(("ss", "us", "is", "os")):
        return token[:-1]
    return token


def norm_token(raw: str) -> str:
    token = raw.lower()
    if token[0].isdigit():
        return token.replace(",", "")
    return NUMBER_WORDS.get(token, _singular(token))


def tokenise(text: str) -> list[str]:
    return [norm_token(m.group()) for m in TOKEN_RE.finditer(text)]


def content_tokens(text: str) -> frozenset[str]:
    """Latin content words (no stopwords) plus CJK character bigrams.

    Cached: every new requirement is compared with every requirement in the ledger, whose
    texts do not change; a ledger of 1,000 needs was re-tokenised for each of them."""
    return _content_tokens_of(text) if len(text) <= _CACHED_CHARS else _scan_tokens(text)


_CACHED_CHARS = 2000


@functools.lru_cache(maxsize=8192)
def _content_tokens_of(text: str) -> frozenset[str]:
    return _scan_tokens(text)


def _scan_tokens(text: str) -> frozenset[str]:
    out: set[str] = set()
    cjk_run: list[str] = []

    def flush() -> None:
        chars = [c for c in cjk_run if c not in _CJK_STOP_CHARS]
        if len(chars) == 1:
            out.add(chars[0])
        out.update(a + b for a, b in itertools.pairwise(chars))
        cjk_run.clear()

    for match in TOKEN_RE.finditer(text):
        raw = match.group()
        if CJK_CHAR_RE.fullmatch(raw):
            cjk_run.append(raw)
            continue
        flush()
        token = norm_token(raw)
        if token not in STOPWORDS:
            out.add(token)
    flush()
    return frozenset(out)


def _squash(text: str) -> str:
    return " ".join(text.lower().split())


def text_similarity(a: str, b: str) -> float:
    """Dice overlap of content tokens, 0–1 (CJK compared by character bigrams)."""
    ta, tb = content_tokens(a), content_tokens(b)
    if not ta or not tb:
        return 1.0 if _squash(a) and _squash(a) == _squash(b) else 0.0
    return _dice(ta, tb)


@functools.lru_cache(maxsize=8192)
def _numbers(tokens: frozenset[str]) -> frozenset[str]:
    # Cached with the tokens: a new requirement is compared with every one in the ledger.
    return frozenset(t for t in tokens if t[0].isdigit())


def restates(text: str, existing: str) -> bool:
    """True when `text` says again what `existing` already says (adds at most one minor word).

    A changed number is never a restatement: "30 minutes" → "60 minutes" is an update.
    """
    new, old = content_tokens(text), content_tokens(existing)
    if not new or not old:
        return False
    if bool(CJK_CHAR_RE.search(text)) != bool(CJK_CHAR_RE.search(existing)):
        return _across_languages(text, existing) >= 0.7  # "保留30天" said again as "30 days"
    if _numbers(new) - _numbers(old):
        return False
    if text_similarity(text, existing) >= 0.75:
        return True
    return len(new & old) >= 2 and len(new - old) <= 1


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def requirement_similarity(a: str, b: str) -> float:
    """How likely two texts state the same requirement, 0–1.

    Like `text_similarity`, plus: a text whose content words all appear in the other (two or
    more of them) scores at least 0.6; and when the two carry different numbers, the rest must
    match closely — "30 minutes" → "60 minutes" is the same rule changed, but "files over
    20 MB" / "images over 5 MB" are two rules. Two subjects are two rules whatever else they
    share: "the Kafka part must handle 101 requests per second" and "the Celery part must
    handle 299 requests per second" (a word on each side that the other lacks, with a changed
    number; or a name on each side — a capitalised word — that the other lacks).
    """
    ta, tb = content_tokens(a), content_tokens(b)
    if not ta or not tb:
        return text_similarity(a, b)
    if bool(CJK_CHAR_RE.search(a)) != bool(CJK_CHAR_RE.search(b)):
        return _across_languages(a, b)
    na, nb = _numbers(ta), _numbers(tb)
    if na and nb and na != nb:
        wa, wb = ta - na, tb - nb
        rest = _dice(wa, wb)
        if wa - wb and wb - wa:
            return min(rest, 0.5)
        return rest if rest >= 0.8 else min(rest, 0.5)
    score = _dice(ta, tb)
    if (ta - tb) & _names(a) and (tb - ta) & _names(b):
        return min(score, 0.5)
    small, large = sorted((ta, tb), key=len)
    if len(small) >= 2 and small <= large:
        score = max(score, 0.6)
    return score


def _across_languages(a: str, b: str) -> float:
    """One text in Chinese, the other not: the same requirement when they constrain the same
    quantity ("消息必须保留7天" / "7-day retention"), and a shared name or number helps."""
    from .quantities import quantity_keys  # quantities builds on this module

    if quantity_keys(a) & quantity_keys(b):
        return 0.7
    return 0.5 * _dice(content_tokens(a), content_tokens(b))


def _names(text: str) -> frozenset[str]:
    """Capitalised words after the first: the names of things ("Kafka", "PostgreSQL")."""
    return frozenset(
        norm_token(m.group())
        for m in TOKEN_RE.finditer(text)
        if m.start() > 0 and m.group()[0].isupper()
    )


def more_specific(new: str, old: str) -> bool:
    """Does `new` say more than `old` (more content words, or a number `old` lacks)?"""
    new_tokens, old_tokens = content_tokens(new), content_tokens(old)
    if _numbers(new_tokens) - _numbers(old_tokens):
        return True
    return bool(new_tokens - old_tokens) and len(new_tokens) > len(old_tokens)


def overlap_of(part: frozenset[str] | set[str], whole: frozenset[str] | set[str]) -> float:
    return len(part & whole) / len(part) if part else 0.0


# How much of one text the rules read. A message or reply longer than this is mostly pasted
# material (logs, code, documents); what the user asks of it sits at its start or its end.
# Bounding it keeps every rule's cost bounded too: some cues look back over the whole text,
# and a 1 MB paste must not freeze the app for minutes.
MESSAGE_HEAD, MESSAGE_TAIL = 4000, 2000
REPLY_HEAD, REPLY_TAIL = 12000, 4000


def bounded_text(text: str, head: int, tail: int) -> str:
    """The head and the tail of a long text, each ending and starting at a sentence boundary,
    so no sentence is read (and no requirement taken) half-cut."""
    if len(text) <= head + tail:
        return text
    start, end = text[:head], text[-tail:]
    stop = max(start.rfind(mark) for mark in (". ", "\n", "。", "! ", "? "))
    if stop > head // 2:
        start = start[: stop + 1]
    begin = min((i for i in (end.find(m) for m in (". ", "\n", "。")) if i >= 0), default=-1)
    if 0 <= begin < tail // 2:
        end = end[begin + 1 :]
    return f"{start}\n\n{end}"


# The sentences of a reply: after a full stop of either script, and at every line break.
REPLY_SENTENCE_RE = re.compile(r"(?<=[.!?。！？])\s*|\n+")


# How people type on phones and in a hurry: contractions without their apostrophe ("thats so
# boring", "i dont need it") and with a typographic one ("don’t", most phone keyboards' default).
# Spelt out, one rule reads every spelling. Only contractions that are no other word ("its",
# "ill", "were", "lets" and "well" are words of their own).
_INFORMAL = {
    "thats": "that's", "shes": "she's", "hes": "he's", "im": "I'm", "ive": "I've",
    "theyre": "they're", "youre": "you're", "weve": "we've", "dont": "don't",
    "doesnt": "doesn't", "didnt": "didn't", "isnt": "isn't", "arent": "aren't",
    "wasnt": "wasn't", "werent": "weren't", "wont": "won't", "cant": "can't",
    "couldnt": "couldn't", "wouldnt": "wouldn't", "shouldnt": "shouldn't", "mustnt": "mustn't",
    "havent": "haven't", "hasnt": "hasn't", "hadnt": "hadn't", "whats": "what's",
    "theres": "there's",
}  # fmt: skip
_INFORMAL_RE = re.compile(r"\b(?:" + "|".join(_INFORMAL) + r")\b", re.I)


def with_apostrophes(text: str) -> str:
    """`text` with its contractions spelt the one way the rules read them."""

    def fix(m: re.Match[str]) -> str:
        word = _INFORMAL[m.group().lower()]
        return word if m.group()[0].islower() or word[0] == "I" else word.capitalize()

    return _INFORMAL_RE.sub(fix, text.replace("’", "'"))


# Thanks and acknowledgements open a reply to the assistant ("太好了，…", "记好了，…", "谢谢了，…",
# "好的"); they are never an option.
ZH_ACKNOWLEDGEMENT = (
    r"^(?:(?:太|真|挺)?好(?:的|啊|吧)?$|[\u4e00-\u9fff]{0,2}(?:记|弄|订|定|备|排|拾|办|写|搞|说)好$"
    r"|(?:谢谢|多谢|感谢|清楚|明白|知道|收到|了解|可以|没问题|好嘞|嗯|哦)|(?:懂|行)[了吧啊]?$)"
)

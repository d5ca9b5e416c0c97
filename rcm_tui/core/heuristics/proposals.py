"""Answers to a proposal: the user judges an option the assistant just put on the table.

Most everyday rejections are replies. The assistant lists options; the user picks one up as the
topic of a sentence and judges it — "Datadog at 200GB/day would bankrupt us", "pods — absolutely
not", "Elastic we ran before, JVM tuning hell", "Salesforce对我们来说太重了", "米小圈她看腻了".
No construction list covers those wordings, but two things hold in all of them: the topic of the
sentence names an option the assistant proposed, and what is said about it is negative (a
negative evaluation, a negated wish, excess: "too …", "太…"). Both are required, and a hedge
("might", "not sure", "worried", "可以考虑", "担心") or a question keeps the option.
"""

from __future__ import annotations

import re

from .options import option_matches, strip_option_noise
from .sentences import Sentence, strip_discourse
from .text import CJK, CJK_CHAR_RE

# The topic: the noun phrase a sentence opens with, up to the verb or a preposition after it.
_EN_TOPIC_RE = re.compile(
    r"^(?:(?:the|a|an|those|these|that|this)\b)?\s*(?P<np>[\w'+.&/-]+(?:\s+[\w'+.&/-]+){0,3}?)"
    r"(?=\s*(?:[-—–,:]|$)|\s+(?:is|are|was|were|'s|'re|would|will|could|can|at|on|in|for|with|"
    r"we|i|she|he|they|my|our|has|have|had|does|do|doesn'?t|don'?t|isn'?t|aren'?t|won'?t|"
    r"wouldn'?t|just|seems?|looks?|sounds?|feels?|gets?|costs?|takes?|makes?|itself|"
    r"themselves|sucks?|broke|kept|keeps|never|always|honestly|really|definitely|weighs?|eats?|"
    r"needs?|uses?|breaks?|drains?|runs?)\b)",
    re.I,
)
_ZH_TOPIC_RE = re.compile(
    rf"^(?P<np>[A-Za-z0-9][A-Za-z0-9_.+#/-]*(?:\s[A-Za-z0-9][A-Za-z0-9_.+#/-]*)?[{CJK}]{{0,3}}?"
    rf"|[{CJK}]{{2,8}}?)"
    r"(?=对|我|他|她|大家|孩子|太|很|不|没|上次|之前|去年|以前|听说|据说|感觉|实在|真的|确实|"
    r"有点|也|都|就|还是|用起来|吃起来|看起来|[，,。！!])"
)
_NEGATIVE_EN_RE = re.compile(
    r"\b(?:absolutely\s+not|definitely\s+not|hell\s+no|no\s+way|nope|nah|never\s+again|"
    r"not\s+(?:again|for\s+(?:me|us)|an\s+option|happening|worth)|too\s+\w+|"
    r"(?:don'?t|doesn'?t|do\s+not|does\s+not|won'?t|wouldn'?t)\s+(?:want|like|need|work|fit|"
    r"suit|trust|love)|beyond\s+(?:our|my)\s+budget|over\s+(?:our|my)\s+budget|"
    r"out\s+of\s+(?:our|my)\s+(?:budget|price\s+range|league)|bankrupt\w*|overpriced|"
    r"expensive|pricey|hell|nightmare|disaster|mess|awful|terrible|horrible|rubbish|useless|"
    r"boring|tedious|faff|hassle|pain|annoying|impersonal|tacky|cheesy|gimmicky|clunky|"
    r"bloated|flaky|unreliable|buggy|noisy|crowded|touristy|dirty|overrated|meh|ugh|"
    r"hate|hated|dislike|can'?t\s+stand|sick\s+of|tired\s+of|over\s+it|done\s+with|"
    r"regret\w*|complain\w*|kept\s+\w+ing|no\s+chance|weighs?\s+a\s+ton|spook\w*|"
    r"(?:somewhere|something)\s+(?:new|else|different)|been\s+there|done\s+that|"
    r"(?:drove|drives|driving)\s+(?:me|us)\s+(?:mad|crazy|nuts)|rather\s+not|no\s+thanks|"
    r"next|pass|skip|done\s+\w+ing|fed\s+up|adds?\s+up|never\s+wear|never\s+use|murder|"
    r"torture|brutal|insane|ridiculous|extortionate|let'?s\s+not|go\s+to\s+die|abandoned|"
    r"unmaintained|deprecated|outdated|dead)\b"
    r"|^\s*(?:is\s+|are\s+)?out\b",
    re.I,
)
_NEGATIVE_ZH_RE = re.compile(
    r"太[\u4e00-\u9fff]|不好|很差|差劲|体验差|不行|不喜欢|不太喜欢|不想|不太想|不要|腻|烦|"
    r"麻烦|坑|踩雷|踩过雷|失望|不靠谱|不方便|受不了|算了|换个|不考虑|不适合|没意思|不推荐|"
    r"后悔|难用|难吃|加价|上当|吃亏|不划算|不值|坏了|无聊|去过了|换个|换一家|预算不够|买不起|"
    r"负担不起|超出"
)
_HEDGE_RE = re.compile(
    r"\b(?:might|may|maybe|perhaps|could|probably|possibly|not\s+sure|unsure|wonder\w*|"
    r"worried|worry|afraid|if|unless|whether|but\s+(?:i'?m\s+)?open|open\s+to|fine|okay|ok|"
    r"not\s+(?:too|that|so)\s+\w+|isn'?t\s+(?:too|that)|wasn'?t\s+(?:too|that)|not\s+bad|"
    r"not\s+against|don'?t\s+mind|no\s+problem|let'?s\s+see|we'?ll\s+see)\b"
    r"|可以考虑|也可以|还行|也行|担心|犹豫|不确定|再看看|再想想|也不是不|不排斥|不介意|可能|也许"
    r"|如果|要是|的话|倒是",
    re.I,
)
_NOT_A_TOPIC = frozenset(
    """i we you he she it they this that there here what which who so and but or also then
    ok okay yes no well honestly actually just maybe budget price cost time weather""".split()
)


_WORD_RE = re.compile(r"[\w'+.&/-]+")
_COUNTED_RE = re.compile(
    r"^(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|a\s+few|"
    r"several|many|most|some|all|every|each|no)\b",
    re.I,
)
_DETERMINER_RE = re.compile(r"^(?:the|a|an|those|these|that|this|our|my)\s+", re.I)


def _named_topic(core: str, proposal: str) -> str:
    """The longest run of up to four opening words that names something in the reply
    ("The Miele weighs a ton" → "Miele", "Pulsar's ops story …" → "Pulsar")."""
    words = _WORD_RE.findall(_DETERMINER_RE.sub("", core))[:4]
    for size in range(len(words), 0, -1):
        candidate = re.split(r"'s\b", " ".join(words[:size]))[0].strip(".,")
        if _COUNTED_RE.match(candidate):
            return ""  # "Four years max, …": a quantity, not an option
        if candidate.lower() not in _NOT_A_TOPIC and option_matches(candidate, proposal):
            return candidate
    return ""


def _named_zh_topic(core: str, proposal: str) -> str:
    """The longest opening of a Chinese clause (six characters down to two, or a latin name)
    that the reply named: "飞鹤广告太多了" → 飞鹤."""
    latin = re.match(r"[A-Za-z][A-Za-z0-9_.+#/-]*(?:\s[A-Za-z0-9][A-Za-z0-9_.+#/-]*)?", core)
    if latin:
        return latin.group() if option_matches(latin.group(), proposal) else ""
    for size in range(min(6, len(core)), 1, -1):
        head = core[:size]
        if CJK_CHAR_RE.fullmatch(head[0]) and head in proposal and head not in _NOT_A_ZH_TOPIC:
            return head
    return ""


_NOT_A_ZH_TOPIC = frozenset(
    "我们 你们 他们 她们 这个 那个 这种 那种 如果 可以 不过 但是 所以".split()
)


def _named_opening(clause: str, proposal: str) -> str:
    """The option of the reply a clause opens with, read as Chinese or as English."""
    core = strip_discourse(clause)
    zh = bool(CJK_CHAR_RE.search(core[:12]))
    return _named_zh_topic(core, proposal) if zh else _named_topic(core, proposal)


def _topic(clause: str) -> str:
    core = strip_discourse(clause)
    m = (_ZH_TOPIC_RE if CJK_CHAR_RE.search(core[:2]) else _EN_TOPIC_RE).match(core)
    if not m:
        return ""
    topic = re.split(r"'s\b", m.group("np").strip())[0]  # "TGI's licence change": TGI
    return "" if topic.lower() in _NOT_A_TOPIC else topic


# A negator right before a judgement turns it ("The Doro isn't terrible", "not too pricey",
# "没那么麻烦", "不算太贵"): what is left is no complaint.
_NEGATED_BEFORE_EN_RE = re.compile(
    r"(?:\bnot|n'?t|\bnever|\bno)\s+(?:(?:that|so|too|really|all|actually|even|a|an|the|"
    r"as|such|at\s+all)\s+)*$",
    re.I,
)
_NEGATED_BEFORE_ZH_RE = re.compile(r"(?:不|没|没有|不算|没那么|没有那么|不是很|并不|也不)$")
# A judgement that carries its own negation ("don't want", "no way", "不想") is negative as
# it stands.
_SELF_NEGATED_RE = re.compile(
    r"^(?:not|no|never|nope|nah|don|doesn|do\s+not|does\s+not|won|wouldn|absolutely|"
    r"definitely|hell|rather|let|不|没)",
    re.I,
)


def _negative(clause: str) -> bool:
    for pattern, negated_before in (
        (_NEGATIVE_ZH_RE, _NEGATED_BEFORE_ZH_RE),
        (_NEGATIVE_EN_RE, _NEGATED_BEFORE_EN_RE),
    ):
        for m in pattern.finditer(clause):
            if _SELF_NEGATED_RE.match(m.group()) or not negated_before.search(
                clause[: m.start()]
            ):
                return True
    return False


def proposal_verdicts(sentences: list[Sentence], proposal: str) -> list[tuple[str, int, str]]:
    """(option, sentence index, reason) for each sentence whose topic names an option of the
    last assistant reply and that says something negative about it, unhedged."""
    if not proposal:
        return []
    found: list[tuple[str, int, str]] = []
    for sentence in sentences:
        if sentence.question or _HEDGE_RE.search(sentence.text):
            continue
        opening = sentence.clauses[0] if sentence.clauses else sentence.text
        topic = _topic(opening)
        if not topic or not option_matches(topic, proposal):
            topic = _named_opening(opening, proposal)
        if not topic:
            continue
        rest = sentence.text[sentence.text.find(topic) + len(topic) :]
        judged = strip_option_noise(_judged_topic(topic, rest, proposal))  # "KLM also (out)"
        if judged:
            found.append((judged, sentence.index, rest.strip(" ,.-—–:，。")))
    return found


_PIECE_SPLIT_RE = re.compile(r"\s*(?:[,;，；]|\s[-—–]\s)\s*")


# What accepts the option a piece opened with: "Stand yes", "炒面可以".
_ACCEPTED_RE = re.compile(
    r"\b(?:yes|yeah|yep|ok|okay|fine|sure|good|great|please|works)\b|可以|行|好的|要的|没问题",
    re.I,
)


_CONTRAST_RE = re.compile(r"^(?:but|though|however|whereas|但是|不过|可是|但|只是)\s*", re.I)


def _judged_topic(topic: str, rest: str, proposal: str) -> str:
    """The option a negative judgement in the rest of the sentence is about: the sentence's
    topic; once a piece has accepted it, another option of the reply that a later piece opens
    with ("Stand yes, case she doesn't need": the case)."""
    current, accepted = topic, False
    for index, piece in enumerate(_PIECE_SPLIT_RE.split(rest)):
        if index and (accepted or _CONTRAST_RE.match(piece)):
            # "长城想去，但是八达岭人太多了": after a contrast, a piece that opens with another
            # option of the reply is about that one.
            after = _CONTRAST_RE.sub("", piece, count=1)
            named = _named_opening(after, proposal)
            other = _topic(after) if not named and not accepted else ""
            if other and not option_matches(other, current):
                return ""  # the judgement is about something the reply did not offer
            current, accepted = (named, False) if named else (current, accepted)
        if _negative(piece) and not accepted:
            return current
        accepted = accepted or bool(_ACCEPTED_RE.search(piece))
    return ""


def clause_topics(clause: str, proposal: str) -> list[str]:
    """The options a clause opens with: its topic, and the opening words that name an option
    of the replies (candidates for the rejection model, rejection_model.py)."""
    topics = [_topic(clause)]
    if proposal:
        topics.append(_named_opening(clause, proposal))
    return [t for t in dict.fromkeys(topics) if t]


def hedged(text: str) -> bool:
    return bool(_HEDGE_RE.search(text))


def negative_verdict(text: str) -> bool:
    return _negative(text)

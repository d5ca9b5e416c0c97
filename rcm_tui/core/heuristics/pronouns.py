"""Rejections without a name ('Not that one.'): the option the assistant just proposed."""

from __future__ import annotations

import re

from ..ledger_snapshot import LedgerSnapshot
from .clause_rejections import ALTERNATIVE_RE, REASON_LEAD_RE
from .cues import ACK_WORDS, BUILD_VERB_RE, OUTPUT_VERB_RE, SYSTEM_VERB_RE
from .option_phrases import BAD_OPTION_STARTS, NAME_MARK_RE
from .options import same_option
from .rejections import REASON_START_RE, RejectionHit
from .replies import proposes_option
from .sentences import (
    DISCOURSE_RE,
    FENCED_CODE_RE,
    TRAILING_PLEASE_RE,
    Sentence,
    strip_discourse,
    tidy,
)
from .text import STOPWORDS

# A reply that turns down what the assistant just proposed without naming it. Strong forms
# reject on their own ("No way.", "Not that one.", "Let's not use that.", "That's off the
# table."); a bare "no"/"nope"/"nah" rejects only with a judgement after it ("no — too heavy"),
# since on its own it usually answers a question ("No, not really.", "No, that's fine.").
_PRONOUN = r"(?:that|this|it)(?:\s+one)?"
_PRONOUN_STRONG_RE = re.compile(
    r"^(?:(?:no|nope|nah)[,\s]+)?(?:no\s+way|no\s+chance|not\s+a\s+chance|hell\s+no|"
    rf"not\s+{_PRONOUN}|(?:definitely|absolutely|certainly)\s+not(?:\s+{_PRONOUN})?|"
    rf"(?:let'?s|i'?d\s+rather|we'?d\s+rather)\s+not(?:\s+(?:use|go\s+with|pick|choose)\s+"
    rf"{_PRONOUN})?|(?:i|we)\s+(?:don'?t|do\s+not)\s+(?:want|like)\s+{_PRONOUN}|"
    r"(?:that|this|it)(?:'s|\s+is)\s+(?:off\s+the\s+table|out\s+of\s+the\s+question|"
    r"a\s+no[- ]?go|not\s+an\s+option|a\s+non[- ]starter|a\s+no|overkill))"
    r"(?P<tail>(?:[\s,.;!—–-].*)?)$",
    re.I,
)
_PRONOUN_WEAK_RE = re.compile(r"^(?:no|nope|nah)(?P<tail>\s*[,.;!—–-].*)$", re.I)
_ZH_PRONOUN = r"(?:那个|这个|它)(?:方案)?"
_ZH_PRONOUN_REJECT_RE = re.compile(
    r"^(?:我们?|咱们)?(?:(?:就|还是)?(?:不要再?|不用|别用?|不想用|不考虑|不选|放弃)(?:用|使用|选)?"
    rf"{_ZH_PRONOUN}|{_ZH_PRONOUN}(?:不行|不合适|不可行|不考虑了?|就算了|免谈|没戏|不要了?|不用了?))"
    r"[了吧啊呢]*(?P<tail>[，,].*)?[。！!.]?$"
)
# A verdict on the option in the tail of a bare "no": excess, cost, weight, difficulty.
_JUDGEMENT_RE = re.compile(
    r"\b(?:too|overkill|over-?engineered|overly|heavy|heavyweight|expensive|costly|slow|complex|"
    r"complicated|risky|fragile|bloated|clunky|painful|nightmare|hate|dislike|"
    r"can'?t\s+(?:afford|run|operate|maintain|support))\b",
    re.I,
)
# "No, too much detail": a verdict on the reply itself, not on what it proposed.
_ABOUT_THE_REPLY_RE = re.compile(
    r"\b(?:detail|details|explanation|answer|text|verbose|wordy|long|words|reply)\b", re.I
)


# "Not that one — we need something managed": after a plain refusal, a need the option
# does not meet is the reason it was refused.
_NEED_REASON_RE = re.compile(
    r"^(?:(?:we|i|it|this|that)\s+(?:really\s+|still\s+)?(?:need|needs|must|have\s+to|has\s+to|"
    r"require|requires|want)\b|must\b)",
    re.I,
)


def _tail_verdict(raw: str) -> tuple[str, bool, bool]:
    """(tail, judges the option or says why, names an alternative) after a rejection head."""
    tail = TRAILING_PLEASE_RE.sub("", raw.strip(" ,.;!—–-")).strip(" ,.;!—–-")
    if tail.lower() == "please":
        tail = ""
    about_reply = bool(_ABOUT_THE_REPLY_RE.search(tail))
    judged = bool(_JUDGEMENT_RE.search(tail) or REASON_START_RE.match(tail)) and not about_reply
    return tail, judged, bool(ALTERNATIVE_RE.search(tail))


def _proposal_candidates(reply: str) -> list[str]:
    """Names in a reply (capitalised / digit / punctuated words, runs of them kept together),
    without the capitalised common words that only open a sentence."""
    runs: list[list[str]] = []
    last_end = -2
    prose = FENCED_CODE_RE.sub("\n", reply)
    for m in _WORD_RE.finditer(prose):
        word = m.group()
        if not NAME_MARK_RE.search(word):
            last_end = -2
            continue
        if runs and m.start() == last_end + 1 and prose[last_end] == " ":
            runs[-1].append(word)  # "SQL Server", "Google Cloud Storage"
        else:
            runs.append([word])
        last_end = m.end()
    names: list[str] = []
    for words in runs:
        while words and words[0][1:].islower() and _is_common_word(words[0]):
            words.pop(0)
        name = " ".join(words)
        if name and not any(same_option(name, n) for n in names):
            names.append(name)
    return names


# A word with inner punctuation kept ("Node.js", "C++", "python-magic"), none at its ends.
_WORD_RE = re.compile(r"[A-Za-z0-9][\w+#]*(?:[.-][\w+#]+)*")


def _is_common_word(word: str) -> bool:
    low = word.lower().strip(".+#-")
    if low in STOPWORDS or low in ACK_WORDS or low in BAD_OPTION_STARTS:
        return True
    verbs = (SYSTEM_VERB_RE, OUTPUT_VERB_RE, BUILD_VERB_RE, DISCOURSE_RE)
    return any(p.fullmatch(low) for p in verbs) or low.endswith("ly")


def _last_proposal(reply: str) -> str | None:
    """The one option the assistant's reply proposes, or None when it proposes none or
    several (a pronoun cannot then say which was turned down)."""
    proposed: list[str] = []
    for candidate in _proposal_candidates(reply):
        if proposes_option(reply, candidate):
            proposed.append(candidate)
            if len(proposed) > 1:
                return None  # stop early: long replies name many things
    return proposed[0] if proposed else None


def pronoun_rejection(sentences: list[Sentence], view: LedgerSnapshot) -> RejectionHit | None:
    """'No way.' / 'Hmm, no — too heavy.' / '我们不用那个' right after a single proposal."""
    if not sentences or sentences[0].question or not view.last_assistant_message:
        return None
    body = strip_discourse(sentences[0].text)
    zh = _ZH_PRONOUN_REJECT_RE.match(body)
    if zh:
        reason = (zh.group("tail") or "").strip(" ,，。.！!")
    else:
        # "Nope, that's overkill for us": a bare no and its verdict — read as the weak form
        # first, so the whole verdict becomes the reason.
        weak = _PRONOUN_WEAK_RE.match(body)
        verdict = _tail_verdict(weak.group("tail")) if weak else None
        if verdict is None or not verdict[1]:
            strong = _PRONOUN_STRONG_RE.match(body)
            verdict = _tail_verdict(strong.group("tail")) if strong else None
            if verdict is not None and _NEED_REASON_RE.match(verdict[0]):
                verdict = (verdict[0], True, verdict[2])
            if verdict is None or (verdict[0] and not (verdict[1] or verdict[2])):
                return None  # "Not that I know of", "No, that's fine", "No way, that's perfect"
        tail, judged, _ = verdict
        reason = REASON_LEAD_RE.sub("", tail, count=1) if judged else ""
    option = _last_proposal(view.last_assistant_message)
    if option is None:
        return None
    # "Not that one, we need something managed": a reason inside the rejecting clause may
    # state a requirement too (after a dash it is a clause of its own, mined anyway).
    own_clause = len(sentences[0].clauses) == 1
    cause = reason if own_clause and _NEED_REASON_RE.match(reason) else ""
    if not reason and len(sentences) > 1 and not sentences[1].question:
        # "Not that one. We need something managed.": the need right after is the reason.
        following = strip_discourse(sentences[1].text).rstrip(" .!")
        reason = following if _NEED_REASON_RE.match(following) else ""
    return RejectionHit(option, tidy(reason, 200), sentences[0].index, 0, False, cause)

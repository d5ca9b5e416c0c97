"""What a reply does: re-advocacy of a rejected option (the page read by `reply_lines.py`;
premature full answers are `premature.py`'s)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from . import member_reader
from .categories import guard_spans, name_spans
from .chinese_script import as_typed, simplified
from .mention_cues import (
    ACK_LATER_RE,
    CLAUSE_SPLIT_RE,
    PROPOSAL_LABEL_RE,
    URGE_REOPEN_RE,
    cue_before,
    mention_proposes,
)
from .options import option_matches, same_option
from .reply_lines import BOLD_RE, ReplyLine, reply_lines, reply_sentences, speech_spans
from .sentences import (
    CODE_BLOCK_RE,
    CODE_COMMENT_RE,
    FENCED_CODE_RE,
)
from .text import CJK_CHAR_RE, REPLY_HEAD, REPLY_TAIL, bounded_text

# How sure the member reader must be that a sentence proposes a rejected option it does not
# name: chosen on the guard's tuning splits (dev, dev2, fresh2, our own replies), never on
# heldout, fresh or fresh3.
MEMBER_PROPOSAL_CHANCE = 0.85

def find_readvocacy(
    reply: str, rejected_options: list[str], *, as_reply: bool = False
) -> list[str]:
    """The rejected options that `reply` proposes again (not those it mentions as rejected)."""
    return list(find_readvocacy_evidence(reply, rejected_options, as_reply=as_reply))


def find_readvocacy_evidence(
    reply: str, rejected_options: list[str], *, as_reply: bool = False
) -> dict[str, str]:
    """Each rejected option the reply proposes again, with the words that propose it
    ("pancakes" for "flat foods"), so a rewrite can be told what to take out.

    `as_reply` (the guard on an assistant's reply): an option named in a sentence that
    offers something and frames nothing as excluded is proposed ("The taxi ride is only 15
    minutes"), and the option is looked for wide (categories.guard_spans). Off for a user's
    own text (the ledger asks whether a requirement names an option it rejected), where "the
    data we exported from MongoDB" offers nothing, and for finding which option a reply put
    forward, among every noun it names.
    """
    typed = bounded_text(reply, REPLY_HEAD, REPLY_TAIL)
    # Traditional characters are read as Simplified, as every Chinese cue is written (避開 is
    # 避开); the words that propose are given back as the reply wrote them.
    reply = simplified(typed)
    lines = reply_lines(FENCED_CODE_RE.sub("\n", reply))
    proposed: dict[str, str] = {}
    for option in rejected_options:
        if not option.strip() or any(same_option(option, p) for p in proposed):
            continue
        read_option = simplified(option)
        # A reply that names the option to exclude it is read for its names alone, by the
        # words and by the member reader both: asked once here.
        named_out = as_reply and _excluded_by_name(read_option, lines)
        found = _proposal(reply, read_option, lines, as_reply=as_reply, named_out=named_out)
        if found is None and as_reply and not named_out:
            found = _member_proposal(read_option, lines)
        if found is not None:
            proposed[option] = as_typed(found, reply, typed)
    return proposed


def _code_uses(code: str, option: str) -> bool:
    """Code that imports or calls the option proposes it; a comment that names it does not."""
    for line in code.splitlines():
        statement = CODE_COMMENT_RE.sub("", line)
        if statement.strip() and option_matches(option, statement):
            return True
    return False


def proposes_option(reply: str, option: str) -> bool:
    """Does the reply propose the option? Only a cue or an offering position counts here: the
    caller looks for the one option a reply puts forward, among every noun it names."""
    return _proposal(reply, option, reply_lines(FENCED_CODE_RE.sub("\n", reply))) is not None


def _proposal(
    reply: str,
    option: str,
    lines: list[ReplyLine],
    *,
    as_reply: bool = False,
    named_out: bool = False,
) -> str | None:
    """The words of the reply that propose the option, or None. `as_reply`: the option is
    looked for wide, and one named in an offering sentence with no excluding frame counts.
    `named_out` (the reply excludes the option by name, `_excluded_by_name`): only the
    option's own names are looked for."""
    if any(_code_uses(block, option) for block in CODE_BLOCK_RE.findall(reply)):
        return option
    spans = name_spans if named_out else functools.partial(guard_spans, wide=as_reply)
    for line in lines:
        if not spans(option, line.text):
            continue
        sentences = reply_sentences(line.text)
        for index, sentence in enumerate(sentences):
            if spans(option, sentence):
                following = sentences[index + 1] if index + 1 < len(sentences) else ""
                found = _sentence_proposal(sentence, option, line, following, as_reply, spans)
                if found is not None:
                    return found
    return None


def _member_proposal(option: str, lines: list[ReplyLine]) -> str | None:
    """A sentence that proposes the option without naming it ("a local guide drives you" for
    guided tours), as the member reader judges it, or None. Only sentences the names left
    unread are asked: one that names the option was judged by its words above, and a reply
    that excludes a kind of the option by name ("I've kept out the treadmill and any jogging")
    has applied the rule and offers the rest as what lies outside it (the caller has already
    set aside a reply that excludes the option itself)."""
    if CJK_CHAR_RE.search(option) or _one_brand(option) or not member_reader.available():
        return None
    unnamed = _unnamed_offers(option, lines)
    for sentence in unnamed or ():
        chance = member_reader.proposal_chance(option, sentence)
        if chance is not None and chance >= MEMBER_PROPOSAL_CHANCE:
            bold = BOLD_RE.search(sentence)
            return bold.group().strip("*_ ") if bold else sentence.strip().rstrip(".!?;:")
    return None


# One name in title case ("Monopoly", "Airbnb", "Hotel Zed") is one thing: another game or
# another booking site beside it is a sibling, not it, so the member reader, which judges
# likeness, is not asked. Capitals ("SUVs", "DJ") and common nouns name kinds with members.
_BRAND_RE = re.compile(r"^(?:[A-Z][a-z][a-z'&.-]*(?:\s+|$))+$")


def _one_brand(option: str) -> bool:
    return bool(_BRAND_RE.match(option.strip()))


def _unnamed_offers(option: str, lines: list[ReplyLine]) -> list[str] | None:
    """The English sentences that offer something (in a list item, in bold, or with an offer
    signal), frame nothing as excluded and name nothing of the option; None when a sentence
    or an excluded line names the option, a variant or a member of it (categories.guard_spans,
    wide) as excluded. One walk: each line's names are looked for once."""
    offers: list[str] = []
    for line in lines:
        named = bool(guard_spans(option, line.text, wide=True))
        if line.excluded:
            if named:
                return None
            continue
        for sentence, following in _with_following(reply_sentences(line.text)):
            framed = _excluding_frame(sentence, following)
            if named and guard_spans(option, sentence, wide=True):
                if framed:
                    return None
                continue
            offering = line.item or BOLD_RE.search(sentence) or _OFFER_SIGNAL_RE.search(sentence)
            if offering and not framed and not CJK_CHAR_RE.search(sentence):
                offers.append(sentence)
    return offers


def _with_following(sentences: list[str]) -> Iterator[tuple[str, str]]:
    """Each sentence with the one after it ("" for the last): a next sentence can turn back
    on this one ("X is the obvious pick. But you ruled it out.")."""
    yield from zip(sentences, [*sentences[1:], ""], strict=True)


# Two English words, the first qualifying the second ("rental truck", "group tour").
_WORD_PAIR_RE = re.compile(r"^([A-Za-z]+)\s+([A-Za-z]+?)s?$")


def _exclusion_names(option: str) -> list[str]:
    """The option, and for two words their swap: a reply that leaves out "truck rentals" has
    named "rental truck" (said only to exclude it, the swap cannot offer anything)."""
    pair = _WORD_PAIR_RE.match(option.strip())
    return [option, f"{pair.group(2)} {pair.group(1)}"] if pair else [option]


def _excluded_by_name(option: str, lines: list[ReplyLine]) -> bool:
    """Does the reply name the option to exclude it ("since you'd rather skip hotels", "不住酒店
    的话")? Then it has applied the user's rule, and what it offers in the option's place (a
    guesthouse, 民宿) is what it judged outside the option: only the option's own names, said
    as an offer, still propose it."""
    names = _exclusion_names(option)
    for line in lines:
        if not any(name_spans(name, line.text) for name in names):
            continue
        if line.excluded:
            return True
        for sentence in reply_sentences(line.text):
            found = sorted({span for name in names for span in name_spans(name, sentence)})
            offset = 0
            for clause in CLAUSE_SPLIT_RE.split(sentence) if found else ():
                position = sentence.find(clause, offset)
                offset = max(offset, position + len(clause))
                for start, end in found:
                    if not position <= start < end <= position + len(clause):
                        continue
                    if mention_proposes(clause, start - position, end - position) is False:
                        return True
    return False


# Anything in a sentence that frames what it names as excluded, contrasted or the user's own
# view: negation, exclusion verbs, "instead"/"unlike", "you said", "your note", 不要/排除/算了.
# A sentence with none of these that names a rejected option states it as a fact about the
# option the user is to act on ("The taxi ride is only 15 minutes", "Kafka remains the standard
# here"): that offers it. A sentence with one is read mention by mention, by the cues above.
_EXCLUDING_FRAME_RE = re.compile(
    r"\b(?:not|no|never|nothing|none|without|instead|rather|unlike|except|besides|apart|"
    r"avoid\w*|skip\w*|exclud\w*|reject\w*|rul(?:e|ed|es|ing)|drop\w*|left|leave|leaving|"
    # "check out the thrift store", "try out", "seek out": out that offers.
    r"aside|off|(?<!check\s)(?<!checking\s)(?<!try\s)(?<!seek\s)(?<!pick\s)out|free|minus|away|replac\w*|swap\w*|(?:dis)?like|hate|loathe|allerg\w*|"
    # The user's words reported: "you said", "you'd prefer", "as you asked" (not "that said").
    r"(?:you|you'?ve|you'?d|you\s+have|you\s+had)\s+(?:\w+\s+)?(?:wish\w*|wanted|want|"
    r"prefer\w*|said|say|mentioned|asked|told|noted|explained)|"
    r"your\s+(?:note|rule|request|preference|requirement|constraint|experience|concern|"
    r"allergy|condition|point)|as\s+you|per\s+your|given\s+your|since\s+you|because\s+you|"
    r"compared|versus|vs|enough|done\s+with|burn(?:ed|t)|sick|tired|"
    # A warning of where it hides names it to keep it out: "peanuts can turn up in pesto".
    r"hid(?:e|es|den|ing)|lurk\w*|sneak\w*|contain\w*|traces?|beware|careful|caution\w*|"
    r"warn\w*|watch\s+(?:out\s+)?for|look\s+out|(?:turn|show)(?:s|ing)?\s+up|"
    # "X would have given you replay": what the option would have done, not an offer.
    r"(?:would|could|might)\s+have)\b|n't\b|~~|[❌✗✘🚫⛔]"
    # 不 and 没 but for the words they make positive (不错 "good", 不如/不妨 "better to").
    r"|不(?![错少过仅但久同断妨如])|没(?!错)|别|除了|除去|排除|否决|否掉|去掉|避|算了|跳过|"
    r"代替|替代|换掉|换成|改成|讨厌|过敏|戒|你说|你提到|按你|按照你|根据你|既然|因为你|"
    r"小心|留意|警惕|当心|含有",
    re.I,
)


# What makes a sentence an offer to the user rather than a description of the option: an
# appraisal ("cheap", "the standard", "worth"), a modal, the user addressed, a price or a
# duration. "Kafka stores messages in partitions" has none; "the taxi ride is only 15 minutes",
# "Kafka remains the standard here", "MySQL也是不错的选择" have one.
_OFFER_SIGNAL_RE = re.compile(
    r"\b(?:you|your|you'?ll|you'?d|yours|we|let'?s|i'?d|best|better|great|good|ideal|perfect|"
    r"nice|lovely|solid|strong|safe|safest|easy|easiest|easier|simple|simplest|simpler|quick|"
    r"quickest|quicker|fast|fastest|faster|cheap|cheaper|cheapest|affordable|convenient|"
    r"comfortable|reliable|worth|recommend\w*|suggest\w*|pick|choice|option|only|just|still|"
    r"remains?|standard|popular|favou?rite|fits?|suits?|wins?|works?|shines?|handles?|covers?|"
    r"would|could|can|will|should|might|may|must|try|consider|go|grab|take|book|get|use|"
    r"hop|head|stay|order|start|set|run|pay|buy|rent)\b|[$€£¥]\s?\d|\d+\s*(?:min|mins|minutes|"
    r"hours?|h|km|miles|%|元|块|分钟|小时)\b"
    r"|最|更|可以|建议|推荐|不错|好|方便|便宜|快|值得|适合|选择|方案|元|分钟|小时|试试|考虑",
    re.I,
)


def _offer_sentence(sentence: str, following: str) -> bool:
    """A sentence that names a rejected option with no excluding frame and does offer it."""
    return bool(_OFFER_SIGNAL_RE.search(sentence)) and not _excluding_frame(sentence, following)


# An exclusion whose object points back at what the sentence lists: "satay and peanut noodles
# are peanut-based — I skipped anything like that", "科技布、猫抓布本质上还是布艺沙发，所以没放
# 进来", "这类单品都含芒果，不要混进来". What the sentence names, it names to leave out.
_ANAPHORIC_EXCLUSION_RE = re.compile(
    r"\b(?:skip(?:ped)?|left\s+out|leave\s+out|kept\s+out|keep\s+out|excluded?|avoid(?:ed)?|"
    r"steer(?:ed)?\s+clear\s+of|(?:did\s+not|didn'?t|won'?t|will\s+not)\s+(?:include|list|add))"
    r"\s+(?:\w+\s+)?(?:anything|everything|all\s+of|any\s+of|those|them|these|that|such)\b"
    r"|(?:都|也|就|所以|因此)?(?:没有?|未|不要|别|不)(?:再|有)?(?:列|放|加|混|选|推荐|安排|考虑|写)"
    r"(?:进来|进去|在内|进|入|上)",
    re.I,
)


# A next sentence that turns back on this one: "But you ruled it out.", "It is off the list."
_TURNS_BACK_RE = re.compile(
    r"^\W*(?:but|however|though|yet|sadly|unfortunately|it|that|this|they|which)\b"
    r"|^\W*(?:但|不过|可是|可惜|它|这)",
    re.I,
)


def _excluding_frame(sentence: str, following: str) -> bool:
    """Does the sentence, or the one right after it when that one turns back on it ("X is the
    obvious pick. But you ruled it out."), frame what it names as excluded or as the user's
    view?"""
    if _EXCLUDING_FRAME_RE.search(sentence):
        return True
    return bool(_TURNS_BACK_RE.match(following) and _EXCLUDING_FRAME_RE.search(following))


def _sentence_proposal(
    sentence: str,
    option: str,
    line: ReplyLine,
    following: str,
    as_reply: bool,
    spans: Callable[[str, str], list[tuple[int, int]]],
) -> str | None:
    if URGE_REOPEN_RE.search(sentence):
        return option
    if line.warned:
        return None  # "**Watch out:** some baskets sneak in rum cake": warned of, not offered
    plain = as_reply and not line.excluded and _offer_sentence(sentence, following)
    anaphoric = bool(_ANAPHORIC_EXCLUSION_RE.search(sentence))
    ack = ACK_LATER_RE.search(sentence)
    quoted = speech_spans(sentence)
    bold = [m.span() for m in BOLD_RE.finditer(sentence)]
    clauses = CLAUSE_SPLIT_RE.split(sentence)
    offset = 0
    for clause in clauses:
        position = sentence.find(clause, offset)
        offset = max(offset, position + len(clause))
        prefix = sentence[:position]
        # "Option 2: Redis" proposes; "Rejected options: Redis" does not.
        labelled = bool(PROPOSAL_LABEL_RE.search(prefix)) and cue_before(prefix) != "neg"
        for start, end in spans(option, clause):
            at = position + start
            if (ack and at < ack.start()) or any(a <= at < b for a, b in quoted):
                continue
            verdict = mention_proposes(clause, start, end)
            if verdict is None and anaphoric:
                continue
            offered = (labelled and start < 3) or line.item or any(a <= at < b for a, b in bold)
            if verdict or (verdict is None and (plain or (offered and not line.excluded))):
                return clause[start:end]
    return None

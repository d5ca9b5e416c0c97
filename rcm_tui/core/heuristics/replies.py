"""What a reply does: re-advocacy of a rejected option (the page read by `reply_lines.py`;
premature full answers are `premature.py`'s)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from . import member_reader
from .categories import guard_spans, name_spans
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
    r"不推荐|没推荐|讨厌|受不了|过敏|不感冒|吃不了|喝不了|除去|不包括|怕",
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
    r"拆成|拆分成|改成|做成|引入|上|用|试试|坐|叫|打|订|买|去|住|报|送|点|吃|喝|带|来一?[个份杯瓶碗]|不如|不妨",
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
    r"|^(?:被排除|已经排除|不行|不考虑|已被否决|被否决|已排除|除外|过敏|不耐受)"
    # "酒吧街就跳过了", "KTV就不考虑了": the topic first, then what is done with it.
    r"|^[\u4e00-\u9fff]{0,3}(?:就|也|都|先)?(?:跳过|算了|免了|省了|不去了|不考虑|不推荐|排除|去掉|"
    r"不安排|不用了|不要了)"
    r"|^[\u4e00-\u9fff]{0,5}(?:就|也|都)?(?:没有?|不|未)(?:再)?(?:放|安排|推荐|考虑|选|列|包括|包含|含|"
    r"涉及|需要)",
    re.I,
)
# "..., but you ruled it out": an acknowledgement that covers the mentions before it.
_ACK_LATER_RE = re.compile(
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
_ZH_NEGATED_VERB_RE = re.compile(
    r"(?:不(?![如妨错少仅但管])|没(?![错])|别|无需|无)[\u4e00-\u9fff]{0,3}$"
)
_ZH_SCOPE_CHARS = 8
_ZH_SCOPE_BREAK_RE = re.compile(r"[^\u4e00-\u9fff]|但|而|就|再|然后|或者|还是|可以|建议|推荐")
# A subordinate clause that gives a reason or a premise: what it names is not on offer.
_REASON_CLAUSE_RE = re.compile(
    r"^\W{0,3}(?:since|because|as|given(?:\s+that)?|now\s+that|seeing\s+(?:as|that)|"
    r"considering(?:\s+that)?)\s+(?:[\w'-]+\s+){0,4}$|^\W{0,3}(?:既然|因为|由于|考虑到)",
    re.I,
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


def _mention_proposes(clause: str, start: int, end: int) -> bool | None:
    """True: proposes; False: mentions it as rejected; None: a neutral mention."""
    before, after = clause[:start], clause[end:]
    if _NEGATIVE_AFTER_RE.match(after):
        return False
    kind = _cue_before(before)
    if kind == "neg" or _ZH_NEGATED_VERB_RE.search(before):
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
    reply = bounded_text(reply, REPLY_HEAD, REPLY_TAIL)
    lines = reply_lines(FENCED_CODE_RE.sub("\n", reply))
    proposed: dict[str, str] = {}
    for option in rejected_options:
        if not option.strip() or any(same_option(option, p) for p in proposed):
            continue
        # A reply that names the option to exclude it is read for its names alone, by the
        # words and by the member reader both: asked once here.
        named_out = as_reply and _excluded_by_name(option, lines)
        found = _proposal(reply, option, lines, as_reply=as_reply, named_out=named_out)
        if found is None and as_reply and not named_out:
            found = _member_proposal(option, lines)
        if found is not None:
            proposed[option] = found
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
    if CJK_CHAR_RE.search(option) or not member_reader.available():
        return None
    unnamed = _unnamed_offers(option, lines)
    for sentence in unnamed or ():
        chance = member_reader.proposal_chance(option, sentence)
        if chance is not None and chance >= MEMBER_PROPOSAL_CHANCE:
            bold = BOLD_RE.search(sentence)
            return bold.group().strip("*_ ") if bold else sentence.strip().rstrip(".!?;:")
    return None


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


def _excluded_by_name(option: str, lines: list[ReplyLine]) -> bool:
    """Does the reply name the option to exclude it ("since you'd rather skip hotels", "不住酒店
    的话")? Then it has applied the user's rule, and what it offers in the option's place (a
    guesthouse, 民宿) is what it judged outside the option: only the option's own names, said
    as an offer, still propose it."""
    for line in lines:
        if not name_spans(option, line.text):
            continue
        if line.excluded:
            return True
        for sentence in reply_sentences(line.text):
            found = name_spans(option, sentence)
            offset = 0
            for clause in _READV_CLAUSE_SPLIT_RE.split(sentence) if found else ():
                position = sentence.find(clause, offset)
                offset = max(offset, position + len(clause))
                for start, end in found:
                    if not position <= start < end <= position + len(clause):
                        continue
                    if _mention_proposes(clause, start - position, end - position) is False:
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
    # "X would have given you replay": what the option would have done, not an offer.
    r"(?:would|could|might)\s+have)\b|n't\b|~~|[❌✗✘🚫⛔]"
    # 不 and 没 but for the words they make positive (不错 "good", 不如/不妨 "better to").
    r"|不(?![错少过仅但久同断妨如])|没(?!错)|别|除了|除去|排除|否决|否掉|去掉|避|算了|跳过|"
    r"代替|替代|换掉|换成|改成|讨厌|过敏|戒|你说|你提到|按你|按照你|根据你|既然|因为你",
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
    if _URGE_REOPEN_RE.search(sentence):
        return option
    plain = as_reply and not line.excluded and _offer_sentence(sentence, following)
    ack = _ACK_LATER_RE.search(sentence)
    quoted = speech_spans(sentence)
    bold = [m.span() for m in BOLD_RE.finditer(sentence)]
    clauses = _READV_CLAUSE_SPLIT_RE.split(sentence)
    offset = 0
    for clause in clauses:
        position = sentence.find(clause, offset)
        offset = max(offset, position + len(clause))
        prefix = sentence[:position]
        # "Option 2: Redis" proposes; "Rejected options: Redis" does not.
        labelled = bool(_PROPOSAL_LABEL_RE.search(prefix)) and _cue_before(prefix) != "neg"
        for start, end in spans(option, clause):
            at = position + start
            if (ack and at < ack.start()) or any(a <= at < b for a, b in quoted):
                continue
            verdict = _mention_proposes(clause, start, end)
            offered = (labelled and start < 3) or line.item or any(a <= at < b for a, b in bold)
            if verdict or (verdict is None and (plain or (offered and not line.excluded))):
                return clause[start:end]
    return None

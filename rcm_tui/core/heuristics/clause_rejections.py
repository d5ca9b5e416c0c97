"""What one clause turns down, in English and Chinese: each option with the text after it and
the construction that rejected it, and the reason said right after it."""

from __future__ import annotations

import re

from .constructions import find_constructions
from .constructions_zh import not_a_zh_subject, zh_option_core
from .cues import IMPERATIVE_REJECT_RE, OPT
from .option_phrases import (
    LIST_SPLIT_RE,
    clean_options,
    looks_generic,
    looks_like_name,
)
from .option_shapes import (
    contrasted_option,
    english_part,
    fronted_and_preferred,
    names_an_everyday_thing,
    points_at_an_option,
    zh_cut_option,
)
from .options import strip_option_noise
from .sentences import strip_discourse, tidy
from .text import CJK, CJK_CHAR_RE, ZH_LATIN_NAME

# Before a repeated rejection cue inside one clause: ", no Y", " and no Y", ", forget Y", ", not
# Y", ", don't use Y"; apart from the list split so "Drop X, we can use cron" keeps its reason.
_REJECTION_CHAIN_SPLIT_RE = re.compile(
    r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or|but)\s+)(?=(?:also\s+)?(?:no|not|nor|never|"
    r"forget|drop|ditch|scrap|avoid|rule\s+out|don'?t|do\s+not|won'?t|let'?s\s+not)\b)",
    re.I,
)


_NOTHING_BEFORE_RE = re.compile(r"\bnothing\s*$", re.I)
_CHOOSING_VERB_RE = re.compile(
    r"\b(?:use|go\s+with|pick|choose|prefer|switch|store|keep|run)\b", re.I
)
_ZH_NOT_NEGATION_RE = re.compile(r"(?:不仅|并不|不一定)$")


_NEGATOR = (
    r"(?:do\s+not|don'?t|does\s+not|doesn'?t|did\s+not|didn'?t|won'?t|will\s+not|"
    r"shouldn'?t|should\s+not|must\s+not|mustn'?t|can'?t|cannot|can\s+not|never|not|"
    r"no\s+longer|aren'?t|isn'?t|stop)"
)


_CHOICE_VERB = (
    r"(?:use|using|go\s+with|going\s+with|choose|choosing|pick|picking|adopt|adopting|do|"
    r"doing|rely\s+on|relying\s+on|depend\s+on|depending\s+on|build\s+on|building\s+on|"
    r"want|consider|considering|bother\s+with|switch\s+to|switching\s+to|move\s+to|"
    r"moving\s+to|migrate\s+to|suggest|propose|recommend|bring\s+up|mention|renting|hiring|"
    r"(?P<weak>introduce|introducing|bring\s+in|pull\s+in|pulling\s+in|touch|add|adding))"
)


# "you don't need to use Docker" says it is optional, not that it is rejected.
_NEGATED_CHOICE_RE = re.compile(
    rf"\b(?P<neg>{_NEGATOR})\s+(?:be\s+)?(?P<intent>(?:going\s+to|gonna|want\s+to|"
    rf"plan(?:ning)?\s+to)\s+)?(?P<verb>{_CHOICE_VERB})\s+{OPT}",
    re.I,
)


# A negation that describes rather than decides: "it doesn't use Redis", "if we don't use X".
_DESCRIPTIVE_NEGATOR_RE = re.compile(r"^(?:does|doesn'?t|did|didn'?t|isn'?t|wasn'?t)", re.I)


_THIRD_PERSON_BEFORE_RE = re.compile(
    r"\b(?:it|he|she|they|this|that|which|who|app|code|library|service|function|script|"
    r"system|version|module|tool|package|project|repo|setup)\s*$",
    re.I,
)


# "We don't use Windows servers" reports how things are (a fact), while "we don't want to use",
# "we won't use", "let's not use" decide. Only the plain present of a first-person subject with
# a verb of using is read as a report. "We don't use X anymore" stays a rejection: it states a
# decision to stop that still holds, and proposing X again would go against it.
_HABIT_SUBJECT_BEFORE_RE = re.compile(
    r"(?:^|\b)(?:we|i|our\s+[\w-]+|the\s+team)\s+(?:\w+ly\s+)?$", re.I
)


_HABIT_NEGATOR_RE = re.compile(r"^(?:do\s+not|don'?t)$", re.I)


_HABIT_VERB_RE = re.compile(r"^(?:use|rely\s+on|depend\s+on|build\s+on)$", re.I)


_STOPPED_RE = re.compile(r"\b(?:any\s*more|no\s+longer|again)\b", re.I)


_CONDITION_BEFORE_RE = re.compile(r"\b(?:if|unless|whether|in\s+case|what\s+if|even\s+if)\b", re.I)


# "Definitely not Kafka." / "Go with Postgres, not Mongo." / "Not PlantUML, that one needs a
# Java server": the option may be followed by the reason for refusing it, or what instead.
BARE_NOT_RE = re.compile(
    r"(?:^(?:[A-Z][\w/&-]{0,20}:\s+)?(?:(?:definitely|certainly|absolutely|surely|just|nah|nope|no|ok(?:ay)?|so|right|fine)[,\s]+){0,3}|"
    r"(?P<contrast>,\s*)|\bbut\s+)"
    r"not\s+(?!\w+ed\b|sure\b|ready\b|yet\b)(?P<opt>[^,.;:!?()—–\n]+?)\s*(?:\s(?:though|tho|then))?"
    r"(?:[.!]?$|(?=,\s*(?:since|because|as|cause|cos|that|this|it|they|which|we|i|our|my|s?he|"
    r"the|go|use|pick|choose|stick|switch|let'?s|please|after|not|never|too|thanks|sorry|better|"
    r"rather|instead|something)\b))",
    re.I,
)
# "Neither Kafka nor RabbitMQ." / "We want neither X nor Y": only standalone or after a verb
# of choosing — "neither X nor Y is installed" describes, it decides nothing.
_NEITHER_RE = re.compile(
    r"^(?:(?:we|i)\s+(?:want|need|(?:will|'ll)\s+(?:use|pick|take))\s+|(?:let'?s\s+)?"
    r"(?:use|pick|choose|take)\s+)?neither\s+(?P<opt>[^,.;:!?()—–\n]+?\s+nor\s+"
    r"[^,.;:!?()—–\n]+?)\s*(?=,|\.|!|;|$|—|–|\s+please\b|\s+either\b|\s+for\s+(?:now|us|this)\b)",
    re.I,
)


_KEEP_OUT_RE = re.compile(rf"^keep\s+{OPT}\s+out\b", re.I)


_CONTRAST_REJECT_RE = re.compile(rf"\b(?:instead\s+of|rather\s+than)\s+{OPT}", re.I)


_STANCE_REJECT_RE = re.compile(
    r"\b(?:ruled\s+out|(?:decided|decide|deciding|voted?)\s+against|(?:we're|we\s+are|i'm|"
    rf"i\s+am)\s+against|say\s+no\s+to|steer\s+clear\s+of|stay\s+away\s+from|get\s+rid\s+of)\s+{OPT}",
    re.I,
)


_NEGATED_STANCE_RE = re.compile(r"(?:\b(?:not|never)|n't)\s*(?:\w+\s+)?$", re.I)


_NO_OPTION_RE = re.compile(
    r"^(?:(?:absolutely|definitely|strictly|and|also|so|just|omg|oh|ugh|lol|ok|okay)\s+)?no\s+(?P<opt>(?:(?!\s(?:if|when|unless)\s)[^,.;:!?()—–\n])+?)\s*"
    r"(?=,|\.|!|;|$|—|–|\s-\s|\s+please\b|\s+at\s+all\b|\s+if\s+(?:possible|you\s+can)\b|"
    r"\s+for\s+(?:now|us|this)\b|\s+here\b|\s+anymore\b|\s+whatsoever\b)",
    re.I,
)


# "No" that answers a question, then a clause: "No that will be all", "No the reservation is
# for 3", "No actually, …", "No make it at 12:45". A quantifier "no" is followed by a noun
# phrase, never by a definite determiner, a pronoun or a verb with its object.
_ANSWER_NO_RE = re.compile(
    r"^no\s+(?:the|that|that'?s|this|it|it'?s|i|i'?m|we|you|he|she|they|actually|thanks?|thank|"
    r"sorry|just|please|not|but|and|so|[a-z]+\s+(?:it|me|us|them|that|this|you)\b)\b",
    re.I,
)
# …or a subject and its verb ("No reservation is needed"); a verb further on belongs to a
# relative clause of the noun ("no plastic bits they can swallow").
_FINITE_RE = re.compile(
    r"^(?:\S+\s+){1,2}(?:is|are|was|were|will|would|can|could|should|does|did|has|had)\b", re.I
)


_STATE_REJECT_RE = re.compile(
    r"^(?P<subj>.+?)\s+(?:is|are|was|were|'s|has\s+been|have\s+been)\s+(?:now\s+|definitely\s+|"
    r"simply\s+|just\s+|also\s+|clearly\s+|totally\s+|completely\s+)?(?:off\s+the\s+table|"
    r"out\s+of\s+the\s+question|ruled\s+out|a\s+no[- ]?go|not\s+an?\s+option|"
    r"no\s+longer\s+an?\s+option|not\s+(?:acceptable|allowed|permitted|viable)|"
    r"a\s+non[- ]starter|a\s+deal[- ]?breaker|banned|forbidden|overkill)\b",
    re.I,
)


_RELEASE_WORDS_RE = re.compile(
    r"\b(?:of|version|release|update|beta|results?|news|issue|episode|edition|patch|report)\b",
    re.I,
)


_IS_OUT_RE = re.compile(r"^(?P<subj>.+?)\s+(?:is|are|'s)\s+(?:now\s+)?out\s*[.!]?$", re.I)


_WONT_WORK_RE = re.compile(
    r"^(?P<subj>.+?)\s+(?:won'?t|will\s+not|doesn'?t|does\s+not|isn'?t\s+going\s+to|"
    r"is\s+not\s+going\s+to)\s+(?:work|fly|cut\s+it)\b",
    re.I,
)


SUBJECT_LEAD_RE = re.compile(
    r"^(?:(?:so|and|but|then|also|actually|ok(?:ay)?|well|honestly|frankly|now|because|since|"
    r"as|i\s+think|we\s+think|i\s+guess|i\s+believe|i\s+feel|clearly|that\s+means|which\s+means)"
    r"\b[,\s]*)+",
    re.I,
)


# A latin name is ASCII (\w would run on into the Chinese after it: "不用Redis也不用X"), with
# at most a short Chinese head noun after it ("Redis集群"), taken only when nothing ends the
# name sooner.
_ZH_LATIN = ZH_LATIN_NAME


_ZH_OPT = (
    rf"(?P<opt>{_ZH_LATIN}(?:\s{_ZH_LATIN}){{0,2}}(?:\s*[和、或与及]\s*{_ZH_LATIN})*"
    rf"[{CJK}]{{0,4}}?|[{CJK}]{{1,10}}?)"
)
_ZH_OPT_END = r"(?=[了吧呢啊嘛，,。.！!？?；;、：:\s也又还都就]|因为|由于|所以|太|$)"


# Not 识别, nor 别墅 (a villa), 别针, 别具.
_ZH_PREFIX_REJECT_RE = re.compile(
    r"(?:不要再?|(?<![特识区类性级告分个差辨鉴派离送惜道判职])别(?![的人处家等急墅针具是])再?|"
    r"不再|不用|不使用|不采用|不考虑|放弃|排除|去掉|弃用|不选|"
    r"(?<![找请])不(?:找|请)(?=[\u4e00-\u9fffA-Za-z]{2}))"  # 不找头部主播: not engaging someone
    # "别再整ES" (整, 弄: the north's "do, use"); "不要搞成workshop": made into it.
    rf"(?:用|使用|采用|选用?|考虑|搞|做|赶|坐|走|住|整|弄|(?:搞|弄|整|办|做)成)?\s*{_ZH_OPT}{_ZH_OPT_END}"
)


_ZH_SUFFIX_REJECT_RE = re.compile(
    rf"(?P<opt>{_ZH_LATIN}(?:\s*[和、或与及]\s*{_ZH_LATIN})*[{CJK}]{{0,4}}?|[{CJK}]{{2,10}})\s*"
    r"(?:不行|不合适|不可行|不考虑了?|就算了|被排除了?|出局了?|免谈|没戏"
    # "X和Y都不要" / "X也不用了": 不要/不用 after the name, ending the clause.
    r"|(?:都|也|就)?(?<![要用])不(?:要|用)了?(?=[，,。.！!；;]|$))"
)


_ZH_SUBJECT_LEAD_RE = re.compile(
    r"^(?:我们?|我觉得|我认为|我们觉得|感觉|其实|那么|那(?![家间款个种位所])|所以|但是|可是|用|使用)+"
)


# Words between a rejected option and its reason ("the X library, we can't ...").
_REST_NOISE_RE = re.compile(
    r"^(?:\s*(?:library|libraries|lib|package|packages|approach|option|idea|route|solution|"
    r"architecture|framework|stuff|thing|altogether|at\s+all|any\s*more|please|entirely|"
    r"completely|whatsoever|either|for\s+now|here|there|too|as\s+well|though|tho|anyway|"
    # "X is not an option for us, our compliance team wants SQL": who it is out for.
    r"for\s+(?:us|me|them|him|her|our\s+team|the\s+team))\b)+",
    re.I,
)


# What follows a rejected option and says why ("..., we can't install libmagic").
REASON_LEAD_RE = re.compile(
    r"^[\s,，]*(?:please[\s,]*)?(?:(?:because(?:\s+of)?|since|as|due\s+to|given\s+that|given|so|"
    r"'cause|cause)\b|(?=(?:we|we're|we've|our|it|it's|its|they|there's|that's|this|the\s+team|"
    r"nobody|no\s+one)\b))",
    re.I,
)


_COMMA_CLAUSE_RE = re.compile(
    # A leading "because"/"since" is left to REASON_LEAD_RE, which drops the conjunction.
    r"^\s*,\s*(?:please[\s,]*)?(?!(?:and|or|but|then|also|please|use|go|keep|switch|"
    r"instead|rather|because|since|as|due|given|'cause|cause)\b)(?P<body>\S+(?:\s+\S+){1,})$",
    re.I,
)


_FINITE_VERB_RE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|would|could|should|need|needs|lacks?|costs?|"
    r"kills?|breaks?|takes?|makes?|requires?|adds?|hurts?|knows?|wants?)\b|n't\b|\b(?:i|we|you|"
    r"they|he|she|it)'(?:m|re|s|ve|ll|d)\b|^(?:i|we|you|they|he|she)\s+[a-z]|^(?:way\s+)?too\s+\w",
    re.I,
)


_ZH_REASON_LEAD_RE = re.compile(r"^[\s,，]*(?:因为|由于|因|毕竟)?")


# A clause that names what to do instead is an alternative, not a reason.
ALTERNATIVE_RE = re.compile(
    r"\b(?:instead|the\s+way\s+to\s+go|it\s+is\s*$|go\s+with|let'?s\s+use|prefer|rather|"
    r"switch\s+to|stick\s+(?:with|to)|keep\s+(?:it|them|everything)\s+in|use\s+[A-Z]|"
    r"will\s+(?:use|go|run|stay|talk|communicate|rely|stick|build|be)\b(?!\s+(?:too|very|hard|"
    r"slow|expensive|costly|painful|difficult|overkill|a\s+pain|a\s+nightmare|impossible)))\b"
    r"|\b(?:good|fine)\s+enough\b|\bwill\s+do\b|\bdoes\s+the\s+job\b"
    r"|^(?:use|keep|go|stick|switch|store|put|move)\b|改用|换成|就用|而是|还是用|^用"
    r"|\bis\s+what\s+(?:i|we)\b|\bwould\s+be\s+(?:better|best|ideal|preferable)\b"
    # "…换不了，最好是充电的": the preferred kind is what is wanted instead, not why.
    r"|只要|只选|只看|只考虑|只订|只住|^最好",
    re.I,
)


def reason_after(rest: str, zh: bool) -> str:
    """The stated cause right after the rejected option, or ''."""
    clause = _COMMA_CLAUSE_RE.match(rest)
    if not zh and clause and _FINITE_VERB_RE.search(clause.group("body")):
        # "forget X, the frontend team won't touch it": a comma and a full clause explain.
        body = clause.group("body")
        if not ALTERNATIVE_RE.search(body):
            return tidy(body, 200)
    lead = (_ZH_REASON_LEAD_RE if zh else REASON_LEAD_RE).match(rest)
    if not lead:
        return ""
    reason = rest[lead.end() :].strip(" ,，.。")
    if not reason or (ALTERNATIVE_RE.search(reason) and not lead.group().strip(" ,，")):
        return ""
    if zh and not lead.group().strip(" ,，") and not rest.lstrip().startswith(("，", ",")):
        return ""
    return tidy(reason, 200)


# (option, text after it, generic, family): family names the construction that rejected it
# ("" for the design-discussion forms read here); see constructions.py.
RawHit = tuple[str, str, bool, str]


def _english_clause_rejections(clause: str) -> list[RawHit]:
    """(option, text after it, generic) for each option the clause rejects.

    A clause may chain several rejections ("No Redis, no Memcached, because they are
    stateful"; "Forget X, forget Y too"; "No X and no Y"). It is cut before every repeated
    rejection cue and each piece is read on its own — but only when at least two pieces
    reject something, so "Go with Postgres, not Mongo" or "If we use X, no Y" are read whole.
    A piece without a reason of its own shares the reason that ends the chain.
    """
    core = strip_discourse(clause)
    pieces = [p for p in _REJECTION_CHAIN_SPLIT_RE.split(core) if p.strip()]
    if len(pieces) >= 2:
        per_piece = [_single_clause_rejections(p) for p in pieces]
        if sum(1 for found in per_piece if found) >= 2:
            shared = next((f[-1][1] for f in reversed(per_piece) if f), "")
            return [
                (option, rest if reason_after(rest, zh=False) else shared, generic, family)
                for found in per_piece
                for option, rest, generic, family in found
            ]
    return _single_clause_rejections(core)


class _Found:
    """The options one clause rejects, each cleaned and told a category or a named one."""

    def __init__(self) -> None:
        self.raw: list[RawHit] = []

    def add(
        self,
        raw: str,
        rest: str,
        *,
        allow_gerund: bool = True,
        need_name: bool = False,
        family: str = "",
    ) -> None:
        for option in clean_options(english_part(raw), allow_gerund=allow_gerund):
            if need_name and not looks_like_name(option):
                continue
            at = raw.find(option)
            after = raw[at + len(option) :] + rest if at >= 0 else rest
            # "I don't need a car": an everyday option is not a category of a named one.
            generic = looks_generic(raw, option) and not family
            self.raw.append((option, _REST_NOISE_RE.sub("", after), generic, family))


def _single_clause_rejections(core: str) -> list[RawHit]:
    found = _Found()
    _negated_choices(core, found)
    for option, rest, family in fronted_and_preferred(core):
        found.add(option, rest, family=family)
    bare_not = BARE_NOT_RE.search(core)
    if bare_not and not _CONDITION_BEFORE_RE.search(core[: bare_not.start()]):
        # "Not the camera one." points at an offered option as surely as a name does, and so
        # does an article and a plain thing ("Not a dog though, we're out all day").
        opt = bare_not.group("opt")
        pointed = points_at_an_option(opt) or names_an_everyday_thing(opt)
        # "Alerts go to the ops Slack channel, not email": after a stated choice, the
        # contrasted noun is the option refused, named or not.
        contrasted = bool(bare_not.group("contrast")) and contrasted_option(opt)
        found.add(opt, core[bare_not.end() :], need_name=not (pointed or contrasted))
    keep_out = _KEEP_OUT_RE.match(core)
    if keep_out:
        found.add(keep_out.group("opt"), core[keep_out.end() :])
    imperative = IMPERATIVE_REJECT_RE.match(core)
    if imperative:
        # "avoid blocking the event loop" is a requirement, "avoid ORMs" a rejection.
        found.add(
            imperative.group("opt"),
            core[imperative.end() :],
            allow_gerund=not imperative.group("verb").lower().startswith("avoid"),
        )
    for m in _STANCE_REJECT_RE.finditer(core):
        if _NEGATED_STANCE_RE.search(core[: m.start()]):
            continue  # "I wouldn't say no to X", "we can't rule out X": X stays
        if not _NOTHING_BEFORE_RE.search(core[: m.start()]):
            found.add(m.group("opt"), core[m.end() :])
    for m in _CONTRAST_REJECT_RE.finditer(core):
        # "a summary instead of code" is a wish about the reply, not a rejected option.
        chooses = _CHOOSING_VERB_RE.search(core[: m.start()])
        found.add(m.group("opt"), core[m.end() :], allow_gerund=False, need_name=not chooses)
    neither = _NEITHER_RE.match(core)
    if neither:
        found.add(neither.group("opt"), core[neither.end() :])
    bare_no = _NO_OPTION_RE.match(core)
    if bare_no and not _ANSWER_NO_RE.match(core) and not _FINITE_RE.search(bare_no.group("opt")):
        # "No shelling out to rclone": the gerund is what is done to the option (read below).
        found.add(bare_no.group("opt"), core[bare_no.end() :], allow_gerund=False, family="refusal")
    _state_rejections(core, found)
    for c in find_constructions(core, chinese=False):
        found.add(c.option, c.rest, allow_gerund=c.allow_gerund, family=c.family)
    return found.raw


def _negated_choices(core: str, found: _Found) -> None:
    """ "don't use X", "we won't pick X"; not a report of the current setup or a condition."""
    for m in _NEGATED_CHOICE_RE.finditer(core):
        before = core[: m.start()]
        if (
            _NOTHING_BEFORE_RE.search(before)
            or _DESCRIPTIVE_NEGATOR_RE.match(m.group("neg"))
            or _THIRD_PERSON_BEFORE_RE.search(before)
            or _CONDITION_BEFORE_RE.search(before)
        ):
            continue
        if (
            _HABIT_NEGATOR_RE.match(m.group("neg"))
            and not m.group("intent")
            and _HABIT_VERB_RE.match(" ".join(m.group("verb").split()))
            and _HABIT_SUBJECT_BEFORE_RE.search(before)
            and not _STOPPED_RE.search(core[m.start() :])
        ):
            continue  # a report of the current setup: kept as a fact, see FACT_RE
        # "don't add comments" is a style rule; "don't add Redis" rejects a product.
        found.add(m.group("opt"), core[m.end() :], need_name=bool(m.group("weak")))


def _state_rejections(core: str, found: _Found) -> None:
    """ "X is off the table", "X won't work", "Option A is out": the option as the subject."""
    for pattern in (_STATE_REJECT_RE, _WONT_WORK_RE, _IS_OUT_RE):
        state = pattern.match(core)
        if state:
            subject = SUBJECT_LEAD_RE.sub("", state.group("subj").split(",")[-1].strip())
            if _CONDITION_BEFORE_RE.search(subject):
                continue  # "Preset stays as the backup if the sandboxing doesn't cut it"
            out = pattern is _IS_OUT_RE
            if out and _RELEASE_WORDS_RE.search(subject):
                continue  # "the new version of Django is out" announces a release
            # "Option A is out" rejects a named option; "the report is out" is news.
            found.add(subject, core[state.end() :], need_name=out)


# Cantonese 唔係唔 is read as 不系不 (chinese_script.py).
_ZH_DOUBLE_NEGATION_RE = re.compile(r"(?:不是|并非|没有|不一定|未必|不系)不")


_ZH_BARE_VERBS = frozenset({"考虑", "使用", "采用", "选择", "选用", "列入", "纳入"})


_ZH_DEMONSTRATIVE_RE = re.compile(r"^(?:我们?|咱们)?(?:那个|这个|那种|这种|它)")


def _chinese_clause_rejections(clause: str) -> list[RawHit]:
    # "对了麦克风不用": a word that turns the talk ("by the way") is no part of the option.
    clause = strip_discourse(clause) or clause
    found = _chinese_raw_hits(clause)
    return [hit for hit in found if not zh_cut_option(hit[0], clause)]


def _chinese_raw_hits(clause: str) -> list[RawHit]:
    found: list[RawHit] = []
    for m in _ZH_PREFIX_REJECT_RE.finditer(clause):
        if clause[max(0, m.start() - 1) : m.start()] in ("不", "没"):
            continue  # "不排除X": the exclusion negated keeps X
        if _ZH_DOUBLE_NEGATION_RE.search(clause[max(0, m.start() - 4) : m.start() + 1]):
            continue  # "唔係唔考慮安心" (不系不考虑): "not that I won't consider it"
        if _ZH_NOT_NEGATION_RE.search(clause[: m.start() + 2]) or _ZH_A_NOT_A_RE.search(
            clause[m.start() - 1 : m.start() + 2]
        ):
            continue
        for option in clean_options(m.group("opt")):
            if option in _ZH_BARE_VERBS:
                continue  # "不再考虑": the verb alone, its object is the sentence's topic
            if len(option) > 1 or not CJK_CHAR_RE.match(option):  # "别超": a verb, no option
                found.append((option, clause[m.end() :], False, ""))
    for m in _ZH_SUFFIX_REJECT_RE.finditer(clause):
        if _ZH_DEMONSTRATIVE_RE.match(m.group("opt")) or _ZH_DEGREE_RE.search(clause[: m.end()]):
            continue  # "那个不行": a pronoun, resolved against the last proposal instead
        subject = zh_option_core(_ZH_SUBJECT_LEAD_RE.sub("", m.group("opt")))
        if not_a_zh_subject(subject) or _ZH_DOUBLE_NEGATION_RE.search(clause):
            continue  # "周末不行", "同事骑了半年(就不行了)", "也不是不行": no option refused
        for option in clean_options(subject):
            found.append((option, clause[m.end() :], False, ""))
    for c in find_constructions(clause, chinese=True):
        # The construction already found where the option starts ("讨厌跟团", "不喜欢太辣的
        # 菜"): only the list is split, no head word is second-guessed.
        options = [strip_option_noise(o) for o in LIST_SPLIT_RE.split(c.option)]
        found.extend((o, c.rest, False, c.family) for o in options if o)
    return found


# "要不要" / "用不用" ask; "迷得不行" is a degree ("crazy about"), not a refusal.
_ZH_A_NOT_A_RE = re.compile(r"要不要|用不用")
_ZH_DEGREE_RE = re.compile(r"得不行$")


def clause_hits(clause: str) -> list[RawHit]:
    hits = _chinese_clause_rejections(clause) if CJK_CHAR_RE.search(clause) else []
    return hits + _english_clause_rejections(clause)

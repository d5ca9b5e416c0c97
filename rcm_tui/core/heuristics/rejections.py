"""Rejections in a user message: the option, its reason, and choice statements."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .constructions import (
    chinese_sentence_constructions,
    find_constructions,
    negative_experience,
    not_a_zh_topic,
    zh_option_core,
)
from .cues import (
    BUILD_VERB_RE,
    FACT_RE,
    IMPERATIVE_REJECT_RE,
    OPT,
    OUTPUT_VERB_RE,
    SYSTEM_VERB_RE,
)
from .options import EDGE_PUNCT, option_matches, same_option, strip_option_noise
from .sentences import Sentence, strip_discourse, tidy
from .text import CJK, CJK_CHAR_RE, word_set
from .verdicts import with_apostrophes

# Phrases that cannot be an option: quantities, pronouns, and the heads of idioms that look like
# rejections ("no problem with X", "no need to", "don't worry", "不用担心").
BAD_OPTION_STARTS = word_set(
    """anything something everything nothing more less fewer any all too much many that this
    it them those these me us you yourself myself worry worrying forget problem problems need
    idea matter doubt way rush hurry longer later further sure mind offense offence pressure
    clue issue issues big deal harm reason thanks thank worries to be well good great fine
    for during from
    yet really quite only just so very one how what why when where whether if
    i i've i'm i'd i'll we we've we're we'd he she they"""
)
_ZH_BAD_OPTION_START_RE = re.compile(
    r"^(?:担心|着急|急|说|谢|客气|管|怕|忘|超过|多于|少于|低于|高于|大于|小于|太|让|把|在|给|离|距离|"
    r"比|往|向|从|"
    r"再|还|只|都|这|那|它|一直|总是|每|被|对|跟|和|从|了|推荐|提)"
)
# Where the option phrase ends: a preposition, conjunction or pronoun after the name.
_OPTION_CUT_START_RE = re.compile(
    r"\s+(?:because|since|as|so|for|in|on|at|to|from|with|under|over|inside|within|across|"
    r"during|via|which|that|who|when|if|unless|until|anymore|any\s+more|at\s+all|please|here|"
    r"there|either|though|now|again|yet|ever|but|we|it|they|you|i|then|while|after|before)\b",
    re.I,
)
# "Ruby on Rails", "Infrastructure as Code", "Bank of America": capitalised words joined by a
# lowercase connector are one name, so the connector is no cut there. A connector followed by
# a lowercase word ("Kafka as a queue", "Redis on the hot path") still ends the name.
_CONNECTED_NAME_RE = re.compile(r"\b[A-Z][\w.+#'-]*(?:\s+(?:on|of|as|for|de)\s+[A-Z][\w.+#'-]*)+")


_COUNTED_QUALIFIER_RE = re.compile(r"\s+(?:of|with|for)\s+(?:\d|more\s+than|over|up\s+to)", re.I)


def _cut_option(raw: str) -> str:
    """The option phrase up to where a preposition/conjunction starts the rest of the clause."""
    protected = [m.span() for m in _CONNECTED_NAME_RE.finditer(raw)]
    counted = _COUNTED_QUALIFIER_RE.search(raw)
    if counted:
        raw = raw[: counted.start()]  # "group walks of 6+ dogs": the walks
    for cut in _OPTION_CUT_START_RE.finditer(raw):
        if not any(start < cut.start() < end for start, end in protected):
            return raw[: cut.start()]
    return raw


_LIST_SPLIT_RE = re.compile(r"\s*(?:,|\bor\b|\band\b|\bnor\b|/|、|或者|或|和)\s*", re.I)
# Words that open an item of a rejected list without naming it: "no X and no Y",
# "both X and Y", "neither X nor Y", "don't use either X or Y".
_LIST_ITEM_LEAD_RE = re.compile(r"^(?:(?:no|not|nor|neither|both|either)\s+)+", re.I)
# Before a repeated rejection cue inside one clause: ", no Y", " and no Y", ", forget Y",
# ", not Y", ", don't use Y". Kept apart from the list split above so that a comma before a
# statement ("Drop X, we can use cron") still reads as the reason.
_REJECTION_CHAIN_SPLIT_RE = re.compile(
    r"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or|but)\s+)(?=(?:also\s+)?(?:no|not|nor|never|"
    r"forget|drop|ditch|scrap|avoid|rule\s+out|don'?t|do\s+not|won'?t|let'?s\s+not)\b)",
    re.I,
)


# Heads that name a state of mind or an abstraction, never an option: "no strong feelings",
# "no real preference", "no big plans".
_ABSTRACT_HEADS = word_set(
    """feeling feelings opinion opinions preference preferences clue
    objection objections complaint complaints thought thoughts strong rush worries doubt
    doubts pressure hurry interest expectations questions comment comments luck offense chance
    way capacity bandwidth time room money appetite budget"""
)
# Chat noise that can trail a phrase: "heights lmao".
_INTERJECTION_TAIL_RE = re.compile(r"(?:\s+(?:lol|lmao|haha+|hehe|tbh|imo|xd|ugh|omg))+\s*$", re.I)
# "another paid one": "one" stands for the noun of the option before it.
_ONE_RE = re.compile(r"^(?:another|a|the|any)?\s*(?P<mod>[\w-]+\s+)?ones?$", re.I)


def _clean_options(raw: str, *, allow_gerund: bool = True) -> list[str]:
    """Option names from the phrase after a rejection cue, or [] when it is no option."""
    phrase = _INTERJECTION_TAIL_RE.sub("", _cut_option(raw.strip()))
    options: list[str] = []
    for part in _LIST_SPLIT_RE.split(phrase):
        option = strip_option_noise(_LIST_ITEM_LEAD_RE.sub("", part.strip()))
        words = option.split()
        if not option or len(words) > 4:
            continue
        first = words[0].lower()
        if first in BAD_OPTION_STARTS or first[0].isdigit():
            continue
        if words[-1].lower() in _ABSTRACT_HEADS:
            continue
        if _ZH_BAD_OPTION_START_RE.match(option):
            continue
        if not allow_gerund and first.endswith("ing") and len(words) > 1:
            continue
        if _ASPECT_SUFFIX_RE.search(option):
            continue  # "not AWS-specific" qualifies something else, it rejects no option
        options.append(option)
    return options


_INDEFINITE_RE = re.compile(r"^\s*(?:a|an|any)\s", re.I)
_UPPER_OR_DIGIT_RE = re.compile("[A-Z0-9]")
NAME_MARK_RE = re.compile(r"[A-Z0-9]|[-.+#]\w")
_NOTHING_BEFORE_RE = re.compile(r"\bnothing\s*$", re.I)
_CHOOSING_VERB_RE = re.compile(
    r"\b(?:use|go\s+with|pick|choose|prefer|switch|store|keep|run)\b", re.I
)
_ZH_NOT_NEGATION_RE = re.compile(r"(?:不仅|并不|不一定)$")
# "…, so B": B follows from what came before. After a copula "so" is a degree ("that's so
# boring"), and "so much/far/long" measure.
SO_SPLIT_RE = re.compile(
    r"(?<!\bis)(?<!'s)(?<!\bare)(?<!'re)(?<!\bwas)(?<!\bwere)(?<!\bam)(?<!'m)(?<!\bthats)"
    r",?\s+so\s+(?!that\b|much\b|many\b|far\b|long\b)",
    re.I,
)


def _looks_generic(raw: str, option: str) -> bool:
    """'a document store' names a category; 'MongoDB' names a product."""
    return bool(_INDEFINITE_RE.match(raw)) and not _UPPER_OR_DIGIT_RE.search(option)


def _looks_like_name(option: str) -> bool:
    return bool(NAME_MARK_RE.search(option)) or bool(CJK_CHAR_RE.search(option))
_NEGATOR = (
    r"(?:do\s+not|don'?t|does\s+not|doesn'?t|did\s+not|didn'?t|won'?t|will\s+not|"
    r"shouldn'?t|should\s+not|must\s+not|mustn'?t|can'?t|cannot|can\s+not|never|not|"
    r"no\s+longer|aren'?t|isn'?t|stop)"
)
_CHOICE_VERB = (
    r"(?:use|using|go\s+with|going\s+with|choose|choosing|pick|picking|adopt|adopting|do|"
    r"doing|rely\s+on|relying\s+on|depend\s+on|depending\s+on|build\s+on|building\s+on|"
    r"want|consider|considering|bother\s+with|switch\s+to|switching\s+to|move\s+to|"
    r"moving\s+to|migrate\s+to|suggest|propose|recommend|bring\s+up|mention|"
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
# "Definitely not Kafka." / "Go with Postgres, not Mongo."
_BARE_NOT_RE = re.compile(
    r"(?:^(?:(?:definitely|certainly|absolutely|surely|just|nah|nope|no)[,\s]+)?|,\s*|\bbut\s+)"
    r"not\s+(?!\w+ed\b|sure\b|ready\b|yet\b)(?P<opt>[^,.;:!?()—–\n]+?)\s*[.!]?$",
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
_ASPECT_SUFFIX_RE = re.compile(
    r"-(?:specific|only|based|dependent|compatible|bound|related|friendly|aware|like|style)$", re.I
)
_CONTRAST_REJECT_RE = re.compile(rf"\b(?:instead\s+of|rather\s+than)\s+{OPT}", re.I)
_STANCE_REJECT_RE = re.compile(
    r"\b(?:ruled\s+out|(?:decided|decide|deciding|voted?)\s+against|(?:we're|we\s+are|i'm|"
    rf"i\s+am)\s+against|say\s+no\s+to|steer\s+clear\s+of|stay\s+away\s+from|get\s+rid\s+of)\s+{OPT}",
    re.I,
)
_NEGATED_STANCE_RE = re.compile(r"(?:\b(?:not|never)|n't)\s*(?:\w+\s+)?$", re.I)
_NO_OPTION_RE = re.compile(
    r"^no\s+(?P<opt>[^,.;:!?()—–\n]+?)\s*(?=,|\.|!|;|$|—|–|\s-\s|\s+please\b|\s+at\s+all\b|"
    r"\s+for\s+(?:now|us|this)\b|\s+here\b|\s+anymore\b|\s+whatsoever\b)",
    re.I,
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
_SUBJECT_LEAD_RE = re.compile(
    r"^(?:(?:so|and|but|then|also|actually|ok(?:ay)?|well|honestly|frankly|now|because|since|"
    r"as|i\s+think|we\s+think|i\s+guess|i\s+believe|i\s+feel|clearly|that\s+means|which\s+means)"
    r"\b[,\s]*)+",
    re.I,
)
# A latin name is ASCII (\w would run on into the Chinese after it: "不用Redis也不用X"), with
# at most a short Chinese head noun after it ("Redis集群"), taken only when nothing ends the
# name sooner.
_ZH_LATIN = r"[A-Za-z0-9][A-Za-z0-9_.+#/-]*"
_ZH_OPT = (
    rf"(?P<opt>{_ZH_LATIN}(?:\s{_ZH_LATIN}){{0,2}}(?:\s*[和、或与及]\s*{_ZH_LATIN})*"
    rf"[{CJK}]{{0,4}}?|[{CJK}]{{1,10}}?)"
)
_ZH_OPT_END = r"(?=[了吧呢啊嘛，,。.！!？?；;、：:\s也又还都就]|因为|由于|所以|太|$)"
_ZH_PREFIX_REJECT_RE = re.compile(
    r"(?:不要再?|(?<!特)别(?![的人处家])再?|不再|不用|不使用|不采用|不考虑|放弃|排除|去掉|弃用|不选)"
    rf"(?:用|使用|采用|选用?|考虑)?\s*{_ZH_OPT}{_ZH_OPT_END}"
)
_ZH_SUFFIX_REJECT_RE = re.compile(
    rf"(?P<opt>{_ZH_LATIN}(?:\s*[和、或与及]\s*{_ZH_LATIN})*[{CJK}]{{0,4}}?|[{CJK}]{{2,10}})\s*"
    r"(?:不行|不合适|不可行|不考虑了?|就算了|被排除了?|出局了?|免谈|没戏"
    # "X和Y都不要" / "X也不用了": 不要/不用 after the name, ending the clause.
    r"|(?:都|也|就)?(?<![要用])不(?:要|用)了?(?=[，,。.！!；;]|$))"
)
_ZH_SUBJECT_LEAD_RE = re.compile(
    r"^(?:我们?|我觉得|我认为|我们觉得|感觉|其实|那么?|所以|但是|可是|用|使用)+"
)

# Words between a rejected option and its reason ("the X library, we can't ...").
_REST_NOISE_RE = re.compile(
    r"^(?:\s*(?:library|libraries|lib|package|packages|approach|option|idea|route|solution|"
    r"architecture|framework|stuff|thing|altogether|at\s+all|any\s*more|please|entirely|"
    r"completely|whatsoever|either|for\s+now|here|there|too|as\s+well|"
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
    r"instead|rather|because|since|as|due|given|'cause|cause)\b)(?P<body>\S+(?:\s+\S+){2,})$",
    re.I,
)
_FINITE_VERB_RE = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|would|could|should|need|needs|lacks?|costs?|"
    r"kills?|breaks?|takes?|makes?|requires?|adds?|hurts?|knows?|wants?)\b|n't\b",
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
    r"|只要|只选|只看|只考虑|只订|只住",
    re.I,
)


@dataclass
class RejectionHit:
    option: str
    reason: str
    sentence: int
    clause: int
    generic: bool
    # In "A, so B is off the table", A: a statement of its own that may hold requirements.
    cause: str = ""
    # The reason was said inside the rejecting clause ("no X because we need Y"): it is mined
    # for strongly worded requirements, since the clause itself is not.
    inline_reason: bool = False
    # The construction that rejected it (constructions.py), "" for the design register.
    family: str = ""


def _reason_after(rest: str, zh: bool) -> str:
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
_Raw = tuple[str, str, bool, str]


def _english_clause_rejections(clause: str) -> list[_Raw]:
    """(option, text after it, generic) for each option the clause rejects.

    A clause may chain several rejections ("No Redis, no Memcached, because they are
    stateful"; "Forget X, forget Y too"; "No X and no Y"). It is cut before every repeated
    rejection cue and each piece is read on its own — but only when at least two pieces
    reject something, so "Go with Postgres, not Mongo" or "If we use X, no Y" are read whole.
    A piece without a reason of its own shares the reason that ends the chain.
    """
    core = with_apostrophes(strip_discourse(clause))
    pieces = [p for p in _REJECTION_CHAIN_SPLIT_RE.split(core) if p.strip()]
    if len(pieces) >= 2:
        per_piece = [_single_clause_rejections(p) for p in pieces]
        if sum(1 for found in per_piece if found) >= 2:
            shared = next((f[-1][1] for f in reversed(per_piece) if f), "")
            return [
                (option, rest if _reason_after(rest, zh=False) else shared, generic, family)
                for found in per_piece
                for option, rest, generic, family in found
            ]
    return _single_clause_rejections(core)


def _single_clause_rejections(core: str) -> list[_Raw]:
    found: list[_Raw] = []

    def add(
        raw: str,
        rest: str,
        *,
        allow_gerund: bool = True,
        need_name: bool = False,
        family: str = "",
    ) -> None:
        for option in _clean_options(raw, allow_gerund=allow_gerund):
            if need_name and not _looks_like_name(option):
                continue
            at = raw.find(option)
            after = raw[at + len(option) :] + rest if at >= 0 else rest
            # "I don't need a car": an everyday option is not a category of a named one.
            generic = _looks_generic(raw, option) and not family
            found.append((option, _REST_NOISE_RE.sub("", after), generic, family))

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
        add(m.group("opt"), core[m.end() :], need_name=bool(m.group("weak")))
    bare_not = _BARE_NOT_RE.search(core)
    if bare_not and not _CONDITION_BEFORE_RE.search(core[: bare_not.start()]):
        add(bare_not.group("opt"), "", need_name=True)
    keep_out = _KEEP_OUT_RE.match(core)
    if keep_out:
        add(keep_out.group("opt"), core[keep_out.end() :])
    imperative = IMPERATIVE_REJECT_RE.match(core)
    if imperative:
        # "avoid blocking the event loop" is a requirement, "avoid ORMs" a rejection.
        add(
            imperative.group("opt"),
            core[imperative.end() :],
            allow_gerund=not imperative.group("verb").lower().startswith("avoid"),
        )
    for m in _STANCE_REJECT_RE.finditer(core):
        if _NEGATED_STANCE_RE.search(core[: m.start()]):
            continue  # "I wouldn't say no to X", "we can't rule out X": X stays
        if not _NOTHING_BEFORE_RE.search(core[: m.start()]):
            add(m.group("opt"), core[m.end() :])
    for m in _CONTRAST_REJECT_RE.finditer(core):
        # "a summary instead of code" is a wish about the reply, not a rejected option.
        chooses = _CHOOSING_VERB_RE.search(core[: m.start()])
        add(m.group("opt"), core[m.end() :], allow_gerund=False, need_name=not chooses)
    neither = _NEITHER_RE.match(core)
    if neither:
        add(neither.group("opt"), core[neither.end() :])
    bare_no = _NO_OPTION_RE.match(core)
    if bare_no:
        # "No shelling out to rclone": the gerund is what is done to the option (read below).
        add(bare_no.group("opt"), core[bare_no.end() :], allow_gerund=False, family="refusal")
    for pattern in (_STATE_REJECT_RE, _WONT_WORK_RE, _IS_OUT_RE):
        state = pattern.match(core)
        if state:
            subject = _SUBJECT_LEAD_RE.sub("", state.group("subj").split(",")[-1].strip())
            out = pattern is _IS_OUT_RE
            if out and _RELEASE_WORDS_RE.search(subject):
                continue  # "the new version of Django is out" announces a release
            # "Option A is out" rejects a named option; "the report is out" is news.
            add(subject, core[state.end() :], need_name=out)
    for c in find_constructions(core, chinese=False):
        add(c.option, c.rest, allow_gerund=c.allow_gerund, family=c.family)
    return found


_ZH_DOUBLE_NEGATION_RE = re.compile(r"(?:不是|并非|没有|不一定|未必)不")
_ZH_CONDITION_RE = re.compile(r"如果|要是|假如|万一|的话")
_ZH_DEMONSTRATIVE_RE = re.compile(r"^(?:我们?|咱们)?(?:那个|这个|那种|这种|它)")


def _chinese_clause_rejections(clause: str) -> list[_Raw]:
    found: list[_Raw] = []
    for m in _ZH_PREFIX_REJECT_RE.finditer(clause):
        if clause[max(0, m.start() - 1) : m.start()] in ("不", "没"):
            continue  # "不排除X": the exclusion negated keeps X
        if _ZH_NOT_NEGATION_RE.search(clause[: m.start() + 2]) or _ZH_A_NOT_A_RE.search(
            clause[m.start() - 1 : m.start() + 2]
        ):
            continue
        for option in _clean_options(m.group("opt")):
            if len(option) > 1 or not CJK_CHAR_RE.match(option):  # "别超": a verb, no option
                found.append((option, clause[m.end() :], False, ""))
    for m in _ZH_SUFFIX_REJECT_RE.finditer(clause):
        if _ZH_DEMONSTRATIVE_RE.match(m.group("opt")) or _ZH_DEGREE_RE.search(clause[: m.end()]):
            continue  # "那个不行": a pronoun, resolved against the last proposal instead
        subject = zh_option_core(_ZH_SUBJECT_LEAD_RE.sub("", m.group("opt")))
        if not_a_zh_topic(subject) or _ZH_DOUBLE_NEGATION_RE.search(clause):
            continue  # "周末不行" limits a time; "也不是不行" keeps the option
        for option in _clean_options(subject):
            found.append((option, clause[m.end() :], False, ""))
    for c in find_constructions(clause, chinese=True):
        # The construction already found where the option starts ("讨厌跟团", "不喜欢太辣的
        # 菜"): only the list is split, no head word is second-guessed.
        options = [strip_option_noise(o) for o in _LIST_SPLIT_RE.split(c.option)]
        found.extend((o, c.rest, False, c.family) for o in options if o)
    return found


# "要不要" / "用不用" ask; "迷得不行" is a degree ("crazy about"), not a refusal.
_ZH_A_NOT_A_RE = re.compile(r"要不要|用不用")
_ZH_DEGREE_RE = re.compile(r"得不行$")


REASON_START_RE = re.compile(r"^(?:because|since|as|given\s+that)\b|^(?:因为|由于|毕竟)", re.I)
_CONSEQUENCE_RE = re.compile(r"^(?:so|therefore|hence|thus)\b|^(?:所以|因此|因而)", re.I)


def _is_reason_clause(clause: str) -> bool:
    """A clause after a rejection that explains it (not one that says what to do instead)."""
    core = strip_discourse(clause)
    if not core or ALTERNATIVE_RE.search(core):
        return False
    if SYSTEM_VERB_RE.match(core) or BUILD_VERB_RE.match(core) or OUTPUT_VERB_RE.match(core):
        return False
    return len(core.split()) >= 2 or bool(CJK_CHAR_RE.search(core))


_LEADING_CAUSE_RE = re.compile(
    # Not "as": "As we discussed, no Kafka" gives no cause.
    r"^(?:because|since|given\s+that)\s+(?P<why>[^,，]{3,}?)[,，]\s*(?P<rest>\S.*)$", re.I
)


def _clause_hits(clause: str) -> list[_Raw]:
    hits = _chinese_clause_rejections(clause) if CJK_CHAR_RE.search(clause) else []
    return hits + _english_clause_rejections(clause)


# A sentence that ends in a bare refusal turns down what it opened with: "rolling our own auth -
# absolutely not", "Confluence is where docs go to die here, let's not".
_BARE_REFUSAL_RE = re.compile(
    r"^(?:(?:so|and|but|just|honestly|tbh)\s+)?(?:absolutely\s+not|definitely\s+not|hell\s+no|"
    r"no\s+way|nope|nah|no\s+thanks|not\s+happening|hard\s+pass|pass|let'?s\s+not|"
    r"(?:i|we)'?d\s+rather\s+not|never\s+again|not\s+for\s+(?:me|us))\s*[.!]*$",
    re.I,
)
_TRIED_IT_RE = re.compile(
    r"^(?:(?:we|i|he|she|they)\s+)?(?:tried|had|used|did|took)\s+(?:it|them|that|those)\b", re.I
)
_PRONOUN_LEAD_RE = re.compile(
    r"(?:i|we|you|he|she|it|they|that|this|there|i'm|we're|it's|that's|there's|sounds|ok|okay|"
    r"yes|no|sure|fine)\b",
    re.I,
)
_REFUSAL_PIECES_RE = re.compile(r",\s*|\s[-—–]\s|\s*[—–]\s*")
_OPENING_NP_RE = re.compile(
    r"^(?:the|a|an|our|my)?\s*(?P<np>[\w'+.&/-]+(?:\s+[\w'+.&/-]+){0,3}?)"
    r"(?=\s+(?:is|are|was|were|'s|would|will|means|sounds|looks|feels|seems)\b|\s*$)",
    re.I,
)


_DOING_LEAD_RE = re.compile(
    r"^(?:[\w-]+ing|run|build|host|write|roll)\s+(?:(?:our|my|your|their|the|a)\s+)?(?:own\s+)?",
    re.I,
)


def _bare_refusal(text: str) -> str:
    pieces = [p for p in _REFUSAL_PIECES_RE.split(strip_discourse(text)) if p.strip()]
    tried = len(pieces) >= 2 and _TRIED_IT_RE.match(pieces[1].strip())
    if tried and negative_experience(" ".join(pieces[1:])):
        pass  # "melatonin - tried it, groggy all next day": what was tried, badly
    elif len(pieces) < 2 or not _BARE_REFUSAL_RE.match(pieces[-1].strip()):
        return ""
    # "self-hosting our own mail server - absolutely not": the mail server
    opening = _OPENING_NP_RE.match(_DOING_LEAD_RE.sub("", pieces[0].strip()))
    if not opening or _PRONOUN_LEAD_RE.match(opening.group("np")):
        return ""
    options = _clean_options(opening.group("np"))
    return options[0] if len(options) == 1 else ""


def _sentence_rejections(sentence: Sentence) -> tuple[list[RejectionHit], set[int]]:
    """The rejections in one sentence, and the indices of clauses that only give reasons."""
    # (cause before "so", cause in the previous clause, hits, text still to mine)
    per_clause: list[tuple[str, str, list[_Raw], str]] = []
    for ci, clause in enumerate(sentence.clauses):
        # "A, so B is off the table": A is the cause of rejecting B (and still a statement of
        # its own); "A — so B is off the table" / "A，所以B不行": the clause before is the cause.
        cause = lead = ""
        parts = SO_SPLIT_RE.split(clause, maxsplit=1)
        if len(parts) == 2 and len(parts[0].split()) >= 2:
            cause, clause = parts[0], parts[1]
        elif ci > 0 and _CONSEQUENCE_RE.match(clause):
            previous = sentence.clauses[ci - 1]
            lead = "" if ALTERNATIVE_RE.search(previous) else previous
        elif (because := _LEADING_CAUSE_RE.match(clause)) and _clause_hits(because["rest"]):
            # "Because they're stateful, no Redis, no Memcached": the cause comes first and
            # explains every option rejected after it.
            cause, clause = because["why"], because["rest"]
        raw_hits = _clause_hits(clause)
        kept = cause
        if cause and (cause_hits := _clause_hits(cause)):
            # "She's not big on clutter, so physical stuff is meh": the cause rejects too, and
            # what follows from it ("so the hotel has to have a lift") is read with it.
            raw_hits = cause_hits + raw_hits
            kept = sentence.clauses[ci]
        bare_not = _BARE_NOT_RE.search(clause)
        if raw_hits and bare_not and bare_not.start() > 0:
            kept = clause[: bare_not.start()]  # "Go with Postgres, not Mongo": the choice stays
        per_clause.append((cause, lead, raw_hits, kept))
    refused = None if CJK_CHAR_RE.search(sentence.text) else _bare_refusal(sentence.text)
    if refused and not any(h for _, _, h, _ in per_clause):
        per_clause[0][2].append((refused, "", False, "explicit_refusal"))
    if CJK_CHAR_RE.search(sentence.text):
        for c in chinese_sentence_constructions(sentence.text):
            at = next((i for i, cl in enumerate(sentence.clauses) if c.option in cl), None)
            if at is not None and not any(same_option(h[0], c.option) for h in per_clause[at][2]):
                per_clause[at][2].append((c.option, c.rest, False, c.family))
    for ci in range(1, len(per_clause)):
        if per_clause[ci - 1][2] and all(h[3] == "verdict" for h in per_clause[ci][2]):
            # "MongoDB is off the table: multi-document transactions are too fragile": a
            # verdict right after a rejection is its reason.
            per_clause[ci][2].clear()
    hits: list[RejectionHit] = []
    reason_clauses: set[int] = set()
    for ci, (cause, lead, raw_hits, kept) in enumerate(per_clause):
        clause = sentence.clauses[ci]
        if _BARE_NOT_NEEDED_RE.search(clause) and any(
            _ENOUGH_RE.search(c) for c in sentence.clauses[ci + 1 :]
        ):
            # "不需要实时，T+1就够了": a bar lowered (a short quality), no option turned down
            # (but "不需要加图表，纯文字就行" and "不需要营销自动化那一套" do without a thing).
            raw_hits = [h for h in raw_hits if h[3] != "not_needed" or len(h[0]) >= 4]
        zh = bool(CJK_CHAR_RE.search(sentence.clauses[ci]))
        if zh and any(_ZH_CONDITION_RE.search(c) for c in sentence.clauses[:ci]):
            raw_hits = []  # "预算不够的话，游泳课就算了": turned down only if the condition holds
        for option, rest, generic, family in raw_hits:
            one = _ONE_RE.match(option)
            if one:
                # "no dashboards, especially not another paid one": the paid dashboards.
                head = hits[-1].option.split()[-1] if hits else ""
                if not head:
                    continue
                option = f"{one.group('mod') or ''}{head}"
            inline = _reason_after(rest, zh)
            reason = inline or tidy(cause or lead, 200)
            follower = ci + 1
            if (
                not reason
                and follower < len(per_clause)
                and not per_clause[follower][2]
                and _is_reason_clause(sentence.clauses[follower])
            ):
                reason = tidy(strip_discourse(sentence.clauses[follower]), 200)
                reason_clauses.add(follower)
            hits.append(
                RejectionHit(
                    option, reason, sentence.index, ci, generic, kept, bool(inline), family
                )
            )
    return _drop_reasons_taken_for_options(hits), reason_clauses


_ENOUGH_RE = re.compile(r"就(?:够了?|行了?|可以了?)")
_BARE_NOT_NEEDED_RE = re.compile(r"不需要(?![加用买带订要请报找配])")


def _drop_reasons_taken_for_options(hits: list[RejectionHit]) -> list[RejectionHit]:
    """'Rule out X, we do not want vendor lock-in': the second negation is X's reason, not a
    second rejected option — a hit without a reason of its own that sits inside another hit's
    reason in the same clause is that reason."""
    return [
        hit
        for hit in hits
        if hit.reason
        or not any(
            other is not hit
            and other.clause == hit.clause
            and other.reason
            and option_matches(hit.option, other.reason)
            for other in hits
        )
    ]


def _dedupe_hits(hits: list[RejectionHit]) -> list[RejectionHit]:
    out: list[RejectionHit] = []
    for hit in hits:
        twin = next((h for h in out if same_option(h.option, hit.option)), None)
        if twin is None:
            out.append(hit)
        elif not twin.reason and hit.reason:
            twin.reason = hit.reason
    return out


@dataclass
class RejectionScan:
    hits: list[RejectionHit]
    # Every clause that rejects something, mapped to the cause it states before "so" (which
    # is mined for requirements in place of the clause).
    clauses: dict[tuple[int, int], str]
    # Clauses that only explain a rejection: mined for strongly worded requirements only.
    reason_clauses: set[tuple[int, int]]


def find_rejections(sentences: list[Sentence], skip: set[int]) -> RejectionScan:
    hits: list[RejectionHit] = []
    reason_clauses: set[tuple[int, int]] = set()
    for sentence in sentences:
        # "should we not use X?" weighs an option, it rejects none.
        if not sentence.question and sentence.index not in skip:
            found, reasons = _sentence_rejections(sentence)
            hits.extend(found)
            reason_clauses.update((sentence.index, ci) for ci in reasons)
    clauses = {(h.sentence, h.clause): h.cause for h in hits}
    hits = _dedupe_hits(hits)
    named = [h for h in hits if not h.generic]
    for hit in hits:
        if not hit.reason:
            hit.reason = _neighbour_reason(sentences, hit.sentence, hits)
    if named:
        # "Let's not use MongoDB ... so a document store is off the table": the category is
        # the reason for the named rejection, not a second option to track.
        for generic in [h for h in hits if h.generic]:
            target = min(named, key=lambda h: abs(h.sentence - generic.sentence))
            if not target.reason:
                target.reason = generic.reason
            hits.remove(generic)
    return RejectionScan(hits, clauses, reason_clauses)


def _neighbour_reason(sentences: list[Sentence], index: int, hits: list[RejectionHit]) -> str:
    """A rejection without an in-sentence cause usually has it in the sentence before
    ("This is too heavy for five people. Forget microservices.") or right after it."""
    hit_sentences = {h.sentence for h in hits if not h.generic}
    for candidate in (index - 1, index + 1):
        if not 0 <= candidate < len(sentences):
            continue
        sentence = sentences[candidate]
        if sentence.question or candidate in hit_sentences:
            continue  # a sentence that rejects something else states its own decision
        body = strip_discourse(sentence.text)
        if ALTERNATIVE_RE.search(body) or choice(body):
            continue  # what to do instead is not why
        if len(body.split()) >= 3 or CJK_CHAR_RE.search(body):
            return tidy(body, 200)
    return ""
_CHOICE_RE = re.compile(
    r"^(?P<a>[^,]{1,40}?)\s*,?\s+it\s+is$"
    r"|^(?P<b>.+?)\s+(?:is|are|seems|sounds)\s+(?:definitely\s+)?(?:the\s+way\s+to\s+go|"
    r"the\s+(?:right|best|better)\s+(?:choice|option|call|fit|bet)|(?:good|fine)\s+enough)"
    r"|^(?P<f>.+?)\s+(?:will\s+do|does\s+the\s+job|works\s+for\s+us)"
    # "GoodJob then.", "Seville then": the pick after the options were narrowed.
    r"|^(?P<h>[^,]{1,40}?)\s+then$"
    r"|^(?:(?:let'?s|we(?:'ll|\s+will|\s+should)?|i'd|i\s+would)\s+)?(?:go\s+with|stick\s+with|"
    r"settle\s+on|opt\s+for|pick|choose)\s+(?P<c>.+)$"
    r"|^(?:we\s+)?(?:chose|picked|decided\s+on|went\s+with|settled\s+on)\s+(?P<d>.+)$"
    # "主要用微信" / "平时用X" describe a habit, they choose nothing.
    rf"|^(?:我们|咱们|(?!主要|平时|一般|经常|偶尔|通常|常常|每天|只是)[{CJK}]{{1,6}}?)?(?:就|还是|决定|改|那就)?(?:用|选|选用|采用)(?P<e>[^，,。]+?)(?:吧|了)?$"
    r"|^(?P<g>.+?)就(?:够了|行了?|可以了?)$",
    re.I,
)
_NOT_A_CHOICE = word_set("here there this that so where what how now which")
_ONGOING_RE = re.compile(r"已经|正在|在用|一直|already|currently", re.I)


def choice(core: str) -> str | None:
    """The option chosen by "X it is" / "X is the way to go" / "let's go with X", or None."""
    if FACT_RE.search(core) and _ONGOING_RE.search(core):
        return None  # "我们已经在用GCP" states what is, it chooses nothing
    m = _CHOICE_RE.match(core.rstrip(".!。！ "))
    if not m:
        return None
    picked = _SUBJECT_LEAD_RE.sub("", next(g for g in m.groups() if g)).strip(EDGE_PUNCT)
    bare = strip_option_noise(picked)
    if not bare or bare.lower() in _NOT_A_CHOICE or len(picked.split()) > 5:
        return None
    return picked

"""One user message, read whole: facts, trajectory, confirmations, drops, reopening, pivots,
topic shifts, dialog state, and `analyse_message`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..analysis import Analysis, RejectionFinding, RequirementFinding
from ..ledger_snapshot import LedgerSnapshot
from ..models import DialogState
from .constructions import is_category
from .cues import BUILD_VERB_RE, FACT_RE, OUTPUT_VERB_RE, SYSTEM_VERB_RE
from .options import option_matches, same_option
from .pronouns import pronoun_rejection
from .proposals import proposal_verdicts
from .quantities import quantity_keys
from .rejection_model import apply_model
from .rejections import (
    REASON_START_RE,
    SO_SPLIT_RE,
    RejectionHit,
    RejectionScan,
    choice,
    find_rejections,
)
from .requirements import (
    AND_NEED_RE,
    CAN_YOU_ADD_RE,
    CAN_YOU_RE,
    DECLARATIVE_VERB_RE,
    INFO_VERB_RE,
    NOT_A_NEED_ZH_RE,
    ONLY_RE,
    SCOPE_MARKER_RE,
    STRONG_MODAL_RE,
    TRAILING_SCOPE_RE,
    TRAJECTORY_RE,
    bare_answer,
    main_clause,
    requirement_from_clause,
    team_size,
)
from .sentences import (
    FENCED_CODE_RE,
    LIST_HEADER_RE,
    Sentence,
    parse_sentences,
    split_sentences,
    strip_discourse,
    tidy,
)
from .statements import stated_requirement
from .text import (
    CJK_CHAR_RE,
    MESSAGE_HEAD,
    MESSAGE_TAIL,
    bounded_text,
    content_tokens,
    overlap_of,
    text_similarity,
)

_AFFIRM_RE = re.compile(
    r"^(?:yes|yep|yeah|yup|correct|exactly|right|agreed|confirmed|ok(?:ay)?|sure|"
    r"sounds\s+good|that'?s\s+right|that\s+is\s+right|perfect|absolutely|definitely|indeed|"
    r"对|是的|没错|好的|可以|同意|确认)\b",
    re.I,
)
_DROP_RE = re.compile(
    r"(?:^|\b(?:let'?s|please|just|we\s+can)\s+)(?:forget(?:\s+about)?|drop|scrap|remove|"
    r"never\s*mind|skip)\s+(?P<x>.+)$"
    r"|\b(?:we|i)\s+(?:no\s+longer|don'?t|do\s+not)\s+need\s+(?P<y>.+)$"
    r"|\bno\s+need\s+for\s+(?P<z>.+)$"
    r"|^(?P<w>.+?)\s+(?:is|are)\s+(?:no\s+longer\s+(?:needed|required)|not\s+(?:needed|required)"
    r"\s+any\s*more|out\s+of\s+scope)"
    r"|不再需要(?P<v>.+)|(?P<u>.+?)不需要了|去掉(?P<t>.+?)的?要求",
    re.I,
)
_REOPEN_RE = re.compile(
    r"\b(?:reconsider(?:ing)?|revisit(?:ing)?|back\s+on\s+the\s+table|after\s+all|"
    r"bring\s+back|go\s+back\s+to|un-?reject|another\s+(?:look|chance)|open\s+to)\b"
    r"|\b(?:maybe|perhaps|let'?s|try|use|consider)\b.*\bagain\b"
    r"|重新考虑|再考虑|重新评估|又可以|还是用|回到",
    re.I,
)
_PIVOT_RE = re.compile(
    r"\b(?:change\s+of\s+(?:plans?|direction)|scratch\s+that|on\s+second\s+thoughts?|"
    r"different\s+(?:direction|approach|route)|rethink|start\s+over|"
    r"back\s+to\s+the\s+drawing\s+board|(?:i|we)(?:'ve)?\s+changed\s+(?:my|our)\s+minds?|pivot|"
    r"(?:let'?s\s+|we\s+should\s+)?(?:take\s+a\s+)?step\s+back|back\s+up\s+a\s+(?:bit|second))\b"
    r"|换个思路|改变主意|换个方向|推翻|重新来|算了",
    re.I,
)
_TOPIC_CUE_RE = re.compile(
    r"\b(?:new\s+topic|another\s+(?:question|topic)|different\s+(?:question|topic|subject)|"
    r"unrelated(?:\s+question)?|switching\s+(?:gears|topics?|to)|change\s+(?:of\s+)?"
    r"(?:subject|topic)|on\s+(?:a|an)\s+(?:other|unrelated|different|separate)\s+note|"
    r"moving\s+on\s+to|something\s+(?:else|different)\s+entirely|totally\s+different)\b"
    r"|换个话题|另一个问题|另外一个问题|顺便问一下|题外话|说点别的|换一个话题",
    re.I,
)
_GREETING_RE = re.compile(
    r"^(?:hi|hello|hey|good\s+(?:morning|afternoon|evening)|greetings|howdy|你好|您好|嗨)\b",
    re.I,
)
_CLOSING_RE = re.compile(
    r"\b(?:that'?s\s+(?:all|it|everything)|bye|goodbye|see\s+you|we'?re\s+done|i'?m\s+done|"
    r"thanks?(?:\s+you)?(?:\s+so\s+much)?[,!.]?\s*(?:that'?s\s+all|bye|$)|that\s+helps)\b"
    r"|谢谢|再见|就这样|没有了",
    re.I,
)
_CLARIFY_RE = re.compile(
    r"^(?:i\s+mean|what\s+i\s+meant|to\s+clarify|i\s+meant|that'?s\s+not\s+what|no,\s+i|"
    r"just\s+to\s+be\s+clear|let\s+me\s+clarify|我的意思是|也就是说|不是.*我是说)",
    re.I,
)
_UNSURE_RE = re.compile(
    r"\b(?:not\s+sure\s+(?:about|whether|if)|(?:don'?t|do\s+not)\s+know\s+(?:if|whether)|"
    r"undecided\s+(?:on|about)|haven'?t\s+decided)\b|不确定|不知道.*是否|还没决定",
    re.I,
)
_OPEN_DECISION_RE = re.compile(
    r"\b(?:need|needs|have|has)\s+to\s+(?P<what>(?:pick|choose|decide|select|figure\s+out)\b.+)$",
    re.I,
)


# A quotation of three words or more (straight, curly or corner quotes).
_QUOTED_RE = re.compile(
    r'"[^"\n]*?\S+\s+\S+\s+\S+[^"]*?"|“[^”]*?\S+\s+\S+\s+\S+[^”]*?”|「[^」]{6,}」', re.S
)


_CONFIRM_CUE_RE = re.compile(
    r"\b(?:confirm(?:ed|ing|s)?|still\s+stands|stands|non-negotiable|is\s+final|"
    r"hard\s+(?:requirement|cap|limit)|unchanged|still\s+holds|holds)\b|确认|不变|硬性要求|不能妥协",
    re.I,
)


def _confirms_quantity_of(sentences: list[Sentence], requirement: str) -> bool:
    keys = quantity_keys(requirement)
    return bool(keys) and any(
        not s.question and _CONFIRM_CUE_RE.search(s.text) and keys & quantity_keys(s.text)
        for s in sentences
    )


def _affirmed_ids(sentences: list[Sentence], view: LedgerSnapshot, choices: list[str]) -> list[str]:
    """Existing requirements the user affirms ("yes, 20 MB is the limit")."""
    live = [(r.id, r.text) for r in view.live_requirements]
    if not live:
        return []
    ids: list[str] = []
    for rid, text in live:
        if any(option_matches(c, text) for c in choices):
            ids.append(rid)
    first = sentences[0].text if sentences else ""
    if not _AFFIRM_RE.match(first.strip()):
        return ids
    said = set().union(*(content_tokens(s.text) for s in sentences if not s.question))
    said -= content_tokens("yes ok okay right correct exactly agreed sure confirmed perfect")
    if said:
        targets = [(rid, content_tokens(t)) for rid, t in live]
    else:
        # A bare "yes" answers the assistant's last question: confirm what that question named.
        asked = " ".join(
            s for s in split_sentences(view.last_assistant_message) if s.rstrip().endswith("?")
        )
        said = set(content_tokens(asked))
        targets = [(rid, content_tokens(t)) for rid, t in live]
    for rid, text in live:
        # "Yes, 7-day retention is confirmed" confirms "消息必须保留7天": across languages
        # the words differ, the quantity does not.
        if rid not in ids and _confirms_quantity_of(sentences, text):
            ids.append(rid)
    for rid, tokens in targets:
        if rid in ids or not tokens:
            continue
        shared = tokens & said
        names_most = len(shared) >= 2 and len(shared) / len(tokens) >= 0.5
        # "OK, PostgreSQL it is": everything said is part of the requirement.
        all_of_it = bool(said) and said <= tokens and len(said) <= 3
        if names_most or all_of_it:
            ids.append(rid)
    return ids


def _dropped(sentences: list[Sentence], view: LedgerSnapshot) -> tuple[list[str], set[int]]:
    """Requirement ids the user withdraws, and the sentences that said so."""
    live = [(r.id, r.text) for r in view.live_requirements]
    ids: list[str] = []
    used: set[int] = set()
    for sentence in sentences:
        if sentence.question:
            continue
        for clause in sentence.clauses:
            m = _DROP_RE.search(strip_discourse(clause))
            if not m:
                continue
            named = next(g for g in m.groups() if g)
            wanted = content_tokens(named) - content_tokens("requirement part bit thing feature")
            if not wanted:
                continue
            for rid, text in live:
                if rid not in ids and overlap_of(wanted, content_tokens(text)) >= 0.67:
                    ids.append(rid)
                    used.add(sentence.index)
    return ids, used


# "Let's not go back to Kafka", "I don't want to reconsider Kafka": the cue, refused.
_REFUSED_REOPEN_RE = re.compile(
    r"(?:\b(?:not|never|no\s+need\s+to|no\s+reason\s+to)|n't)\s+(?:\w+\s+){0,2}?"
    r"(?:reconsider|revisit|go\s+back|bring\s+back|return|another\s+look)",
    re.I,
)


# An option turned down earlier, now accepted: "Kafka is fine after all", "fine, Kafka then",
# "let's go with Kafka", "put Kafka back", "民宿其实也行", "还是住民宿吧", "那就民宿吧".
_ACCEPT_RE = re.compile(
    r"\b(?:is|are|'s|'re)\s+(?:fine|ok(?:ay)?|good|back(?:\s+in)?|acceptable)\b|\bworks?\b|"
    r"\bput\s+.+?\s+back\b|\bback\s+in\b|\bthen\s*[.!]?$|\bit\s+is\b|"
    r"\bchanged\s+(?:my|our)\s+minds?\b|\btake\s+it\s+back\b|\bon\s+reflection\b"
    r"|也行|也可以|其实可以|其实也行|没问题|还是(?:用|住|去|选|买|吃|坐)?|那就|就.+吧$|改回"
)
_NEGATED_ACCEPT_RE = re.compile(
    r"\b(?:not|never|no|out|off|skip|pass|drop|ditch|nope|nah)\b|n't|不(?!是不)|别|没(?!问题)",
    re.I,
)


def _accepts(option: str, sentence: Sentence) -> bool:
    """Does the sentence take a turned-down option back (a choice of it, or a word of
    acceptance about it), with no negation that could be about it?"""
    text = sentence.text
    if sentence.question or _NEGATED_ACCEPT_RE.search(text):
        return False
    picked = choice(strip_discourse(text.rstrip(".!。！ ")))
    if picked and option_matches(option, picked):
        return True
    return bool(_ACCEPT_RE.search(text))


def _reopened(
    sentences: list[Sentence], view: LedgerSnapshot, hits: list[RejectionHit]
) -> list[str]:
    out: list[str] = []
    rejected_now = [h.option for h in hits]
    for option in view.reopenable:
        if any(same_option(option, o) for o in out + rejected_now):
            continue
        for sentence in sentences:
            text = sentence.text
            if not option_matches(option, text) or _REFUSED_REOPEN_RE.search(text):
                continue
            if _REOPEN_RE.search(text) or _accepts(option, sentence):
                out.append(option)
                break
    return out


def _topic_shift(text: str, view: LedgerSnapshot) -> bool:
    if not _TOPIC_CUE_RE.search(text):
        return False
    earlier = [m for m in view.recent_user_messages if m.strip() != text.strip()]
    if not earlier:
        return False
    now = content_tokens(text)
    before = set().union(*(content_tokens(m) for m in earlier))
    return overlap_of(now, before) < 0.2 if now else False


def _question_text(sentence: str) -> str:
    body = strip_discourse(sentence)
    return tidy(body, 140)


_WORD_RE = re.compile(r"\w")


@dataclass
class _Findings:
    requirements: list[RequirementFinding] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    trajectory: str = ""
    choices: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    production_request: bool = False  # asks for work to be done (→ problem solving)
    answered: bool = False

    def add_requirement(self, text: str, confidence: float) -> None:
        if not _WORD_RE.search(text):
            return  # '"…"' (a quotation set aside) says nothing
        if not any(text_similarity(text, r.text) >= 0.8 for r in self.requirements):
            self.requirements.append(RequirementFinding(text, round(confidence, 2)))

    def add_fact(self, text: str) -> None:
        folded = text.casefold()
        if text and not any(
            text_similarity(text, f) >= 0.8 or folded in f.casefold() or f.casefold() in folded
            for f in self.facts
        ):
            self.facts.append(text)


def _scan_statements(
    sentences: list[Sentence],
    scan: RejectionScan,
    reason_sentences: set[int],
    skip_sentences: set[int],
    view: LedgerSnapshot,
) -> _Findings:
    found = _Findings()
    rejection_clauses = scan.clauses
    in_list = False  # inside the items of a "Requirements:" list
    wish_list = False  # inside the items of a list the user introduced ("what I jotted down:")
    for sentence in sentences:
        if sentence.index in skip_sentences:
            continue
        if sentence.text.endswith((":", "：")) and LIST_HEADER_RE.search(sentence.text):
            in_list = True
            continue
        in_list = in_list and sentence.bullet
        wish_list = (wish_list and sentence.bullet) or _introduces_list(sentence)
        if sentence.question:
            _scan_question(sentence, found)
            _scan_question_lead(sentence, found, scan)
            continue
        before = len(found.requirements)
        if sentence.index == 0 and not any(h.sentence == 0 for h in scan.hits):
            # "pods - absolutely not" names an option of the question to turn it down.
            answer = bare_answer(sentence.text, view.last_assistant_message)
            if answer:
                found.add_requirement(answer, 0.6)
                found.answered = True
                found.trajectory = tidy(sentence.text)
                continue
        previous: str | None = None
        for ci, clause in enumerate(sentence.clauses):
            rejected = (sentence.index, ci) in rejection_clauses
            if rejected and rejection_clauses[(sentence.index, ci)]:
                clause, rejected = rejection_clauses[(sentence.index, ci)], False
            families = {
                h.family for h in scan.hits if (h.sentence, h.clause) == (sentence.index, ci)
            }
            if "inability" in families:
                # "I'm allergic to shellfish": the option is rejected and the fact is a hard
                # requirement every answer must respect.
                found.add_requirement(tidy(strip_discourse(clause)), 0.9)
            zh = bool(CJK_CHAR_RE.search(clause))
            # "把燃气灶换成电磁炉" says what is wanted in Chinese too; the other mined
            # constructions are read for English only.
            mined = bool(
                rejected
                and families
                and families <= _MINED_FAMILIES
                and (not zh or families == {"replacement"})
            )
            if mined:
                # "Use bbolt instead of SQLite", "dog-friendly with no weight limit": the
                # clause turns one option down and states what is wanted.
                rejected = False
                if zh:
                    found.add_requirement(tidy(strip_discourse(clause)), 0.7)
            if (rejected or mined) and not zh:
                # "Self-hosted runners only, nothing on shared SaaS runners", "We'd prefer
                # compostable packaging, no single-use plastic": the comma-separated part
                # that names no rejected option is read on its own.
                options = [
                    h.option for h in scan.hits if (h.sentence, h.clause) == (sentence.index, ci)
                ]
                named = False
                for piece in _COMMA_PIECE_RE.split(clause):
                    wanted = _wanted_instead(piece, options)
                    if wanted:
                        # "Use bbolt instead of SQLite, I don't want cgo": bbolt is wanted.
                        found.add_requirement(wanted, 0.7)
                    named = named or any(option_matches(o, piece) for o in options)
                    if named and not _OWN_NEED_RE.match(piece):
                        # What follows the rejection is its reason, not a need — unless the
                        # user goes on to say what they want ("…, I'd rather spend under £400").
                        continue
                    stated = _own_need(piece) or stated_requirement(
                        main_clause(strip_discourse(piece))
                    )
                    if stated and len(piece.split()) >= 2:
                        found.add_requirement(tidy(stated), 0.55)
            instead = _JUST_INSTEAD_RE.search(clause) if rejected or families else None
            if instead:
                # "I don't need an advisor, just a straightforward plan": what is needed
                # instead; the exclusion itself never becomes a requirement.
                found.add_requirement(tidy(instead.group("want") or instead.group("want2")), 0.6)
            previous = _scan_clause(
                clause,
                found,
                rejected=rejected,
                after_rejection=(sentence.index, ci - 1) in rejection_clauses,
                strong_only=(sentence.index in reason_sentences and _evaluates(clause))
                or (sentence.index, ci) in scan.reason_clauses,
                previous=previous,
                explicit_only=mined,
            )
        rejects = any(s == sentence.index for s, _ in rejection_clauses)
        if in_list and len(found.requirements) == before and not rejects:
            # Every item under "Requirements:" is one, however terse ("EU hosting only").
            found.add_requirement(tidy(sentence.text), 0.7)
        elif wish_list and len(found.requirements) == before and not rejects and _wish(sentence):
            # "Here's what I jotted down:" then "- card payments with low fees": a list the
            # user wrote for their request states what is wanted, item by item.
            found.add_requirement(tidy(sentence.text), 0.6)
    for hit in scan.hits:
        if hit.inline_reason:
            _scan_clause(
                hit.reason,
                found,
                rejected=False,
                after_rejection=False,
                strong_only=True,
                previous=None,
            )
    return found


# "…, and we need Y", "X must A and must B": one need per predicate.
_CONJOINED_NEED_RE = re.compile(
    r",?\s+and\s+(?=(?:(?:we|i)\s+(?:also\s+)?(?:need|must|want|have\s+to|require|should)|"
    r"(?:it|they)\s+(?:also\s+)?(?:must|should|has\s+to|have\s+to|needs\s+to)|"
    r"(?:also\s+)?must|should|has\s+to|needs\s+to)\b)",
    re.I,
)
_COMMA_PIECE_RE = re.compile(r",\s+(?:but\s+|and\s+)?|\s+but\s+(?=(?:i|we)\b)", re.I)
# "…, I'd rather spend under £400", "…, we need proper batching": the user's own need, said
# after turning something down.
_OWN_NEED_RE = re.compile(
    r"^(?:so\s+|then\s+|instead\s+)?(?:i|we)(?:'d|\s+would|\s+really|\s+just|\s+still|\s+do)?"
    r"\s*(?:rather|prefer|need|want|like|must|have\s+to|'ll\s+need|'d\s+like|'d\s+prefer)\b"
    r"(?!\s+(?:not|never|avoid|skip|steer)\b)"
    # "We don't want a huge resort, something smaller and calmer": what is wanted instead.
    r"|^(?:but\s+|just\s+)?(?:something|somewhere|someone|preferably|ideally)\s+\w+",
    re.I,
)


# A line that opens a list of the user's own: "Here's what I jotted down for a new till
# system:", "Current pain points are below.", "我的想法如下："; not a question, not a quote.
_LIST_INTRO_RE = re.compile(
    r"(?:[:：]|\b(?:below|as\s+follows|the\s+following)[.!]?|如下[。.]?)$", re.I
)
_LIST_STORY_RE = re.compile(
    r"\b(?:was|were|had|did|tried|used\s+to|last\s+(?:week|month|year|time)|ago)\b"
    r"|以前|之前|上次",
    re.I,
)


# An item that tells what is ("the UI looks dated") or hedges ("maybe later") wants nothing.
_LIST_REMARK_RE = re.compile(
    r"^(?:the|a|an|this|that|it|its|my|our|his|her|their|they|he|she|i|we)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:is|are|was|were|looks?|seems?|feels?|sounds?|has|have|had)\b"
    r"|\b(?:maybe|perhaps|later|not\s+sure|no\s+idea)\b",
    re.I,
)


def _wish(item: Sentence) -> bool:
    """A list item that can state a need: short, and no story, remark or hedge."""
    text = item.text
    return (
        item.bullet
        and len(text.split()) <= 15
        and not _LIST_STORY_RE.search(text)
        and not _LIST_REMARK_RE.search(text)
    )


# "It's too shady", "they make me carsick", "the keyboard drives me crazy": a judgement.
_EVALUATES_RE = re.compile(
    r"\b(?:too|so|really|very|way|pretty|quite|super|awful|terrible|horrible|nightmare|"
    r"hate[sd]?|drives?|makes?|made|gives?|gave|never|not|no)\b|n't|太|很|不|没",
    re.I,
)


def _evaluates(clause: str) -> bool:
    """A sentence read as a rejection's reason states no need when it judges ("too noisy")
    or tells a story; one that says what the user is or wants ("I'm a Linux person",
    "Somewhere boring and safe") is a need as well as the reason."""
    return bool(_EVALUATES_RE.search(clause) or _LIST_STORY_RE.search(clause))


def _introduces_list(sentence: Sentence) -> bool:
    return (
        not sentence.bullet
        and not sentence.question
        and bool(_LIST_INTRO_RE.search(sentence.text.strip()))
    )


_BUT_OWN_NEED_RE = re.compile(
    r",?\s+but\s+(?=(?:i|we)(?:'d|\s+would|\s+really|\s+just|\s+still)?\s*(?:rather|prefer|"
    r"need|want|'d\s+like|'d\s+prefer)\b)",
    re.I,
)


def _states_need(text: str) -> bool:
    core = main_clause(strip_discourse(text))
    return bool(
        requirement_from_clause(text, strong_only=False, previous=None) or stated_requirement(core)
    )


_INSTEAD_OF_RE = re.compile(
    r"^(?P<want>.+?)\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?P<other>.+)$", re.I
)


def _wanted_instead(piece: str, rejected: list[str]) -> str | None:
    """ "Use bbolt instead of SQLite" with SQLite turned down: what is wanted in its place."""
    m = _INSTEAD_OF_RE.match(strip_discourse(piece))
    if not m or not any(option_matches(o, m.group("other")) for o in rejected):
        return None
    want = m.group("want")
    if any(option_matches(o, want) for o in rejected) or len(want.split()) > 10:
        return None
    found = requirement_from_clause(want, strong_only=False, previous=None)
    return found[0] if found else stated_requirement(want) or None


def _own_need(piece: str) -> str | None:
    """The need in a piece that states one in the user's own voice, else None."""
    core = strip_discourse(piece)
    if not _OWN_NEED_RE.match(core):
        return None
    found = requirement_from_clause(core, strong_only=False, previous=None)
    return found[0] if found else stated_requirement(main_clause(core))


# Constructions whose clause also says what is wanted (see constructions.py).
_MINED_FAMILIES = frozenset({"replacement", "category", "exclusion"})
_JUST_INSTEAD_RE = re.compile(
    r",\s*(?:just|only|but)\s+(?P<want>(?!run\b|do\b|tell\b|give\b|show\b).{3,})$"
    r"|,\s*(?P<want2>[^,]{3,}?\s+(?:is|are|would\s+be|will\s+be)\s+(?:enough|plenty|fine))[.!]?$",
    re.I,
)


# A clause that asks: "Loki够吗", "有什么推荐吗", "怎么训练".
_ASKS_ZH_RE = re.compile(
    r"[吗呢么?？]\s*$|什么|怎么|如何|哪|多少|几[个种家]|是否|能不能|可不可以|要不要"
)


def _scan_question_lead(sentence: Sentence, found: _Findings, scan: RejectionScan) -> None:
    """ "我家柯基一岁了，见到人就扑，怎么训练？", "查询速度要在几秒以内，Loki够吗？": a Chinese
    question opens with statements, and what they state binds every answer. Only the clauses
    before the asking one are read, each as a statement."""
    clauses = sentence.clauses
    if len(clauses) < 2 or not CJK_CHAR_RE.search(sentence.text):
        return
    for ci, clause in enumerate(clauses[:-1]):
        if _ASKS_ZH_RE.search(clause) or (sentence.index, ci) in scan.clauses:
            continue
        _scan_clause(
            clause, found, rejected=False, after_rejection=False, strong_only=False, previous=None
        )


def _scan_question(sentence: Sentence, found: _Findings) -> None:
    core = strip_discourse(sentence.text.rstrip("?？ "))
    m = CAN_YOU_ADD_RE.match(core)
    if m and SCOPE_MARKER_RE.search(core):
        # "Can you add error handling for large files too?" asks for more scope.
        rest = TRAILING_SCOPE_RE.sub("", m.group("rest"))
        found.add_requirement(tidy(rest), 0.55)
        found.production_request = True
        return
    if OUTPUT_VERB_RE.match(core) or CAN_YOU_RE.match(core):
        found.production_request = True
    team = team_size(core)
    if team:
        # "Which one has less overhead for a team of three?" still says who it is for.
        found.add_fact(team)
        found.add_requirement(team, 0.6)
    found.questions.append(_question_text(sentence.text))


def _scan_clause(
    clause: str,
    found: _Findings,
    *,
    rejected: bool,
    after_rejection: bool,
    strong_only: bool,
    previous: str | None,
    explicit_only: bool = False,
) -> str | None:
    """Record what one clause states; return the requirement text it produced (for a
    following fragment such as "only PNG, JPEG and PDF" to attach to). `explicit_only`: the
    clause also rejects something, so a need must be stated outright ("Use bbolt instead of
    SQLite"), never read from the exclusion itself ("anything but another spreadsheet")."""
    core = strip_discourse(clause)
    if not core:
        return previous
    contrast = _BUT_OWN_NEED_RE.search(core)
    if (
        contrast
        and not _states_need(core[: contrast.start()])
        and _states_need(core[contrast.end() :])
    ):
        # "The pet shop pushed wood shavings but I'd rather use paper bedding": what others
        # did or said, then what the user wants; only the second half is a need.
        core = clause = core[contrast.end() :]
    parts = _CONJOINED_NEED_RE.split(clause)
    if len(parts) > 1:
        # "Handle 20k msg/s at peak, and we need at-least-once delivery": two needs.
        for part in parts:
            previous = _scan_clause(
                part,
                found,
                rejected=rejected,
                after_rejection=after_rejection,
                strong_only=strong_only,
                previous=previous,
                explicit_only=explicit_only,
            )
        return previous
    cause = SO_SPLIT_RE.split(core, maxsplit=1)
    if len(cause) == 2 and FACT_RE.search(cause[0]) and not STRONG_MODAL_RE.search(cause[0]):
        # "We are already all-in on AWS, so a managed service is preferable": a fact, and
        # the need it leads to.
        found.add_fact(tidy(cause[0]))
        core = clause = cause[1]
    fact = AND_NEED_RE.split(core, maxsplit=1)[0]
    # A clause that rejects, or gives the reason of a rejection, is kept with that rejection:
    # as a fact too it would show the same words twice in the Decisions panel.
    if (
        FACT_RE.search(fact)
        and not STRONG_MODAL_RE.search(fact)
        and not (rejected or after_rejection)
    ):
        found.add_fact(tidy(fact))
    team = team_size(core)
    if team:
        found.add_fact(team)
        if not strong_only:
            found.add_requirement(team, 0.6)
        if len(core.split()) <= 4:
            return previous
        # "22 people, served at 12:30": the head count and the rest of the clause.
    m = _OPEN_DECISION_RE.search(core)
    if m:
        found.questions.append(tidy(m.group("what"), 140))
    if _UNSURE_RE.search(core):
        found.questions.append(tidy(core, 140))
        return previous
    if rejected:
        return previous
    if previous is not None and REASON_START_RE.match(clause.strip()):
        return previous  # "..., because tax law requires it" explains, it adds nothing
    head, comma, _ = core.partition(", ")
    # "REDCap it is, hosted by the university IT department": the choice, then its detail.
    picked = choice(core) or (choice(head) if comma and " it is" in head.lower() else None)
    if picked and STRONG_MODAL_RE.search(picked):
        picked = None  # "费用别超过两千" reads "用" as a choice of "别超过两千": a limit, no choice
    if picked:
        # "Let's go with X" decides: it sets the conclusion, it is no requirement.
        found.choices.append(picked)
        found.trajectory = tidy(core)
        return previous
    if TRAJECTORY_RE.search(core):
        found.trajectory = tidy(core)
    if previous is not None and ONLY_RE.match(core):
        merged = f"{previous} — {tidy(core)[:1].lower()}{tidy(core)[1:]}"
        found.requirements = [r for r in found.requirements if r.text != previous]
        found.add_requirement(merged, 0.8)
        return merged
    if not INFO_VERB_RE.match(core) and (
        OUTPUT_VERB_RE.match(core) or BUILD_VERB_RE.match(core)
    ):
        found.production_request = True  # "sketch it", "write the script"; not "explain X"
    result = requirement_from_clause(clause, strong_only=strong_only, previous=previous)
    if result is None and after_rejection and not strong_only and _looks_declarative(core):
        # "We're not doing gRPC; the APIs will be plain REST": what comes instead is decided.
        result = (tidy(core), 0.7)
    main = main_clause(core)
    quiet = strong_only or explicit_only or bool(NOT_A_NEED_ZH_RE.search(main))
    if result is None and not quiet:
        stated = stated_requirement(main)
        result = (tidy(stated), 0.55) if stated else None
    tail = core[len(main) :].strip(" ,") if main != core else ""
    stated_tail = stated_requirement(tail) if tail and not strong_only else None
    if stated_tail:
        # "Getting married in June and I need a gift, budget is like 150 bucks": the
        # independent clause after the comma states its own constraint.
        found.add_requirement(tidy(stated_tail), 0.55)
    if result is None:
        return None
    text, confidence = result
    parts = _split_conjoined(text)
    for part in parts:
        found.add_requirement(part, confidence)
    found.production_request = True
    return parts[-1]


# "Sessions must expire after 30 minutes and be revocable by admins": two predicates after one
# subject and modal are two requirements, each kept with the shared head. "Accept PNG and JPEG"
# or "keep access logs and audit trails" join nouns and stay one.
_SHARED_HEAD_RE = re.compile(
    r"^(?P<head>.*?\b(?:must|should|shall|needs?\s+to|has\s+to|have\s+to|is\s+required\s+to|"
    r"are\s+required\s+to|will\s+need\s+to|need|needs|require|requires)"
    r"(?:\s+(?:also|always|never|not))?\s+)(?P<body>.+)$",
    re.I,
)
_AND_SPLIT_RE = re.compile(r"\s+and\s+(?:also\s+)?", re.I)
# Words that can only start a predicate.
_PREDICATE_ONLY_START_RE = re.compile(
    r"^(?:be|have|not|never|stay|remain|become|get|always)\b", re.I
)
# A verb that may also be a noun ("log", "audit") starts a predicate only when an object or
# adverbial follows it: "log every request", not "audit trails".
_OBJECT_AFTER_VERB_RE = re.compile(
    r"^\S+\s+(?:the|a|an|all|every|each|any|it|them|its|their|our|your|this|that|these|those|"
    r"to|in|on|into|with|by|after|before|within|at|for|from|per|up|out|back|\d)\b",
    re.I,
)


def _starts_predicate(words: str) -> bool:
    if len(words.split()) < 2:
        return False
    if _PREDICATE_ONLY_START_RE.match(words):
        return True
    verb = SYSTEM_VERB_RE.match(words) or BUILD_VERB_RE.match(words)
    return bool(verb) and bool(_OBJECT_AFTER_VERB_RE.match(words))


def _split_conjoined(text: str) -> list[str]:
    """One requirement per predicate when 'and' joins full predicates sharing a subject."""
    shared = _SHARED_HEAD_RE.match(text)
    head, body = (shared.group("head"), shared.group("body")) if shared else ("", text)
    verbs = (SYSTEM_VERB_RE, BUILD_VERB_RE, _PREDICATE_ONLY_START_RE)
    if not shared and not any(p.match(text) for p in verbs):
        return [text]  # neither "<subject> must …" nor an imperative
    parts: list[str] = []
    start = 0
    for m in _AND_SPLIT_RE.finditer(body):
        left, right = body[start : m.start()], body[m.end() :]
        if len(left.split()) >= 2 and _starts_predicate(right):
            parts.append(left)
            start = m.end()
        elif shared and _two_kinds_of_need(body[start : m.start()], right):
            parts.append(body[start : m.start()])
            start = m.end()
    if not parts:
        return [text]
    parts.append(body[start:])
    return [tidy(head + part) if head else tidy(part) for part in parts]


# A quantity noun phrase: "2,000 writes per second", "at least 500 concurrent calls".
_LEADING_NUMBER_RE = re.compile(r"^(?:(?:at\s+least|at\s+most|about|around|up\s+to|~)\s*)?\d")


def _two_kinds_of_need(left: str, right: str) -> bool:
    """ "strict ACID and 2,000 writes per second": after one modal, a quality and a quantity
    are two needs; "PNG and JPEG" or "fast and cheap" (the same kind on each side) stay one."""
    if not left.strip() or not right.strip() or _starts_predicate(right):
        return False
    sides = (left.strip(), right.split(", ")[0].strip())
    counted = [bool(_LEADING_NUMBER_RE.match(side)) for side in sides]
    return counted[0] != counted[1] and all(len(side.split()) >= 2 for side in sides)


def _looks_declarative(core: str) -> bool:
    return len(core.split()) >= 3 and bool(DECLARATIVE_VERB_RE.search(core))


def _dialog_state(
    text: str, found: _Findings, hits: list[RejectionHit], asked: bool
) -> DialogState:
    stripped = text.strip()
    acted = bool(found.requirements or hits or found.choices)
    if _GREETING_RE.match(stripped) and len(stripped.split()) <= 8 and not acted:
        return "greeting"
    if _CLOSING_RE.search(stripped) and not acted and not found.questions:
        return "closing"
    if _CLARIFY_RE.match(stripped) or (asked and (found.answered or acted) and not found.questions):
        return "clarification"
    if acted or found.production_request:
        return "problem_solving"
    return "information_seeking"


def _without_confirmed(
    findings: list[RequirementFinding], confirmed: list[str], view: LedgerSnapshot
) -> list[RequirementFinding]:
    """ "Yes, 20 MB is the limit" confirms R1; it is neither a new requirement nor a
    restatement of it."""
    confirmed_texts = [r.text for r in view.requirements if r.id in confirmed]
    texts = [content_tokens(text) for text in confirmed_texts]
    keys = set().union(*(quantity_keys(text) for text in confirmed_texts))
    return [
        f
        for f in findings
        if not any(overlap_of(content_tokens(f.text), t) >= 0.5 for t in texts)
        and not (keys & quantity_keys(f.text))
        and not (confirmed and _CONFIRM_CUE_RE.search(f.text))
    ]


def _was_on_the_table(option: str, view: LedgerSnapshot, text: str) -> bool:
    """Rejecting what was being discussed is a change of direction; rejecting something
    nobody proposed is just a constraint."""
    earlier = [m for m in view.recent_user_messages if m.strip() != text.strip()][-3:]
    return any(option_matches(option, c) for c in [view.last_assistant_message, *earlier] if c)


def _add_proposal_verdicts(
    sentences: list[Sentence], view: LedgerSnapshot, scan: RejectionScan, skip: set[int]
) -> None:
    """ "Datadog at 200GB/day would bankrupt us": a negative verdict on an option the
    assistant just proposed, in a sentence no construction read (see proposals.py)."""
    proposals = "\n".join([*view.earlier_assistant_messages, view.last_assistant_message])
    for option, index, reason in proposal_verdicts(sentences, proposals.strip()):
        if index in skip or any(h.sentence == index for h in scan.hits):
            continue
        if any(same_option(option, h.option) for h in scan.hits):
            continue
        for other in scan.hits:
            if other.sentence != index and option_matches(option, other.reason):
                other.reason = ""  # a sentence that rejects something states its own decision
        scan.hits.append(
            RejectionHit(option, tidy(reason, 200), index, 0, False, "", False, "proposal")
        )
        scan.clauses[(index, 0)] = ""
        # The rest of the sentence explains the verdict ("太贵了，一万多，超出预算"): only a
        # strongly worded need is read from it.
        scan.reason_clauses.update((index, ci) for ci in range(1, len(sentences[index].clauses)))


def rejects_option(option: str, sentence: str) -> bool:
    """Would a person read `sentence` as turning `option` down? The same constructions the
    analyser uses (aversion, exclusion, not needed, inability, bad experience, replacement,
    withdrawal, refusal), so an LLM analyser's correct answer for "I hate using taxis" is
    grounded whatever words the sentence uses; a hedge or a negated trap is not."""
    found = analyse_message(sentence, 0, LedgerSnapshot()).rejections
    return any(option_matches(option, f.option) or option_matches(f.option, option) for f in found)


def rule_scan(
    text: str, view: LedgerSnapshot
) -> tuple[list[Sentence], RejectionScan, list[str], set[int]] | None:
    """The sentences of a message and what the rules alone read as rejections (before the
    rejection model judges them): sentences, scan, dropped requirement ids, and the sentences
    that drop one. None for a message with no sentence."""
    # Pasted code is material to discuss, not statements: "return x" is no requirement; nor
    # is a quotation of someone else's words ("You wrote "X is often enough" — …").
    bounded = bounded_text(text, MESSAGE_HEAD, MESSAGE_TAIL)
    sentences = parse_sentences(_QUOTED_RE.sub('"…"', FENCED_CODE_RE.sub("\n", bounded)))
    if not sentences:
        return None
    dropped_ids, drop_sentences = _dropped(sentences, view)
    scan = find_rejections(sentences, drop_sentences)
    if not scan.hits:
        pronoun = pronoun_rejection(sentences, view)
        if pronoun:
            scan.hits.append(pronoun)
            scan.clauses[(pronoun.sentence, 0)] = pronoun.cause
    _add_proposal_verdicts(sentences, view, scan, drop_sentences)
    return sentences, scan, dropped_ids, drop_sentences


def analyse_message(text: str, turn: int, view: LedgerSnapshot) -> Analysis:
    """Everything the deterministic rules can read from one user message (instant, offline).

    `turn` is accepted for symmetry with the LLM analyser; the rules themselves do not depend
    on it.
    """
    del turn
    analysis = Analysis(source="heuristic")
    ruled = rule_scan(text, view)
    if ruled is None:
        return analysis
    sentences, scan, dropped_ids, drop_sentences = ruled
    apply_model(sentences, scan, view, drop_sentences)
    hits = scan.hits
    reason_sentences = {
        s.index
        for s in sentences
        for h in hits
        if h.sentence != s.index and h.reason and s.text.strip(" .").endswith(h.reason)
    }
    asked = "?" in view.last_assistant_message or "？" in view.last_assistant_message
    found = _scan_statements(sentences, scan, reason_sentences, drop_sentences, view)

    analysis.rejections = [
        RejectionFinding(h.option, h.reason, is_category(h.option, h.family)) for h in hits
    ]
    analysis.reopened = _reopened(sentences, view, hits)
    analysis.dropped_ids = dropped_ids
    analysis.confirmed_ids = [
        rid for rid in _affirmed_ids(sentences, view, found.choices) if rid not in dropped_ids
    ]
    # "melatonin - tried it, groggy all day": the option named alone is what is turned down,
    # never a requirement too.
    kept = [r for r in found.requirements if not any(same_option(r.text, h.option) for h in hits)]
    analysis.requirements = _without_confirmed(kept, analysis.confirmed_ids, view)
    analysis.facts = found.facts
    analysis.trajectory = found.trajectory
    analysis.questions = list(dict.fromkeys(q for q in found.questions if q))
    analysis.pivot = bool(_PIVOT_RE.search(text)) or any(
        _was_on_the_table(h.option, view, text) for h in hits
    )
    analysis.topic_shift = _topic_shift(text, view)
    analysis.dialog_state = _dialog_state(text, found, hits, asked)
    return analysis

"""The statements of a user message read sentence by sentence: lists, questions, and what a
clause that turns an option down says is wanted instead."""

from __future__ import annotations

import re

from ..ledger_snapshot import LedgerSnapshot
from .clause_scan import Findings, scan_clause
from .cues import OUTPUT_VERB_RE
from .options import option_matches
from .rejections import RejectionScan
from .reply_manner import only_asks_for_the_answer
from .requests import narrowed_request
from .requirements import (
    CAN_YOU_ADD_RE,
    CAN_YOU_RE,
    SCOPE_MARKER_RE,
    TRAILING_SCOPE_RE,
    bare_answer,
    main_clause,
    requirement_from_clause,
    team_size,
)
from .sentences import LIST_HEADER_RE, ZH_ASKS_RE, Sentence, strip_discourse, tidy
from .statements import stated_requirement
from .text import CJK_CHAR_RE, ZH_HALF_NOT


def _question_text(sentence: str) -> str:
    body = strip_discourse(sentence)
    return tidy(body, 140)


def scan_statements(
    sentences: list[Sentence],
    scan: RejectionScan,
    reason_sentences: set[int],
    skip_sentences: set[int],
    view: LedgerSnapshot,
) -> Findings:
    """What the sentences of a message state, beside the rejections `scan` found."""
    found = Findings()
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
        if _bare_answer(sentence, scan, view, found):
            continue
        _scan_sentence(sentence, scan, reason_sentences, found)
        rejects = any(s == sentence.index for s, _ in scan.clauses)
        if in_list and len(found.requirements) == before and not rejects:
            # Every item under "Requirements:" is one, however terse ("EU hosting only").
            found.add_requirement(tidy(sentence.text), 0.7)
        elif wish_list and len(found.requirements) == before and not rejects and _wish(sentence):
            # "Here's what I jotted down:" then "- card payments with low fees": a list the
            # user wrote for their request states what is wanted, item by item.
            found.add_requirement(tidy(sentence.text), 0.6)
    for hit in scan.hits:
        if hit.inline_reason and not _about_the_option(hit.reason, hit.option):
            scan_clause(
                hit.reason,
                found,
                rejected=False,
                after_rejection=False,
                strong_only=True,
                previous=None,
            )
    return found


# "Not PlantUML, that one needs a Java server", "Forget Kafka, it needs a whole cluster": the
# reason's subject is the option turned down, so its "needs" describe the option, not the user.
_OPTION_SUBJECT_RE = re.compile(
    r"^(?:it|that(?:\s+one)?|this(?:\s+one)?|they|those|these|which|the\s+thing)\b(?!\s+we\b)",
    re.I,
)


def _about_the_option(reason: str, option: str) -> bool:
    body = strip_discourse(reason)
    return bool(_OPTION_SUBJECT_RE.match(body)) or body.lower().startswith(option.lower())


def _bare_answer(
    sentence: Sentence, scan: RejectionScan, view: LedgerSnapshot, found: Findings
) -> bool:
    """ "pods - absolutely not" opens a message by naming an option of the assistant's question
    to turn it down: recorded as the answer; True when the sentence is read."""
    if sentence.index != 0 or any(h.sentence == 0 for h in scan.hits):
        return False
    answer = bare_answer(sentence.text, view.last_assistant_message)
    if not answer:
        return False
    found.add_requirement(answer, 0.6)
    found.answered = True
    found.trajectory = tidy(sentence.text)
    return True


def _scan_sentence(
    sentence: Sentence, scan: RejectionScan, reason_sentences: set[int], found: Findings
) -> None:
    """Each clause of a sentence that is no question, read beside the rejections in it."""
    rejection_clauses = scan.clauses
    previous: str | None = None
    rejecting = any(s == sentence.index for s, _ in rejection_clauses)
    for ci, clause in enumerate(sentence.clauses):
        rejected = (sentence.index, ci) in rejection_clauses
        if rejected and rejection_clauses[(sentence.index, ci)]:
            clause, rejected = rejection_clauses[(sentence.index, ci)], False
        elif rejecting and ci > 0 and _ZH_BARE_PREDICATE_RE.match(strip_discourse(clause)):
            rejected = True
        families = {h.family for h in scan.hits if (h.sentence, h.clause) == (sentence.index, ci)}
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
            options = [
                h.option for h in scan.hits if (h.sentence, h.clause) == (sentence.index, ci)
            ]
            _scan_pieces(clause, options, found)
        instead = _JUST_INSTEAD_RE.search(clause) if rejected or families else None
        if instead and not only_asks_for_the_answer(instead.group().strip(" ,;")):
            # "I don't need an advisor, just a straightforward plan": what is needed
            # instead; the exclusion itself never becomes a requirement.
            found.add_requirement(tidy(instead.group("want") or instead.group("want2")), 0.6)
        previous = scan_clause(
            clause,
            found,
            rejected=rejected,
            after_rejection=(sentence.index, ci - 1) in rejection_clauses,
            strong_only=(sentence.index in reason_sentences and _evaluates(clause))
            or (sentence.index, ci) in scan.reason_clauses,
            previous=previous,
            explicit_only=mined,
        )


def _scan_pieces(clause: str, options: list[str], found: Findings) -> None:
    """ "Self-hosted runners only, nothing on shared SaaS runners", "We'd prefer compostable
    packaging, no single-use plastic": the comma-separated part of a rejecting clause that
    names no rejected option is read on its own."""
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
        stated = _own_need(piece) or stated_requirement(main_clause(strip_discourse(piece)))
        if stated and len(piece.split()) >= 2:
            found.add_requirement(tidy(stated), 0.55)


_COMMA_PIECE_RE = re.compile(r",\s+(?:but\s+|and\s+)?|\s+but\s+(?=(?:i|we)\b)", re.I)
# "…, I'd rather spend under £400", "…, we need proper batching": the user's own need, said
# after turning something down.
_OWN_NEED_RE = re.compile(
    r"^(?:so\s+|then\s+|instead\s+)?(?:i|we)(?:'d|\s+would|\s+really|\s+just|\s+still|\s+do)?"
    r"\s*(?:rather|prefer|need|want|like|must|have\s+to|'ll\s+need|'d\s+like|'d\s+prefer)\b"
    r"(?!\s+(?:not|never|avoid|skip|steer)\b)"
    # "We don't want a huge resort, something smaller and calmer": what is wanted instead.
    r"|^(?:but\s+|just\s+)?(?:something|somewhere|someone|preferably|ideally)\s+\w+"
    # "…, 3000 is too much for us, maximum we can pay is 2000": a limit of the user's own.
    r"|^(?:the\s+)?(?:max(?:imum)?|at\s+most|(?:our\s+|my\s+|the\s+)?budget\s+is|no\s+more\s+than)\b",
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
_MINED_FAMILIES = frozenset({"replacement", "category", "exclusion", "over_budget"})
# In a sentence that turns an option down, a short clause that only dislikes or cannot go is the
# turning down itself ("香格里拉海拔太高，我妈有高血压，不能去"; "…，大家都不太喜欢"), never a
# requirement of its own ("数据不能出机房" and "我膝盖不好" still are).
_ZH_BARE_PREDICATE_RE = re.compile(
    rf"^[\u4e00-\u9fff]{{0,4}}?(?:{ZH_HALF_NOT}(?:喜欢|想去|想|愿意|行|合适|考虑|感兴趣)|"
    r"没(?:意思|兴趣)|不能(?:去|吃|用|坐|住)|[去吃用坐住]不了)[了吧啊呀哈嘛]*[。！!.]?$"
)
_JUST_INSTEAD_RE = re.compile(
    r",\s*(?:just|only|but)\s+(?P<want>(?!run\b|do\b|tell\b|give\b|show\b).{3,})$"
    r"|,\s*(?P<want2>[^,]{3,}?\s+(?:is|are|would\s+be|will\s+be)\s+(?:enough|plenty|fine))[.!]?$",
    re.I,
)


def _scan_question_lead(sentence: Sentence, found: Findings, scan: RejectionScan) -> None:
    """ "我家柯基一岁了，见到人就扑，怎么训练？", "查询速度要在几秒以内，Loki够吗？": a Chinese
    question opens with statements, and what they state binds every answer. Only the clauses
    before the asking one are read, each as a statement."""
    clauses = sentence.clauses
    if len(clauses) < 2 or not CJK_CHAR_RE.search(sentence.text):
        return
    for ci, clause in enumerate(clauses[:-1]):
        if ZH_ASKS_RE.search(clause) or (sentence.index, ci) in scan.clauses:
            continue
        scan_clause(
            clause, found, rejected=False, after_rejection=False, strong_only=False, previous=None
        )


def _scan_question(sentence: Sentence, found: Findings) -> None:
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
    request = narrowed_request(core)
    if request is None and sentence.asked:
        # A request cut from its object by a comma ("帮我推荐一个300-400元，提供接机服务的酒店吗？")
        # is read whole, in place of its head read as a statement.
        request = narrowed_request(strip_discourse(sentence.asked.rstrip("?？ ")))
        if request:
            found.requirements = [r for r in found.requirements if r.text not in request]
    if request:
        # "Can you recommend a hotel in Lisbon under 150 a night?": asked, and still binding.
        found.add_requirement(request, 0.6)
    team = team_size(core)
    if team:
        # "Which one has less overhead for a team of three?" still says who it is for.
        found.add_fact(team)
        found.add_requirement(team, 0.6)
    found.questions.append(_question_text(sentence.asked or sentence.text))

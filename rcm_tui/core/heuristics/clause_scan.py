"""What one clause of a user message states (needs, facts, choices, open questions), gathered
into the Findings the whole message accumulates."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..analysis import RequirementFinding
from .cues import BUILD_VERB_RE, FACT_RE, OUTPUT_VERB_RE, SYSTEM_VERB_RE
from .rejections import (
    CHOOSING_LEAD_RE,
    REASON_START_RE,
    SO_SPLIT_RE,
    choice,
    is_bare_refusal,
)
from .requirements import (
    AND_NEED_RE,
    DECLARATIVE_VERB_RE,
    INFO_VERB_RE,
    ONLY_RE,
    STRONG_MODAL_RE,
    TRAJECTORY_RE,
    main_clause,
    not_a_need,
    requirement_from_clause,
    team_size,
)
from .sentences import strip_discourse, tidy
from .statements import stated_requirement
from .text import text_similarity

_UNSURE_RE = re.compile(
    r"\b(?:not\s+sure\s+(?:about|whether|if)|(?:don'?t|do\s+not)\s+know\s+(?:if|whether)|"
    r"undecided\s+(?:on|about)|haven'?t\s+decided)\b|不确定|不知道.*是否|还没决定",
    re.I,
)
_OPEN_DECISION_RE = re.compile(
    r"\b(?:need|needs|have|has)\s+to\s+(?P<what>(?:pick|choose|decide|select|figure\s+out)\b.+)$",
    re.I,
)

# "…, and we need Y", "X must A and must B": one need per predicate.
_CONJOINED_NEED_RE = re.compile(
    r",?\s+and\s+(?=(?:(?:we|i)\s+(?:also\s+)?(?:need|must|want|have\s+to|require|should)|"
    r"(?:it|they)\s+(?:also\s+)?(?:must|should|has\s+to|have\s+to|needs\s+to)|"
    r"(?:also\s+)?must|should|has\s+to|needs\s+to)\b)",
    re.I,
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


_WORD_RE = re.compile(r"\w")


@dataclass
class Findings:
    requirements: list[RequirementFinding] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    trajectory: str = ""
    choices: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    production_request: bool = False  # asks for work to be done (→ problem solving)
    answered: bool = False

    def add_requirement(self, text: str, confidence: float) -> None:
        if not _WORD_RE.search(text) or is_bare_refusal(text) or _STEERS_THE_TALK_RE.match(text):
            return  # '"…"' (a quotation set aside) says nothing; "Hard pass" only refuses
        if not any(text_similarity(text, r.text) >= 0.8 for r in self.requirements):
            self.requirements.append(RequirementFinding(text, round(confidence, 2)))

    def add_fact(self, text: str) -> None:
        folded = text.casefold()
        if text and not any(
            text_similarity(text, f) >= 0.8 or folded in f.casefold() or f.casefold() in folded
            for f in self.facts
        ):
            self.facts.append(text)


# "Go.", "Next.", "Please suggest.", "Same reason.": words that steer the conversation (ask for
# the answer, move on, point back) and state nothing wanted of it.
_STEERS_THE_TALK_RE = re.compile(
    r"^(?:please\s+|kindly\s+)?(?:go|go\s+ahead|next|suggest|advise|recommend|continue|proceed|"
    r"shoot|ship\s+it|send\s+(?:it|that)|same\s+(?:reason|here|thing|again|as\s+before)|"
    r"over\s+to\s+you|your\s+call|you\s+decide|thoughts|ideas)[.!?]*$",
    re.I,
)


def scan_clause(
    clause: str,
    found: Findings,
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
    own = _own_half(core)
    if own is not None:
        core = clause = own
    parts = _CONJOINED_NEED_RE.split(clause)
    if len(parts) > 1:
        # "Handle 20k msg/s at peak, and we need at-least-once delivery": two needs.
        for part in parts:
            previous = scan_clause(
                part,
                found,
                rejected=rejected,
                after_rejection=after_rejection,
                strong_only=strong_only,
                previous=previous,
                explicit_only=explicit_only,
            )
        return previous
    read = _read_facts(core, clause, found, rejected or after_rejection, strong_only)
    if read is None:
        return previous
    core, clause = read
    m = _OPEN_DECISION_RE.search(core)
    if m:
        found.questions.append(tidy(m.group("what"), 140))
    if _UNSURE_RE.search(core):
        found.questions.append(tidy(core, 140))
        return previous
    if rejected:
        return previous
    return _read_need(
        core,
        clause,
        found,
        previous,
        after_rejection=after_rejection,
        strong_only=strong_only,
        explicit_only=explicit_only,
    )


def _own_half(core: str) -> str | None:
    """ "The pet shop pushed wood shavings but I'd rather use paper bedding": what others did
    or said, then what the user wants; only the second half is a need."""
    contrast = _BUT_OWN_NEED_RE.search(core)
    if (
        contrast
        and not _states_need(core[: contrast.start()])
        and _states_need(core[contrast.end() :])
    ):
        return core[contrast.end() :]
    return None


def _read_facts(
    core: str, clause: str, found: Findings, with_rejection: bool, strong_only: bool
) -> tuple[str, str] | None:
    """The facts a clause states, recorded; the core and clause left to read for a need, or
    None when nothing is left ("22 people" is a head count and no more)."""
    cause = SO_SPLIT_RE.split(core, maxsplit=1)
    if len(cause) == 2 and FACT_RE.search(cause[0]) and not STRONG_MODAL_RE.search(cause[0]):
        # "We are already all-in on AWS, so a managed service is preferable": a fact, and
        # the need it leads to.
        found.add_fact(tidy(cause[0]))
        core = clause = cause[1]
    fact = AND_NEED_RE.split(core, maxsplit=1)[0]
    # A clause that rejects, or gives the reason of a rejection, is kept with that rejection:
    # as a fact too it would show the same words twice in the Decisions panel.
    if FACT_RE.search(fact) and not STRONG_MODAL_RE.search(fact) and not with_rejection:
        found.add_fact(tidy(fact))
    team = team_size(core)
    if team:
        found.add_fact(team)
        if not strong_only:
            found.add_requirement(team, 0.6)
        if len(core.split()) <= 4:
            return None
        # "22 people, served at 12:30": the head count and the rest of the clause.
    return core, clause


# "…, I'll order it friday", "…, we can revisit in May": a new clause with its own subject
# after the decision says what happens next, not what was decided.
# ("i\b" also opens "I'll", "I'm", "I'd").
_NEXT_STEP_RE = re.compile(r"^(?:i|we|you|they)\b", re.I)


def _decision_text(core: str, head: str, head_decides: bool) -> str:
    """The words that state a decision, for the conclusion: "Lets go with the basic one, I'll
    order it friday" concludes "Lets go with the basic one"; "REDCap it is, hosted by the
    university IT department" keeps the detail of what was chosen."""
    tail = core[len(head) :].lstrip(" ,")
    return head if head_decides and _NEXT_STEP_RE.match(tail) else core


_BOUND_RE = re.compile(r"以下|以上|以内|之内|不超过|不到|under\s+\$?\d|below\s+\$?\d", re.I)
# "所以只能用电", "必须用正版": a use that is all the user may do is a constraint, not a pick.
_ZH_ONLY_WAY_RE = re.compile(r"只能|只可以|只好|必须|务必|一定要|非得")


def _a_limit_not_a_pick(picked: str, core: str) -> bool:
    """"费用别超过两千" reads "用" as a choice of "别超过两千", "门票20元以下的就行" takes "就行" as
    choosing, "所以只能用电" picks 电: each is a limit, no choice."""
    return bool(
        STRONG_MODAL_RE.search(picked) or _BOUND_RE.search(picked) or _ZH_ONLY_WAY_RE.search(core)
    )


def _read_need(
    core: str,
    clause: str,
    found: Findings,
    previous: str | None,
    *,
    after_rejection: bool,
    strong_only: bool,
    explicit_only: bool,
) -> str | None:
    """The choice or the need a clause that rejects nothing states (see `scan_clause`)."""
    if previous is not None and REASON_START_RE.match(clause.strip()):
        return previous  # "..., because tax law requires it" explains, it adds nothing
    head, comma, _ = core.partition(", ")
    # "REDCap it is, hosted by …", "Lets go with X, I'll set up a trial": the choice, then what
    # follows; "Decision: NATS JetStream": the label (a lead-in, cut from `core`) chooses.
    picks_first = " it is" in head.lower() or bool(CHOOSING_LEAD_RE.match(head))
    picked = choice(core) or (choice(head) if comma and picks_first else None) or choice(clause)
    if picked and _a_limit_not_a_pick(picked, core):
        picked = None
    if picked:
        # "Let's go with X" decides: it sets the conclusion, it is no requirement.
        found.choices.append(picked)
        found.trajectory = tidy(_decision_text(core, head, bool(comma) and picks_first))
        return previous
    if TRAJECTORY_RE.search(core):
        found.trajectory = tidy(core)
    if previous is not None and ONLY_RE.match(core):
        merged = f"{previous} — {tidy(core)[:1].lower()}{tidy(core)[1:]}"
        found.requirements = [r for r in found.requirements if r.text != previous]
        found.add_requirement(merged, 0.8)
        return merged
    if not INFO_VERB_RE.match(core) and (OUTPUT_VERB_RE.match(core) or BUILD_VERB_RE.match(core)):
        found.production_request = True  # "sketch it", "write the script"; not "explain X"
    result = requirement_from_clause(clause, strong_only=strong_only, previous=previous)
    if result is None and after_rejection and not strong_only and _looks_declarative(core):
        # "We're not doing gRPC; the APIs will be plain REST": what comes instead is decided
        # ("no fluff, just the answer please" asks how to reply: no need).
        result = None if not_a_need(core) else (tidy(core), 0.7)
    main = main_clause(core)
    quiet = strong_only or explicit_only or not_a_need(main)
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


# "my brother feels it would be rather impersonal": an opinion reported is the reason for the
# rejection before it, not what comes instead.
_REPORTED_OPINION_RE = re.compile(
    r"\b(?:feels?|felt|thinks?|thought|says?|said|reckons?|believes?|finds?|found)\b", re.I
)


def _looks_declarative(core: str) -> bool:
    return (
        len(core.split()) >= 3
        and bool(DECLARATIVE_VERB_RE.search(core))
        and not _REPORTED_OPINION_RE.search(core)
    )

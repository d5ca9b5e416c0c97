"""One user message, read whole: facts, trajectory, confirmations, drops, reopening, pivots,
topic shifts, dialog state, and `analyse_message`."""

from __future__ import annotations

import re

from ..analysis import Analysis, RejectionFinding, RequirementFinding
from ..ledger_snapshot import LedgerSnapshot
from ..models import DialogState
from .chinese_script import in_users_script, simplified, simplified_view
from .clause_scan import Findings
from .constraint_clauses import forget_dropped, release_constraints
from .construction_parts import is_category
from .cues import YES_NO_OPENER
from .option_shapes import names_no_thing
from .options import option_matches, same_option
from .ordinals import resolved
from .pronouns import pronoun_rejection
from .proposals import proposal_verdicts
from .quantities import quantity_keys
from .rejection_model import apply_model
from .rejections import (
    RejectionHit,
    RejectionScan,
    choice,
    find_rejections,
)
from .reply_manner import without_manner_of_answering
from .rhetorical import rhetorical_rejections, self_answered
from .sentences import (
    FENCED_CODE_RE,
    Sentence,
    parse_sentences,
    split_sentences,
    strip_discourse,
    tidy,
)
from .spaced_verdicts import spaced_verdicts
from .statement_scan import scan_statements
from .tagged_rejections import apply_tagger
from .text import (
    MESSAGE_HEAD,
    MESSAGE_TAIL,
    REPLY_SENTENCE_RE,
    bounded_text,
    content_tokens,
    overlap_of,
    with_apostrophes,
)
from .topic_refusals import topic_refusals
from .verdict_lists import read_verdict_lists

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
# "Put wool back on the list", "add the ferry back in", "X is back in the running": the
# sentence restores an option, whether or not the ledger holds it.
_PUT_BACK = (
    r"back\s+(?:on|in|into)\s+(?:the\s+)?(?:table|list|menu|shortlist|mix|running|plan|game)|"
    r"(?:put|add|bring|pop)\s+(?:\S+\s+){1,4}?back(?:\s+in)?"
)
_PUT_BACK_RE = re.compile(rf"\b(?:{_PUT_BACK})\b", re.I)
_REOPEN_RE = re.compile(
    r"\b(?:reconsider(?:ing)?|revisit(?:ing)?|after\s+all|"
    rf"{_PUT_BACK}|"
    r"bring\s+back|go\s+back\s+to|un-?reject|another\s+(?:look|chance)|open\s+to)\b"
    r"|\b(?:maybe|perhaps|let'?s|try|use|consider)\b.*\bagain\b"
    r"|重新考虑|再考虑|重新评估|又可以|还是用|回到|加回来|放回|重新加上",
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


# A quotation of three words or more (straight, curly or corner quotes).
_QUOTED_RE = re.compile(
    r'"[^"\n]*?\S+\s+\S+\s+\S+[^"]*?"|“[^”]*?\S+\s+\S+\s+\S+[^”]*?”|「[^」]{6,}」', re.S
)


_CONFIRM_CUE_RE = re.compile(
    r"\b(?:confirm(?:ed|ing|s)?|still\s+stands|stands|non-negotiable|is\s+final|"
    r"hard\s+(?:requirement|cap|limit)|unchanged|still\s+holds|holds|"
    # A bound said again as the bound: "30万 is the ceiling", "$1.5k is our max".
    r"(?:is|'s)\s+(?:still\s+)?(?:the|our|my)\s+(?:ceiling|cap|max|maximum|limit|upper\s+limit))\b"
    r"|确认|不变|硬性要求|不能妥协|不妥协|还是那句话",
    re.I,
)


def _confirmed_quantities(sentences: list[Sentence]) -> set[tuple[str, str]]:
    """The quantities of the sentences that say a bound again ("…is confirmed", "30万 is the
    ceiling"): a requirement with one of them is confirmed."""
    said = (s.text for s in sentences if not s.question and _CONFIRM_CUE_RE.search(s.text))
    return set().union(*(quantity_keys(text) for text in said))


def _affirmed_ids(sentences: list[Sentence], view: LedgerSnapshot, choices: list[str]) -> list[str]:
    """Existing requirements the user affirms ("yes, 20 MB is the limit")."""
    live_items = view.live_requirements
    if not live_items:
        return []
    # Without a choice named, only an affirmation reads the whole ledger (it grows by a
    # requirement a turn in a long session).
    ids = [r.id for r in live_items if any(option_matches(c, r.text) for c in choices)] \
        if choices else []
    live = [(r.id, r.text) for r in live_items]
    # "Yes, 7-day retention is confirmed" confirms "消息必须保留7天", and so does "30万 is the
    # ceiling" without a yes: across languages the words differ, the quantity does not. Without
    # confirming words the ledger is not read for it at all.
    confirmed = _confirmed_quantities(sentences)
    if confirmed:
        ids += [rid for rid, text in live if rid not in ids and quantity_keys(text) & confirmed]
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
    live: list[tuple[str, str]] | None = None  # read once a clause drops something
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
            if live is None:
                live = [(r.id, r.text) for r in view.live_requirements]
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


_NEED_WORD_RE = re.compile(
    r"\b(?:need|needs|must|have\s+to|has\s+to|require[sd]?|want)\b|需要|必须|一定要", re.I
)


def _without_reopening(found: list[RequirementFinding]) -> list[RequirementFinding]:
    """"Put wool back on the list then" restores wool (reopened when the ledger holds it):
    unless it also says something is needed, the sentence is no requirement."""
    return [r for r in found if _NEED_WORD_RE.search(r.text) or not _PUT_BACK_RE.search(r.text)]


def echoes_the_offer(requirement: str, reply: str) -> bool:
    """ "Reserve the hotel" after "Do you wish to reserve the hotel?": the user accepts what the
    assistant offered to do, in its words; nothing new is required. Only a yes/no question is
    accepted this way, and only when every word of the requirement is the question's."""
    asked = [s for s in REPLY_SENTENCE_RE.split(reply) if s.strip().endswith(("?", "？"))]
    if not asked or not _YES_NO_QUESTION_RE.match(asked[-1].strip()):
        return False
    words = content_tokens(requirement)
    return bool(words) and words <= content_tokens(asked[-1])


_YES_NO_QUESTION_RE = re.compile(f"^{YES_NO_OPENER}", re.I)


def _topic_shift(text: str, view: LedgerSnapshot) -> bool:
    if not _TOPIC_CUE_RE.search(text):
        return False
    earlier = [m for m in view.recent_user_messages if m.strip() != text.strip()]
    if not earlier:
        return False
    now = content_tokens(text)
    before = set().union(*(content_tokens(m) for m in earlier))
    return overlap_of(now, before) < 0.2 if now else False


def _dialog_state(text: str, found: Findings, hits: list[RejectionHit], asked: bool) -> DialogState:
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
    confirmed_texts = [r.text for r in view.requirements if r.id in confirmed] if confirmed else []
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
    read = _QUOTED_RE.sub('"…"', FENCED_CODE_RE.sub("\n", bounded))
    sentences = parse_sentences(read)
    if not sentences:
        return None
    dropped_ids, drop_sentences = _dropped(sentences, view)
    scan = find_rejections(sentences, drop_sentences)
    if not scan.hits:
        pronoun = pronoun_rejection(sentences, view)
        if pronoun:
            scan.hits.append(pronoun)
            scan.clauses[(pronoun.sentence, 0)] = pronoun.cause
    for hit in scan.hits:
        # "the first one is a hard pass": the option the reply listed first.
        hit.option = resolved(hit.option, view.last_assistant_message)
    _add_proposal_verdicts(sentences, view, scan, drop_sentences)
    rhetorical = rhetorical_rejections(sentences, drop_sentences)
    spaced = spaced_verdicts(read, sentences, scan.hits)
    for hit in [*rhetorical, *topic_refusals(sentences, scan.hits), *spaced]:
        if not any(same_option(hit.option, h.option) for h in scan.hits):
            scan.hits.append(hit)
            scan.clauses[(hit.sentence, 0)] = ""
    return sentences, scan, dropped_ids, drop_sentences


# "Dune 2 is out on streaming!!", "The Bear season 3 is out, no spoilers": news of a release,
# not an option ruled out ("Flutter's out, the team knows TypeScript" still is one).
_RELEASED_RE = re.compile(
    r"\b(?:is|are|'s)\s+(?:finally\s+|already\s+)?out\s+(?:on\s+(?:streaming|netflix|disney|hulu|"
    r"prime|max|steam|spotify|blu-?ray|dvd|vinyl|the\s+app\s+store|ios|android)|in\s+(?:cinemas?|"
    r"theat(?:re|er)s|stores|shops|beta|preview)|today|at\s+last)\b"
    r"|\b(?:is|are|'s)\s+finally\s+out\b"
    r"|\b(?:season|series|episode|sequel|trailer|album|edition)\s+\d*\s*(?:is|are|'s)\s+out\b",
    re.I,
)


def _not_released(hits: list[RejectionHit], sentences: list[Sentence]) -> list[RejectionHit]:
    """The hits kept: an option whose release its sentence announces is no rejection."""
    by_index = {s.index: s.text for s in sentences}

    def announced(hit: RejectionHit) -> bool:
        said = by_index.get(hit.sentence, "")
        released = _RELEASED_RE.search(said)
        return bool(released and option_matches(hit.option, said[: released.end()]))

    return [h for h in hits if not announced(h)]


def analyse_message(text: str, turn: int, view: LedgerSnapshot) -> Analysis:
    """Everything the deterministic rules can read from one user message (instant, offline).

    `turn` is accepted for symmetry with the LLM analyser; the rules themselves do not depend
    on it. Traditional Chinese is read as Simplified and reported in the user's characters.
    """
    del turn
    typed = with_apostrophes(text)
    read = simplified(typed)
    if read == typed:
        return _analyse(typed, view)
    return in_users_script(_analyse(read, simplified_view(view)), read, typed)


def _analyse(text: str, view: LedgerSnapshot) -> Analysis:
    analysis = Analysis(source="heuristic")
    ruled = rule_scan(text, view)
    if ruled is None:
        return analysis
    sentences, scan, dropped_ids, drop_sentences = ruled
    read = list(scan.hits)
    apply_model(sentences, scan, view, drop_sentences)
    read += scan.hits
    apply_tagger(sentences, scan, view, drop_sentences, message=text)
    read += scan.hits
    verdict_sentences = read_verdict_lists(text, sentences, scan)
    scan.hits = without_manner_of_answering(_not_released(scan.hits, sentences), sentences)
    scan.hits = [h for h in scan.hits if not names_no_thing(h.option)]
    forget_dropped(scan, read)
    constraints = release_constraints(scan, sentences)
    hits = scan.hits
    reason_sentences = {
        s.index
        for s in sentences
        for h in hits
        # (tidy() capitalised the reason: "we are killing X. everyone hates them")
        if h.sentence != s.index
        and h.reason
        and s.text.strip(" .").casefold().endswith(h.reason.casefold())
    }
    asked = "?" in view.last_assistant_message or "？" in view.last_assistant_message
    # A list of verdicts weighs options; none of its lines asks for anything.
    skipped = drop_sentences | verdict_sentences
    found = scan_statements(sentences, scan, reason_sentences, skipped, view)
    for constraint in constraints:
        found.add_requirement(tidy(strip_discourse(constraint)), 0.75)

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
    kept = _without_reopening(kept)
    kept = [r for r in kept if not echoes_the_offer(r.text, view.last_assistant_message)]
    analysis.requirements = _without_confirmed(kept, analysis.confirmed_ids, view)
    analysis.facts = found.facts
    analysis.trajectory = found.trajectory
    answered = self_answered(sentences)
    analysis.questions = list(
        dict.fromkeys(q for q in found.questions if q and q.strip().lower() not in answered)
    )
    analysis.pivot = bool(_PIVOT_RE.search(text)) or any(
        _was_on_the_table(h.option, view, text) for h in hits
    )
    analysis.topic_shift = _topic_shift(text, view)
    analysis.dialog_state = _dialog_state(text, found, hits, asked)
    return analysis

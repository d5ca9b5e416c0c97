"""Rejections in a user message, sentence by sentence: the option, its reason, and choice
statements."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .bridge_zh import english_heads
from .clause_rejections import (
    ALTERNATIVE_RE,
    BARE_NOT_RE,
    SUBJECT_LEAD_RE,
    RawHit,
    clause_hits,
    reason_after,
)
from .construction_parts import negative_experience
from .constructions_zh import is_zh_condition
from .cues import (
    BUILD_VERB_RE,
    FACT_RE,
    LEAD_IN_OPENS_RE,
    OUTPUT_VERB_RE,
    SYSTEM_VERB_RE,
)
from .english_verdicts import sentence_verdicts
from .option_phrases import clean_options
from .option_shapes import names_no_thing
from .options import EDGE_PUNCT, option_matches, same_option, strip_option_noise
from .requirements import requirement_from_clause, states_a_limit
from .sentences import DECISION_LABEL, Sentence, strip_discourse, tidy
from .text import CJK, CJK_CHAR_RE, word_set
from .zh_topic_verdicts import clauses_told_in, zh_sentence_verdicts

# "another paid one": "one" stands for the noun of the option before it.
_ONE_RE = re.compile(r"^(?:another|a|the|any)?\s*(?P<mod>[\w-]+\s+)?ones?$", re.I)


# "…, so B": B follows from what came before. After a copula "so" is a degree ("that's so
# boring"), and "so much/far/long" measure.
SO_SPLIT_RE = re.compile(
    r"(?<!\bis)(?<!'s)(?<!\bare)(?<!'re)(?<!\bwas)(?<!\bwere)(?<!\bam)(?<!'m)(?<!\bthats)"
    r",?\s+so\s+(?!that\b|much\b|many\b|far\b|long\b)",
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
    r"^(?:because|since|given\s+that)\s+(?P<why>[^,，]{3,}?)[,，]\s*(?P<rest>\S.*)$",
    re.I,
)


# A sentence that ends in a bare refusal turns down what it opened with: "rolling our own auth -
# absolutely not", "Confluence is where docs go to die here, let's not".
_BARE_REFUSAL_RE = re.compile(
    r"^(?:(?:so|and|but|just|honestly|tbh)\s+)?(?:absolutely\s+not|definitely\s+not|hell\s+no|"
    r"no\s+way|nope|nah|no\s+thanks|not\s+happening|hard\s+pass|pass|let'?s\s+not|"
    r"(?:i|we)'?d\s+rather\s+not|never\s+again|not\s+for\s+(?:me|us)|no(?:\s+no)*|"
    # Idioms of refusal: a closed class, not a list of products.
    r"(?:not|never)\s+in\s+a\s+million\s+years|not\s+a\s+chance|no\s+chance|"
    r"over\s+my\s+dead\s+body|not\s+on\s+your\s+life|hard\s+no|big\s+no|no\s+thank\s+you|"
    r"(?:that'?s|it'?s)\s+a\s+no(?:\s+from\s+(?:me|us))?|a\s+no\s+from\s+(?:me|us)|"
    r"(?:i|we)?\s*can'?t\s+do\s+(?:it|that|this)|not\s+(?:them|those|that\s+one|it)|"
    r"(?:i|we)(?:'ll|\s+will|'d|\s+would)\s+(?:just\s+)?pass(?:\s+on\s+(?:that|it|this|those|them))?|"
    # A self-correction takes back what was just named ("and macOS runners—strike that"); a
    # bowing out ("Self-hosting anything, count me out").
    r"(?:strike|scratch)\s+that|count\s+(?:me|us)\s+out|(?:i|we)'?m\s+out|"
    # Chinese "never again": 不想再来一次, 再也不去了, 打死不用了.
    r"(?:我们?)?(?:(?:真的?|实在)?不想再|再也不|绝不再|打死(?:也)?不)"
    r"(?:来|试|用|去|碰|折腾|经历|买|吃|住)(?:一次|一遍|第二次)?了?)"
    r"\s*[.!。！]*$",
    re.I,
)


_LAST_PIECE_RE = re.compile(r",\s*(?:so|but|and|then)?\s*", re.I)


def is_bare_refusal(text: str) -> bool:
    """ "Hard pass.", "Never again", "Cant do it", and "Duolingo I used for 400 days …, so I will
    pass on that": a refusal, or what ends in one — a rejection with its reason, no requirement."""
    return bool(_BARE_REFUSAL_RE.match(_LAST_PIECE_RE.split(text.strip())[-1]))


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


def _bare_refusal(text: str) -> list[str]:
    pieces = [p for p in _REFUSAL_PIECES_RE.split(strip_discourse(text)) if p.strip()]
    tried = len(pieces) >= 2 and _TRIED_IT_RE.match(pieces[1].strip())
    if tried and negative_experience(" ".join(pieces[1:])):
        pass  # "melatonin - tried it, groggy all next day": what was tried, badly
    # The refusal closes the sentence ("Corsa, been there, never again") or follows the
    # option at once, its reason after it ("Sandwiches and cake, no, my aunties would be
    # horrified").
    elif len(pieces) < 2 or not any(
        _BARE_REFUSAL_RE.match(p.strip()) for p in {pieces[1], pieces[-1]}
    ):
        return _refused_in_passing(pieces)
    # "self-hosting our own mail server - absolutely not": the mail server
    head = pieces[0].strip()
    undone = _DOING_LEAD_RE.sub("", head)
    if _ANY_OBJECT_RE.match(undone) or _WHEN_OR_WHERE_LEAD_RE.match(undone):
        # "Camping in October": the doing is the option, what follows only says when.
        undone = head[: len(head) - len(undone)].strip()  # "Self-hosting anything" too
    opening = _OPENING_NP_RE.match(undone)
    if not opening or _PRONOUN_LEAD_RE.match(opening.group("np")):
        return []
    options = clean_options(opening.group("np"))
    return options if len(options) <= 3 else []


_ANY_OBJECT_RE = re.compile(r"^(?:anything|everything|any\s+of\s+it|stuff|things)$", re.I)
_WHEN_OR_WHERE_LEAD_RE = re.compile(
    r"^(?:in|on|at|for|with|during|this|next|every|after|before|over|near)\b", re.I
)
_AND_LEAD_RE = re.compile(r"^(?:and|or|also|plus)\s+", re.I)


def _refused_in_passing(pieces: list[str]) -> list[str]:
    """"We need arm64 too, and macOS runners—strike that, …": a short noun phrase added to a
    list and refused in the very next piece."""
    for k in range(2, len(pieces)):
        if not _BARE_REFUSAL_RE.match(pieces[k].strip()):
            continue
        named = _AND_LEAD_RE.sub("", pieces[k - 1].strip())
        opening = _OPENING_NP_RE.match(named)
        if opening and opening.end() == len(named) and not _PRONOUN_LEAD_RE.match(named):
            return clean_options(named)[:1]
    return []


# (cause before "so", cause in the previous clause, hits, text still to mine)
_ClauseReading = tuple[str, str, list[RawHit], str]


def _sentence_rejections(sentence: Sentence) -> tuple[list[RejectionHit], set[int]]:
    """The rejections in one sentence, and the indices of clauses that only give reasons."""
    per_clause = [_read_clause(sentence, ci) for ci in range(len(sentence.clauses))]
    _add_sentence_forms(sentence, per_clause)
    hits: list[RejectionHit] = []
    reason_clauses: set[int] = set()
    for ci, (cause, lead, raw_hits, kept) in enumerate(per_clause):
        zh = bool(CJK_CHAR_RE.search(sentence.clauses[ci]))
        for option, rest, generic, family in _conditions_applied(sentence, ci, raw_hits, zh):
            one = _ONE_RE.match(option)
            if one:
                # "no dashboards, especially not another paid one": the paid dashboards.
                head = hits[-1].option.split()[-1] if hits else ""
                if head:
                    option = f"{one.group('mod') or ''}{head}"
                elif one.group("mod"):
                    option = one.group("mod").strip()  # "no wifi ones": the wifi kind
                else:
                    continue
            inline = reason_after(rest, zh)
            reason = inline or tidy(cause or lead, 200)
            if inline and zh:
                # "Zabbix 俺瞅着就闹心，那界面跟俺八字不合，拉倒吧": the clauses between a topic
                # and the verdict on it are its reason, none a need of its own.
                ruled = [bool(reading[2]) for reading in per_clause]
                reason_clauses.update(clauses_told_in(sentence.clauses, ruled, ci, rest))
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


def _read_clause(sentence: Sentence, ci: int) -> _ClauseReading:
    """What clause `ci` rejects, with the cause stated before it and the text left to mine."""
    clause = sentence.clauses[ci]
    # "A, so B is off the table": A is the cause of rejecting B (and still a statement of
    # its own); "A — so B is off the table" / "A，所以B不行": the clause before is the cause.
    cause = lead = ""
    parts = SO_SPLIT_RE.split(clause, maxsplit=1)
    if len(parts) == 2 and len(parts[0].split()) >= 2:
        cause, clause = parts[0], parts[1]
    elif ci > 0 and _CONSEQUENCE_RE.match(clause):
        previous = sentence.clauses[ci - 1]
        lead = "" if ALTERNATIVE_RE.search(previous) else previous
    elif (because := _LEADING_CAUSE_RE.match(clause)) and clause_hits(because["rest"]):
        # "Because they're stateful, no Redis, no Memcached": the cause comes first and
        # explains every option rejected after it.
        cause, clause = because["why"], because["rest"]
    raw_hits = clause_hits(clause)
    kept = cause
    if cause and (cause_hits := clause_hits(cause)):
        # "She's not big on clutter, so physical stuff is meh": the cause rejects too, and
        # what follows from it ("so the hotel has to have a lift") is read with it.
        raw_hits = cause_hits + raw_hits
        kept = sentence.clauses[ci]
    bare_not = BARE_NOT_RE.search(clause)
    if raw_hits and bare_not and bare_not.start() > 0:
        kept = clause[: bare_not.start()]  # "Go with Postgres, not Mongo": the choice stays
    return cause, lead, raw_hits, kept


def _add_sentence_forms(sentence: Sentence, per_clause: list[_ClauseReading]) -> None:
    """What only the whole sentence shows: a bare refusal at its end, a Chinese construction
    across clauses, an English topic lead-in judged after it; and a verdict right after a
    rejection, which is its reason."""
    zh = bool(CJK_CHAR_RE.search(sentence.text))
    refused = [] if zh else _bare_refusal(sentence.text)
    if refused and not any(h for _, _, h, _ in per_clause):
        per_clause[0][2].extend((option, "", False, "explicit_refusal") for option in refused)
    across = zh_sentence_verdicts if zh else sentence_verdicts
    for c in across(sentence.text):
        at = next((i for i, cl in enumerate(sentence.clauses) if c.option in cl), None)
        if at is not None and not any(same_option(h[0], c.option) for h in per_clause[at][2]):
            per_clause[at][2].append((c.option, c.rest, False, c.family))
    for ci in range(1, len(per_clause)):
        if per_clause[ci - 1][2] and all(h[3] == "verdict" for h in per_clause[ci][2]):
            # "MongoDB is off the table: multi-document transactions are too fragile": a
            # verdict right after a rejection is its reason.
            per_clause[ci][2].clear()


def _conditions_applied(
    sentence: Sentence, ci: int, raw_hits: list[RawHit], zh: bool
) -> list[RawHit]:
    """The hits of clause `ci` that still stand once the sentence's conditions are read."""
    clause = sentence.clauses[ci]
    if _BARE_NOT_NEEDED_RE.search(clause) and any(
        _ENOUGH_RE.search(c) for c in sentence.clauses[ci + 1 :]
    ):
        # "不需要实时，T+1就够了": a bar lowered (a short quality), no option turned down
        # (but "不需要加图表，纯文字就行" and "不需要营销自动化那一套" do without a thing).
        raw_hits = [h for h in raw_hits if h[3] != "not_needed" or len(h[0]) >= 4]
    if zh and any(is_zh_condition(c) for c in sentence.clauses[:ci]):
        return []  # "预算不够的话，游泳课就算了": turned down only if the condition holds
    return raw_hits


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
    # Before reasons are looked for: "No camping. I did two nights there, never again." — the
    # sentence with a time read as an option is the reason.
    hits = _dedupe_hits([h for h in hits if not names_no_thing(h.option)])
    named = [h for h in hits if not h.generic]
    for hit in hits:
        if not hit.reason and hit.family == "bad_experience":
            # "We tried Kafka and it was a nightmare": what happened is the reason.
            hit.reason = _experience_told(sentences[hit.sentence], hit.clause)
        if not hit.reason:
            hit.reason = _neighbour_reason(sentences, hit.sentence, hits)
    if named:
        # "Let's not use MongoDB ... so a document store is off the table": the category is
        # the reason for the named rejection, not a second option to track. A plain thing
        # refused before it is a rejection of its own ("Not a dog though, we're out all day.
        # I tried knitting and hated it.").
        for generic in [h for h in hits if h.generic]:
            target = min(named, key=lambda h: abs(h.sentence - generic.sentence))
            if target.sentence > generic.sentence:
                continue
            if not target.reason:
                target.reason = generic.reason
            hits.remove(generic)
    return RejectionScan(hits, clauses, reason_clauses)


def _experience_told(sentence: Sentence, clause: int) -> str:
    """The clause that tells a bad experience, as its own reason."""
    told = sentence.clauses[clause] if clause < len(sentence.clauses) else sentence.text
    return tidy(strip_discourse(told).rstrip(" .!。！"), 200)


def _neighbour_reason(sentences: list[Sentence], index: int, hits: list[RejectionHit]) -> str:
    """A rejection without an in-sentence cause usually has it in the sentence before
    ("This is too heavy for five people. Forget microservices.") or right after it."""
    hit_sentences = {h.sentence for h in hits if not h.generic or h.sentence < index}
    for candidate in (index - 1, index + 1):
        if not 0 <= candidate < len(sentences):
            continue
        sentence = sentences[candidate]
        if sentence.question or candidate in hit_sentences:
            continue  # a sentence that rejects something else states its own decision
        body = strip_discourse(sentence.text)
        if ALTERNATIVE_RE.search(body) or choice(body):
            continue  # what to do instead is not why
        if candidate < index and requirement_from_clause(body, strong_only=True, previous=None):
            # "We need 2,000 writes per second. Let us not use MongoDB.": a need stated before
            # is a requirement of its own; a need right after ("No Cassandra. We need joins.")
            # explains the rejection.
            continue
        if candidate > index and (states_a_limit(body) or LEAD_IN_OPENS_RE.match(body)):
            continue  # "…Budget 200 quid.", "To recap for my husband: …": a limit or a recap
        if len(body.split()) >= 3 or CJK_CHAR_RE.search(body):
            return tidy(body, 200)
    return ""


# Verbs that choose what follows them ("let's go with X", "we'll settle on X").
_CHOOSING_VERBS = r"go\s+with|stick\s+with|settle\s+on|opt\s+for"
_CHOICE_RE = re.compile(
    r"^(?P<a>[^,]{1,40}?)\s*,?\s+it\s+is$"
    r"|^(?P<b>.+?)\s+(?:is|are|seems|sounds)\s+(?:definitely\s+)?(?:the\s+way\s+to\s+go|"
    r"the\s+(?:right|best|better)\s+(?:choice|option|call|fit|bet)|(?:good|fine)\s+enough)"
    r"|^(?P<f>.+?)\s+(?:will\s+do|does\s+the\s+job|works\s+for\s+us)"
    # "GoodJob then.", "Seville then": the pick after the options were narrowed.
    r"|^(?P<h>[^,]{1,40}?)\s+then$"
    r"|^(?:(?:let'?s|we(?:'ll|\s+will|\s+should)?|i'd|i\s+would)\s+)?"
    rf"(?:{_CHOOSING_VERBS}|pick|choose|trial)\s+(?P<c>.+)$"
    r"|^(?:we\s+)?(?:chose|picked|decided\s+on|went\s+with|settled\s+on)\s+(?P<d>.+)$"
    # "Going with Metabase Pro", "we're sticking with Postgres": the choice as it is made.
    r"|^(?:(?:we'?re|we\s+are|i'?m|i\s+am)\s+)?(?:going|sticking)\s+with\s+(?P<k>.+)$"
    rf"|^{DECISION_LABEL}\s*[:：]\s*(?P<j>[^,;，；]+?)(?:\s*[,;，；].*)?$"
    # "Let's do Thai", "lets do the 9am one": doing an offered option picks it.
    r"|^let'?s\s+do\s+(?!it\b|this\b|that\b|so\b|some\b|a\b|an\b|more\b|less\b|both\b)(?P<i>.+)$"
    # "主要用微信" / "平时用X" describe a habit, they choose nothing; "她说用不完", "用得上" are a
    # verb and its complement (V不C, V得C), nothing chosen.
    rf"|^(?:我们|咱们|(?!主要|平时|一般|经常|偶尔|通常|常常|每天|只是)[{CJK}]{{1,6}}?)?(?:就|还是|决定|改|那就)?(?:用|选|选用|采用)(?P<e>(?!不[完了起到动上下着惯住]|得)[^，,。]+?)(?:吧|了)?$"
    r"|^(?P<g>.+?)就(?:够了|行了?|可以了?)$",
    re.I,
)


# "Lets go with grafana oncall, I'll set up a trial monday": a clause that opens by choosing,
# whatever follows its comma.
CHOOSING_LEAD_RE = re.compile(
    rf"^(?:let'?s|we(?:'ll|\s+will)?)\s+(?:{_CHOOSING_VERBS}|trial)\b", re.I
)


_CHOICE_DETAIL_RE = re.compile(
    r"\s+(?:and|with|plus|for|on|in|at|from|because|since|so|then|period|thanks|but)\s+", re.I
)
_NOT_A_CHOICE = word_set("here there this that so where what how now which")


_TURNED_DOWN_RE = re.compile(
    r"\b(?:no|not|never|none|nothing)\b|\b(?:is|are|'s|'re)\s+(?:off|out|gone|dead|done)\b", re.I
)
_ONGOING_RE = re.compile(r"已经|正在|在用|一直|already|currently", re.I)


_ZH_CHOICE_VERB_RE = re.compile(r"(?:选用|采用|用|选)$")


def _zh_verb_in_a_word(text: str, object_start: int) -> bool:
    """'人均费用控制在…': the 用 of "choose/use" is part of a word (费用, 用处, 信用卡) when the
    dictionary has it joined to the character before or after; then nothing is chosen."""
    verb = _ZH_CHOICE_VERB_RE.search(text[:object_start])
    if verb is None or len(verb.group()) > 1:
        return False  # 选用 / 采用 are verbs of choosing themselves
    at = verb.start()
    pairs = (text[at - 1 : at + 1] if at else "", text[at : at + 2])
    return any(len(p) == 2 and p not in _CHOOSING_WORDS and english_heads(p) for p in pairs)


# Words the dictionary has that still choose: 改用 (switch to), 就用 (just use).
_CHOOSING_WORDS = frozenset({"改用", "就用", "选用", "采用", "还用"})


def choice(core: str) -> str | None:
    """The option chosen by "X it is" / "X is the way to go" / "let's go with X", or None."""
    if FACT_RE.search(core) and _ONGOING_RE.search(core):
        return None  # "我们已经在用GCP" states what is, it chooses nothing
    m = _CHOICE_RE.match(core.rstrip(".!。！ "))
    if not m or (m.group("e") and _zh_verb_in_a_word(m.string, m.start("e"))):
        return None
    picked = SUBJECT_LEAD_RE.sub("", next(g for g in m.groups() if g)).strip(EDGE_PUNCT)
    if (m.group("c") or m.group("j")) and len(picked.split()) > 5:
        # "let's go with the store brand woven wire and six foot T posts … thanks": the choice
        # is what the verb takes first; what is added to it is detail.
        picked = _CHOICE_DETAIL_RE.split(picked, maxsplit=1)[0].strip(EDGE_PUNCT)
    if _TURNED_DOWN_RE.search(picked):
        return None  # "Pump Room's off then", "no Kafka then": what is dropped, not picked
    bare = strip_option_noise(picked)
    # A label that says it is the decision ("Final answer: …") may name a longer choice.
    longest = 8 if m.group("j") else 5
    if not bare or bare.lower() in _NOT_A_CHOICE or len(picked.split()) > longest:
        return None
    return picked

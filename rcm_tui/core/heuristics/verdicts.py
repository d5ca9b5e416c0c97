"""Verdicts on an option: a noun phrase as subject and a negative evaluation as predicate.

People turn an option down by judging it as often as by refusing it: "Jenkins isn't an
option", "Spanner is overkill for us", "Crypto is not something I want near my savings",
"carbon plates are way too aggressive for a beginner", "the city centre is out — too noisy",
"that's so boring". The rule is one construction over a clause — subject noun phrase, copula
(positive or negated), and a predicate from a small class of evaluations that leave no room
(out, no option, overkill, a pass, not for me, not what I want, too ADJ) — not a list of
sentences. A hedge before the predicate ("X might be too slow", "X is probably overkill")
keeps the option, and so does a subject that is no option (a pronoun with nothing to refer to,
a release: "the new version is out").

A pronoun subject or object ("Codenames we've played to death, I'm over it"; "the registry is
all kitchen stuff and that's so boring") refers to the noun phrase the sentence opened with,
which `antecedent` finds.
"""

from __future__ import annotations

import re

# Verbs of seeming judge like a copula: "gift cards feel lazy", "that sounds tacky".
_COPULA = r"(?:is|are|'s|'re|was|were|s|(?:feels?|seems?|looks?|sounds?)(?:\s+like)?)"
_NEG_COPULA = r"(?:(?:is|are|was|were)(?:n'?t|\s+not)|'s\s+not|'re\s+not|s\s+not)"
_DEGREE = (
    r"(?:(?:just|simply|really|definitely|totally|honestly|kinda|kind\s+of|sort\s+of|pretty|"
    r"way|far|much|also|now|a\s+bit|a\s+little|so|completely|absolutely|clearly|frankly|"
    r"literally|seriously|utterly|still)\s+)*"
)
_PEOPLE = (
    r"(?:me|us|him|her|them|(?:my|our|his|her|their|the)\s+[\w-]+|a\s+[\w-]+(?:\s+like\s+me)?)"
)
# A negated modal of sufficiency judges like a copula and a verdict: "a keyboard won't do",
# "Zapier isn't going to work for us", "Notion doesn't cut it" (a bare "doesn't work" is a fault).
_FAILS = (
    r"(?:(?:won'?t|will\s+not|wouldn'?t|would\s+not)\s+(?:do|work|cut\s+it|fly)|"
    r"(?:isn'?t|is\s+not|aren'?t|are\s+not)\s+going\s+to\s+(?:work|cut\s+it|fly)|"
    r"(?:doesn'?t|does\s+not|don'?t|do\s+not)\s+(?:cut\s+it|work\s+for\s+" + _PEOPLE + r"))"
)
# Predicates after a plain copula: the option has been judged and set aside.
_POSITIVE_VERDICT = (
    r"(?:out|overkill|no\s+good|dead\s+to\s+(?:me|us)|a\s+non[- ]?starter|a\s+no[- ]?go|(?:a\s+)?"
    r"(?:(?:hard|firm|big|definite|clear|flat|total|resounding|straight)\s+)?"
    r"(?:pass|no)(?:\s+(?:for|from)\s+" + _PEOPLE + r")?|meh|boring|tedious|a\s+(?:pain|hassle|"
    r"nightmare|chore|headache|waste\s+of\s+\w+)|(?:useless|pointless|awful|terrible|horrible|"
    r"annoying|unbearable|exhausting|lazy|tacky|cheesy|impersonal|naff|lame|cringe|dated|"
    r"chaotic|insane|ridiculous|absurd|extortionate|a\s+joke|murder|torture|brutal|a\s+killer|"
    r"over-?engineer(?:ing|ed)|overcomplicated|impractical|unrealistic|a\s+hard\s+sell)"
    r"|off(?:\s+the\s+(?:table|list|menu))?|"
    r"(?:my|our|his|her|their)\s+(?:worst\s+)?(?:nightmare|enemy|pet\s+peeve)|the\s+worst|"
    r"too\s+[a-z-]+(?:\s+for\s+" + _PEOPLE + r")?|not\s+for\s+" + _PEOPLE + r")"
)
# Predicates after a negated copula: "isn't an option", "aren't for us", "is not worth it".
_NEGATED_VERDICT = (
    r"(?:(?:an?\s+|the\s+)?(?:real\s+|viable\s+|good\s+)?(?:option|possibility|choice|"
    r"alternative)|for\s+" + _PEOPLE + r"|worth\s+(?:it|the\s+\w+)|happening|on\s+the\s+table|"
    r"(?:really\s+)?(?:practical|realistic|feasible|doable|possible)|"
    r"(?:something|anything|what|a\s+thing)\s+(?:i|we|he|she|they|my\s+\w+|our\s+\w+)\s+"
    r"(?:really\s+)?(?:want|need|like|enjoy|would\s+\w+|'d\s+\w+|(?:am|'m|are|'re|is|'s)\s+"
    r"(?:after|looking\s+for|into|keen\s+on|interested\s+in)|have\s+(?:the\s+)?(?:time|money|"
    r"space|patience|energy|budget)\s+for))"
)
_VERDICT_RE = re.compile(
    r"^(?P<opt>[^,]+?)(?:\s+|(?='))(?:"
    rf"{_COPULA}\s+{_DEGREE}(?P<pos>{_POSITIVE_VERDICT})"
    rf"|{_NEG_COPULA}\s+{_DEGREE}(?P<neg>{_NEGATED_VERDICT})"
    rf"|{_DEGREE}(?P<fail>{_FAILS})"
    # Terse notes drop the copula: "macbook also off the table".
    rf"|{_DEGREE}(?P<bare>off\s+the\s+(?:table|list|menu)|out\s+of\s+the\s+question)"
    r")(?=\s*(?:[,.;!—–-]|$|\s(?:because|since|as|for|so|anyway|either|any\s*more|"
    r"anywhere|near|around|in|at|on|to|with|lol|haha|lmao|tbh|though|too|honestly|right\s+now|"
    # "Spray cans are out given that rule", "out due to the noise", "out again".
    r"given|due|after|now|then|again|period|sadly|unfortunately|obviously)\b))",
    re.I,
)
_HEDGED_RE = re.compile(
    r"\b(?:might|may|could|would|probably|possibly|maybe|perhaps|if|unless|whether|when|"
    r"not\s+sure|i\s+wonder|worried|afraid)\b",
    re.I,
)
# Subjects that are no option: releases and news ("the new version is out"), the weather,
# time, and stock.
_NOT_A_SUBJECT_RE = re.compile(
    r"\b(?:version|release|update|results?|news|report|episode|season|sun|power|stock|"
    r"deadline|time|budget|price|cost|weather|forecast|traffic|rent|everything|nothing|"
    r"something|anything)\b|^(?:the\s+)?(?:new|latest)\b",
    re.I,
)
_ATTRIBUTE_TAIL_RE = re.compile(
    r"(?:'s)?\s+(?:pricing|prices?|costs?|fees?|setup|ui|ux|support|docs|documentation|"
    r"performance|latency|licen[cs]ing|licen[cs]e|config(?:uration)?|learning\s+curve)\b.*$",
    re.I,
)
_CLAUSE_THEN_PRONOUN_RE = re.compile(
    r"\s(?:and|but|so)\s+(?:\w+ly\s+|tbh\s+|now\s+)?(?:it|that|this|they|these|those)$", re.I
)
PRONOUNS = frozenset("it that this they them those these thats its".split())


def verdict(core: str) -> tuple[str, str] | None:
    """(subject, text after the verdict) when the clause judges its subject out of the
    question, else None. The subject may be a pronoun (see `antecedent`)."""
    m = _VERDICT_RE.match(core)
    if not m:
        return None
    subject = re.sub(
        r"^(?:anything|everything|something|stuff|anywhere|any\s+place|somewhere)\s+"
        r"(?:with|that\s+(?:has|uses|needs)|involving)\s+",
        "",
        m.group("opt").strip(),
        flags=re.I,
    )  # "anything with per-core licensing is out": the licensing
    # "Auth0 pricing at 500 connections is insane": what is judged about Auth0 points at it.
    subject = _ATTRIBUTE_TAIL_RE.sub("", subject) or subject
    which = next(g for g in ("pos", "neg", "fail", "bare") if m.group(g))
    pred = m.group(which)
    if which == "fail" and re.match(r"(?:my|our|his|her|their)\b", subject, re.I):
        return None  # "my laptop won't work": a fault described, no option judged
    if re.search(r"\s(?:is|was|'s)$", m.group()[: m.start(which)]):
        # "waste and the coffee is meh": a singular verb judges the last conjunct only.
        subject = re.split(r"\s+and\s+", subject)[-1]
    if _HEDGED_RE.search(subject) or _NOT_A_SUBJECT_RE.search(subject):
        return None
    if _CLAUSE_THEN_PRONOUN_RE.search(subject):
        # "…peeling and yellowed and honestly it looks awful": the subject is the pronoun of
        # a clause of its own; what comes before it belongs to another clause.
        return None
    if len(subject.split()) > 6:
        return None
    if pred.lower().startswith("too") and (
        re.match(r"(?:my|our|his|her|their)\b", subject, re.I)
        or (re.match(r"the\b", subject, re.I) and not re.search(r"[A-Z0-9]", subject[3:]))
    ):
        # "my knees are too weak", "the drive is too long for the kids": a circumstance
        # described, not an option judged ("Carbon plates are too aggressive", "the Kayano is
        # too narrow" are).
        return None
    return subject, core[m.end() :]


_TOPIC_RE = re.compile(
    # "Codenames we've played to death": a fronted object before a pronoun subject.
    r"^(?P<np>(?:[A-Za-z0-9][\w'+.-]*\s+){0,3}?[A-Za-z0-9][\w'+.-]*)\s+"
    r"(?:we|i|he|she|they|my\s+\w+|our\s+\w+)(?:'ve|'d|'re|'m|'s|\s)",
    re.I,
)
_SUBJECT_RE = re.compile(
    r"^(?P<np>(?:[A-Za-z0-9][\w'+.-]*\s+){0,3}?[A-Za-z0-9][\w'+.-]*)\s+(?:just\s+|really\s+|"
    r"always\s+|still\s+)?(?:is|are|was|were|has|have|had|gave|gives|made|makes|kept|keeps|"
    r"eats?|takes?|costs?|needs?|looks?|feels?|seems?|gets?|weighs?|breaks?|uses?|seats|holds|"
    r"fits|sleeps|charges|serves|only\s+\w+s)\b",
    re.I,
)
# "We looked at Mongo but it is overkill", "We used Heroku and it was way too expensive": the
# object of what the speaker did with it, when the first clause has no other subject to offer.
_TRIED_OBJECT_RE = re.compile(
    r"^(?:(?:i|we)\s+)?(?:(?:did|also|already|just|briefly|actually)\s+)?(?:look(?:ed)?\s+at|"
    r"tried|used|checked(?:\s+out)?|considered|had|went\s+with|stayed\s+at|bought|rented|"
    r"booked|visited|tested|priced(?:\s+up)?)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?P<np>(?:[A-Za-z0-9][\w'+.-]*\s+){0,3}?[A-Za-z0-9][\w'+.-]*)"
    r"\s*(?:,\s*)?(?:(?:and|but|so)\b|$)",
    re.I,
)
_NO_ANTECEDENT = frozenset(
    "i we you he she they it this that there here what which who my our the a an so and but "
    "honestly yes no ok okay well don't dont do does did let's lets please use can could would "
    "should will never not we're i'm".split()
)


def antecedent(before: str) -> str:
    """The noun phrase a pronoun later in the sentence refers to: the fronted topic ("X we've
    tried"), else the subject of the first clause ("X is all kitchen stuff"), else ''."""
    text = re.sub(
        r"^(?:(?:and|but|also|oh|ok|okay)\s+)?(?:the|a|an|this|that|these|those)?\s*",
        "",
        before.strip(" ,;"),
        flags=re.I,
    )
    for pattern in (_TRIED_OBJECT_RE, _TOPIC_RE, _SUBJECT_RE):
        m = pattern.match(text)
        if m and m.group("np").split()[0].lower() not in _NO_ANTECEDENT:
            return m.group("np")
    return ""



"""What every rejection construction shares: the Construction a finder returns and whether its
option names a category; for the English forms, who feels it, the option phrase, hedges and
what went wrong."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .text import CJK_CHAR_RE

OPTION_GROUP = r"(?P<opt>(?:[^,.;:!?()—–\n]|\.(?=\S))+)"


@dataclass(frozen=True)
class Construction:
    option: str
    rest: str
    family: str
    hard: bool = False
    allow_gerund: bool = True


# -- who feels it ---------------------------------------------------------------------------

# "my wife said the Mentos thing (is not happening)": the words before what was said.
REPORTED_BY_RE = re.compile(
    r"^.*?\b(?:said|says|thinks|reckons|insists|decided)\s+(?:that\s+)?(?=\S)", re.I
)
# The experiencer must be the speaker or someone they plan for ("my wife", "our CFO", "his
# grandma", "Tom"); "people hate X" or "you hate X" reports no decision.
ADVERBS = (
    r"(?:really|honestly|absolutely|just|kind\s+of|kinda|sort\s+of|totally|genuinely|also|"
    r"both|all|personally|truly|seriously|simply|actually|generally|usually|still|especially|"
    r"particularly|definitely|always|frankly|utterly|completely|pretty\s+much|so|very|much|"
    r"strongly|deeply|literally|specifically|already|certainly|tend\s+to|hate\s+to\s+say\s+it\s+but)"
)
_SUBJECT_END_RE = re.compile(
    r"(?:^|(?<=[\s,]))(?:(?i:i|we|he|she|they|shes|hes|im|theyre|both\s+of\s+us|(?:my|our|his|her|their)"
    r"(?:\s+[\w'-]+){1,2}|the\s+(?:kids?|children|boss|family|client|baby|bride|groom|team|"
    r"whole\s+team|staff|office|group|guests|devs|engineers|household|doctors?|doc|gp|dentist|vet|"
    r"physio|specialist|consultant|surgeon|nurse|dietitian|nutritionist|midwife|landlord)|"
    r"(?:i|we)\s+(?:both|all))|[A-Z][a-z]+)"
    rf"(?:\s+(?i:{ADVERBS}))*\s*$"
)
_NEGATED_BEFORE_RE = re.compile(r"(?:\b(?:not|never|no)\b|n't)\s*(?:\w+\s*){0,1}$", re.I)
HEDGE_RE = re.compile(
    r"\b(?:maybe|perhaps|might|may\s+be|not\s+sure|unsure|i\s+wonder|what\s+if|wondering|"
    r"if|unless|whether|in\s+case|do\s+you|does\s+(?:he|she)|did\s+you|would\s+you|probably|"
    r"once|when|after|until|before|as\s+soon\s+as)\b",
    re.I,
)


def experiencer_before(before: str) -> bool:
    """The text before a predicate ends with a subject we plan for, or with nothing (an
    elliptical "Hate taxis."), and neither negates nor hedges it."""
    tail = before.rstrip()
    if HEDGE_RE.search(tail) or _NEGATED_BEFORE_RE.search(tail):
        return False
    body = re.sub(
        r"^(?:\s*(?:and|but|so|though|,)\s*)+", "", tail.split(",")[-1].strip(), flags=re.I
    )
    if not body:
        return True
    body = re.sub(
        r"^(?:(?:and|but|so|though|although|plus|oh|ah|honestly|frankly)\b[\s,]*)+",
        "",
        body,
        flags=re.I,
    )
    return not body or bool(_SUBJECT_END_RE.search(body))


# -- the option phrase ----------------------------------------------------------------------
# Light verbs in front of the thing itself: "taking the bus" → "bus", "pay for another SaaS
# seat" → "another SaaS seat".
_LIGHT_VERB_RE = re.compile(
    r"^(?:take|taking|took|use|using|have|having|eat|eating|drink|drinking|do|doing|get|getting|"
    r"buy|buying|ride|riding|wear|wearing|watch|watching|visit|visiting|book|booking|hire|"
    r"hiring|pay\s+for|paying\s+for|deal\s+with|dealing\s+with|go\s+(?:to|on|with)|"
    r"going\s+(?:to|on|with)|stay\s+(?:at|in)|staying\s+(?:at|in)|sit\s+(?:in|on)|"
    r"sitting\s+(?:in|on)|cook|cooking|play|playing|rent|renting|order|ordering|maintain|"
    r"maintaining|manage|managing|run|running|support|supporting|host|hosting|patch|patching)\s+"
    r"(?=(?:a|an|the|any|some|another|more|my|our|[A-Z0-9]|\w+s\b))",
    re.I,
)
# Where the option phrase ends beyond the cuts `rejections` already makes: a verb of the
# clause, or a time word ("the Robot Mouse beeping and she'll be …", "Viltrox is fine").
_EXTRA_CUT_RE = re.compile(
    r"\s+(?:is|are|was|were|would|will|can|could|should|works?|sounds?|seems?|looks?|makes?|"
    r"gives?|drives?|feels?|then|after|afterwards|while|before|tonight|today|right\s+now|"
    r"at\s+the\s+moment|currently|for\s+now|"
    r"(?:this|next|last)\s+(?:week|weekend|month|year|time|trip|summer|winter)|"
    r"anymore|any\s+more|ever|though|whatsoever|though|any\s+day|"
    r"\w+ing\s+(?:over|around|about|on|up|down|off|out)|"
    # A relative clause with no "that": "the sugar dusting my neighbour keeps on about", "the
    # tours my friends recommended" — a possessor, a noun and a finite verb.
    r"(?:my|our|his|her|their|your)\s+[a-z]+\s+(?:[a-z]+(?:s|ed)|keep|kept|said|told|bought|got|"
    r"gave|sent|swore|made|went|saw|found|took|thought|put)(?=\s|$))\b|'s\s",
    re.I,
)
_NOT_AN_OPTION_RE = re.compile(
    r"^(?:above|below|over|under|more|less|than|too|that|this|it|them|those|these|much|many|"
    r"list|plan|the\s+list|from|out|in|up|well|late|early|a\s+lot|to|say|tell|go|talk|know|"
    r"bother|wait|rush|decide|think|comment|commit|answer|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|weekends?|weekdays?|mornings?|evenings?|nights?|"
    r"very|so|such|one|him|her|me|us|you|going|being|having|hassle|stress|worry|trouble|"
    r"fuss|risk|pain|problem|care|hands|toll|duty|tax|fee|rent|cost|interest|royalty|error|"
    r"bug|maintenance|clutter|anything|something|everything|nothing|else|"
    r"(?:heavy|expensive|cheap|long|far|big|small|fancy)$)\b",
    re.I,
)


_WHEN_POSSESSIVE_RE = re.compile(
    r"^(?:last|this|next)\s+(?:year|week|month|time|summer|winter|christmas)'s\s+", re.I
)
_ANYTHING_RE = re.compile(
    r"^(?:anything|everything|something|stuff|things)\s+(?:that'?s\s+|that\s+is\s+|with\s+|too\s+)?"
    # "one of those giant lift vans": the kind, not one of it.
    r"|^(?:one|any|some|either|none)\s+of\s+(?:those|these|them|the)\s+",
    re.I,
)


# "but new price is too much": a conjunction that joined the clause is no part of its subject.
_LEAD_CONJUNCTION_RE = re.compile(r"^(?:but|and|also|plus)\s+(?=\S)", re.I)


def option_phrase(raw: str) -> str:
    raw = _LEAD_CONJUNCTION_RE.sub("", raw.strip())
    raw = _WHEN_POSSESSIVE_RE.sub("", raw)  # "last year's food hall": the food hall
    cut = _EXTRA_CUT_RE.search(raw)
    phrase = _ANYTHING_RE.sub("", (raw[: cut.start()] if cut else raw).strip())
    phrase = _LIGHT_VERB_RE.sub("", phrase)
    return phrase


# A phrase that ends in a verb of saying or thinking is the start of a clause ("my fiance
# thinks [they're cheesy]"): what is judged comes after it, the phrase names no option.
_CLAUSE_OPENER_TAIL_RE = re.compile(
    r"\b(?:thinks?|thought|says?|said|feels?|felt|reckons?|believes?|believed|finds?|found|"
    r"knows?|knew|claims?|claimed|insists?|insisted|worries|worried)$",
    re.I,
)


# What an option costs or who judged it is no option: "(the) new price is too much for me"
# judges the thing priced, "不考虑 my partner 就认准…" names who chose.
_ATTRIBUTE_OR_PERSON_RE = re.compile(
    r"^(?:(?:the|its|their|new|full|total|monthly|yearly|annual|ticket|entry)\s+)*"
    r"(?:price|prices|pricing|costs?)$"
    r"|^(?:my|our|his|her|their)\s+(?:partner|wife|husband|mum|mom|mother|dad|father|parents|"
    r"son|daughter|kids?|children|brother|sister|boss|family|fianc[eé]e?|boyfriend|girlfriend)$",
    re.I,
)


def is_option_phrase(phrase: str) -> bool:
    bare = phrase.strip()
    return (
        bool(bare)
        and not _NOT_AN_OPTION_RE.match(bare)
        and not _CLAUSE_OPENER_TAIL_RE.search(bare)
        and not _ATTRIBUTE_OR_PERSON_RE.match(bare)
    )


def first_group(m: re.Match[str]) -> str:
    """The first group a match filled (each form names its option in a group of its own)."""
    return next(g for g in m.groups() if g)


NEGATIVE_EVAL_RE = re.compile(
    r"\b(?:nightmare|disaster|terrible|awful|horrible|horrendous|mess|painful|pain|flaky|"
    r"unreliable|buggy|useless|rubbish|garbage|sucked|broke|broken|failed|crashed|kept\s+\w+ing|"
    r"fell\s+apart|went\s+(?:badly|wrong|bust)|didn'?t\s+work|never\s+worked|stopped\s+\w+ing|"
    r"waste|regret\w*|overpriced|rude|dirty|filthy|scam|ripped|miserable|hated|lost|delayed|"
    r"sick|food\s+poisoning|problems|issues|trouble|slow|bad|"
    # Harm and complaint: what a bad experience does to people and things.
    r"blisters?|hurt|injur\w*|aches?|aching|rash|bruis\w*|itch\w*|leak\w*|crack\w*|peel\w*|"
    r"tore|torn|ripped|overcharg\w*|cancell?ed|late|noisy|damp|mou?ldy?|cockroach\w*|bugs|"
    r"smelly|smelled|stank|complain\w*|headaches?|migraines?|cramps?|nause\w*|vomit\w*|"
    r"threw\s+up|never\s+(?:arrived|showed|answered|replied)|ignored|disappointing|"
    r"disappointed|meh|worst|awkward|embarrassing|exhausting|stressful|chaos|chaotic|hell|"
    r"ridiculous|absurd|clunky|pushy|spammy|unbearable|annoying|gross|bland|soggy|cramped|sketchy|"
    r"timing\s+out|timed\s+out|never\s+again|wobbl\w*|squeak\w*|rust\w*|snapped|jammed|"
    r"stuck|unravel\w*|fell\s+off|came\s+off|scratched|faded|shrank|spook\w*|missed|fined|"
    r"penalt\w*|groggy|drowsy|dizzy|exhausted|anxious|awake)\b",
    re.I,
)


def negative_experience(text: str) -> bool:
    """Does the text tell of something going wrong ("groggy all day", "a nightmare")?"""
    return bool(NEGATIVE_EVAL_RE.search(text))


_ZH_CATEGORY_RE = re.compile(r"(?:类|品牌|的菜|菜|食物|东西|活动|产品|车|课|险|房)$")


def is_category(option: str, family: str) -> bool:
    """A class of things rather than one named option: "flat foods", "used clothing",
    "screens", "合资品牌" — lower-case common nouns, or a Chinese head noun of a kind. Only
    the everyday constructions are judged; the design register names products."""
    if not family:
        return False  # the design register ("let's not use X") names products
    if CJK_CHAR_RE.search(option):
        return bool(_ZH_CATEGORY_RE.search(option))
    return not re.search(r"[A-Z0-9]|[-.+#]\w", option)


# What is replaced or passed over: "switch from X to", "swap X for", "rather Y than X", "prefer
# Y over X", "instead of X".
REPLACE_RE = re.compile(
    r"\bswitch(?:ing|ed)?\s+(?:away\s+)?from\s+(?P<opt>[^,.;]+?)\s+to\b"
    r"|\b(?:replace|replacing|swap(?:ping)?(?:\s+out)?|trade|trading)\s+(?P<opt2>[^,.;]+?)\s+"
    r"(?:with|for)\b"
    r"|\b(?:'d|would|had)\s+(?:much\s+)?(?:rather|sooner)\s+\S.*?\s+than\s+(?P<opt3>[^,.;]+)"
    r"|\bprefer(?:s|red)?\s+(?!to\b|not\b)\S[^,.;]*?\s+(?:over|to)\s+(?!be\b)(?P<opt4>[^,.;]+)"
    # "I'd take a minivan over one of those lift vans any day": the one passed over.
    r"|\b(?:'d|would|'ll|will)\s+(?:take|pick|choose|go\s+for|have)\s+\S[^,.;]*?\s+over\s+"
    r"(?P<opt8>[^,.;]+)"
    r"|\b(?:instead\s+of|rather\s+than)\s+(?P<opt5>[^,.;]+)"
    # "a tool to replace spreadsheets", "moving away from X": what is being replaced.
    r"|\b(?:to\s+replace|replacing|move\s+away\s+from|moving\s+away\s+from)\s+"
    r"(?P<opt6>(?:our\s+|the\s+|my\s+)?[^,.;]+?)(?=\s*(?:[,.;!]|$|\bwith\b|\bby\b))",
    re.I,
)


# -- withdrawals ---------------------------------------------------------------------------
WITHDRAW_RE = re.compile(
    r"^(?:(?:let'?s|we(?:'ll|\s+will|\s+should|\s+can)?|just|please|ok(?:ay)?|so)\s+)*"
    r"(?:cancel|nix|kill|shelve|axe|bin|scratch(?!\s+that\b)|give\s+up\s+on|call\s+off|"
    r"pull\s+the\s+plug\s+on|bail\s+on|forget\s+about|never\s*mind|cross\s+off|"
    r"we'?re\s+dropping|we'?ve\s+dropped)\s+"
    + OPTION_GROUP
    + r"|\b(?:we'?re|we\s+are|i'?m|i\s+am)\s+(?:leaving|ditching|dropping|quitting|scrapping|"
    r"axing|killing(?!\s+it\b)|phasing\s+out|moving\s+(?:off|away\s+from)|getting\s+(?:off|rid\s+of)|migrating\s+off)\s+"
    r"(?P<opt2>[^,.;!?]+)"
    # A habit given up: "I've stopped flying", "we gave up on Airbnb", "I quit sugar" (not
    # "stopped by the shop", "quit my job").
    r"|\b(?:we|i)(?:'ve|\s+have|\s+had|'d)?\s+(?:(?:finally|already|just|completely)\s+)?(?:quit|"
    r"given\s+up(?:\s+on)?|gave\s+up(?:\s+on)?|stopped(?=\s+[a-z]+ing\b))\s+(?!(?:by|at|in|for|on|to|"
    r"off|over|there|here|it|that|this|working|being|trying|asking|thinking|looking|counting|caring|"
    r"my\s+job)\b)(?P<opt3>[^,.;!?]+)"
    # "I'm not cycling anywhere", "we're not camping again": an activity refused for good.
    r"|\b(?:i'?m|i\s+am|we'?re|we\s+are)\s+not\s+(?P<opt4>(?!(?:going|getting|doing|saying|asking|"
    r"trying|looking|waiting|planning|kidding|joking|being|having|coming|leaving|moving|worrying|"
    r"rushing|paying)\b)[a-z]+ing)\s+(?:anywhere|again|anymore|any\s+more|ever\s+again)\b",
    re.I,
)
TAKE_OFF_RE = re.compile(
    r"^(?:(?:let'?s|please|just|we\s+can)\s+)?(?:take|cross|strike|knock)\s+(?P<opt>[^,.;]+?)\s+"
    r"off\s+(?:the\s+|our\s+|my\s+)?(?:list|table|itinerary|plan|menu|schedule|shortlist)\b",
    re.I,
)
# "the dry stuff forget it entirely", "Dry food, skip it": a topic, then dismissed by pronoun.
TOPIC_DISMISSED_RE = re.compile(
    r"^(?!(?:let'?s|we|i|you|they|he|she|please|just|honestly|ok(?:ay)?|so|then|maybe|can|also|and|"
    r"but)\b)(?P<opt>(?:the\s+|that\s+|those\s+)?[\w'-]+(?:\s+[\w'-]+){0,3}?)\s*[,—–-]?\s*(?:so\s+)?"
    r"(?:forget|skip|scrap|ditch|drop|bin|nix)\s+(?:it|them|that|those)\b",
    re.I,
)

"""Rejections as constructions: how people turn an option down in everyday speech.

The design-discussion register ("let's not use X", "X is off the table") is read in
`rejections.py`. People planning trips, meals, gifts or pets say it differently: they state an
aversion ("I hate X", "X isn't really my thing"), exclude ("anything but X", "without X",
"X-free"), say what they do not need ("I don't need X"), what they cannot have ("I'm allergic
to X" — a rejection and a hard requirement), what went wrong before ("we tried X and it was a
nightmare"), what they replace ("Y instead of X", "switch from X to Y"), or withdraw a plan
("scrap the X plan", "no more X"). Each family is a construction over one clause — an
experiencer, a predicate and the phrase that names the option — not a list of sentences, so
"my grandma can't stand X" and "our CFO won't sign off on X" are read by the same rule.

Traps stay silent: hedges ("not sure about X", "X might be too slow"), negated predicates
("I don't mind X", "I'm not against X", "I don't hate X"), conditions ("if you hate X") and
generic subjects ("people hate X").

Each finder returns `Construction`s: the raw option phrase (cleaned later by the caller),
the text after it (where a reason may sit), the family, and whether it is also a hard
requirement (inability).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from .cues import SYSTEM_VERB_RE
from .text import CJK, CJK_CHAR_RE
from .verdicts import PRONOUNS, antecedent, verdict

_OPT = r"(?P<opt>(?:[^,.;:!?()—–\n]|\.(?=\S))+)"


@dataclass(frozen=True)
class Construction:
    option: str
    rest: str
    family: str
    hard: bool = False
    allow_gerund: bool = True


# -- who feels it ---------------------------------------------------------------------------
# The experiencer must be the speaker or someone they plan for ("my wife", "our CFO", "his
# grandma", "Tom"); "people hate X" or "you hate X" reports no decision.
_ADVERBS = (
    r"(?:really|honestly|absolutely|just|kind\s+of|kinda|sort\s+of|totally|genuinely|also|"
    r"both|all|personally|truly|seriously|simply|actually|generally|usually|still|especially|"
    r"particularly|definitely|always|frankly|utterly|completely|pretty\s+much|so|very|much|"
    r"strongly|deeply|literally|specifically|already|certainly|tend\s+to|hate\s+to\s+say\s+it\s+but)"
)
_SUBJECT_END_RE = re.compile(
    r"(?:^|(?<=[\s,]))(?:(?i:i|we|he|she|they|shes|hes|im|theyre|both\s+of\s+us|(?:my|our|his|her|their)"
    r"(?:\s+[\w'-]+){1,2}|the\s+(?:kids?|children|boss|family|client|baby|bride|groom)|"
    r"(?:i|we)\s+(?:both|all))|[A-Z][a-z]+)"
    rf"(?:\s+(?i:{_ADVERBS}))*\s*$"
)
_NEGATED_BEFORE_RE = re.compile(r"(?:\b(?:not|never|no)\b|n't)\s*(?:\w+\s*){0,1}$", re.I)
_HEDGE_RE = re.compile(
    r"\b(?:maybe|perhaps|might|may\s+be|not\s+sure|unsure|i\s+wonder|what\s+if|wondering|"
    r"if|unless|whether|in\s+case|do\s+you|does\s+(?:he|she)|did\s+you|would\s+you|probably|"
    r"once|when|after|until|before|as\s+soon\s+as)\b",
    re.I,
)


def _experiencer_before(before: str) -> bool:
    """The text before a predicate ends with a subject we plan for, or with nothing (an
    elliptical "Hate taxis."), and neither negates nor hedges it."""
    tail = before.rstrip()
    if _HEDGE_RE.search(tail) or _NEGATED_BEFORE_RE.search(tail):
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
    r"anymore|any\s+more|ever|though|whatsoever|though|"
    r"\w+ing\s+(?:over|around|about|on|up|down|off|out))\b|'s\s",
    re.I,
)
_NOT_AN_OPTION_RE = re.compile(
    r"^(?:above|below|over|under|more|less|than|too|that|this|it|them|those|these|much|many|"
    r"list|plan|the\s+list|from|out|in|up|well|late|early|a\s+lot|to|say|tell|go|talk|know|"
    r"bother|wait|rush|decide|think|comment|commit|answer|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|weekends?|weekdays?|mornings?|evenings?|nights?|"
    r"very|so|such|one|him|her|me|us|you|going|being|having|hassle|stress|worry|trouble|"
    r"fuss|risk|pain|problem|care|hands|toll|duty|tax|fee|rent|cost|interest|royalty|error|"
    r"bug|maintenance|clutter|anything|something|everything|nothing|"
    r"(?:heavy|expensive|cheap|long|far|big|small|fancy)$)\b",
    re.I,
)


_WHEN_POSSESSIVE_RE = re.compile(
    r"^(?:last|this|next)\s+(?:year|week|month|time|summer|winter|christmas)'s\s+", re.I
)
_ANYTHING_RE = re.compile(
    r"^(?:anything|everything|something|stuff|things)\s+(?:that'?s\s+|that\s+is\s+|with\s+|too\s+)?",
    re.I,
)


def _phrase(raw: str) -> str:
    raw = _WHEN_POSSESSIVE_RE.sub("", raw.strip())  # "last year's food hall": the food hall
    cut = _EXTRA_CUT_RE.search(raw)
    phrase = _ANYTHING_RE.sub("", (raw[: cut.start()] if cut else raw).strip())
    phrase = _LIGHT_VERB_RE.sub("", phrase)
    return phrase


def _ok(phrase: str) -> bool:
    return bool(phrase.strip()) and not _NOT_AN_OPTION_RE.match(phrase.strip())


# -- English ---------------------------------------------------------------------------------
_AVERSION_VERB = (
    r"(?:hates?|hated|detests?|loathes?|dislikes?|despises?|abhors?|"
    r"(?:can'?t|cannot|couldn'?t)\s+(?:stand|bear|stomach|tolerate|deal\s+with|do)|"
    rf"(?:(?:'m|am|is|'s|are|'re|was|were)\s+(?:{_ADVERBS}\s+)*)?(?:not\s+(?:a\s+(?:big\s+|huge\s+|great\s+)?fan\s+of|"
    r"(?:really\s+|that\s+|too\s+|very\s+)?(?:into|keen\s+on|fond\s+of|big\s+on|crazy\s+about|"
    r"interested\s+in))|no\s+fan\s+of|(?:done|finished|through|fed\s+up)\s+with|"
    r"(?:so\s+|totally\s+|completely\s+|well\s+)?over(?=\s+(?:it|them|that|those|this|[a-z]+s\b))|"
    r"(?:sick|tired|weary)\s+of|(?:scared|afraid|terrified|wary)\s+of)|"
    r"(?:do|does|did)(?:n'?t|\s+not)\s+(?:really\s+|particularly\s+|much\s+|even\s+)?"
    r"(?:like|love|enjoy|fancy|dig|care\s+for|trust|eat|drink|do)|"
    r"(?:wo|would)n'?t\s+(?:touch|eat|drink|go\s+near|go\s+back\s+to|set\s+foot\s+in|"
    r"sign\s+off\s+on|approve|allow|let\s+(?:me|us|him|her|them)\s+(?:have|get|use))|"
    r"will\s+not\s+(?:touch|eat|allow|approve|sign\s+off\s+on)|"
    r"(?:'d|would)\s+(?:rather|prefer\s+to)\s+(?:not\s+(?:have|do|eat|take|go\s+(?:to|with)|"
    r"deal\s+with|get|be\s+(?:on|in))?|avoid|skip|stay\s+away\s+from)|"
    r"(?:'d|would|'ll|will)\s+(?:rather\s+)?(?:skip|pass\s+on|steer\s+clear\s+of)|"
    r"(?:told|advised|asked)\s+(?:me|us|him|her|them)\s+to\s+(?:avoid|stay\s+away\s+from|"
    r"cut\s+out|stop)|(?:said|says)\s+no(?:\s+to)?|(?:can'?t|cannot)\s+accept|"
    r"hard\s+pass\s+on|(?:want|try|prefer|need|have|'d\s+like)\s+to\s+(?:avoid|stay\s+away\s+from|"
    r"steer\s+clear\s+of|cut\s+out|keep\s+away\s+from)|"
    r"(?:'m|am|are|'re)\s+(?:keeping|staying)\s+(?:\w+\s+)?(?:off|away\s+from)|"
    r"avoids?|refuses?\s+to\s+(?:eat|take|wear|go\s+to|fly\s+with|pay\s+for|buy)|"
    r"never\s+(?:eat|eats|drink|drinks|fly|flies|wear|wears|buy|buys)|"
    r"(?:'m|am|'re|are)\s+not\s+(?:touching|doing|eating|buying|paying\s+for|going\s+back\s+to)|"
    r"(?:forbids?|bans?|banned|vetoe[sd]|vetoes)|(?:doesn'?t|does\s+not|won'?t|will\s+not)\s+"
    r"(?:allow|permit)|(?:has|have)\s+(?:had\s+)?enough\s+of|"
    r"(?:has|have)\s+no\s+(?:interest|desire|patience)\s+(?:in|for)|finds?\s+(?=\S+(?:\s+\S+)?\s+"
    r"(?:boring|annoying|mind-numbing|tedious|unbearable|awful|horrible)))"
)
_AVERSION_RE = re.compile(rf"\b{_AVERSION_VERB}\s+(?:any\s+|all\s+)?{_OPT}", re.I)
# "We're not really museum people", "I'm not much of a beach person": a kind of thing the
# speaker is not.
_NOT_A_PERSON_RE = re.compile(
    r"\b(?:i'?m|i\s+am|we'?re|we\s+are|he'?s|she'?s|they'?re|he\s+is|she\s+is|they\s+are)\s+"
    r"(?:not|never)\s+(?:really\s+|much\s+of\s+|exactly\s+|big\s+)?(?:an?\s+)?"
    r"(?P<opt>(?!(?:a|an|the|much|big)\b)[\w-]+(?:\s+[\w-]+)?)\s+"
    r"(?:people|person|fans?|types?|lovers?|guys?|girls?|folks)\b(?!\s+of\b)",
    re.I,
)
_HATE_TO_RE = re.compile(r"^(?:to\s+\w+|it\s+when)\b", re.I)  # "hate to say", "hate it when"

_NOT_MY_THING_RE = re.compile(
    r"^(?P<opt>.+?)\s+(?:is|are|'s|'re|was|were)(?:n'?t|\s+not)\s+(?:really\s+|exactly\s+|quite\s+"
    r"|just\s+)?(?:(?:my|our|his|her|their)\s+(?:thing|cup\s+of\s+tea|style|scene|jam|taste|"
    r"vibe|kind\s+of\s+thing)|for\s+(?:me|us|him|her|them|(?:my|our)\s+\w+))\b"
    r"|^(?P<opt2>.+?)\s+(?:does|do)(?:n'?t|\s+not)\s+(?:really\s+)?(?:appeal\s+to|agree\s+with|"
    r"suit|work\s+for)\s+(?:me|us|him|her|them)\b"
    r"|^(?P<opt3>.+?)\s+(?:makes?|made|gives?|gave)\s+(?:me|us|him|her|them)\s+(?:\w+\s+)?"
    r"(?:sick|ill|nauseous|carsick|seasick|anxious|nervous|uncomfortable|queasy|headaches?|"
    r"migraines?|the\s+creeps|hives|a\s+rash)\b"
    r"|^(?P<opt6>.+?)\s+(?:is|are|'s|'re)\s+(?:way\s+|far\s+|just\s+|much\s+|a\s+bit\s+|"
    r"simply\s+)?too\s+[a-z]+\s+for\s+(?:me|us|him|her|them|my\s+\w+|our\s+\w+)\b"
    r"|^(?P<opt7>.+?)\s+(?:is|are|'s|'re)\s+(?:not\s+happening|off[- ]limits|a\s+hard\s+pass|"
    r"a\s+no\s+from\s+(?:me|us))\b"
    r"|^(?P<opt8>.+?)\s+(?:let|lets)\s+(?:us|me)\s+down\b"
    r"|^(?P<opt9>.+?)\s+(?:won'?t|will\s+not)\s+be\s+(?:necessary|needed)\b"
    r"|^(?P<opt4>.+?)\s+(?:drives?|drove)\s+(?:me|us|him|her|them)\s+(?:crazy|nuts|mad|"
    r"up\s+the\s+wall)"
    r"|^(?P<opt5>.+?)\s+(?:is|are|'s|'re)\s+(?:a\s+)?(?:total\s+|hard\s+|big\s+)?(?:no\s+for\s+"
    r"(?:me|us)|hard\s+no|turn[- ]off)\b",
    re.I,
)
# "balloons are out", "RabbitMQ is out too, because …": a plural or a name, not "the report".
_IS_OUT_RE = re.compile(
    r"^(?P<opt>[^,]+?)\s+(?:is|are|'s|'re)\s+(?:now\s+|also\s+|definitely\s+)?(?:out|off)"
    r"(?:\s+(?:too|as\s+well|for\s+(?:me|us)))?(?=\s*(?:[,.;!—–]|$|because\b|since\b|as\b))",
    re.I,
)
_ANY_BUT_RE = re.compile(
    r"\b(?:anything|any\s+[\w-]+(?:\s+[\w-]+)?|everything|all|whatever|whichever|everywhere|"
    r"anywhere|anyone|anybody)\s+(?:but|except(?:\s+for)?|other\s+than|besides|apart\s+from|"
    rf"aside\s+from|save\s+for)\s+{_OPT}",
    re.I,
)
# "Other than X, anything works": the exclusion first, the universal after it.
_OTHER_THAN_FIRST_RE = re.compile(
    r"^(?:other\s+than|except(?:\s+for)?|apart\s+from|aside\s+from|besides)\s+(?P<opt>[^,]+?)\s*,"
    r"\s*(?:anything|everything|any\s+\w+|all|whatever|we'?re\s+(?:fine|open|easy)|"
    r"i'?m\s+(?:fine|open|easy))\b"
    r"|\bas\s+long\s+as\s+(?:it'?s|it\s+is|they'?re|they\s+are|there'?s|there\s+is)\s+(?:not|no)\s+"
    r"(?P<opt2>[^,.;!?]+)"
    r"|\b(?:in\s+place\s+of|free\s+of|free\s+from|zero)\s+(?P<opt3>[^,.;!?]+)",
    re.I,
)
_EXCEPT_RE = re.compile(rf"(?:^|[\s,])(?:except(?:\s+for)?|excluding|minus)\s+{_OPT}", re.I)
_ADDITIVE_RE = re.compile(r"\b(?:also|too|as\s+well|additionally)\b", re.I)
_WITHOUT_RE = re.compile(rf"\bwithout\s+(?:any\s+)?{_OPT}", re.I)
_WORKS_WITHOUT_RE = re.compile(
    r"\b(?:work|works|working|run|runs|running|function|operate|start|load|cope|"
    r"handle)\s+(?:\w+\s+)?without\s*$",
    re.I,
)
_DESCRIBES_RE = re.compile(
    r"\b(?:live|lives|living|lived|have|has|had|own|owns|rent|rents|is|are|was|were|'s|'re)\b",
    re.I,
)
_MODAL_RE = re.compile(r"\b(?:must|should|shall|ha(?:s|ve)\s+to|needs?\s+to|required?)\b", re.I)
_FREE_RE = re.compile(r"\b(?P<opt>[A-Za-z][\w]*(?:\s+[a-z]+)?)-free\b", re.I)
_REQUEST_RE = re.compile(
    r"\b(?:want|like|need|needs|must|should|has\s+to|have\s+to|prefer|looking\s+for|only|"
    r"keep|make|ideally|something|anything)\b|^(?!.*\b(?:is|are|was|were|'s)\b)",
    re.I,
)
_NOTHING_RE = re.compile(
    r"\bnothing\s+(?:(?:with|containing|involving|on|in|from|via|made\s+(?:from|of|with)|that\s+(?:has|have|"
    r"involves?|contains?|uses?|needs?|requires?))\s+" + _OPT + r"|(?:too\s+)?(?P<adj>[a-z]+)"
    r"(?=\s*(?:please|at\s+all|whatsoever|[,.;!]|$)|\s+(?:for|in|on|at|as|please)\b))",
    re.I,
)
_NO_GERUND_TO_RE = re.compile(
    r"\bno\s+\w+ing(?:\s+(?:out|in|up|over|back))?\s+(?:to|on|with|from|into|through|via)\s+"
    + _OPT,
    re.I,
)
_NO_MORE_RE = re.compile(rf"\bno\s+more\s+(?!than\b){_OPT}", re.I)
_WITH_NO_RE = re.compile(rf"(?:\b(?:with|has|have|having)|,)\s+(?:and\s+|but\s+)?no\s+{_OPT}", re.I)
# "with no weight limit" asks for the absence of a restriction: a requirement, not an option.
_RESTRICTION_RE = re.compile(
    r"\b(?:limits?|restrictions?|fees?|charges?|caps?|minimums?|deposits?|penalt(?:y|ies)|"
    r"surcharges?|deadlines?|commitment|contract)$",
    re.I,
)

_NOT_NEEDED_RE = re.compile(
    r"\b(?:do|does|did|wo|will)(?:n'?t|\s+not)\s+(?:really\s+|even\s+|actually\s+|necessarily\s+)?"
    r"(?:need|require)\s+(?:to\s+(?:have|use|buy|get|book|rent|hire|take|bring|pay\s+for|add|"
    rf"include|go\s+to|see)\s+)?(?:any\s+)?{_OPT}",
    re.I,
)
# "I don't need it furnished": the state the speaker does without.
_NOT_NEEDED_STATE_RE = re.compile(
    r"\b(?:do|does|did)(?:n'?t|\s+not)\s+(?:really\s+)?(?:need|want|require)\s+(?:it|them|the\s+"
    r"[\w-]+)\s+(?P<opt>(?:fully\s+|pre-?)?[a-z]+ed)\b",
    re.I,
)
_NO_NEED_RE = re.compile(
    r"\bno\s+need\s+(?:for|of|to\s+(?:have|use|buy|get|book|rent|hire|take|bring|add|include)"
    rf")\s+(?:any\s+)?{_OPT}",
    re.I,
)
_SKIP_RE = re.compile(
    r"^(?:(?:let'?s|we\s+can|you\s+can|just|please|feel\s+free\s+to)\s+)?(?:skip|omit|"
    rf"leave\s+out|cut\s+out){{1}}\s+{_OPT}"
    rf"|^(?:let'?s\s+|just\s+|please\s+)?leave\s+(?P<opt2>[^,.;]+?)\s+out\b",
    re.I,
)
_NEEDLESS_RE = re.compile(
    r"^(?P<opt>[^,]+?)\s+(?:is|are)(?:n'?t|\s+not)\s+(?:really\s+)?(?:needed|necessary|required|"
    r"a\s+must)\b|^(?P<opt2>[^,]+?)\s+(?:is|are)\s+unnecessary\b",
    re.I,
)

_INABILITY_RE = re.compile(
    r"\b(?:allergic|intolerant|sensitive|hypersensitive)\s+to\s+(?:any\s+)?"
    + _OPT
    + r"|\b(?:can'?t|cannot|can\s+not|couldn'?t|(?:am|is|are|'m|'s|'re)\s+(?:not\s+able|unable)\s+"
    r"to)\s+(?:eat|have|drink|take|afford|tolerate|digest|wear|carry|climb|lift|ride|handle|"
    r"manage|cope\s+with|(?:run|walk|sleep|sit)\s+on|be\s+around)\s+(?:any\s+)?"
    r"(?:(?:lots|a\s+lot|loads|plenty)\s+of\s+|(?:many|much|long|steep)\s+)?"
    r"(?P<opt2>(?:[^,.;:!?()—–\n])+)",
    re.I,
)
_ALLERGY_NOUN_RE = re.compile(
    r"\b(?P<opt>[a-z][\w-]*)\s+(?:allergy|allergies|intolerance)\b"
    r"|\b(?P<opt2>[a-z][\w-]*)[- ]intolerant\b",
    re.I,
)
_ALLERGY_NOT_OPTION = frozenset(
    "food any no severe mild bad serious some seasonal known an a the her his my their our "
    "bad terrible".split()
)

_NEGATIVE_EVAL_RE = re.compile(
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
    r"timing\s+out|timed\s+out|never\s+again|wobbl\w*|squeak\w*|rust\w*|snapped|jammed|"
    r"stuck|unravel\w*|fell\s+off|came\s+off|scratched|faded|shrank|spook\w*|missed|fined|"
    r"penalt\w*|groggy|drowsy|dizzy|exhausted|anxious|awake)\b",
    re.I,
)
def negative_experience(text: str) -> bool:
    """Does the text tell of something going wrong ("groggy all day", "a nightmare")?"""
    return bool(_NEGATIVE_EVAL_RE.search(text))


_TRIED_RE = re.compile(
    r"\b(?:tried|trialled|trialed|tested|piloted|used|had|went\s+with|stayed\s+(?:at|in)|ate\s+at|"
    r"took|bought|ordered|booked|rented|hired|visited|ran|did|signed\s+up\s+for)\s+(?P<opt>[^,.;!?]+?)\s*(?:once|before|last\s+\w+|"
    r"previously|in\s+the\s+past|a\s+while\s+ago|years\s+ago)?\s*,?\s*(?:and|but)?\s*"
    r"(?<![A-Za-z])(?:it|they|that|this|he|she|which|the\s+\w+|its\s+\w+|their\s+\w+)\b"
    r"(?P<eval>[^.;!?]*)",
    re.I,
)
_BURNED_RE = re.compile(
    r"\b(?:burn(?:ed|t)|bitten|stung|let\s+down)\s+(?:by|with)\s+"
    + _OPT
    + r"|\b(?:bad|terrible|awful|horrible|poor|negative|rough|painful|nightmare|horrendous|"
    r"miserable)\s+(?:experiences?|time|times|luck)\s+with\s+(?P<opt2>(?:[^,.;:!?()—–\n])+)"
    + r"|\bnever\s+again\s+(?:with\s+)?(?P<opt3>[A-Z](?:[^,.;:!?()—–\n])+)",
)
# "The last local firm I used missed a deadline": the option, then the speaker's experience.
_LAST_USED_RE = re.compile(
    r"^(?:the|my|our)\s+(?:last|previous|old|former)\s+(?P<opt>[\w' -]+?)\s+(?:i|we)\s+"
    r"(?:used|had|hired|tried|booked|went\s+with|bought|stayed\s+(?:at|in))\b(?P<eval>.*)$",
    re.I,
)
_WAS_BAD_RE = re.compile(
    r"^(?P<opt>(?!(?:it|they|that|this|he|she|their|its|his|her|my|our)\b)"
    r"(?:(?!\b(?:and|but|we|i|it|they|he|she)\b)[^,]){1,40}?)\s+(?:was|were|has\s+been|have\s+been|turned\s+out\s+to\s+be)\s+(?:a\s+|an\s+)?"
    r"(?:total\s+|complete\s+|absolute\s+|real\s+|such\s+a\s+)?(?:nightmare|disaster|mess|chaos|"
    r"a\s+shambles|a\s+letdown|a\s+flop|a\s+fiasco|a\s+rip-?off|"
    r"terrible|awful|horrible|horrendous|useless|a\s+waste|scam|rubbish)\b",
    re.I,
)

_REPLACE_RE = re.compile(
    r"\bswitch(?:ing|ed)?\s+(?:away\s+)?from\s+(?P<opt>[^,.;]+?)\s+to\b"
    r"|\b(?:replace|replacing|swap(?:ping)?(?:\s+out)?|trade|trading)\s+(?P<opt2>[^,.;]+?)\s+"
    r"(?:with|for)\b"
    r"|\b(?:'d|would|had)\s+(?:much\s+)?rather\s+\S.*?\s+than\s+(?P<opt3>[^,.;]+)"
    r"|\bprefer(?:s|red)?\s+(?!to\b|not\b)\S[^,.;]*?\s+(?:over|to)\s+(?P<opt4>[^,.;]+)"
    r"|\b(?:instead\s+of|rather\s+than)\s+(?P<opt5>[^,.;]+)"
    # "a tool to replace spreadsheets", "moving away from X": what is being replaced.
    r"|\b(?:to\s+replace|replacing|move\s+away\s+from|moving\s+away\s+from)\s+"
    r"(?P<opt6>(?:our\s+|the\s+|my\s+)?[^,.;]+?)(?=\s*(?:[,.;!]|$|\bwith\b|\bby\b))",
    re.I,
)
# "a summary instead of code": a wish about the reply, not an option turned down.
_ABOUT_OUTPUT_RE = re.compile(
    r"\b(?:summary|explanation|answer|text|words|reply|list|table|example|bullets?|prose|"
    r"code|detail|details|paragraph|essay|overview)\s*$",
    re.I,
)

_WITHDRAW_RE = re.compile(
    r"^(?:(?:let'?s|we(?:'ll|\s+will|\s+should|\s+can)?|just|please|ok(?:ay)?|so)\s+)*"
    r"(?:cancel|nix|kill|shelve|axe|bin|scratch(?!\s+that\b)|give\s+up\s+on|call\s+off|"
    r"pull\s+the\s+plug\s+on|bail\s+on|forget\s+about|never\s*mind|cross\s+off|"
    r"we'?re\s+dropping|we'?ve\s+dropped)\s+" + _OPT
    + r"|\b(?:we'?re|we\s+are|i'?m|i\s+am)\s+(?:leaving|ditching|dropping|quitting|"
    r"phasing\s+out|moving\s+(?:off|away\s+from)|getting\s+(?:off|rid\s+of)|migrating\s+off)\s+"
    r"(?P<opt2>[^,.;!?]+)",
    re.I,
)


class _Found(list[Construction]):
    """Constructions found in one clause; `add` cleans the phrase and drops non-options."""

    def add(
        self, raw: str, rest: str, family: str, *, hard: bool = False, gerund: bool = True
    ) -> None:
        phrase = _phrase(raw)
        if family == "category" and _RESTRICTION_RE.search(phrase):
            return
        if _ok(phrase):
            self.append(Construction(phrase, rest, family, hard, gerund))


def _first(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g)


# Words one of which every aversion predicate holds: a clause without any is not read by the
# (long) aversion pattern at all, which keeps the analyser within its time budget.
_AVERSION_WORDS = frozenset(
    """pass told advised asked said says accept hard hate hates hated detest detests loathe
    loathes dislike dislikes despise despises abhor abhors stand bear stomach tolerate fan
    into keen fond big crazy interested done finished through fed sick tired weary scared
    afraid terrified wary over like love enjoy fancy dig care trust eat drink touch near
    back foot sign approve allow let rather prefer avoid avoids skip away clear cut keeping
    staying refuse refuses never touching doing eating buying paying going forbid forbids
    ban bans banned vetoed vetoes veto permit enough interest desire patience find finds do
    does did""".split()
)
_WORD_RE = re.compile(r"[a-z]+")


def _aversions(core: str, found: _Found) -> None:
    words = set(_WORD_RE.findall(core.lower()))
    for m in _AVERSION_RE.finditer(core) if words & _AVERSION_WORDS else ():
        if _HATE_TO_RE.match(m.group("opt")) or not _experiencer_before(core[: m.start()]):
            continue
        # "avoid blocking the event loop" is a requirement on behaviour, not an option.
        avoid = "avoid" in core[m.start() : m.start("opt")].lower()
        option = _resolve(m.group("opt"), core[: m.start()])
        found.add(option, core[m.end() :], "aversion", gerund=not avoid)
    for m in _NOT_A_PERSON_RE.finditer(core):
        found.add(m.group("opt"), core[m.end() :], "aversion")
    thing = None if found else _NOT_MY_THING_RE.match(core)
    if thing:
        found.add(_first(thing).split(",")[-1], core[thing.end() :], "aversion")
    out = _IS_OUT_RE.match(core)
    if out and not _HEDGE_RE.search(out.group("opt")):
        subject = out.group("opt").split(",")[-1].strip()
        named = bool(re.search(r"[A-Z0-9]", subject)) and not subject.lower().startswith("the ")
        if named or re.search(r"[a-z]s$", subject):
            found.add(subject, core[out.end() :], "withdrawal")


_LEAD_ADVERB_RE = re.compile(
    r"(?:(?:honestly|frankly|really|actually|also|just|tbh|though)\s+)*", re.I
)
_CONJUNCT_RE = re.compile(r"\s*(?:,\s*(?:and|but|so)?|\s(?:and|but|so))\s+", re.I)


def _resolve(phrase: str, before: str) -> str:
    """A pronoun object or subject ("I'm over it", "that's so boring") read as the noun
    phrase the sentence opened with; any other phrase as it is."""
    words = phrase.strip().split()
    if words and words[0].lower().strip(".,!") in PRONOUNS and len(words) <= 2:
        return antecedent(before) or phrase
    return phrase


def _verdicts(core: str, found: _Found) -> None:
    """ "Jenkins isn't an option", "Spanner is overkill for us", "… and that's so boring":
    a verdict on the subject of the clause or of a conjunct after "and"/"but"/a comma."""
    starts = [0] + [m.end() for m in _CONJUNCT_RE.finditer(core)]
    for start in starts:
        lead = _LEAD_ADVERB_RE.match(core, start)
        start = lead.end() if lead else start
        judged = verdict(core[start:])
        if judged:
            subject, rest = judged
            found.add(_resolve(subject, core[:start]), rest, "verdict")
            return


def _exclusions(core: str, found: _Found) -> None:
    for m in _ANY_BUT_RE.finditer(core):
        found.add(m.group("opt"), core[m.end() :], "exclusion")
    for m in _OTHER_THAN_FIRST_RE.finditer(core):
        found.add(_first(m), core[m.end() :], "exclusion", gerund=False)
    if not found and not _ADDITIVE_RE.search(core):
        for m in _EXCEPT_RE.finditer(core):
            found.add(m.group("opt"), core[m.end() :], "exclusion")
    # "Reject requests without a token", "it must work without X": a rule on behaviour.
    low = core.lower()
    rule = "without" not in low or SYSTEM_VERB_RE.match(core) or _MODAL_RE.search(core)
    for m in [] if rule else _WITHOUT_RE.finditer(core):
        if _DESCRIBES_RE.search(core[: m.start()]):
            continue  # "we live in a flat without a lift" describes what is, it refuses nothing
        if not _WORKS_WITHOUT_RE.search(core[: m.end() - len(m.group("opt"))]):
            found.add(m.group("opt"), core[m.end() :], "exclusion", gerund=False)
    if "free" in low and _REQUEST_RE.search(core):
        for m in _FREE_RE.finditer(core):
            found.add(m.group("opt"), "", "exclusion")
    for pattern in (_NOTHING_RE, _NO_GERUND_TO_RE, _NO_MORE_RE, _WITH_NO_RE):
        if not re.search(r"\bno(?:thing)?\b", low):
            break
        for m in pattern.finditer(core):
            if not _HEDGE_RE.search(core[: m.start()]):
                gerund = pattern is _NO_GERUND_TO_RE
                found.add(_first(m), core[m.end() :], "category", gerund=gerund)


def _cut_at_punct(phrase: str) -> str:
    return re.split(r"[,.;!?]", phrase, maxsplit=1)[0].strip()


def _needs_and_abilities(core: str, found: _Found) -> None:
    for m in _NOT_NEEDED_RE.finditer(core):
        before = core[: m.start()]
        if _ABOUT_OUTPUT_RE.search(_cut_at_punct(m.group("opt"))):
            continue  # "I don't need a detailed answer": a wish about the reply
        if _experiencer_before(before) and not re.search(r"\byou\s*$", before, re.I):
            found.add(m.group("opt"), core[m.end() :], "not_needed")
    for pattern in (_NO_NEED_RE, _SKIP_RE, _NEEDLESS_RE, _NOT_NEEDED_STATE_RE):
        needless = pattern.search(core)
        if needless:
            # "Cloudflare — legal raised concerns, so skip it": the topic it stands for.
            option = _resolve(_first(needless), core[: needless.start()])
            found.add(option, core[needless.end() :], "not_needed")
    for m in _INABILITY_RE.finditer(core):
        if _experiencer_before(core[: m.start()]) or m.group("opt"):
            found.add(_first(m), core[m.end() :], "inability", hard=True)
    for m in _ALLERGY_NOUN_RE.finditer(core):
        if _first(m).lower() not in _ALLERGY_NOT_OPTION:
            found.add(_first(m), core[m.end() :], "inability", hard=True)


def _experiences_and_changes(core: str, found: _Found) -> None:
    for m in _TRIED_RE.finditer(core):
        if _NEGATIVE_EVAL_RE.search(m.group("eval")) and not _HEDGE_RE.search(core[: m.start()]):
            found.add(m.group("opt"), m.group("eval"), "bad_experience")
    for m in _BURNED_RE.finditer(core):
        found.add(_first(m), core[m.end() :], "bad_experience")
    last = _LAST_USED_RE.match(core)
    if last and _NEGATIVE_EVAL_RE.search(last.group("eval")):
        found.add(last.group("opt"), last.group("eval"), "bad_experience")
    bad = _WAS_BAD_RE.match(core)
    if bad:
        found.add(bad.group("opt"), core[bad.end() :], "bad_experience")
    for m in _REPLACE_RE.finditer(core):
        if m.group("opt5") and _ABOUT_OUTPUT_RE.search(core[: m.start()]):
            continue
        found.add(_first(m), core[m.end() :], "replacement", gerund=False)
    off = _TAKE_OFF_RE.match(core)
    if off:
        found.add(off.group("opt"), core[off.end() :], "withdrawal")
    for withdrawn in _WITHDRAW_RE.finditer(core):
        if withdrawn.group("opt") and withdrawn.start() > 0:
            continue  # the imperative forms only open a clause
        found.add(_first(withdrawn), core[withdrawn.end() :], "withdrawal")


_TAKE_OFF_RE = re.compile(
    r"^(?:(?:let'?s|please|just|we\s+can)\s+)?(?:take|cross|strike|knock)\s+(?P<opt>[^,.;]+?)\s+"
    r"off\s+(?:the\s+|our\s+|my\s+)?(?:list|table|itinerary|plan|menu|schedule|shortlist)\b",
    re.I,
)


def _english(core: str) -> list[Construction]:
    found = _Found()
    _aversions(core, found)
    _exclusions(core, found)
    _needs_and_abilities(core, found)
    _experiences_and_changes(core, found)
    if not found:
        _verdicts(core, found)
    for c in list(found):
        more = _ESPECIALLY_RE.match(c.rest)
        if more:
            found.add(more.group("opt"), c.rest[more.end() :], c.family, hard=c.hard)
    return list(found)


# "I don't need a car, particularly an SUV": the rejection extends to what follows.
_ESPECIALLY_RE = re.compile(
    r"^[^,]{0,40}?,?\s*(?:and\s+)?(?:particularly|especially|let\s+alone|least\s+of\s+all|"
    rf"(?:and\s+)?(?:definitely|certainly)\s+not|not\s+even)\s+{_OPT}",
    re.I,
)


# -- Chinese ---------------------------------------------------------------------------------
_ZH_NAME = r"[A-Za-z0-9][A-Za-z0-9_.+#/-]*"
_ZH_O = rf"(?P<opt>{_ZH_NAME}(?:\s{_ZH_NAME}){{0,2}}[{CJK}]{{0,4}}?|[{CJK}]{{1,10}}?)"
_ZH_END = r"(?=[了吧呢啊嘛，,。.！!？?；;、：:\s也又还都就]|因为|由于|所以|太|$)"
_ZH_VERBS = r"(?:用|使用|吃|喝|坐|去|住|买|选|订|报|带|看|穿|养|开|玩|考虑|碰)"
_ZH_AVERSION_RE = re.compile(
    rf"(?<!不)(?:讨厌|不喜欢|不太喜欢|不怎么喜欢|不爱|受不了|忍受不了|反感|烦|不想|不愿意|"
    rf"不让|不允许|禁止|不能接受|接受不了|没法接受|受够了|戒了|戒掉|不打算|没打算|拒绝|"
    rf"(?:别|不要)(?!的)(?:再|也)?(?:给|帮|跟|替)?(?:我们?|咱们|他们?|她)?(?:推荐|安排|介绍))"
    rf"{_ZH_VERBS}?{_ZH_O}{_ZH_END}"
)
# "我不吃辣", "他不喝酒": a standing dietary rule (a single character is a whole option here).
_ZH_DIET_RE = re.compile(
    rf"(?<![要吃])不(?:吃|喝)(?P<opt>[{CJK}]{{1,6}}?)(?=[了的，,。.！!；;]|$)"
)
_ZH_NOT_INTERESTED_RE = re.compile(rf"对{_ZH_O}(?:不感兴趣|没(?:有)?兴趣|没好感|不感冒)")
_ZH_ALLERGY_RE = re.compile(rf"对{_ZH_O}过敏|(?P<opt2>(?:(?!对)[{CJK}]){{1,6}}?)(?:过敏|不耐受)")
_ZH_CANNOT_RE = re.compile(
    rf"(?:不能|不可以|没法|无法)(?:吃|喝|碰|有|用|坐|买)(?:任何)?{_ZH_O}{_ZH_END}"
    rf"|(?:吃|喝|用)不了{_ZH_O.replace('opt', 'opt3')}{_ZH_END}"
)
_ZH_CANNOT_SUFFIX_RE = re.compile(
    rf"(?P<opt>{_ZH_NAME}|[{CJK}]{{1,8}}?)的?(?:一律|都|也|绝对|完全)?(?:不能|没法|不可以)"
    r"(?:吃|喝|碰|买|用)"
)
# The option first, as the topic, and a negative comment on it: "线上课我们不想报", "牛肉我也想
# 避开", "宋城那种大型演出他们实在喜欢不起来", "爬山就免了吧". Topic, an optional experiencer
# (the speaker or someone planned for), adverbs of degree or scope, then one predicate of the
# class "turned down", at the end of the clause (sentence-final particles allowed).
_ZH_EXPERIENCER = (
    r"(?:我们?|咱们|他们?|她们?|我(?:爸|妈|老婆|老公|家|女儿|儿子)|爸妈|父母|家里人?|孩子|老人|"
    r"老板|领导|客户|女朋友|男朋友|对象)"
)
_ZH_ADVERB = (
    r"(?:其实|真的|实在|确实|完全|根本|一点也|一点都|也|都|就|还是|倒是|是|向来|从来|一直|再也|坚决|"
    r"绝对|肯定|打死也|死活|先|暂时|暂且|就先)"
)
_ZH_TURNED_DOWN = (
    r"(?:不(?:太|怎么|大|是很)?(?:想|愿意|喜欢)(?:用|去|要|买|选|看|吃|住|坐|报|玩|穿)?|"
    r"不(?:去|用|要|买|选|看|吃|住|坐|报|玩|穿|喝|放心)|(?:看|吃|玩|用|听|住)?腻了|"
    r"喜欢不起来|提不起兴趣|没兴趣|不感兴趣|不考虑|"
    r"想避开|要避开|避开|不感冒|吃不惯|用不惯|住不惯|看不惯|玩不来|吃腻了|腻了|受够了|接受不了|"
    r"受不了|不在考虑范围内?|不在考虑之内|不予考虑|一律不要|没必要|用不上|不太合适|不合适|"
    r"不适合(?:我们?|他们?|她|他|孩子|老人)?|就?pass|排除掉?|免了|算了|不要了|不用了|不需要了|"
    r"不去了|不买了|不选了|不看了|不报了|拉倒|看不上|不靠谱|不(?:太|大)?行)"
    r"(?<!预算了)"
)
_ZH_TURNED_DOWN_KEYS = "想愿喜考避感惯腻够受要必上合适pass排免算去买选看报拉靠行来兴"
_ZH_TOPIC_FIRST_RE = re.compile(
    rf"^(?P<opt>{_ZH_NAME}(?:[{CJK}]{{0,4}}?)|[{CJK}]{{2,10}}?)(?:那种|这种|那个|这个|那些|这类|之类的?)?"
    rf"(?:{_ZH_EXPERIENCER})?{_ZH_ADVERB}*{_ZH_TURNED_DOWN}"
    r"(?:报|用|买|去|吃|选|要|玩|看)?[了吧啊呀哈嘛]*(?=[，,。.！!；;]|$)"
)
_ZH_EXCEPT_ALL_RE = re.compile(
    rf"除了{_ZH_O}(?:以外|之外)?[，,]?\s*(?:(?:其他|其它|别的)(?:的)?[{CJK}]{{0,4}}?)?(?:什么)?(?:都|全都|全)"
    r"(?:可以|行|好|没问题|能接受|OK|ok|随便)"
)
# A verb after 不需要 names a thing to do without ("不需要加图表"); "不需要实时，T+1就够了"
# lowers a bar instead, and is left to the requirement reader.
_ZH_NOT_NEEDED_RE = re.compile(
    rf"(?:不需要|用不着|不必|没必要)(?:加|用|买|带|订|要|请|报|找|配)?{_ZH_O}{_ZH_END}"
)
_ZH_NOT_NEEDED_SUFFIX_RE = re.compile(
    rf"(?P<opt>{_ZH_NAME}|[{CJK}]{{1,8}}?)(?:就|也|都)?(?:不需要|不用|免|省)了?[吧啊呀哈]*(?=[，,。.！!；;]|$)"
)
_ZH_REPLACE_RE = re.compile(
    rf"把{_ZH_O}(?:换成|改成|替换成|换为)"
    rf"|用\S{{1,10}}?(?:代替|替代|取代){_ZH_O.replace('opt', 'opt2')}{_ZH_END}"
    rf"|从{_ZH_O.replace('opt', 'opt3')}(?:换|改|切换|迁移|转)到"
    rf"|与其{_ZH_O.replace('opt', 'opt4')}(?:，|,)?不如"
    rf"|本来(?:想|打算|要)(?:买|用|去|选|吃|订|报)?{_ZH_O.replace('opt', 'opt5')}[，,]\s*算了"
)
_ZH_WITHDRAW_RE = re.compile(
    rf"(?:取消|不再|再也不|不会再)(?:用|吃|去|坐|买|住|选)?{_ZH_O}{_ZH_END}"
    # "不买燃油车了", "不坐旅游大巴了": a changed plan (了), not a habit.
    rf"|(?<![要用])不(?:买|坐|选|订|报|住|开|养|租|去)(?P<opt3>{_ZH_NAME}|[{CJK}]{{2,8}}?)了"
    rf"|把(?P<opt4>{_ZH_NAME}|[{CJK}]{{1,8}}?)(?:去掉|删掉|拿掉|划掉|取消)"
    rf"|(?P<opt5>{_ZH_NAME}|[{CJK}]{{2,8}}?)(?:换掉|删掉|去掉|取消)(?:吧|了)?(?=[，,。.！!；;]|$)"
    # "虾滑什么的就别买了", "芒果布丁都别点了": any one-character verb after 别 ends the clause.
    rf"|(?P<opt2>{_ZH_NAME}|[{CJK}]{{2,8}}?)(?:就|也|都|还是)?(?<!特)(?:别(?![的人处家])|不要)再?(?:考虑|推荐|[{CJK}])"
    r"了?(?=[，,。.！!；;]|$)"
)
_ZH_BAD_EXPERIENCE_RE = re.compile(
    rf"(?:用过|试过|吃过|去过|住过|坐过|买过|报过|请过|上过|住)(?:某|一个|一家)?"
    rf"(?P<opt>{_ZH_NAME}|[{CJK}]{{2,8}}?)[，,]?(?P<eval>[^。！!；;]*)"
)
_ZH_NEGATIVE_EVAL_RE = re.compile(
    r"差|糟|噩梦|失望|后悔|烂|坑|坏了|推脱|太慢|不好用|问题|麻烦|踩雷|难吃|难用|不靠谱|上当|吃亏|"
    r"换个|换一个|加价|受不了|不行|没用|浪费|投诉|退款|吵|脏|超预算|超出预算|太贵"
)
_ZH_HEDGE_RE = re.compile(
    # "也不是不能吃": a double negation keeps the option.
    r"不确定|不太确定|要不要|再想想|也许|可能|考虑一下|不一定|不介意|不排斥|(?:不是|并非|没有)不"
    r"|不排除|未必"
)
_ZH_LEAD_RE = re.compile(
    r"^(?:所以|因此|但是|不过|可是|而且|然后|另外|还有|其实|[那这]几[家个款]|[那这]些|我们?|咱们|他们?|她们?|"
    r"我(?:妈|爸|老婆|老公|家)|这种|那种|这个|那个|[那这][家间款个]|那|对|某)+"
)


# A time, a price, the weather or a condition is what a constraint is about, never an option
# turned down: "周末不行" limits when, "这个价格不太合适" bargains, "天气不好的话就算了" hedges.
_ZH_NOT_TOPIC_RE = re.compile(
    r"(?:价格|价钱|预算|时间|天气|周末|工作日|晚上|白天|早上|上午|下午|今天|明天|后天|这周|下周|"
    r"周[一二三四五六日]|星期[一二三四五六日天]|身体|距离|的话|是|不是|也不是|觉得|感觉|认为)$"
    r"|^(?:如果|要是|假如|万一)|^(?:千万|一定|务必|可千万|绝对|坚决|肯定|实在|真的|确实|根本|完全|当然|其实|压根|一律)$|^(?:五一|十一|国庆|春节|元旦|[一二三四五六七八九十两\d]+(?:月|号|日|点|天|年|周|个月))"
)


# A topic read up to the comment can carry who and when: "长毛猫我", "上次徒步好几个人".
_ZH_TRAILING_EXPERIENCER_RE = re.compile(
    rf"(?:{_ZH_EXPERIENCER}|大家|好几个人|几个人|有人)$"
)
_ZH_LEADING_TIME_RE = re.compile(r"^(?:上次|之前|以前|去年|那次|早年|最近|平时)")


# "国际园学费", "那家的服务": what is judged about the option, not the option.
_ZH_ATTRIBUTE_RE = re.compile(
    r"的?(?:价格|价钱|学费|费用|房租|租金|质量|服务|口味|环境|位置|距离|味道|体验|配置|设计|颜色|"
    r"做工|售后)$"
)


def zh_option_core(raw: str) -> str:
    """A Chinese option phrase without the who, when and particles around it."""
    phrase = _ZH_LEAD_RE.sub("", raw.strip()).strip("的 ")
    phrase = _ZH_LEADING_TIME_RE.sub("", phrase)
    phrase = re.sub(r"(?:什么的?|之类的?|这些|那些|等等)$", "", phrase)  # "虾滑什么的": 虾滑
    bare = _ZH_ATTRIBUTE_RE.sub("", phrase)
    phrase = bare if len(bare) >= 2 else phrase
    shorter = _ZH_TRAILING_EXPERIENCER_RE.sub("", phrase).strip("的 ")
    return shorter if len(shorter) >= 2 or not CJK_CHAR_RE.search(shorter) else phrase


def not_a_zh_topic(phrase: str) -> bool:
    return bool(_ZH_NOT_TOPIC_RE.search(phrase)) or bool(_ZH_ATTRIBUTE_RE.fullmatch(phrase))


# An aspect marker makes a clause of the phrase ("吃了一个月"), not a noun phrase; a final 得
# is a degree ("迷得不行": crazy about it).
_ZH_ASPECT_RE = re.compile(r"[了着]|(?<=[吃用试去住坐买看玩])过|得$")
_ZH_NOT_OPTIONS = frozenset(
    "东西 这个 那个 这种 那种 它 他 她 推荐 说 了 的 吧 呢 啊 这样 那样 这么 那么 这些 那些 "
    "一切 什么 全部 都".split()
)


_ZH_CONDITION_RE = re.compile(r"如果|要是|假如|万一|的话")


def _chinese(clause: str) -> list[Construction]:
    found: list[Construction] = []
    if _ZH_CONDITION_RE.search(clause) and not _ZH_ALLERGY_RE.search(clause):
        return found  # "天气不好的话就算了": a condition, nothing is turned down yet
    # A hedge ("不确定要不要X") keeps every option; an allergy is still a fact to respect.
    allergy_only = bool(_ZH_HEDGE_RE.search(clause))

    def add(raw: str | None, rest: str, family: str, *, hard: bool = False) -> None:
        if not raw:
            return
        phrase = zh_option_core(raw)
        if phrase in _ZH_NOT_OPTIONS or _ZH_ASPECT_RE.search(phrase) or not_a_zh_topic(phrase):
            return
        if re.match(r"太|很|这么|那么|过于|特别", phrase) and "的" not in phrase:
            return  # "不想太早出发" is a degree; "不喜欢太辣的菜" still names dishes
        diet = raw == phrase and ("不吃" in clause or "不喝" in clause)
        single_ok = family in {"exclusion", "inability"} or diet
        if phrase and not (len(phrase) == 1 and not single_ok):
            found.append(Construction(phrase, rest, family, hard))

    for m in _ZH_ALLERGY_RE.finditer(clause):
        add(m.group("opt") or m.group("opt2"), clause[m.end() :], "inability", hard=True)
    if allergy_only:
        return found
    for pattern, family, hard, keys in (
        (_ZH_AVERSION_RE, "aversion", False, "讨厌喜欢爱受忍反烦想愿让允禁推接够戒打拒排介"),
        (_ZH_DIET_RE, "aversion", False, "吃喝"),
        (_ZH_NOT_INTERESTED_RE, "aversion", False, "兴趣好感"),
        (_ZH_CANNOT_RE, "inability", True, "能可法了"),
        (_ZH_CANNOT_SUFFIX_RE, "exclusion", False, "能法"),
        (_ZH_TOPIC_FIRST_RE, "aversion", False, _ZH_TURNED_DOWN_KEYS),
        (_ZH_EXCEPT_ALL_RE, "exclusion", False, "除"),
        (_ZH_NOT_NEEDED_RE, "not_needed", False, "需着必"),
        (_ZH_NOT_NEEDED_SUFFIX_RE, "not_needed", False, "需用免省"),
        (_ZH_REPLACE_RE, "replacement", False, "换改替代取从与本"),
        (_ZH_WITHDRAW_RE, "withdrawal", False, "取再别要不把掉"),
    ):
        if not any(key in clause for key in keys):
            continue  # none of the words the construction needs: skip the pattern
        for m in pattern.finditer(clause):
            opt = next((g for g in m.groups() if g), None)
            add(opt, clause[m.end() :], family, hard=hard)
    for m in _ZH_BAD_EXPERIENCE_RE.finditer(clause):
        if _ZH_NEGATIVE_EVAL_RE.search(m.group("eval")):
            add(m.group("opt"), m.group("eval"), "bad_experience")
    return found


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


# Chinese chains a story and its verdict with commas ("我们试过钉钉，体验很差"; "本来想买口红，
# 算了"): these two constructions are read over the whole sentence.
_ZH_SENTENCE_RE = re.compile(
    # "除了香菜，别的调料都行": the exclusion and the universal sit in two clauses.
    rf"除了(?P<opt3>{_ZH_NAME}|[{CJK}]{{1,10}}?)(?:以外|之外)?[，,]\s*(?:(?:其他|其它|别的)(?:的)?"
    rf"[{CJK}]{{0,4}}?)?(?:什么)?(?:都|全都|全)(?:可以|行|好|没问题|能接受|OK|ok|随便)"
    r"|"
    rf"(?:用过|试过|吃过|去过|住过|坐过|买过|报过|请过|上过)(?:某|一个|一家)?"
    rf"(?P<opt>{_ZH_NAME}|[{CJK}]{{2,8}}?)[，,](?P<eval>[^。！!；;]*)"
    rf"|本来(?:想|打算|要)(?:买|用|去|选|吃|订|报)?(?P<opt2>{_ZH_NAME}|[{CJK}]{{2,10}}?)[，,]\s*算了"
    # The option as topic, then the experience: "中介我们之前找过一家，换了三个人都不靠谱".
    rf"|^(?!之前|上次|以前|去年|那次|早年|我|他|她|不|没|别|改|换|想|要)(?P<opt4>{_ZH_NAME}|[{CJK}]{{2,8}}?)(?:{_ZH_EXPERIENCER})?(?:之前|上次|以前|去年|那次|早年)?"
    rf"[{CJK}]{{0,2}}?(?:过|了)[{CJK}\d]{{0,4}}?[，,](?P<eval4>[^。！!；;]*)"
)


# A clause that is only a verdict ("…，不考虑。", "…，算了吧") turns down the topic of the clause
# before it: "Slack在国内访问不稳定，不考虑".
_ZH_BARE_VERDICT_RE = re.compile(
    rf"^(?:{_ZH_EXPERIENCER})?{_ZH_ADVERB}*(?:不考虑|不要|不用|算了|pass|PASS|免了|不行|排除|不选|放弃|"
    r"拉倒|不予考虑|别提了|就别提了|[\u4e00-\u9fff]{0,2}?换(?:一家|一个|个地方|个|别的|别家)|"
    r"去掉|删掉|划掉|拿掉|取消)"
    r"[了吧啊呀哈]*[。！!.]?$"
)
_ZH_CLAUSE_TOPIC_RE = re.compile(
    rf"^(?:{_ZH_EXPERIENCER}(?:觉得|感觉))?(?!本来|想|打算|准备|要|去)"
    rf"(?P<t>{_ZH_NAME}(?:\s{_ZH_NAME})?|[{CJK}]{{2,10}}?)"
    r"(?=太|很|不|没|在|有点|比较|实在|的?价格|也|都|就|还是|用起来|吃起来|看起来|听说|据说|"
    r"我|他|她|大家|团队|孩子|老人|对|去年|上次|之前)"
)


def _bare_verdicts(sentence: str) -> list[Construction]:
    clauses = [c.strip() for c in re.split(r"[，,]", sentence)]
    found: list[Construction] = []
    for at, (before, clause) in enumerate(itertools.pairwise(clauses)):
        topic = _ZH_CLAUSE_TOPIC_RE.match(before)
        first = _ZH_CLAUSE_TOPIC_RE.match(clauses[0])
        if at and first and not not_a_zh_topic(first.group("t")):
            topic = first  # "折叠车轮子小，骑长途不稳，也算了": the sentence's topic
        if at and ("换" in clause or not topic or not_a_zh_topic(topic.group("t"))):
            # "北海道十月有点冷吧，我怕冷，算了" / "…服务也跟不上，今年换一家": the sentence's
            # first clause holds what is turned down.
            before = clauses[0]
            topic = _ZH_CLAUSE_TOPIC_RE.match(before)
        if topic and _ZH_BARE_VERDICT_RE.match(clause):
            option = topic.group("t")
            option = zh_option_core(option)
            if (
                len(option) >= 2
                and not re.search(r"想|去|打算|要", option)
                and option not in _ZH_NOT_OPTIONS
                and not _ZH_LEAD_RE.fullmatch(option)
                and not not_a_zh_topic(option)
                and not _ZH_CONDITION_RE.search(before)
            ):
                found.append(Construction(option, "，" + before[topic.end() :], "explicit_refusal"))
    return found


def chinese_sentence_constructions(sentence: str) -> list[Construction]:
    found: list[Construction] = _bare_verdicts(sentence)
    for m in _ZH_SENTENCE_RE.finditer(sentence):
        if m.group("opt") and not _ZH_NEGATIVE_EVAL_RE.search(m.group("eval") or ""):
            continue
        if m.group("opt4") and not _ZH_NEGATIVE_EVAL_RE.search(m.group("eval4") or ""):
            continue
        option = zh_option_core(
            m.group("opt") or m.group("opt2") or m.group("opt3") or m.group("opt4") or ""
        )
        if not_a_zh_topic(option) or _ZH_ASPECT_RE.search(option):
            continue
        family = "bad_experience" if m.group("opt") or m.group("opt4") else "withdrawal"
        family = "exclusion" if m.group("opt3") else family
        if (len(option) > 1 or m.group("opt3")) and option not in _ZH_NOT_OPTIONS:
            found.append(Construction(option, m.group("eval") or m.group("eval4") or "", family))
    return found


def find_constructions(clause: str, *, chinese: bool) -> list[Construction]:
    """Every rejection construction in one clause (already stripped of discourse markers)."""
    return _chinese(clause) if chinese else _english(clause)


# A sentence a person would recognise as turning something down, whatever its option: used to
# ground an LLM analyser's rejection in the user's words.
def has_rejection_construction(sentence: str) -> bool:
    return bool(find_constructions(sentence, chinese=bool(CJK_CHAR_RE.search(sentence))))

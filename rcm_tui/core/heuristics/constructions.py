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

Each finder returns `Construction`s: the raw option phrase (cleaned later by the caller), the
text after it (a reason may sit there), the family, and whether it is also a hard requirement
(inability). Shared parts: `construction_parts.py`; the Chinese forms: `constructions_zh.py`.
"""

from __future__ import annotations

import re

from .clause_context import lack_hurts, named_source, reported_subject, speaker_lacks
from .construction_parts import (
    ADVERBS,
    HEDGE_RE,
    NEGATIVE_EVAL_RE,
    OPTION_GROUP,
    REPLACE_RE,
    REPORTED_BY_RE,
    TAKE_OFF_RE,
    TOPIC_DISMISSED_RE,
    WITHDRAW_RE,
    Construction,
    experiencer_before,
    first_group,
    is_option_phrase,
    option_phrase,
)
from .constructions_zh import zh_constructions
from .cues import EXCLUDED_LABEL_RE, SYSTEM_VERB_RE
from .text import CJK_CHAR_RE
from .verdicts import PRONOUNS, antecedent, verdict

# -- English ---------------------------------------------------------------------------------
_AVERSION_VERB = (
    r"(?:hates?|hated|detests?|loathes?|dislikes?|despises?|abhors?|"
    r"(?:can'?t|cannot|couldn'?t)\s+(?:stand|bear|stomach|tolerate|abide|deal\s+with|do|"
    r"be\s+bothered\s+with)|"
    rf"(?:(?:'m|am|is|'s|are|'re|was|were)\s+(?:{ADVERBS}\s+)*)?(?:not\s+(?:a\s+(?:big\s+|huge\s+|great\s+)?fan\s+of|"
    r"(?:really\s+|that\s+|too\s+|very\s+)?(?:into|keen\s+on|fond\s+of|big\s+on|crazy\s+about|"
    r"interested\s+in))|no\s+fan\s+of|(?:done|finished|through|fed\s+up)\s+with|"
    r"(?:so\s+|totally\s+|completely\s+|well\s+)?over(?=\s+(?:it|them|that|those|this|(?:[A-Z]\w+\s+)?[a-z]+s\b))|"
    r"(?:sick|tired|weary)\s+of|(?:scared|afraid|terrified|wary)\s+of)|"
    r"(?:do|does|did)(?:n'?t|\s+not)\s+(?:really\s+|particularly\s+|much\s+|even\s+)?"
    r"(?:like|love|enjoy|fancy|dig|care\s+for|trust|eat|drink|do)|"
    r"(?:wo|would)n'?t\s+(?:touch|eat|drink|go\s+near|go\s+back\s+to|set\s+foot\s+in|hear\s+of|"
    r"sign\s+off\s+on|approve|allow|let\s+(?:me|us|him|her|them)\s+(?:have|get|use))|"
    r"will\s+not\s+(?:touch|eat|allow|approve|sign\s+off\s+on|hear\s+of)|"
    r"(?:'d|would)\s+(?:rather|prefer\s+to)\s+(?:not\s+(?:have|do|eat|take|go\s+(?:to|with)|"
    r"deal\s+with|get|be\s+(?:on|in))?|avoid|skip|stay\s+away\s+from)|"
    r"(?:'d|would|'ll|will)\s+(?:rather\s+)?(?:skip|pass\s+on|steer\s+(?:clear\s+of|away\s+from)|veto|nix)|"
    r"(?:will|'ll|would|'d)\s+never\s+(?:approve|allow|agree\s+to|go\s+for|sign\s+off\s+on)|rules?\s+out|"
    r"(?:can|could)\s+(?:live|do)\s+without|(?:don'?t|do\s+not)\s+want\s+to\s+be\s+(?:locked|tied)\s+(?:in)?to|"
    r"(?:told|advised|asked)\s+(?:me|us|him|her|them)\s+to\s+(?:avoid|stay\s+away\s+from|"
    r"cut\s+out|stop)|(?:said|says)\s+no(?:\s+to)?|(?:can'?t|cannot)\s+accept|"
    r"hard\s+(?:pass|no)\s+(?:on|to)|nope\s+to|(?:a\s+)?(?:big\s+)?no\s+to|(?:zero|no)\s+interest\s+in|"
    r"(?:'d|would|'ll|will)\s+never(?:\s+ever)?\s+(?:go\s+(?:on|to|with|near)|stay\s+(?:at|in)|use|buy|eat|"
    r"drink|fly|take|book|touch|pick|choose|hire|rent|wear|ride|trust|visit|join|own|drive)|"
    r"(?:want|try|(?:(?:'m|am|'re|are)\s+)?trying|prefer|need|have|'d\s+like)\s+to\s+(?:avoid|stay\s+away\s+from|"
    r"steer\s+clear\s+of|cut\s+out|keep\s+away\s+from|stay\s+off|keep\s+off|cut\s+(?:back|down)\s+on)|"
    r"(?:'ve|have)\s+had\s+it\s+with|(?:(?:'ve|have)\s+)?swor[en]\s+off|(?:(?:'re|are|'m|am)\s+)?boycott(?:ing|s|ed)?|"
    # "Keep the kids away from sugary snacks" (not "keep the pills away from the kids").
    r"keep\s+(?:me|us|him|her|them|(?:the|my|our)\s+(?:kids?|children|baby|son|daughter|dog|cat))\s+"
    r"away\s+from|"
    r"(?:'m|am|are|'re)\s+(?:keeping|staying)\s+(?:\w+\s+)?(?:off|away\s+from)|"
    r"avoids?|refuses?\s+to\s+(?:eat|take|wear|go\s+to|fly\s+with|pay\s+for|buy)|"
    r"never\s+(?:eat|eats|drink|drinks|fly|flies|wear|wears|buy|buys)|"
    r"(?:'m|am|'re|are)\s+not\s+(?:touching|doing|eating|buying|paying\s+for|going\s+back\s+to|"
    r"running|hosting|self-hosting|maintaining)|"
    r"(?:forbids?|bans?|banned|vetoe[sd]|vetoes|vetoing)|(?:doesn'?t|does\s+not|won'?t|will\s+not)\s+"
    r"(?:allow|permit)|(?:has|have|'ve|'s)\s+(?:had\s+)?enough\s+of|"
    r"(?:has|have)\s+no\s+(?:interest|desire|patience)\s+(?:in|for)|finds?\s+(?=\S+(?:\s+\S+)?\s+"
    r"(?:boring|annoying|mind-numbing|tedious|unbearable|awful|horrible)))"
)
_AVERSION_RE = re.compile(rf"\b{_AVERSION_VERB}\s+(?:any\s+|all\s+)?{OPTION_GROUP}", re.I)
# "We're not really museum people", "I'm not much of a beach person": a kind of thing the
# speaker is not.
_NOT_A_PERSON_RE = re.compile(
    r"\b(?:i'?m|i\s+am|we'?re|we\s+are|he'?s|she'?s|they'?re|he\s+is|she\s+is|they\s+are)\s+"
    r"(?:not|never)\s+(?:really\s+|much\s+of\s+|exactly\s+|big\s+)?(?:an?\s+)?"
    r"(?P<opt>(?!(?:a|an|the|much|big)\b)[\w-]+(?:\s+[\w-]+)?)\s+"
    r"(?:people|person|fans?|types?|lovers?|guys?|girls?|folks)\b(?!\s+of\b)",
    re.I,
)
# "even the 'natural' stuff …": a leading "even" and quotes around a word are no part of it.
_EVEN_AND_QUOTES_RE = re.compile(r"^\s*even\s+|(?<!\w)['‘’\"“”]|['‘’\"“”](?!\w)")
_HATE_TO_RE = re.compile(r"^(?:to\s+\w+|it\s+when)\b", re.I)  # "hate to say", "hate it when"

_NOT_MY_THING_RE = re.compile(
    r"^(?P<opt>.+?)\s+(?:is|are|'s|'re|was|were)(?:n'?t|\s+not)\s+(?:really\s+|exactly\s+|quite\s+"
    r"|just\s+)?(?:(?:my|our|his|her|their)\s+(?:thing|cup\s+of\s+tea|style|scene|jam|taste|"
    r"vibe|kind\s+of\s+thing)|for\s+(?:me|us|him|her|them|(?:my|our)\s+\w+))\b"
    r"|^(?P<opt2>.+?)\s+(?:does|do)(?:n'?t|\s+not)\s+(?:really\s+)?(?:appeal\s+to|agree\s+with|"
    r"suit|work\s+for|do\s+(?:it|much|anything)\s+for)\s+(?:me|us|him|her|them)\b"
    r"|^(?P<opt3>.+?)\s+(?:makes?|made|gives?|gave)\s+(?:me|us|him|her|them)\s+(?:\w+\s+)?"
    r"(?:sick|ill|nauseous|carsick|seasick|anxious|nervous|uncomfortable|queasy|headaches?|"
    r"migraines?|the\s+creeps|hives|a\s+rash|sneeze|itch|itchy|wheeze|break\s+out)\b"
    r"|^(?P<opt6>.+?)\s+(?:is|are|'s|'re)\s+(?:way\s+|far\s+|just\s+|much\s+|a\s+bit\s+|"
    r"simply\s+)?too\s+[a-z]+\s+for\s+(?:me|us|him|her|them|my\s+\w+|our\s+\w+)\b"
    r"|^(?P<opt7>.+?)\s+(?:is|are|'s|'re)\s+(?:(?:(?:absolutely|definitely|just|simply|so|totally|"
    r"really)\s+)?not\s+happening|off[- ]limits|a\s+hard\s+pass|"
    r"a\s+no\s+from\s+(?:me|us))\b|^(?P<opt8>.+?)\s+(?:let|lets)\s+(?:us|me)\s+down\b"
    r"|^(?P<opt9>.+?)\s+(?:won'?t|will\s+not)\s+be\s+(?:necessary|needed)\b"
    r"|^(?P<opt4>.+?)\s+(?:(?:drives?|drove)\s+(?:me|us|him|her|them)\s+(?:crazy|nuts|mad|"
    r"up\s+the\s+wall)|(?:gets?|got|grates?)\s+on\s+(?:my|our|his|her|their)\s+nerves)"
    r"|^(?P<opt5>.+?)\s+(?:is|are|'s|'re)\s+(?:a\s+)?(?:total\s+|hard\s+|big\s+)?(?:no\s+for\s+"
    r"(?:me|us)|hard\s+no|turn[- ]off)\b",
    re.I,
)
# "balloons are out", "RabbitMQ is out too, because …": a plural or a name, not "the report".
_IS_OUT_RE = re.compile(
    r"^(?P<opt>[^,]+?)\s+(?:is|are|'s|'re)\s+(?:now\s+|also\s+|definitely\s+)?(?:out|off)"
    r"(?:\s+(?:too|as\s+well|for\s+(?:me|us)))?(?=\s*(?:[,.;!—–]|$|because\b|since\b|as\b))"
    # "Escape rooms suck", "Brunch is so overrated": the same verdict as slang.
    r"|^(?P<opt2>[^,]+?)\s+(?:sucks?|(?:is|are|'s|'re)\s+(?:so\s+|way\s+|totally\s+|wildly\s+)?"
    r"overrated)(?=\s*(?:[,.;!—–]|$|\b))",
    re.I,
)
_ANY_BUT_RE = re.compile(
    r"\b(?:anything|any\s+[\w-]+(?:\s+[\w-]+)?|everything|all|whatever|whichever|everywhere|"
    r"something(?=\s+(?:other|except)\b)|"
    r"anywhere|anyone|anybody)\s+(?:but|except(?:\s+for)?|other\s+than|besides|apart\s+from|"
    rf"aside\s+from|save\s+for)\s+{OPTION_GROUP}",
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
_CONSEQUENCE_IF_RE = re.compile(r"^\S+(?:\s+\S+)?\s+(?:if|unless)\s+(?!possible|you\s+can)", re.I)
_HAVE_BEFORE_RE = re.compile(r"\b(?:have|has|had|got)\s*$", re.I)
_EXCEPT_RE = re.compile(rf"(?:^|[\s,])(?:except(?:\s+for)?|excluding|minus)\s+{OPTION_GROUP}", re.I)
_ADDITIVE_RE = re.compile(r"\b(?:also|too|as\s+well|additionally)\b", re.I)
_WITHOUT_RE = re.compile(rf"\bwithout\s+(?:any\s+)?{OPTION_GROUP}", re.I)
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
    r"involves?|contains?|uses?|needs?|requires?))\s+"
    + OPTION_GROUP
    + r"|(?:too\s+)?(?P<adj>[a-z]+)"
    r"(?=\s*(?:please|at\s+all|whatsoever|[,.;!]|$)|\s+(?:for|in|on|at|as|please)\b))",
    re.I,
)
_NO_GERUND_TO_RE = re.compile(
    r"\bno\s+\w+ing(?:\s+(?:out|in|up|over|back))?\s+(?:to|on|with|from|into|through|via)\s+"
    + OPTION_GROUP,
    re.I,
)
_NO_MORE_RE = re.compile(rf"\bno\s+more\s+(?!than\b){OPTION_GROUP}", re.I)
_WITH_NO_RE = re.compile(
    rf"(?:\b(?:with|has|have|having)|,)\s+(?:and\s+|but\s+)?no\s+{OPTION_GROUP}", re.I
)
# "with no weight limit" asks for the absence of a restriction: a requirement, not an option.
_RESTRICTION_RE = re.compile(
    r"\b(?:limits?|restrictions?|fees?|charges?|caps?|minimums?|deposits?|penalt(?:y|ies)|"
    r"surcharges?|deadlines?|commitment|contract)$",
    re.I,
)

_NOT_NEEDED_RE = re.compile(
    # A learner's "for my work I not need it" drops the auxiliary.
    r"(?:\b(?:do|does|did|wo|will)(?:n'?t|\s+not)|\b(?<=\bi\s)not|\b(?<=\bwe\s)not)\s+"
    r"(?:really\s+|even\s+|actually\s+|necessarily\s+)?"
    r"(?:need|require)\s+(?:to\s+(?:have|use|buy|get|book|rent|hire|take|bring|pay\s+for|add|"
    rf"include|go\s+to|see)\s+)?(?:any\s+)?{OPTION_GROUP}",
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
    rf")\s+(?:any\s+)?{OPTION_GROUP}",
    re.I,
)
_SKIP_RE = re.compile(
    r"^(?:(?:let'?s|we\s+can|you\s+can|just|please|feel\s+free\s+to)\s+)?(?:skip|omit|"
    # "Let's leave out of Seattle": departing from it, not leaving it out.
    # "pass on buildkite", "(we'll) give the ferry a miss": the imperative refusals.
    rf"leave\s+out(?!\s+of\b)|cut\s+out|pass\s+on){{1}}\s+{OPTION_GROUP}"
    # "leave incident.io out", "leave the M&S idea aside": a dot inside a name ends nothing.
    rf"|^(?:let'?s\s+|just\s+|please\s+)?leave\s+(?P<opt2>(?:[^,.;]|\.(?=\w))+?)\s+(?:out|aside)\b"
    r"|^(?:(?:i'?ll|we'?ll|i\s+will|we\s+will|let'?s|just)\s+)?give\s+(?P<opt3>[^,.;]+?)\s+a\s+"
    r"(?:miss|wide\s+berth)\b",
    re.I,
)
_NEEDLESS_RE = re.compile(
    r"^(?P<opt>[^,]+?)\s+(?:is|are)(?:n'?t|\s+not)\s+(?:really\s+)?(?:needed|necessary|required|"
    r"a\s+must)\b|^(?P<opt2>[^,]+?)\s+(?:is|are)\s+unnecessary\b",
    re.I,
)

_INABILITY_RE = re.compile(
    r"\b(?:al{1,2}er{1,2}gic|intolerant|sensitive|hypersensitive)\s+to\s+(?:any\s+)?"
    + OPTION_GROUP
    + r"|\b(?:can'?t|cannot|can\s+not|couldn'?t|(?:am|is|are|'m|'s|'re)\s+(?:not\s+able|unable)\s+"
    r"to)\s+(?:eat|have|drink|take|afford|tolerate|digest|wear|carry|climb|lift|ride|handle|"
    # "We can't stretch to David Lloyd", "can't run to a new one": afford, as people say it.
    r"manage|cope\s+with|(?:run|walk|sleep|sit)\s+on|be\s+around|stretch\s+to|run\s+to)\s+(?:any\s+)?"
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
    "food any no severe mild bad terrible serious some seasonal known an a the her his my their our"
    .split()
)

_TRIED_RE = re.compile(
    r"\b(?:tried|trialled|trialed|tested|piloted|used|had|went\s+with|stayed\s+(?:at|in)|ate\s+at|"
    r"took|bought|ordered|booked|rented|hired|visited|ran|did|signed\s+up\s+for)\s+(?P<opt>[^,.;!?]+?)\s*(?:once|before|last\s+\w+|"
    r"previously|in\s+the\s+past|a\s+while\s+ago|years\s+ago)?\s*,?\s*(?:and|but)?\s*"
    r"(?:(?<![A-Za-z])(?:it|they|that|this|he|she|which|the\s+\w+|its\s+\w+|their\s+\w+)\b"
    # "…and hated it": the verdict's object is the option itself.
    r"(?P<eval>[^.;!?]*)|(?P<eval2>(?:(?:i|we)\s+)?(?:hated|loathed|disliked|detested|regretted|"
    r"couldn'?t\s+stand)\s+(?:it|them|that|every\s+\w+)\b[^.;!?]*))",
    re.I,
)
_HAPPENED_TO_RE = re.compile(
    r"had\s+(?:a|an)\s+(?:\w+\s+)?(?:fall|accident|stroke|injury|operation|surgery|seizure|"
    r"heart\s+attack|breakdown|crash|flare-?up|relapse|miscarriage|baby)\b",
    re.I,
)
_BURNED_RE = re.compile(
    r"\b(?:burn(?:ed|t)|bitten|stung|let\s+down)\s+(?:by|with)\s+"
    + OPTION_GROUP
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

# "a summary instead of code": a wish about the reply, not an option turned down.
_ABOUT_OUTPUT_RE = re.compile(
    r"\b(?:summary|explanation|answer|text|words|reply|list|table|example|bullets?|prose|"
    r"code|detail|details|paragraph|essay|overview)\s*$",
    re.I,
)



class _Found(list[Construction]):
    """Constructions found in one clause; `add` cleans the phrase and drops non-options."""

    def add(
        self, raw: str, rest: str, family: str, *, hard: bool = False, gerund: bool = True
    ) -> None:
        phrase = option_phrase(raw)
        if family == "category" and _RESTRICTION_RE.search(phrase):
            return
        if is_option_phrase(phrase):
            self.append(Construction(phrase, rest, family, hard, gerund))


def _aversions(core: str, found: _Found) -> None:
    for m in _AVERSION_RE.finditer(core):
        if _HATE_TO_RE.match(m.group("opt")) or not experiencer_before(core[: m.start()]):
            continue
        # "avoid blocking the event loop" is a requirement on behaviour, not an option.
        avoid = "avoid" in core[m.start() : m.start("opt")].lower()
        option = _resolve(m.group("opt"), core[: m.start()])
        found.add(option, core[m.end() :], "aversion", gerund=not avoid)
    for m in _NOT_A_PERSON_RE.finditer(core):
        found.add(m.group("opt"), core[m.end() :], "aversion")
    thing = None if found else _NOT_MY_THING_RE.match(core)
    if thing:
        # "my wife said the Mentos thing is not happening": what was said is about Mentos.
        subject = REPORTED_BY_RE.sub("", first_group(thing).split(",")[-1])
        # "even the 'natural' stuff … makes me break out": quotes mark a word, cut nothing.
        subject = _EVEN_AND_QUOTES_RE.sub("", subject)
        found.add(subject, core[thing.end() :], "aversion")
    out = _IS_OUT_RE.match(core)
    if out and not HEDGE_RE.search(first_group(out)):
        subject = first_group(out).split(",")[-1].strip()
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
    # "there" too: "The golf club is out, Mum won't set foot in there."
    if words and words[0].lower().strip(".,!") in PRONOUNS | {"there"} and len(words) <= 2:
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
            about = reported_subject(subject)  # "my boss thinks Jira is a mess": Jira
            if about is None:
                return
            found.add(_resolve(about, core[:start]), rest, "verdict")
            return


def _exclusions(core: str, found: _Found) -> None:
    label = EXCLUDED_LABEL_RE.match(core)
    if label:
        found.add(label.group("opt"), core[label.end() :], "exclusion", gerund=False)
    for m in _ANY_BUT_RE.finditer(core):
        found.add(m.group("opt"), core[m.end() :], "exclusion")
    for m in _OTHER_THAN_FIRST_RE.finditer(core):
        if m.group("opt3") and _HAVE_BEFORE_RE.search(core[: m.start()]):
            continue  # "I have zero ideas", "we've got zero budget": what is lacking
        found.add(first_group(m), core[m.end() :], "exclusion", gerund=False)
    if not found and not _ADDITIVE_RE.search(core):
        for m in _EXCEPT_RE.finditer(core):
            found.add(m.group("opt"), core[m.end() :], "exclusion")
    # "Reject requests without a token", "it must work without X": a rule on behaviour.
    low = core.lower()
    rule = "without" not in low or SYSTEM_VERB_RE.match(core) or _MODAL_RE.search(core)
    for m in [] if rule else _WITHOUT_RE.finditer(core):
        if _DESCRIBES_RE.search(core[: m.start()]):
            continue  # "we live in a flat without a lift" describes what is, it refuses nothing
        if lack_hurts(core[: m.start()]):
            continue  # "I can't be without the car", "lost without it": X is needed
        if not _WORKS_WITHOUT_RE.search(core[: m.end() - len(m.group("opt"))]):
            found.add(m.group("opt"), core[m.end() :], "exclusion", gerund=False)
    if "free" in low and _REQUEST_RE.search(core):
        for m in _FREE_RE.finditer(core):
            found.add(m.group("opt"), "", "exclusion")
    for pattern in (_NOTHING_RE, _NO_GERUND_TO_RE, _NO_MORE_RE, _WITH_NO_RE):
        if not re.search(r"\bno(?:thing)?\b", low):
            break
        for m in pattern.finditer(core):
            if pattern is _WITH_NO_RE and speaker_lacks(core[: m.start() + 5]):
                continue  # "We have no developers": what the speaker lacks, nothing refused
            if _CONSEQUENCE_IF_RE.search(first_group(m) + core[m.end() :]):
                continue  # "…, no returns if it dies on me": what would follow, not a refusal
            if not HEDGE_RE.search(core[: m.start()]):
                gerund = pattern is _NO_GERUND_TO_RE
                option, rest = named_source(first_group(m), core[m.end() :])
                found.add(option, rest, "category", gerund=gerund)


def _cut_at_punct(phrase: str) -> str:
    return re.split(r"[,.;!?]", phrase, maxsplit=1)[0].strip()


def _needs_and_abilities(core: str, found: _Found) -> None:
    for m in _NOT_NEEDED_RE.finditer(core):
        before = core[: m.start()]
        if _ABOUT_OUTPUT_RE.search(_cut_at_punct(m.group("opt"))):
            continue  # "I don't need a detailed answer": a wish about the reply
        if experiencer_before(before) and not re.search(r"\byou\s*$", before, re.I):
            found.add(m.group("opt"), core[m.end() :], "not_needed")
    for pattern in (_NO_NEED_RE, _SKIP_RE, _NEEDLESS_RE, _NOT_NEEDED_STATE_RE, TOPIC_DISMISSED_RE):
        needless = pattern.search(core)
        if needless:
            # "Cloudflare — legal raised concerns, so skip it": the topic it stands for.
            option = _resolve(first_group(needless), core[: needless.start()])
            found.add(option, core[needless.end() :], "not_needed")
    for m in _INABILITY_RE.finditer(core):
        if experiencer_before(core[: m.start()]) or m.group("opt"):
            found.add(first_group(m), core[m.end() :], "inability", hard=True)
    for m in _ALLERGY_NOUN_RE.finditer(core):
        if first_group(m).lower() not in _ALLERGY_NOT_OPTION:
            found.add(first_group(m), core[m.end() :], "inability", hard=True)


def _experiences_and_changes(core: str, found: _Found) -> None:
    for m in _TRIED_RE.finditer(core):
        said = m.group("eval") or m.group("eval2") or ""
        if _HAPPENED_TO_RE.match(core[m.start() :]):
            continue  # "he had a fall on the stairs": what befell someone, nothing tried
        if NEGATIVE_EVAL_RE.search(said) and not HEDGE_RE.search(core[: m.start()]):
            found.add(m.group("opt"), said, "bad_experience")
    for m in _BURNED_RE.finditer(core):
        found.add(first_group(m), core[m.end() :], "bad_experience")
    last = _LAST_USED_RE.match(core)
    if last and NEGATIVE_EVAL_RE.search(last.group("eval")):
        found.add(last.group("opt"), last.group("eval"), "bad_experience")
    bad = _WAS_BAD_RE.match(core)
    if bad:
        found.add(bad.group("opt"), core[bad.end() :], "bad_experience")
    for m in REPLACE_RE.finditer(core):
        if m.group("opt5") and _ABOUT_OUTPUT_RE.search(core[: m.start()]):
            continue
        found.add(first_group(m), core[m.end() :], "replacement", gerund=False)
    off = TAKE_OFF_RE.match(core)
    if off:
        found.add(off.group("opt"), core[off.end() :], "withdrawal")
    for withdrawn in WITHDRAW_RE.finditer(core):
        if withdrawn.group("opt") and withdrawn.start() > 0:
            continue  # the imperative forms only open a clause
        found.add(first_group(withdrawn), core[withdrawn.end() :], "withdrawal")



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
    rf"(?:and\s+)?(?:definitely|certainly)\s+not|not\s+even)\s+{OPTION_GROUP}",
    re.I,
)


def find_constructions(clause: str, *, chinese: bool) -> list[Construction]:
    """Every rejection construction in one clause (already stripped of discourse markers)."""
    return zh_constructions(clause) if chinese else _english(clause)


# A sentence a person would recognise as turning something down, whatever its option: used to
# ground an LLM analyser's rejection in the user's words.
def has_rejection_construction(sentence: str) -> bool:
    return bool(find_constructions(sentence, chinese=bool(CJK_CHAR_RE.search(sentence))))

"""Three English ways of turning an option down that read over a whole sentence.

A topic set up first and judged after it ("As for the camera, there is no need", "Re the
drone: the venue doesn't allow drones anyway", "Regarding the extended warranty, we don't need
it"): the verdict names no option of its own, so the lead-in names what it turns down. "As for
hotels, we'd love something near the beach" sets a topic and keeps it.

An option priced past what the user can spend ("Copper Business at 99 is way past what we can
swing", "The Pro plan is well over our budget"): what the user cannot pay for is off the table.

An option complained of as too much of something, then another chosen ("The train is too much
hassle, let's just drive"): the complaint alone only weighs it; choosing the other settles it.
"""

from __future__ import annotations

import re

from .construction_parts import Construction
from .options import strip_option_noise

_LEAD_RE = re.compile(
    r"^(?:(?:and|but|also|oh|ok(?:ay)?|so)[,\s]+)*"
    r"(?:re|regarding|as\s+(?:for|to|regards)|concerning|when\s+it\s+comes\s+to)\s+"
    r"(?P<topic>(?:(?:the|a|an|that|this|those|these|any|my|our)\s+)?"
    r"[\w'&+.-]+(?:\s+[\w'&+.-]+){0,3}?)\s*(?:[:,—–]|\s-\s)\s*(?P<comment>.+)$",
    re.I,
)
# The comment turns the topic down when one of its clauses opens with "no need", "we don't
# need (it)", "it's out", "skip it", "pass", or a rule against it ("the venue doesn't allow").
_TURNED_DOWN_RE = re.compile(
    r"(?:^|[,;]\s*(?:and\s+|but\s+|so\s+)?)(?:"
    r"there(?:'s|\s+is)\s+no\s+need|no\s+need|not\s+needed|"
    r"(?:i|we)\s+(?:really\s+|honestly\s+|just\s+|definitely\s+)?(?:don'?t|do\s+not|won'?t|"
    r"will\s+not)\s+(?:need|want|bother)|"
    r"(?:it|that|they|those|this)(?:'s|\s+is|'re|\s+are)\s+(?:out|a\s+no|not\s+(?:needed|"
    r"necessary|happening|for\s+(?:us|me)))|"
    r"(?:(?:a\s+)?hard\s+)?pass|skip(?:\s+(?:it|that|them))?|forget\s+(?:it|that|them)|"
    r"no\s+thanks?|not\s+interested|nope|(?:we|i)(?:'ll|\s+will)\s+(?:skip|pass)|"
    r"(?:i|we)(?:'d|\s+would)\s+rather\s+not|"
    r"(?:the\s+)?\w+(?:\s+\w+)?\s+(?:doesn'?t|does\s+not|won'?t|will\s+not)\s+allow)\b",
    re.I,
)
_BEYOND_MEANS_RE = re.compile(
    r"^(?P<opt>[^,;:]+?)\s+(?:at\s+[$€£¥]?\d[\d,.]*k?\s+)?(?:is|are|'s|'re)\s+"
    r"(?:(?:way|well|far|just|a\s+bit|slightly|still|also)\s+)?"
    r"(?:over|above|beyond|past|outside|out\s+of)\s+"
    r"(?:(?:our|my|the|his|her|their)\s+(?:budget|price\s+range|range|means)\b|"
    r"what\s+(?:we|i)\s+can\s+(?:afford|swing|spend|justify|pay))",
    re.I,
)

# Too much of one thing, then the other chosen ("The train is too much hassle, let's just
# drive", "the sofa bed is too bulky so we'll go with the futon"): the one complained of is
# turned down for the other. A price, the weather or a wait is what is complained of, no option.
_TOO_THEN_OTHER_RE = re.compile(
    r"^(?:(?:and|but|honestly|ok(?:ay)?|so|yeah|hmm|tbh)[,\s]+)*"
    r"(?!(?:it|that|this|they|everything|all|the\s+(?:price|cost|budget|weather|wait|time|"
    r"traffic|queue|line|rent|fees?))\b)"
    r"(?P<opt>(?:(?:the|a|an|that|those|these)\s+)?[\w'&+.-]+(?:\s+[\w'&+.-]+){0,3}?)\s*"
    r"(?:is|are|'s|'re|was|were|sounds?|seems?|looks?|feels?)\s+"
    r"(?:(?:way|just|far|a\s+bit|a\s+little|kind\s+of|kinda|honestly)\s+)?"
    r"(?P<why>too\s+(?:much\s+(?:of\s+a\s+)?)?[\w-]+(?:\s+\w+)?)\s*[,;.—–-]+\s*(?:so\s+)?"
    r"(?:let'?s|we'?ll|i'?ll|we\s+will|i\s+will|we'?re\s+(?:gonna|going\s+to)|"
    r"i'?m\s+(?:gonna|going\s+to))\s+(?:just\s+|probably\s+)?"
    r"(?:go\s+with|do|take|get|drive|fly|book|pick|use|stick\s+with|try|order|rent|choose|buy)\b",
    re.I,
)

# The encoder reads clause by clause and gives a topic set up in one clause and turned down in
# the next a low chance of being refused; its veto does not apply to these readings, nor to a
# topic refused sentences after it was named (topic_refusals.py: "Infrared. … Hard pass.").
SENTENCE_VERDICT_FAMILIES = frozenset({"topic_verdict", "over_budget", "topic_refusal"})


def sentence_verdicts(sentence: str) -> list[Construction]:
    """Options the sentence turns down through a topic lead-in, a price past its means or a
    complaint followed by the other one chosen."""
    found: list[Construction] = []
    lead = _LEAD_RE.match(sentence.strip())
    if lead and _TURNED_DOWN_RE.search(lead.group("comment")):
        topic = strip_option_noise(lead.group("topic"))
        if topic:
            found.append(Construction(topic, lead.group("comment"), "topic_verdict"))
    beyond = _BEYOND_MEANS_RE.match(sentence.strip())
    if beyond:
        option = strip_option_noise(beyond.group("opt"))
        if option:
            # No reason is read after it: "…beyond our budget, which is £6,000 a year" states
            # the budget, a requirement of its own.
            found.append(Construction(option, "", "over_budget"))
    other = _TOO_THEN_OTHER_RE.match(sentence.strip())
    if other:
        option = strip_option_noise(other.group("opt"))
        if option:
            found.append(Construction(option, other.group("why"), "topic_verdict"))
    return found

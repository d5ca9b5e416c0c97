"""Vocabulary shared by several readers: verbs of systems, output and building, acknowledgements,
fact statements, imperative rejections."""

from __future__ import annotations

import re

from .text import word_set

OPT = r"(?P<opt>(?:[^,.;:!?()—–\n]|\.(?=\S))+)"
# Imperatives that discard something; only at the start of a clause, so "don't forget X" and
# "we use blue-green deploys to avoid downtime" are not rejections.
IMPERATIVE_REJECT_RE = re.compile(
    r"^(?:(?:let'?s|let\s+us|we(?:'ll|\s+will|\s+should|\s+can|\s+must)?|just|i'd\s+say)\s+)?"
    rf"(?P<verb>forget(?:\s+about)?|drop|ditch|scrap|abandon|avoid|rule\s+out|"
    # "please don't say gift cards": what not to suggest (not "don't say I didn't warn you").
    rf"(?:please\s+)?(?:don'?t|do\s+not)\s+(?:even\s+)?say(?!\s+(?:i|you|we|he|she|it|they|that)\b))"
    rf"\s+{OPT}",
    re.I,
)
# Requests about the conversation itself ("summarise", "sketch that out"): no constraint.
OUTPUT_VERB_RE = re.compile(
    r"^(?:(?:can|could|would)\s+you\s+)?(?:tell|explain|summari[sz]e|describe|remind|clarify|"
    r"compare|recap|elaborate|walk|go\s+through|talk|help|show|list|outline|suggest|recommend|"
    r"propose|think|brainstorm|answer|review|evaluate|assess|analy[sz]e|estimate|sketch|"
    r"lay\s+out|give|draft|plan|design|present|detail|expand|continue|proceed|start|begin|"
    r"go\s+on|go\s+ahead|keep\s+going|let\s+me\s+know|dive|zoom|consider|look)\b",
    re.I,
)
SYSTEM_VERB_RE = re.compile(
    r"^(?:store|save|persist|keep|put|place|use|reject|refuse|deny|block|validate|verify|check|"
    r"sanitise|sanitize|escape|log|record|audit|track|support|allow|accept|permit|limit|cap|"
    r"restrict|throttle|rate[- ]limit|encrypt|hash|sign|send|return|respond|include|add|expose|"
    r"publish|handle|retry|cache|index|partition|shard|replicate|back\s+up|expire|delete|purge|"
    r"archive|require|enforce|ensure|make\s+sure|guarantee|target|stick|run|deploy|host|serve|"
    r"export|import|notify|alert|email|paginate|compress|authenticate|authori[sz]e|separate|"
    r"isolate|prefer|default|fall\s+back|stream|batch|schedule|monitor|display|format|lock|"
    r"version|test|document|translate|load|upload|download|migrate|avoid|never|always|"
    r"only|disallow|forbid|prevent|timeout|time\s+out|expose)\b",
    re.I,
)
BUILD_VERB_RE = re.compile(
    r"^(?:write|create|build|implement|make|generate|code|produce|set\s+up|wire\s+up|provide)\b",
    re.I,
)
ACK_WORDS = word_set(
    """yes yeah yep yup no nope ok okay sure thanks thank great cool fine perfect right agreed
    exactly correct both either neither none all maybe probably later nothing done good nice
    hello hi hey bye goodbye whatever hmm understood true false absolutely definitely"""
)


FACT_RE = re.compile(
    r"^(?:we|i|our\s+(?:team|company|org|stack)|the\s+team)\s+(?:already\s+|currently\s+)?"
    r"(?:runs?|uses?|have|has|operates?|hosts?|deploys?|maintains?|knows?|owns?|are\s+on|"
    r"'re\s+on|works?\s+with)\b"
    # "We don't use Windows servers": the current setup, negatively.
    r"|^(?:we|i|our\s+(?:team|company|org|stack)|the\s+team)\s+(?:currently\s+|really\s+)?"
    r"(?:don'?t|do\s+not|doesn'?t|does\s+not)\s+(?:use|run|have|host|rely\s+on|depend\s+on|"
    r"deploy|own)\b(?!\s+to\b)"
    # "We are already all-in on AWS": a commitment that holds, stated as what is.
    r"|^(?:we|i|our\s+(?:team|company|org|stack))(?:'re|'m|\s+are|\s+am)\s+(?:already\s+|"
    r"currently\s+|fully\s+|heavily\s+)?(?:all[- ]in\s+on|invested\s+in|standardi[sz]ed\s+on|"
    r"committed\s+to|locked\s+into)\b"
    r"|^(?:we|i)(?:'re|'m|\s+are|\s+am)\s+(?:building|designing|developing|adding|writing|"
    r"creating|working\s+on|migrating|running|making)\b"
    r"|\b(?:law|legal|regulat\w+|compliance|gdpr|hipaa|sox|pci)\b"
    r"|^我们(?:已经|目前|现在)?(?:在用|用的是|使用|运行|有)|团队|法律|法规|合规"
    # "我们没有用X": not in use (a fact); "我们不用X" is read as a decision (a rejection),
    # which is how it is usually meant.
    r"|^我们(?:目前|现在)?没有?(?:在)?(?:用|使用)",
    re.I,
)


# The words a yes/no question opens with ("Would you like me to book it?", "Do you wish to…").
YES_NO_OPENER = r"(?:do|does|would|will|shall|should|can|could|may|is|are|want)\b"

# Assent to what the assistant just said ("That sounds great", "Yes, that's correct", "that
# should work", "That one sounds better", 那就好), a decline of its offer ("Not now", "Perhaps
# later", "It depends") or a sign-off ("That's all I need right now", "I have everything I
# need", "Goodbye"): it answers the assistant and states no need of its own.
_THANKS = (
    r"(?:thanks|thank\s+you)(?:\s+(?:so\s+|very\s+)*much)?(?:\s+for\s+(?:\w+\s+){0,3}\w+)?"
)
_ASSENT_LEAD = (
    rf"(?:(?:yes|yeah|yep|yup|sure|ok(?:ay)?|alright|all\s+right|great|perfect|no|nah|{_THANKS})"
    r"\W+)*"
)
_JUDGED = (
    r"(?:(?:that|this|it|which|everything|all)(?:\s+one)?(?:'s|\s+is|\s+was|\s+sounds?|"
    r"\s+seems?|\s+looks?|\s+(?:would|will|should|might)\s+be|'d\s+be|'ll\s+be)?|sounds?|looks?|"
    r"seems?)\s+(?:(?:really|very|so|just|absolutely|exactly|totally|pretty|all|quite|much)\s+)?"
    r"(?:great|perfect|good|better|fine|ok(?:ay)?|correct|right|nice|lovely|awesome|excellent|"
    r"wonderful|fantastic|amazing|ideal|brilliant|alright|cool|spot\s+on)"
)
_WORKS = r"(?:that|this|it)(?:\s+one)?(?:\s+(?:would|should|will|does|might|could))?\s+works?"
_CLOSING = (
    r"(?:that|this|it)(?:'s|\s+is|\s+will\s+be|'ll\s+be|\s+would\s+be)\s+(?:(?:all|it|everything)"
    r"(?:\s+(?:that\s+)?i\s+need(?:ed)?)?|what\s+i\s+want(?:ed)?)"
    r"|i\s+(?:have|know|got)\s+(?:everything|all)(?:\s+(?:that\s+)?i\s+need(?:ed)?)?"
)
_DECLINE = (
    r"not\s+(?:now|right\s+now|yet|today|at\s+the\s+moment|really)|(?:perhaps|maybe)\s+later|"
    r"later|(?:it\s+)?depends|nothing(?:\s+else)?|no\s+need|i'?m\s+(?:good|fine|all\s+set)|"
    r"all\s+(?:good|set|correct)|correct|confirmed|proceed(?:\s+now)?|go\s+ahead|"
    r"possibly|perhaps|maybe|goodbye|bye|buh[-\s]?bye|bye[-\s]?bye|yup|yep|nope|noted|understood|"
    r"got\s+it"
)
# A spec's label that excludes what follows it: "Out of scope: onboarding module (HiBob covers
# this)", "Not needed: SSO".
EXCLUDED_LABEL_RE = re.compile(
    r"^(?:out\s+of\s+scope|not\s+in\s+scope|excluded|exclusions?|not\s+included|not\s+needed|"
    r"non[-\s]goals?)\s*[:：]\s*(?P<opt>[^,;:()]+?)\s*(?=[(,;.]|$)",
    re.I,
)


# A lead-in that announces what follows and states nothing itself: "OK so to confirm in
# English", "To recap for my husband", "Regarding pendant", "As for the budget".
_RECAP = (
    r"^(?:(?:ok(?:ay)?|so|and|just|right)[\s,]+)*to\s+(?:confirm|recap|summari[sz]e|sum\s+up|"
    r"clarify|be\s+clear|double[-\s]check)"
)
LEAD_IN_RE = re.compile(
    rf"{_RECAP}(?:\s+(?:in|for|with)\s+[\w']+(?:\s+[\w']+)?)?\W*$"
    r"|^(?:regarding|re|as\s+(?:for|to|regards)|concerning|about|with\s+regards?\s+to)\s+"
    # Not an amount: "About 20 people" states one.
    r"(?!\d|(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|half|a\s+dozen)\b)"
    r"(?:the\s+|my\s+|our\s+)?[\w'-]+(?:\s+[\w'-]+)?\W*$",
    re.I,
)
# The same lead-in opening a sentence that goes on ("To recap for my husband: under 300").
LEAD_IN_OPENS_RE = re.compile(rf"{_RECAP}\b", re.I)
ASSENT_RE = re.compile(
    rf"^{_ASSENT_LEAD}(?:{_JUDGED}|{_WORKS}|{_CLOSING}|{_DECLINE})"
    r"(?:\s+(?:for|to|with)\s+(?:me|us))?"
    r"(?:\s+(?:for\s+now|right\s+now|at\s+the\s+moment|now))?"
    rf"(?:\W+(?:yes|{_THANKS}))?\W*$"
    r"|^(?:那就好|那太好了|太好了|好吧|行吧|可以的?|没问题|知道了|明白了|清楚了|了解了|记住了|记好了|好嘞|"
    r"谢谢|多谢|感谢|拜拜|再见)[了啊呀吧哈！!。.]*$",
    re.I,
)

# Idioms of flat refusal said on their own ("Crocs? Over my dead body."): a closed class.
REFUSAL_IDIOMS = r"over\s+my\s+dead\s+body|not\s+in\s+a\s+million\s+years|not\s+on\s+your\s+life"

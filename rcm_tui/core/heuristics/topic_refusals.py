"""A topic named first and refused sentences later (issue 12, session 23).

    Infrared. Ah yes, sitting in a warm wardrobe with glowing panels and calling it a sauna.
    Hard pass.
    Finnmark, the one whose website looks like it was built in 2003? Rang them four times,
    never heard back. So, no.

A user going through options one by one names the option alone (a sentence that is only a
name, or a name with "the one …" after it), says what they think, and ends on a bare refusal
("Hard pass.", "So, no.", "No thanks."). Each sentence alone turns nothing down: the name has
no verdict, the refusal no name. Read together, the refusal is about the topic. Only the
nearest topic within three sentences before it, and only when the rules read no rejection in
between (that one is what the refusal sums up).

Chinese points back with "that one" (`_pointed_back`, session 29): "GL8老款我二舅开过 大是真大 …
那个就算了" — a verdict on 那个/这个 standing alone (or after clauses that name nothing) turns down
the nearest sentence before it that opens with a latin name or with "X那个/那种".
"""

from __future__ import annotations

import re

from .cues import ACK_WORDS, REFUSAL_IDIOMS
from .option_shapes import names_no_thing
from .rejections import RejectionHit
from .sentences import Sentence, strip_discourse, tidy
from .verdicts import PRONOUNS
from .zh_topic_verdicts import is_anaphoric_verdict, named_topic

# A sentence that is a refusal and nothing else, after a word of talk ("So, no.", "lol no").
_BARE_REFUSAL_RE = re.compile(
    r"^(?:(?:so|ok|okay|ah|honestly|lol|lmao|yeah|well|and|but|sorry|um|erm)[,\s]+)*"
    r"(?:no|nope|nah|hard\s+pass|pass|no\s+thanks|no\s+thank\s+you|not\s+for\s+(?:me|us)|"
    r"no\s+way|no\s+chance|not\s+happening|never\s+again|hell\s+no|absolutely\s+not|"
    rf"definitely\s+not|thanks\s+but\s+no(?:\s+thanks)?|not\s+a\s+chance|{REFUSAL_IDIOMS}|"
    r"forget\s+it)[.!\s]*$"
    r"|^(?:所以|那|反正)?[，,]?(?:不要|算了|免了|拉倒|不考虑|pass)了?[。！!～~]*$",
    re.I,
)
# A sentence that is only a name ("Infrared.") or a name and "the one …" ("Finnmark, the one
# whose website …?").
_TOPIC_RE = re.compile(
    r"^(?P<topic>[^\s,.;:!?，。；：！？][^,.;:!?，。；：！？]{0,40}?)"
    r"(?:\s*[.!?。！？]+$|\s*[,，]\s*(?:the|that)\s+one\b)",
    re.I,
)
_TOPIC_WORDS_MAX = 4
# Words that make a short sentence a clause, not a name.
_CLAUSE_WORDS = frozenset(
    """i we you he she they me us him them my our your his her their is are was were be been
    am has have had do does did will would can could should shall may might must""".split()
)
_DETERMINERS = frozenset("the a an".split())
_LOOK_BACK = 3
_FAMILY = "topic_refusal"
# A question put to the listener ("Have you been?") is what a bare "No." after it answers; a
# rhetorical one ("Who wants to sit in a glowing wardrobe?") is part of the verdict.
_ASKS_THE_LISTENER_RE = re.compile(r"\b(?:you|your|yours)\b|你|您", re.I)


def _topic(sentence: Sentence) -> str | None:
    said = strip_discourse(sentence.text)
    if _BARE_REFUSAL_RE.match(said):
        return None  # "Hard pass." is the verdict of the topic before it
    m = _TOPIC_RE.match(said)
    # "Sunday? No." answers its own question; "Finnmark, the one whose …?" names a topic.
    if not m or (sentence.question and "one" not in m.group().casefold().split()[-1:]):
        return None
    topic = m.group("topic").strip()
    words = topic.casefold().split()
    if not words or len(words) > _TOPIC_WORDS_MAX or not any(c.isalpha() for c in topic):
        return None
    if words[0] in ACK_WORDS or words[0] in PRONOUNS or names_no_thing(topic):
        return None
    if _CLAUSE_WORDS & set(words) or (len(words) > 1 and words[-1].endswith("ed")):
        return None  # "My wife laughed.", "It is what it is."
    if words[0] in _DETERMINERS and len(words) > 2 and topic.split()[-1].islower():
        return None  # "The panels glow." ("The Red Lion." names a place)
    return topic


def topic_refusals(sentences: list[Sentence], hits: list[RejectionHit]) -> list[RejectionHit]:
    """A hit for each bare refusal whose topic was named alone a few sentences before it."""
    ruled = {h.sentence for h in hits}
    found = _pointed_back(sentences, ruled)
    for at, sentence in enumerate(sentences):
        if sentence.question or not _BARE_REFUSAL_RE.match(strip_discourse(sentence.text)):
            continue
        for back in range(at - 1, max(-1, at - 1 - _LOOK_BACK), -1):
            if sentences[back].index in ruled:
                break  # the refusal sums up a rejection the rules read
            if _ASKS_THE_LISTENER_RE.search(sentences[back].text) and sentences[back].question:
                break  # "Paris. Have you been? No.": the refusal answers the question
            topic = _topic(sentences[back])
            if topic is None:
                continue
            # "Cruises. Floating petri dishes. No thanks.": a fragment right after the topic
            # describes it; the first of a run of them is the topic.
            while back > 0 and sentences[back - 1].index not in ruled:
                earlier = _topic(sentences[back - 1])
                if earlier is None:
                    break
                back, topic = back - 1, earlier
            between = " ".join(s.text for s in sentences[back + 1 : at])
            named_at = sentences[back].index
            found.append(
                RejectionHit(topic, tidy(between, 200), named_at, 0, False, family=_FAMILY)
            )
            break
    return found


# A Chinese message typed with spaces for commas ("GL8老款我二舅开过 大是真大 … 那个就算了"):
# each piece is a sentence, so "that one" may point back several of them.
_ZH_LOOK_BACK = 6


def _pointed_back(sentences: list[Sentence], ruled: set[int]) -> list[RejectionHit]:
    """A Chinese verdict on "that one" standing alone turns down the nearest option a sentence
    before it opened with (unless a rejection the rules read came between)."""
    found: list[RejectionHit] = []
    for at, sentence in enumerate(sentences):
        if sentence.index in ruled or not is_anaphoric_verdict(sentence.text):
            continue
        for back in range(at - 1, max(-1, at - 1 - _ZH_LOOK_BACK), -1):
            if sentences[back].index in ruled:
                break
            topic = named_topic(sentences[back].text)
            if topic is not None:
                between = tidy("，".join(s.text for s in sentences[back:at]), 200)
                named_at = sentences[back].index
                found.append(RejectionHit(topic, between, named_at, 0, False, family=_FAMILY))
                break
    return found

"""The option a rejecting phrase names: where the name ends, lists split, a category told
from a product."""

from __future__ import annotations

import re

from .options import strip_option_noise
from .text import CJK_CHAR_RE, word_set

# Phrases that cannot be an option: quantities, pronouns, and the heads of idioms that look like
# rejections ("no problem with X", "no need to", "don't worry", "不用担心").
BAD_OPTION_STARTS = word_set(
    """anything something everything nothing more less fewer any all too much many that this
    it them those these me us you yourself myself worry worrying forget problem problems need
    idea matter doubt way rush hurry longer later further sure mind offense offence pressure
    clue issue issues deal harm reason thanks thank worries to be well good great fine
    for during from
    yet really quite only just so very one how what why when where whether if
    i i've i'm i'd i'll we we've we're we'd he she they him her no yes"""
)


_ZH_BAD_OPTION_START_RE = re.compile(
    r"^(?:担心|着急|急|说|谢|客气|管|怕|忘|超过|多于|少于|低于|高于|大于|小于|太|让|把|在|给|离|距离|"
    r"比|往|向|从|"
    r"再|还|只|都|这|那|它|一直|总是|每|被|对|跟|和|从|了|推荐|提)"
)


# Where the option phrase ends: a preposition, conjunction or pronoun after the name.
_OPTION_CUT_START_RE = re.compile(
    r"\s+(?:because|since|as|so|for|in|on|at|to|from|with|under|over|inside|within|across|"
    r"during|via|which|that|who|when|if|unless|until|anymore|any\s+more|at\s+all|please|here|"
    r"there|either|though|now|again|yet|ever|but|we|it|they|you|i|then|while|after|before|"
    r"anywhere|whatsoever|anyways?|this\s+yr|"
    # "No big cities this time": when, not which.
    # A hyphen makes one word of it: "in-ear", "on-site", "in-house" are no preposition.
    r"this\s+(?:time|year|round|trip|weekend|week|month|summer|winter|spring|autumn|fall))\b(?!-)",
    re.I,
)


# "Ruby on Rails", "Infrastructure as Code", "Bank of America": capitalised words joined by a
# lowercase connector are one name, so the connector is no cut there. A connector followed by
# a lowercase word ("Kafka as a queue", "Redis on the hot path") still ends the name.
_CONNECTED_NAME_RE = re.compile(r"\b[A-Z][\w.+#'-]*(?:\s+(?:on|of|as|for|de)\s+[A-Z][\w.+#'-]*)+")


_COUNTED_QUALIFIER_RE = re.compile(r"\s+(?:of|with|for)\s+(?:\d|more\s+than|over|up\s+to)", re.I)


def _cut_option(raw: str) -> str:
    """The option phrase up to where a preposition/conjunction starts the rest of the clause."""
    protected = [m.span() for m in _CONNECTED_NAME_RE.finditer(raw)]
    counted = _COUNTED_QUALIFIER_RE.search(raw)
    if counted:
        raw = raw[: counted.start()]  # "group walks of 6+ dogs": the walks
    for cut in _OPTION_CUT_START_RE.finditer(raw):
        if not any(start < cut.start() < end for start, end in protected):
            return raw[: cut.start()]
    return raw


# "drag-and-drop", "bed-and-breakfast": a conjunction inside a hyphenated word joins nothing.
LIST_SPLIT_RE = re.compile(
    r"\s*(?:,|(?<!-)\bor\b(?!-)|(?<!-)\band\b(?!-)|\bnor\b|/|、|或者|或|和)\s*", re.I
)


# Words that open an item of a rejected list without naming it: "no X and no Y",
# "both X and Y", "neither X nor Y", "don't use either X or Y".
_LIST_ITEM_LEAD_RE = re.compile(r"^(?:(?:no|not|nor|neither|both|either)\s+)+", re.I)


# Heads that name a state of mind or an abstraction, never an option: "no strong feelings",
# "no real preference", "no big plans".
_ABSTRACT_HEADS = word_set(
    """feeling feelings opinion opinions preference preferences clue
    objection objections complaint complaints thought thoughts strong rush worries doubt
    doubts pressure hurry interest expectations questions comment comments luck offense chance
    way capacity bandwidth time room money appetite budget deal plans ideas exceptions
    exception excuses excuse"""
)


# Chat noise that can trail a phrase: "heights lmao".
_INTERJECTION_TAIL_RE = re.compile(
    r"(?:\s+(?:lol|lmao|haha+|hehe|tbh|imo|xd|ugh|omg|pls|plz|please|thx|tho|though))+\s*$", re.I
)


def clean_options(raw: str, *, allow_gerund: bool = True) -> list[str]:
    """Option names from the phrase after a rejection cue, or [] when it is no option."""
    phrase = _INTERJECTION_TAIL_RE.sub("", _cut_option(raw.strip()))
    options: list[str] = []
    for part in LIST_SPLIT_RE.split(phrase):
        option = strip_option_noise(_LIST_ITEM_LEAD_RE.sub("", part.strip()))
        words = option.split()
        if not option or len(words) > 4:
            continue
        first = words[0].lower()
        # An acronym is a name, not the pronoun it spells: "US hosting", "IT support".
        acronym = len(words) > 1 and words[0].isupper() and len(words[0]) > 1
        if (first in BAD_OPTION_STARTS and not acronym) or first[0].isdigit():
            continue
        proper_name = len(words) > 1 and all(w[:1].isupper() for w in words)
        if words[-1].lower() in _ABSTRACT_HEADS and not proper_name:
            continue  # "no strong feelings", but "the West Highland Way" is a name
        if _ZH_BAD_OPTION_START_RE.match(option):
            continue
        if not allow_gerund and first.endswith("ing") and len(words) > 1 and _verb_gerund(words):
            continue
        if _ASPECT_SUFFIX_RE.search(option):
            continue  # "not AWS-specific" qualifies something else, it rejects no option
        options.append(option)
    return options


# After a gerund that is a verb comes what it acts on ("shelling out to rclone", "using the
# cloud"); after one that is an adjective, its noun ("connecting flights", "running shoes").
_GERUND_OBJECT_STARTS = word_set(
    """out up off down over into onto to with on in at for from about around through back
    away along across the a an our my your
    their his her its this that these those any some it them us me him"""
)


def _verb_gerund(words: list[str]) -> bool:
    return words[1].lower() in _GERUND_OBJECT_STARTS or len(words) == 1


_INDEFINITE_RE = re.compile(r"^\s*(?:a|an|any)\s", re.I)


_UPPER_OR_DIGIT_RE = re.compile("[A-Z0-9]")


NAME_MARK_RE = re.compile(r"[A-Z0-9]|[-.+#]\w")


def looks_generic(raw: str, option: str) -> bool:
    """'a document store' names a category; 'MongoDB' names a product."""
    return bool(_INDEFINITE_RE.match(raw)) and not _UPPER_OR_DIGIT_RE.search(option)


def looks_like_name(option: str) -> bool:
    return bool(NAME_MARK_RE.search(option)) or bool(CJK_CHAR_RE.search(option))


_ASPECT_SUFFIX_RE = re.compile(
    r"-(?:specific|only|based|dependent|compatible|bound|related|friendly|aware|like|style)$", re.I
)

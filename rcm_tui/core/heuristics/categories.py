"""Categories a user can reject, and their members: what else a rejected option covers.

"No flat foods" rules out pancakes; "I hate taxis" rules out a cab; "no Kubernetes" rules out
EKS. The lexicon (categories.json) is built by scripts/build_guard_lexicon.py from WordNet's
hyponyms and hand-written members; this module finds the categories an option names and the
places in a text where one of their members occurs. Members are matched like option names
(whole tokens, plural, hyphen and spacing tolerated).
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

from .bridge_zh import broader_names, chinese_words, english_heads, english_names, zh_object
from .hierarchy import (
    activity_senses,
    all_senses,
    base_forms,
    broad_senses,
    defined_spans,
    hyponym_spans,
    kind_of,
    option_senses,
    same_as,
)
from .options import (
    option_spans,
    option_variants,
    same_option,
    strip_option_noise,
    token_spans,
)
from .text import CJK_CHAR_RE, tokenise

_LEXICON_FILE = "categories.json"


@functools.cache
def _lexicon() -> tuple[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]], ...]:
    raw = json.loads(resources.files(__package__).joinpath(_LEXICON_FILE).read_text("utf-8"))
    return tuple(
        (tuple(tuple(tokenise(n)) for n in entry["names"]), tuple(entry["members"]))
        for entry in raw.values()
    )


def _names_modifier(tokens: tuple[str, ...], name: tuple[str, ...]) -> bool:
    """Is `name` a modifier inside the option ("sugary" in "sugary snacks", 屏幕 in 有屏幕的玩具)?

    A name at the end of the option is its head, narrowed by what comes before: "used
    clothing" is not all clothing, so a new jacket is not one of its members.
    """
    size = len(name)
    if not size:
        return False
    if tokens and CJK_CHAR_RE.match(tokens[0]) and "的" in tokens:
        # Chinese characters are tokens: after 的 comes the noun, whose characters do not
        # say which kind (猫 of 含谷的猫粮, "cat food with grain"); the attribute before the
        # last 的 does (有屏幕的玩具).
        last_de = len(tokens) - 1 - tokens[::-1].index("的")
        stop = last_de - size + 1
    else:
        stop = len(tokens) - size  # never at the end
    return any(tokens[i : i + size] == name for i in range(stop))


def _is_product_name(option: str) -> bool:
    """"AWS API Gateway", "Microsoft Teams": a name in title case is one product, not the
    category its first word names; ECS is AWS but no API gateway. "Samsung phones" or
    "AWS services" (a common noun after the name) are the category's members."""
    words = strip_option_noise(option).split()
    return len(words) >= 2 and all(w[:1].isascii() and w[:1].isupper() for w in words)


def _conjuncts(option: str) -> list[list[tuple[str, ...]]]:
    """"taxis and buses" → two options; each is looked up on its own, under each of its
    forms."""
    parts = _CONJUNCTION_RE.split(strip_option_noise(option))
    return [_number_forms(p) for p in parts if tokenise(p)]


def _number_forms(phrase: str, *, singulars: bool = True) -> list[tuple[str, ...]]:
    """The phrase as said, and in the other number: "coaches" is the lexicon's "coach",
    "dish" its "dishes". Token keys singularise crudely ("coaches" → "coache"), so a plural's
    singular is tried as WordNet's morphy would, and a singular's plural as people write it."""
    *head, last = phrase.split()
    word = last.lower()
    forms = base_forms(word) if singulars and word.endswith("s") else [word, _plural(word)]
    out: list[tuple[str, ...]] = []
    for form in forms:
        tokens = tuple(tokenise(" ".join([*head, form])))
        if tokens and tokens not in out:
            out.append(tokens)
    return out


def _plural(word: str) -> str:
    if not word.isascii() or not word.isalpha():
        return word
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    return word + "s"


_CONJUNCTION_RE = re.compile(r"\s*(?:\band\b|\bor\b|&|/|,|、|和|或者?|及)\s*", re.I)


@functools.lru_cache(maxsize=256)
def category_members(option: str) -> tuple[str, ...]:
    """The members of the categories the option is, or names as its defining modifier:
    "flat foods", "sugary snacks" (sweets), "有屏幕的玩具" (screens). Empty for anything else."""
    members: list[str] = []
    for forms in _conjuncts(option):
        exact = [c for names, c in _lexicon() if any(f in names for f in forms)]
        modified = [] if _is_product_name(option) else [
            c for names, c in _lexicon() if any(_names_modifier(f, n) for f in forms for n in names)
        ]
        for category in exact or modified:
            members += [m for m in category if m not in members]
    return tuple(members)


def _exact(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])")


@functools.lru_cache(maxsize=256)
def _matcher(option: str) -> tuple[frozenset[str], frozenset[str], tuple[re.Pattern[str], ...]]:
    """The option's names and its members as token keys (and their prefixes), plus short
    all-caps names ("ES", "R") that only match in their own case. Built once per option, so a
    reply is matched in one pass per line."""
    keys: set[str] = set()
    exact: list[re.Pattern[str]] = []
    bare = strip_option_noise(option)
    if len(tokenise(bare)) == 1 and len(bare) <= 2 and any(c.isupper() for c in bare):
        exact.append(_exact(bare))  # as options.option_matches does for "Go", "R", "C"
    else:
        keys.update("".join(variant) for variant in option_variants(option))
    for member in category_members(option):
        if len(member) <= 3 and member.isupper():
            exact.append(_exact(member))
        else:
            # A reply names members in either number: "sandwiches" for the member "sandwich".
            keys.update("".join(f) for f in _number_forms(member, singulars=False))
    prefixes = {key[:i] for key in keys for i in range(1, len(key))}
    return frozenset(keys), frozenset(prefixes), tuple(exact)


_WORD_RE = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]|[A-Za-z]")
_MODIFIER_WINDOW = 3
# A comma may join a modifier to its noun ("a loud, buzzy trattoria"); nothing else does.
_PHRASE_BREAK_RE = re.compile(r"[;:.!?()\[\]—–]")
# Words before an option's head that quantify it rather than say which kind it is.
_DETERMINERS = frozenset(
    "a an the any some all more most other such my our your their no too very much many "
    "anything something".split()
)


@functools.lru_cache(maxsize=256)
def _modified_head(option: str) -> tuple[frozenset[int], frozenset[str]]:
    """For an option WordNet does not list as a whole ("spicy food", "used clothing", "long
    walks"): the senses of its head noun and the forms of its modifiers. A kind of the head
    with one of the modifiers right before it is the option ("a spicy vindaloo", "a long
    hike"); the head alone is not (a mild curry is food, not spicy food)."""
    bare = strip_option_noise(option)
    words = [w.lower() for w in _WORD_RE.findall(bare)]
    if len(words) < 2 or CJK_CHAR_RE.search(bare) or option_senses(option):
        return frozenset(), frozenset()
    forms = {f for w in words[:-1] if w not in _DETERMINERS for f in _modifier_forms(w)}
    return (all_senses(words[-1]) if forms else frozenset()), frozenset(forms)


def _modifier_forms(word: str) -> list[str]:
    """'spicy' → spicy, spicier, spiciest; 'second-hand' → secondhand; 'long' → longer; and
    what says the same: 'cheap' → inexpensive, low-cost, affordable."""
    bare = word.replace("-", "")
    stem = bare[:-1] + "i" if bare.endswith("y") else bare.removesuffix("e")
    synonyms = [s.replace("-", "") for s in same_as(word) if " " not in s]
    return [bare, stem + "er", stem + "est", *_noun_of(bare), *synonyms]


def _noun_of(adjective: str) -> list[str]:
    """The noun an adjective in -y is made from, as a definition names it: furry → fur,
    spicy → spice, sugary → sugar, nutty → nut."""
    if not adjective.endswith("y") or len(adjective) < 5:
        return []
    stem = adjective[:-1]
    undoubled = stem[:-1] if len(stem) > 3 and stem[-1] == stem[-2] else stem
    return [f for f in {stem, undoubled, stem + "e"} if f != adjective]


def _modified(before: str, modifiers: frozenset[str]) -> bool:
    """Is one of the modifiers among the last few words before a match, in the same phrase?"""
    phrase = _PHRASE_BREAK_RE.split(before)[-1]
    near = [w.lower().replace("-", "") for w in _WORD_RE.findall(phrase)[-_MODIFIER_WINDOW:]]
    return any(w in modifiers for w in near)


def guard_spans(option: str, text: str, *, wide: bool = False) -> list[tuple[int, int]]:
    """Where in `text` the option, another name of it, a member of a category it names, or
    (by WordNet) a kind of it occurs: whole tokens, plural, hyphen and spacing tolerated.

    `wide` (the guard reading an assistant's reply) also finds: what an activity is done with,
    what lies just below a general option, a kind of the head of a modified option with its
    modifier, a brand before a generic head, and either language (a Chinese word by the
    English nouns it means, a Chinese option under its English names and by its object).
    """
    if not wide:
        return _spans(option, text, wide=False)
    option = _WHERE_NOISE_RE.sub("", option) or option
    spans = set(_spans(option, text, wide=True))
    obj = zh_object(option) if CJK_CHAR_RE.search(option) else _brand_of(option)
    if obj != option:
        spans.update(_spans(obj, text, wide=True))
    broader = broader_names(option)
    for name in english_names(option):
        found = _spans(name, text, wide=True)
        if name in broader:
            found = _without_siblings(option, text, found)
        spans.update(found)
    return sorted(spans)


def _without_siblings(
    option: str, text: str, spans: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The spans found under a name broader than a Chinese option (公路车 is glossed "racing
    bicycle", read as bicycle), less the Chinese words that share the option's head character
    but mean something else: 山地车 ("mountain bike") beside 公路车, 红酒 beside 白酒 are kinds of
    the same thing, not kinds of the option. A word that means what the option means, and 茅台,
    which shares no character with 白酒, are still read."""
    bare = option.strip().rstrip("的了")
    head, names = bare[-1:], set(english_names(option))

    def sibling(a: int, b: int) -> bool:
        word = text[a:b]
        return (
            bool(CJK_CHAR_RE.match(head))
            and head in word
            and word != bare
            and not names & set(english_heads(word))
        )

    return [(a, b) for a, b in spans if not sibling(a, b)]


# "no carpet anywhere", "no sugar ever": where or when the user refuses it, not what.
_WHERE_NOISE_RE = re.compile(
    r"\s+(?:anywhere|anyplace|everywhere|ever|any\s*more|in\s+(?:the|my|our)\s+house)\s*$", re.I
)


def name_spans(option: str, text: str) -> list[tuple[int, int]]:
    """Where the option is named, in either language: its own names and aliases, a Chinese
    word that means it (酒店 for "hotels"), a Chinese option's English names and object."""
    spans = set(option_spans(option, text))
    if CJK_CHAR_RE.search(option):
        for name in (*english_names(option), zh_object(option)):
            spans.update(option_spans(name, text))
    elif CJK_CHAR_RE.search(text):
        spans.update(
            (start, end) for word, start, end in chinese_words(text) if _means(option, word)
        )
    return sorted(spans)


@functools.lru_cache(maxsize=8192)
def _means(option: str, word: str) -> bool:
    """Is the Chinese word another name of the (English) option: 酒店 of "hotels"?"""
    return any(same_option(option, noun) for noun in english_heads(word))


@functools.lru_cache(maxsize=8192)
def _is_kind(option: str, word: str) -> bool:
    """Is the Chinese word, by the English nouns it means, the option or a kind of it? Not by
    those nouns' definitions: a dictionary gloss then a definition is two guesses deep."""
    return any(_names_head(option, noun) for noun in english_heads(word))


# Heads that say only "something of": "Windows machines", "Apple products", "Google services"
# name the brand before them.
_GENERIC_HEAD_RE = re.compile(
    r"^(.+?)(?:\s+(?:machines?|products?|devices?|stuff|things?|brands?|services?|gear|kit|"
    r"ecosystem|platforms?)|-(?:focused|heavy|related|oriented|centric|"
    r"themed)(?:\s+\w+)?)$",
    re.I,
)


def _brand_of(option: str) -> str:
    """'Windows machines' → 'Windows', 'drinking-focused stuff' → 'drinking'; the option
    itself otherwise."""
    match = _GENERIC_HEAD_RE.match(strip_option_noise(option))
    return match.group(1) if match else option


def _defined_as(option: str, run: str, terms: tuple[str, ...]) -> bool:
    """Does the definition of a reply's noun make it the option: made of it or like it
    (paella for "shellfish", velour for "velvet"), or, for a modified option, a kind of its
    head that the definition gives the modifier ("flat cake" for "flat foods")? Terms marked
    "~" are adjectives, which only say a modifier."""
    if any(_names_head(option, term) for term in terms if not term.startswith("~")):
        return True
    head_senses, modifiers = _modified_head(option)
    return (
        bool(head_senses)
        and any(t.lstrip("~") in modifiers for t in terms)
        and kind_of(run, head_senses)
    )


@functools.lru_cache(maxsize=16384)
def _names_head(option: str, term: str) -> bool:
    """Is the noun of a definition the option or a kind of it, as its head ("pine nut" for
    nuts)? Not through definitions again: one step from the reply's word."""
    return any(
        end == len(term) for _start, end in _spans(option, term, wide=True, defined=False)
    )


@functools.lru_cache(maxsize=4096)
def _covers(option: str, noun: str) -> bool:
    """Is the English noun the option, another name of it, a member or a kind of it? The
    match must end the noun, its head: "coffee shop" is a shop, not coffee."""
    return any(end == len(noun) for _start, end in _spans(option, noun, wide=True))


def _spans(
    option: str, text: str, *, wide: bool, defined: bool = True
) -> list[tuple[int, int]]:
    keys, prefixes, exact = _matcher(option)
    spans = {m.span() for pattern in exact for m in pattern.finditer(text)}
    senses = option_senses(option)
    if wide:
        senses |= activity_senses(option)
    near = broad_senses(option) if wide else frozenset()
    head_senses, modifiers = _modified_head(option) if wide else (frozenset(), frozenset())
    by_definition = wide and defined and not CJK_CHAR_RE.search(option)
    if senses or near or head_senses or by_definition:
        words = [(m.group().lower(), m.start(), m.end()) for m in _WORD_RE.finditer(text)]
        if by_definition:
            spans.update(defined_spans(words, functools.partial(_defined_as, option)))
        if senses or near:
            spans.update(hyponym_spans(senses, words, near))
        if head_senses:
            spans.update(
                (start, end)
                for start, end in hyponym_spans(head_senses, words)
                if _modified(text[:start], modifiers)
            )
    if wide and not CJK_CHAR_RE.search(option) and CJK_CHAR_RE.search(text):
        spans.update(
            (start, end) for word, start, end in chinese_words(text) if _is_kind(option, word)
        )
    if keys:
        hay = token_spans(text)
        for i in range(len(hay)):
            acc = ""
            for j in range(i, len(hay)):
                acc += hay[j].text
                if acc in keys:
                    spans.add((hay[i].start, hay[j].end))
                if acc not in prefixes:
                    break
    return sorted(spans)

"""WordNet's noun hierarchy: is a word in a reply a kind of what the user rejected?

A rejected option that WordNet knows ("leather", "taxi", "hats", "tie") covers every noun
whose most frequent senses lie below one of the option's senses: suede is leather, a fedora is
a hat, a bow tie is a tie. The hierarchy (noun_hierarchy.json.gz) is built with the category
lexicon by scripts/build_guard_lexicon.py. Only a reply word's two most frequent senses count,
so a rare sense does not make it a member; option senses too general to be a category ("food",
"device") are left out at build time.
"""

from __future__ import annotations

import functools
import gzip
import json
from collections.abc import Callable
from importlib import resources

from .text import CJK_CHAR_RE, STOPWORDS

_HIERARCHY_FILE = "noun_hierarchy.json.gz"
# How far above a reply word its kind may be found: pancake → cake → baked goods → food.
_MAX_LEVELS = 8
_MAX_WORDS = 3
_READ_SENSES = 2


@functools.cache
def _hierarchy() -> tuple[dict[str, list[int]], list[list[int]], frozenset[int]]:
    packed = resources.files(__package__).joinpath(_HIERARCHY_FILE).read_bytes()
    data = json.loads(gzip.decompress(packed))
    _derived.update({int(k): v for k, v in data.get("derived", {}).items()})
    _adjectives.update(data.get("adjectives", {}))
    _glosses.update({int(k): tuple(v.split("|")) for k, v in data.get("glosses", {}).items()})
    return data["lemmas"], data["parents"], frozenset(data["general"])


# An activity's sense → the senses of the things it is done with or in ("driving" → a drive,
# a ride; "camping" → a tent), filled when the hierarchy is read.
_derived: dict[int, list[int]] = {}
# An adjective → the adjectives that say the same of a thing ("cheap" → inexpensive, low-cost).
_adjectives: dict[str, list[str]] = {}
# A thing's sense → the nouns its definition names, what it is made of or like: devil's food →
# chocolate, cake; velour → fabric, velvet; paella → rice, shellfish, chicken.
_glosses: dict[int, tuple[str, ...]] = {}


def same_as(adjective: str) -> tuple[str, ...]:
    """What WordNet says the same with as the adjective's most frequent sense."""
    _hierarchy()
    return tuple(_adjectives.get(adjective, ()))


def warm() -> None:
    """Read the hierarchy now (about half a second): the app calls this off its event loop after
    the first frame, so the first reply's guard does not pay for it."""
    _hierarchy()


def base_forms(word: str) -> list[str]:
    """The word and its singular candidates, as WordNet's morphy would try them."""
    forms = [word]
    for suffix, base in (("ies", "y"), ("ves", "f"), ("ches", "ch"), ("shes", "sh"),
                         ("ses", "s"), ("xes", "x"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) + len(base) >= 3:
            forms.append(word[: -len(suffix)] + base)
    return forms


def _senses(phrase: str) -> list[int]:
    """The senses of the phrase under each of its base forms, most frequent first: "taxis"
    is both a locomotor response and the plural of taxi."""
    lemmas, _parents, _general = _hierarchy()
    *head, last = phrase.lower().split()
    senses: list[int] = []
    for form in base_forms(last):
        senses += [s for s in lemmas.get("_".join([*head, form]), []) if s not in senses]
    return senses


@functools.lru_cache(maxsize=256)
def option_senses(option: str) -> frozenset[int]:
    """The senses of a rejected option that can be a category, or none."""
    _lemmas, _parents, general = _hierarchy()
    if CJK_CHAR_RE.search(option) or not option.strip():
        return frozenset()
    return frozenset(s for s in _senses(option) if s not in general)


@functools.lru_cache(maxsize=256)
def activity_senses(option: str) -> frozenset[int]:
    """What an activity the user won't do is done with or in: "driving" → a ride, a drive
    along the coast; "cycling" → a bike. Empty for an option that is no activity."""
    return frozenset(d for s in option_senses(option) for d in _derived.get(s, ()))


@functools.lru_cache(maxsize=8192)
def _kinds(sense: int, levels: int = _MAX_LEVELS) -> frozenset[int]:
    """The sense and everything above it, up to `levels` levels."""
    _lemmas, parents, _general = _hierarchy()
    seen = {sense}
    frontier = [sense]
    for _ in range(levels):
        frontier = [p for f in frontier for p in parents[f] if p not in seen]
        seen.update(frontier)
    return frozenset(seen)


@functools.lru_cache(maxsize=65536)
def kind_of(words: str, senses: frozenset[int], near: frozenset[int] = frozenset()) -> bool:
    """Is the most frequent sense of `words` one of `senses`, or below one of them? Or is its
    most frequent sense a few levels below one of `near` (senses too general to be searched at
    full depth)?"""
    found = _senses(words)
    if any(_kinds(s) & senses for s in found[:_READ_SENSES]):
        return True
    return bool(near and found and _kinds(found[0], _NEAR_LEVELS) & near)


# How far below a general option sense a reply word may be: a peony is a flower (one level),
# a fedora a hat; a goat is not "animals" (seven levels down), so no reply about a farm is one.
_NEAR_LEVELS = 3


@functools.lru_cache(maxsize=256)
def broad_senses(phrase: str) -> frozenset[int]:
    """The senses of an option too general to search at full depth ("flowers", "clothing")."""
    _lemmas, _parents, general = _hierarchy()
    if CJK_CHAR_RE.search(phrase) or not phrase.strip():
        return frozenset()
    return frozenset(s for s in _senses(phrase) if s in general)


@functools.lru_cache(maxsize=256)
def all_senses(phrase: str) -> frozenset[int]:
    """Every listed sense of a noun phrase, general or not ("food" for "spicy food")."""
    if CJK_CHAR_RE.search(phrase) or not phrase.strip():
        return frozenset()
    return frozenset(_senses(phrase))


def hyponym_spans(
    senses: frozenset[int], words: list[tuple[str, int, int]], near: frozenset[int] = frozenset()
) -> list[tuple[int, int]]:
    """Spans of the words (and runs of up to three words) that are a kind of `senses` (or of
    `near`, a few levels down).

    `words`: (lower-case word, start, end) for each latin word of the text, in order.
    """
    spans: list[tuple[int, int]] = []
    for i in range(len(words)):
        if words[i][0] in STOPWORDS:
            continue
        for size in range(min(_MAX_WORDS, len(words) - i), 0, -1):
            run = words[i : i + size]
            if kind_of(" ".join(w for w, _s, _e in run), senses, near):
                spans.append((run[0][1], run[-1][2]))
                break
    return spans


@functools.lru_cache(maxsize=65536)
def defined_by(words: str) -> tuple[str, ...]:
    """The nouns the definition of the most frequent sense of `words` names: "paella" → dish,
    rice, shellfish, chicken. Empty for a word WordNet does not define as a thing."""
    _hierarchy()
    found = _senses(words)
    return _glosses.get(found[0], ()) if found else ()


def defined_spans(
    words: list[tuple[str, int, int]], test: Callable[[str, tuple[str, ...]], bool]
) -> list[tuple[int, int]]:
    """Spans of the words (and runs of up to three words) whose definition passes `test`
    (called with the run and the nouns its definition names); the longest run wins."""
    spans: list[tuple[int, int]] = []
    for i in range(len(words)):
        if words[i][0] in STOPWORDS:
            continue
        for size in range(min(_MAX_WORDS, len(words) - i), 0, -1):
            run = " ".join(w for w, _s, _e in words[i : i + size])
            terms = defined_by(run)
            if terms:
                if test(run, terms):
                    spans.append((words[i][1], words[i + size - 1][2]))
                break
    return spans

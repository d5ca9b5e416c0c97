"""Chinese words read as the English nouns they mean: 的士 is a taxi, 茅台 a liquor.

The guard's kinds and members come from WordNet and an English-first lexicon. A user who
rejected "taxis" is offered 的士; a user who rejected 酒 is offered a bottle of 茅台; a user who
rejected 游乐园 is offered a theme park in English. The bridge (zh_en.json.gz, built from
CC-CEDICT by scripts/build_zh_bridge.py) gives each Chinese word the head nouns of its English
glosses, so a Chinese word is matched as its English nouns would be, and a Chinese option is
matched under its English names as well.

Words are found by longest match over each run of Chinese characters; single characters are
not read as words in a reply (the option's own characters are matched by the option matcher).
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from importlib import resources

from .text import CJK_CHAR_RE

_BRIDGE_FILE = "zh_en.json.gz"
_MAX_WORD = 8
_MIN_WORD = 2


@functools.cache
def _bridge() -> dict[str, list[str]]:
    packed = resources.files(__package__).joinpath(_BRIDGE_FILE).read_bytes()
    data: dict[str, list[str]] = json.loads(gzip.decompress(packed))
    return data


def warm() -> None:
    """Read the bridge now (about a second): called off the event loop with the hierarchy."""
    _bridge()


# Marks a head cut from the words before it ("racing bicycle" → ^bicycle for 公路车): the word is
# a kind of it, so a reply's word reads as it, but an option is narrower than it.
CUT_MARK = "^"


def english_heads(word: str) -> tuple[str, ...]:
    """The English nouns a Chinese word means, most frequent sense first."""
    return tuple(head.lstrip(CUT_MARK) for head in _bridge().get(word, ()))


def _cut_heads(word: str) -> frozenset[str]:
    return frozenset(h[1:] for h in _bridge().get(word, ()) if h.startswith(CUT_MARK))


@functools.lru_cache(maxsize=256)
def broader_names(option: str) -> frozenset[str]:
    """The option's English names that are broader than it (公路车 → bicycle): they name it,
    but a kind of them is no kind of it."""
    bare = option.strip().rstrip("的了")
    return _cut_heads(bare) | _cut_heads(zh_object(bare))


# A verb or quantifier a Chinese option phrase may start with ("买酒", "安排出租车", "任何电子产品",
# "住地下室"): the option is its object.
_LEAD_RE = re.compile(
    r"^(?:任何|所有|一切|再|去|买|安排|住|坐|吃|喝|用|叫|打|要|选|订|点|玩|看|报|带|送|学|练|参加)+"
)
# A quantifier says how much of the option, never which: 任何电子产品 is 电子产品 even where the
# dictionary has no such word.
_QUANTIFIER_RE = re.compile(r"^(?:任何|所有|一切|各种|什么)+")


def zh_object(option: str) -> str:
    """The object of a Chinese option phrase: 安排出租车 → 出租车, 新娘对芒果 → 芒果; the option
    itself when it is a word of its own or what is left is no word."""
    bare = _QUANTIFIER_RE.sub("", option.strip().rstrip("的了")) or option.strip()
    if bare in _bridge():
        return bare  # a word of its own: 打车 is not 车
    # "新娘对芒果(过敏)": what the phrase is about comes after 对.
    rest = _LEAD_RE.sub("", bare.rsplit("对", 1)[-1])
    known = rest in _bridge() or (rest and not CJK_CHAR_RE.search(rest))
    return rest if known else bare


@functools.lru_cache(maxsize=256)
def english_names(option: str) -> tuple[str, ...]:
    """A Chinese option's English names (酒 → wine, liquor, spirits, alcoholic beverage)."""
    bare = option.strip().rstrip("的了")
    if not CJK_CHAR_RE.search(bare):
        return ()
    names = list(english_heads(bare))
    names += [n for n in english_heads(zh_object(bare)) if n not in names]
    return tuple(names)


@functools.lru_cache(maxsize=4096)
def chinese_words(text: str) -> tuple[tuple[str, int, int], ...]:
    """(word, start, end) of every dictionary word of two or more characters, longest first
    at each position, left to right."""
    bridge = _bridge()
    words: list[tuple[str, int, int]] = []
    i = 0
    while i < len(text):
        if not CJK_CHAR_RE.match(text[i]):
            i += 1
            continue
        for size in range(min(_MAX_WORD, len(text) - i), _MIN_WORD - 1, -1):
            word = text[i : i + size]
            if word in bridge:
                words.append((word, i, i + size))
                i += size
                break
        else:
            i += 1
    return tuple(words)

"""Options: normalisation and alias-aware matching."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .text import CJK_CHAR_RE, TOKEN_RE, norm_token, tokenise

# Well-known short forms. Anything not listed still matches across case, plural, hyphens and
# spacing ("python-magic" / "python magic" / "pythonmagic", "micro-services").
_ALIAS_GROUPS: tuple[tuple[str, ...], ...] = (
    ("postgresql", "postgres", "postgre", "psql"),
    ("mongodb", "mongo"),
    ("kubernetes", "k8s", "kube"),
    ("elasticsearch", "elastic search"),
    ("rabbitmq", "rabbit mq"),
    ("javascript", "js"),
    ("microsoft sql server", "sql server", "mssql"),
    ("dynamodb", "dynamo db"),
    ("microservice", "微服务"),
)

_LEADING_NOISE_RE = re.compile(
    r"^(?:the|a|an|any|our|your|their|this|that|these|those|some|using|use\s+of|plain|whole|"
    r"separate|another|such|other)\s+"
    # A light verb before its object: "(not) renting a boom lift again" is the boom lift.
    r"|^(?:renting|hiring|buying|booking|taking|having|getting|ordering|doing|paying\s+for|"
    r"going\s+(?:to|on))\s+(?=(?:a|an|the|any|some|another|more)\s)"
    # A Chinese pronoun before the noun: "它鸡肉(过敏)", "我们家(的)猫".
    r"|^(?:它们?|他们|她们|我们家?|咱们家?|我家)(?:的)?(?!的)(?=[\u4e00-\u9fff])",
    re.I,
)
_TRAILING_NOISE_RE = re.compile(
    r"\s*(?:\b(?:library|libraries|lib|package|packages|approach|option|options|idea|route|"
    r"solution|thing|things|stuff|architecture|framework|altogether|at\s+all|any\s*more|again|"
    r"please|for\s+now|here|there|entirely|completely|whatsoever|either|too|as\s+well|"
    r"for\s+this|for\s+us|still|really|honestly|also|just|ourselves|myself|themselves|yourselves)|[了吧呢啊嘛就也都还㗎喎嘅啩囉咯喇啦呀]|方案|架构|这个方案)\s*$",
    re.I,
)
EDGE_PUNCT = " \t\"'`“”‘’()[]{}<>*_.,;:!?—–-，。！？；：、"


def strip_option_noise(option: str) -> str:
    phrase = option.strip(EDGE_PUNCT)
    for _ in range(4):
        shorter = _LEADING_NOISE_RE.sub("", phrase)
        shorter = _TRAILING_NOISE_RE.sub("", shorter).strip(EDGE_PUNCT)
        if not shorter or shorter == phrase:
            break
        phrase = shorter
    return phrase


def _key(tokens: list[str]) -> str:
    return "".join(tokens)


def _build_alias_index() -> dict[str, tuple[list[str], ...]]:
    index: dict[str, tuple[list[str], ...]] = {}
    for group in _ALIAS_GROUPS:
        variants = tuple(tokenise(name) for name in group)
        for tokens in variants:
            index[_key(tokens)] = variants
    return index


_ALIAS_INDEX = _build_alias_index()


def _join(tokens: list[str]) -> str:
    """Tokens back to a phrase: latin words spaced, CJK characters run together."""
    out = ""
    for token in tokens:
        if out and not (CJK_CHAR_RE.match(token) or CJK_CHAR_RE.match(out[-1])):
            out += " "
        out += token
    return out


def normalise_option(option: str) -> str:
    """A comparable key: lower case, singular, no articles or generic heads, canonical alias.

    "the python-magic library" → "python magic"; "Mongo" → "mongodb"; "Microservices" →
    "microservice". Two options are the same option when their keys are equal.
    """
    tokens = tokenise(strip_option_noise(option))
    variants = _ALIAS_INDEX.get(_key(tokens))
    if variants:
        tokens = variants[0]
    return _join(tokens)


def option_variants(option: str) -> list[list[str]]:
    tokens = tokenise(strip_option_noise(option))
    if not tokens:
        return []
    variants = list(_ALIAS_INDEX.get(_key(tokens), ()))
    if tokens not in variants:
        variants.append(tokens)
    # "CouchDB" is often just "Couch": a product name ending in "db" is known by its stem.
    last = tokens[-1]
    if last.endswith("db") and len(last) >= 7:
        variants.append([*tokens[:-1], last[:-2]])
    if last.isalpha() and last.isascii() and len(last) >= 3:
        variants.extend([*tokens[:-1], form] for form in _number_forms(last))
    return variants


def _number_forms(word: str) -> list[str]:
    """The other grammatical number of a (normalised) word, for matching both: "taxi" /
    "taxis", "bus" / "buses", "box" / "boxes". Forms are normalised like the text they are
    matched against. A word ending in "is" loses its "s" only after a letter that makes a
    plural of a word in "-i" ("taxis", "skis", "kiwis"), never in names and "-sis" nouns
    ("redis", "paris", "tennis", "basis"); "bus" becomes "buses", never "buss"."""
    if word.endswith(("us", "ss", "x", "ch", "sh")):
        forms = [word + "es"]
    elif word.endswith("is"):
        forms = [] if word[-3] in "drnstl" else [word[:-1]]
    elif word.endswith("os"):
        forms = []
    elif word.endswith(("se", "xe", "che", "she")):
        forms = [word[:-1], word + "s"]  # "buses" is normalised to "buse": "bus" too
    else:
        forms = [word + "s"]
    return [f for f in dict.fromkeys(norm_token(form) for form in forms) if f != word]


@dataclass
class _Token:
    text: str
    start: int
    end: int


@functools.lru_cache(maxsize=512)
def token_spans(text: str) -> tuple[_Token, ...]:
    # Cached: matching many candidate names against one reply tokenises each sentence once.
    return tuple(
        _Token(norm_token(m.group()), m.start(), m.end()) for m in TOKEN_RE.finditer(text)
    )


def option_spans(option: str, text: str) -> list[tuple[int, int]]:
    """Character spans where the option (or an alias) occurs in text as whole tokens.

    Tokens are compared concatenated, so a different split into words still matches
    ("micro services" / "microservices", "python magic" / "python-magic").
    """
    bare = strip_option_noise(option)
    if len(tokenise(bare)) == 1 and len(bare) <= 2 and any(c.isupper() for c in bare):
        # "Go", "R", "C": as common words they would match everywhere; require the exact case.
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(bare)}(?![A-Za-z0-9])")
        return [m.span() for m in pattern.finditer(text)]
    hay = token_spans(text)
    spans: list[tuple[int, int]] = []
    for variant in option_variants(option):
        target = _key(variant)
        for i in range(len(hay)):
            acc = ""
            for j in range(i, len(hay)):
                acc += hay[j].text
                if acc == target:
                    spans.append((hay[i].start, hay[j].end))
                    break
                if not target.startswith(acc):
                    break
    return sorted(set(spans))


def option_matches(option: str, text: str) -> bool:
    """Does `text` mention `option` (case, plural, hyphen/space and short forms tolerated)?"""
    return bool(option_spans(option, text))


def same_option(a: str, b: str) -> bool:
    """Two rejected-option names that denote the same thing ("Redis" / "the Redis store")."""
    ka, kb = normalise_option(a), normalise_option(b)
    if not ka or not kb:
        return False
    if ka.replace(" ", "") == kb.replace(" ", ""):
        return True
    short, long_ = (a, b) if len(ka) <= len(kb) else (b, a)
    extra = len(tokenise(strip_option_noise(long_))) - len(tokenise(strip_option_noise(short)))
    return extra <= 1 and option_matches(short, long_)

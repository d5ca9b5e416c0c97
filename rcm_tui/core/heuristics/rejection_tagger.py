"""A learned reader of turned-down options: a linear-chain CRF over the user's message (issue 12).

The rules of this package read constructions ("no X", "X is out", "我不要X"); each new writer
phrased refusals the rules had not seen, and rule rounds tuned on one batch did not carry over
to the next. This tagger learns, from single messages several writers labelled
(`corpus/ledger/labels/`), which words of a message name an option the user turns down
(REJ) and which name an option the user keeps — asks about, hedges, chooses (KEEP). What it
sees of each token generalises beyond the words it was trained on: the word and its
neighbours, its shape, whether the assistant's reply named it (an option on the table),
whether a negation or a word of negative valence (VADER's lexicon) stands near it, what its
clause and the next one say, the meaning groups of English words (word_clusters.json.gz, from
the embedded model's embeddings), and, for Chinese, the characters around it (one token per
character, as Chinese NER does). Tried and not kept: the English meaning of Chinese words
through CC-CEDICT (no change on two Chinese writers held out in turn).

What it does not learn from a few thousand messages is the scope of a negation: "I don't hate
jazz" reads as a rejection of jazz with confidence. tagged_rejections.py adds its reading to
the rules' only where other checks agree.

The model is trained by `scripts/train_rejection_tagger.py` (python-crfsuite's L-BFGS, fixed
settings, deterministic) and shipped as `rejection_tagger.crfsuite`; python-crfsuite (CRFsuite's
binding, a prebuilt wheel) tags in microseconds per token.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pycrfsuite

from .sentiment import sentiment_words
from .text import CJK, CJK_CHAR_RE, STOPWORDS

MODEL_PATH = Path(__file__).with_name("rejection_tagger.crfsuite")
CLUSTERS_PATH = Path(__file__).with_name("word_clusters.json.gz")
REJECTED = "REJ"
KEPT = "KEEP"
OUTSIDE = "O"
# Words: a run of letters/digits with inner '+#.-&; one Chinese character; one other symbol.
_TOKEN_RE = re.compile(rf"[{CJK}]|[^\W_](?:[\w'’+#.&-]*[^\W_+])?[+#]*|[^\s\w]", re.U)
_NEGATORS = frozenset(
    """not no never nothing none nor without hardly n't nah nope neither anything but except
    instead rather than skip drop ditch scrap forget avoid pass""".split()
)
_NEGATORS_ZH = frozenset("不没别无免甭莫非除")
_CONTEXT_MIN_LEN = 3
_CLAUSE_ENDS = frozenset(".,;:!?…，。；：！？、\n")


@dataclass(frozen=True)
class Token:
    text: str
    start: int
    end: int


@dataclass(frozen=True)
class TaggedSpan:
    label: str
    text: str
    start: int
    end: int
    # The lowest marginal probability of the span's tags: how sure the tagger is of it.
    confidence: float


def tokenize(text: str) -> list[Token]:
    return [Token(m.group(), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]


def _shape(word: str) -> str:
    if CJK_CHAR_RE.match(word):
        return "zh"
    if word.isdigit():
        return "d"
    if not word[:1].isalnum():
        return "p"
    if word.isupper() and len(word) > 1:
        return "X"
    if word[:1].isupper():
        return "Xx" if word[1:].islower() or len(word) == 1 else "XxX"
    return "x" if word.isalpha() else "xd"


def _context_vocabulary(context: str) -> frozenset[str]:
    """Lower-case words and Chinese character pairs of the assistant's reply."""
    words = {t.text.lower() for t in tokenize(context) if len(t.text) >= _CONTEXT_MIN_LEN}
    chars = re.findall(rf"[{CJK}]+", context)
    pairs = {run[i : i + 2] for run in chars for i in range(len(run) - 1)}
    return frozenset((words - STOPWORDS) | pairs)


def _negated_near(words: list[str], i: int) -> bool:
    window = words[max(0, i - 4) : i]
    return any(w in _NEGATORS or w.endswith("n't") or w in _NEGATORS_ZH for w in window)


def _on_table(words: list[str], i: int, table: frozenset[str]) -> bool:
    word = words[i]
    if CJK_CHAR_RE.match(word):
        left = words[i - 1] + word if i > 0 else ""
        right = word + words[i + 1] if i + 1 < len(words) else ""
        return left in table or right in table
    return len(word) >= _CONTEXT_MIN_LEN and word in table


@functools.lru_cache(maxsize=1)
def word_clusters() -> dict[str, list[int]]:
    """English words grouped by meaning (scripts/build_word_clusters.py): hate, dislike, dread."""
    with gzip.open(CLUSTERS_PATH, "rt", encoding="utf-8") as fh:
        words: dict[str, list[int]] = json.load(fh)["words"]
    return words


def _groups(word: str, where: str) -> list[str]:
    groups = word_clusters().get(word)
    return [f"{where}g{i}={g}" for i, g in enumerate(groups)] if groups else []


def token_features(tokens: list[Token], context: str) -> list[list[str]]:
    """What the CRF sees of each token of a message."""
    words = [t.text.lower() for t in tokens]
    table = _context_vocabulary(context)
    negative, positive = sentiment_words()
    valence = ["neg" if w in negative else "pos" if w in positive else "" for w in words]
    clause_feats = _clause_features(words, valence)
    feats: list[list[str]] = []
    for i, word in enumerate(words):
        raw = tokens[i].text
        f = [
            "bias",
            f"w={word}",
            f"shape={_shape(raw)}",
            f"suf3={word[-3:]}",
            f"pre2={word[:2]}",
            f"table={_on_table(words, i, table)}",
            f"negnear={_negated_near(words, i)}",
            f"stop={word in STOPWORDS}",
        ]
        if valence[i]:
            f.append(f"val={valence[i]}")
        f += _groups(word, "")
        for offset in (-3, -2, -1, 1, 2, 3):
            j = i + offset
            if 0 <= j < len(words):
                f.append(f"w{offset:+d}={words[j]}")
                if valence[j] and abs(offset) <= 3:
                    f.append(f"val{offset:+d}={valence[j]}")
                if abs(offset) <= 2:
                    f += _groups(words[j], f"{offset:+d}")
                if abs(offset) == 1:
                    f.append(f"shape{offset:+d}={_shape(tokens[j].text)}")
                    f.append(f"table{offset:+d}={_on_table(words, j, table)}")
            elif abs(offset) == 1:
                f.append("BOS" if offset < 0 else "EOS")
        if i > 0:
            f.append(f"bi-={words[i - 1]}|{word}")
        if i > 1:
            f.append(f"before={words[i - 2]}|{words[i - 1]}")
        if i + 1 < len(words):
            f.append(f"bi+={word}|{words[i + 1]}")
        after = valence[i + 1 : i + 12]
        f.append(f"neg_after={'neg' in after}")
        f.append(f"pos_after={'pos' in after}")
        f += clause_feats[i]
        feats.append(f)
    return feats


def _clauses(words: list[str]) -> list[tuple[int, int]]:
    """Token ranges between clause-ending punctuation."""
    ranges, start = [], 0
    for i, word in enumerate(words):
        if word in _CLAUSE_ENDS:
            ranges.append((start, i + 1))
            start = i + 1
    if start < len(words):
        ranges.append((start, len(words)))
    return ranges


def _clause_features(words: list[str], valence: list[str]) -> list[list[str]]:
    """What the token's clause and the next one say around it: the judgement often sits a few
    words away ("Kafka for 40 messages a minute? lol no.")."""
    ranges = _clauses(words)
    out: list[list[str]] = [[] for _ in words]
    for n, (start, end) in enumerate(ranges):
        inside = words[start:end]
        nxt = words[ranges[n + 1][0] : ranges[n + 1][1]][:8] if n + 1 < len(ranges) else []
        bag = [f"cw={w}" for w in dict.fromkeys(inside) if not CJK_CHAR_RE.match(w)][:20]
        bag += [f"nw={w}" for w in dict.fromkeys(nxt) if not CJK_CHAR_RE.match(w)]
        bag += [f"cv={v}" for v in sorted(set(valence[start:end])) if v]
        following = set(valence[end : end + 8])
        bag += [f"nv={v}" for v in sorted(following) if v]
        bag.append(f"cq={'?' in inside or '？' in inside}")
        for i in range(start, end):
            # Chinese reads its judgement from the characters around (±3 already): a bag of
            # the clause's characters made the tagger miss more than it gained.
            out[i] = [] if CJK_CHAR_RE.match(words[i]) else bag
    return out


def bio_labels(tokens: list[Token], spans: Iterable[tuple[int, int, str]]) -> list[str]:
    """B-/I- tags for labelled character spans (a token belongs to a span it overlaps)."""
    labels = [OUTSIDE] * len(tokens)
    for start, end, label in sorted(spans):
        inside = [i for i, t in enumerate(tokens) if t.start < end and t.end > start]
        if not inside or any(labels[i] != OUTSIDE for i in inside):
            continue
        labels[inside[0]] = f"B-{label}"
        for i in inside[1:]:
            labels[i] = f"I-{label}"
    return labels


_active: list[str] = []


def use_model(path: str | None) -> None:
    """Tag with the model at `path` (evaluation of a model trained on other data)."""
    _active[:] = [path] if path else []


@functools.lru_cache(maxsize=2)
def _tagger_at(path: str) -> pycrfsuite.Tagger:
    tagger = pycrfsuite.Tagger()
    tagger.open(path)
    return tagger


def current_tagger() -> pycrfsuite.Tagger:
    return _tagger_at(_active[0] if _active else str(MODEL_PATH))


def encodable(text: str) -> str:
    """A lone surrogate (pasted binary, a broken emoji) as "?": CRFsuite and tokenizers take
    UTF-8 only, and one character for one keeps every offset."""
    return text.encode("utf-8", "replace").decode("utf-8")


def tag(text: str, context: str = "") -> list[TaggedSpan]:
    """The REJ and KEEP spans of a message, each with the tagger's confidence."""
    text, context = encodable(text), encodable(context)
    tokens = tokenize(text)
    if not tokens:
        return []
    tagger = current_tagger()
    labels = tagger.tag(token_features(tokens, context))
    spans: list[TaggedSpan] = []
    i = 0
    while i < len(tokens):
        if labels[i] == OUTSIDE:
            i += 1
            continue
        kind = labels[i][2:]
        j = i + 1
        while j < len(tokens) and labels[j] == f"I-{kind}":
            j += 1
        confidence = min(tagger.marginal(labels[k], k) for k in range(i, j))
        start, end = tokens[i].start, tokens[j - 1].end
        spans.append(TaggedSpan(kind, text[start:end], start, end, confidence))
        i = j
    return spans


__all__ = [
    "KEPT",
    "MODEL_PATH",
    "REJECTED",
    "TaggedSpan",
    "Token",
    "bio_labels",
    "current_tagger",
    "encodable",
    "tag",
    "token_features",
    "tokenize",
    "use_model",
]

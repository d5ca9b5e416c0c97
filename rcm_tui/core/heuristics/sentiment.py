"""Words of negative and of positive valence (VADER's lexicon, VADER-LICENSE.txt), shared by
the rejection model and the requirement rules."""

from __future__ import annotations

import functools
from pathlib import Path

NEGATIVE_WORDS_PATH = Path(__file__).with_name("negative_words.txt")
POSITIVE_WORDS_PATH = Path(__file__).with_name("positive_words.txt")


def _word_list(path: Path) -> frozenset[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(w for w in lines if w and not w.startswith("#"))


@functools.lru_cache(maxsize=2)
def sentiment_words() -> tuple[frozenset[str], frozenset[str]]:
    """Words of negative and of positive valence: they let a rule read a judgement in words
    no corpus used ("a dreadful commute", "we love it")."""
    return _word_list(NEGATIVE_WORDS_PATH), _word_list(POSITIVE_WORDS_PATH)


def evaluative(word: str) -> bool:
    """Does the word judge ("lovely", "awful") rather than name or describe?"""
    negative, positive = sentiment_words()
    low = word.lower().strip(".!,'\"")
    return low in negative or low in positive


def _negator(token: str) -> bool:
    return token in {"not", "no", "never", "nothing", "hardly"} or token.endswith(("n't", "nt"))


def valence_counts(tokens: list[str]) -> tuple[int, int]:
    """(negative, positive) judgements among lower-case tokens, a negator up to two words
    before a judgement turning it: "isn't terrible" is no complaint, "not great" is one."""
    negative, positive = sentiment_words()
    neg = pos = 0
    for i, token in enumerate(tokens):
        flipped = any(_negator(t) for t in tokens[max(0, i - 2) : i])
        if token in negative and not flipped:
            neg += 1
        elif token in positive:
            neg, pos = (neg + 1, pos) if flipped else (neg, pos + 1)
    return neg, pos

"""Does a sentence of a reply propose what the user rejected, without naming it? (issue 12)

Names, variants and WordNet's hierarchy (categories.py, hierarchy.py) find "a cab" for
"taxis" and "pancakes" for "flat foods"; they cannot see "a local guide drives you around the
Golden Circle" for "guided tours", "Confluent Cloud" for "Kafka" or "a 15-minute ride" for
"taxis". This reader reads the rejected option and one sentence as a pair, as BERT reads a
sentence pair, and gives the chance that the sentence proposes the option or anything that is
it: a member, a brand, a variant, a synonym, a description.

The model is the rejection encoder's base, all-MiniLM-L6-v2 (rejection_encoder.py runs it in
NumPy), with its own low-rank adapters and a one-logit head on the mean of the last layer's
states, trained by `scripts/train_member_reader.py` on labelled pairs
(corpus/guard/pairs/, written for this purpose; one writer held out) and shipped as
`member_reader.npz`. English only: the base model knows little Chinese, and Chinese replies
keep the lexicon's reading. Without the base package, `proposal_chance` returns None and the
guard reads by names alone.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

from .rejection_encoder import AdaptedEncoder, Encoded, loaded_encoder, tokenizer
from .rejection_tagger import encodable

ADAPTER_PATH = Path(__file__).with_name("member_reader.npz")
# Word pieces of the option and of the sentence (a sentence longer than this is judged by its
# start, where a list item names what it offers).
OPTION_PIECES = 16
SENTENCE_PIECES = 80


def encode_pair(option: str, sentence: str) -> Encoded:
    """[CLS] option [SEP] sentence [SEP], each cut to its share of pieces."""
    tok = tokenizer()
    first = tok.encode(encodable(option), add_special_tokens=False).ids[:OPTION_PIECES]
    second = tok.encode(encodable(sentence), add_special_tokens=False).ids[:SENTENCE_PIECES]
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    ids = [cls, *first, sep, *second, sep]
    types = [0] * (len(first) + 2) + [1] * (len(second) + 1)
    return Encoded(ids, types, [])


def pooled_logit(encoder: AdaptedEncoder, encoded: Encoded) -> float:
    """The head on the mean of the last layer's states (as trained: the head is linear, so
    this is also the mean of the per-piece logits)."""
    states = encoder.hidden_states(encoded)
    return float((states.mean(0) @ encoder.head_w.T + encoder.head_b)[0])


_adapter_path = str(ADAPTER_PATH)


def use_adapter(path: str | None) -> None:  # None: the packaged adapter
    """Read with another adapter file (a script scoring a model trained without a writer); an
    empty path reads with none, as a machine without the base model does."""
    global _adapter_path
    _adapter_path = str(ADAPTER_PATH) if path is None else path


def available() -> bool:
    return loaded_encoder(_adapter_path) is not None


def proposal_chance(option: str, sentence: str) -> float | None:
    """The chance that `sentence` proposes `option` or anything that is it; None without the
    reader."""
    return _chance(_adapter_path, option, sentence)


# The early-stop watch reads the growing reply again at each sentence's end: every sentence
# read before is remembered.
@functools.lru_cache(maxsize=1024)
def _chance(adapter_path: str, option: str, sentence: str) -> float | None:
    encoder = loaded_encoder(adapter_path)
    if encoder is None:
        return None
    if not option.strip() or not sentence.strip():
        return 0.0
    return 1.0 / (1.0 + math.exp(-pooled_logit(encoder, encode_pair(option, sentence))))


__all__ = ["ADAPTER_PATH", "available", "encode_pair", "proposal_chance", "use_adapter"]

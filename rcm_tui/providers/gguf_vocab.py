"""The token strings of a GGUF model, read from the file's metadata, and the tokens that would
start a name.

The local provider keeps a small model from writing an option the user rejected by banning
the tokens that begin its name (llama.cpp's logit bias). Neither engine tokenizes for us
without a model call (xllamacpp exposes no tokenizer; llama-server's string form of a bias bans
every piece of the string, "M" and "DB" included), so the vocabulary is read here: GGUF stores
it as the array `tokenizer.ggml.tokens`, in id order. Only the metadata at the head of the file
is read (about 1 MB for SmolLM2), never the weights.
"""

from __future__ import annotations

import functools
import logging
import math
import struct
from typing import Any, BinaryIO

log = logging.getLogger(__name__)
_MAGIC = b"GGUF"
# GGUF value types (gguf.md): fixed-size scalars by their struct format.
_SCALARS = {
    0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"
}
_STRING, _ARRAY = 8, 9
_TOKENS_KEY = "tokenizer.ggml.tokens"
# Byte-level BPE (GPT-2 style, SmolLM2's) writes a leading space as this character.
_SPACE = "\u0120"
# A banned prefix must be specific to the name: "Mongo" for MongoDB, never "Mo"; and most of
# it, so that "Post" (a word of its own) is not banned for PostgreSQL.
MIN_PREFIX_LETTERS = 4
MIN_PREFIX_SHARE = 0.6


class GGUFError(ValueError):
    """The file is no GGUF or its metadata cannot be read."""


def _read(f: BinaryIO, fmt: str) -> Any:
    size = struct.calcsize("<" + fmt)
    data = f.read(size)
    if len(data) != size:
        raise GGUFError("the metadata ends early")
    return struct.unpack("<" + fmt, data)[0]


def _string(f: BinaryIO) -> str:
    length = int(_read(f, "Q"))
    return f.read(length).decode("utf-8", errors="replace")


def _skip_value(f: BinaryIO, kind: int) -> None:
    if kind in _SCALARS:
        f.seek(struct.calcsize("<" + _SCALARS[kind]), 1)
    elif kind == _STRING:
        f.seek(int(_read(f, "Q")), 1)
    elif kind == _ARRAY:
        item_kind, count = int(_read(f, "I")), int(_read(f, "Q"))
        if item_kind in _SCALARS:
            f.seek(struct.calcsize("<" + _SCALARS[item_kind]) * count, 1)
        else:
            for _ in range(count):
                _skip_value(f, item_kind)
    else:
        raise GGUFError(f"unknown metadata type {kind}")


@functools.lru_cache(maxsize=4)
def tokens(path: str) -> tuple[str, ...]:
    """Every token string of the model at `path`, by id; GGUFError when it has none."""
    with open(path, "rb") as f:
        if f.read(4) != _MAGIC:
            raise GGUFError(f"{path} is not a GGUF file")
        _read(f, "I")  # version
        _read(f, "Q")  # tensor count
        for _ in range(int(_read(f, "Q"))):
            key, kind = _string(f), int(_read(f, "I"))
            if key == _TOKENS_KEY and kind == _ARRAY:
                item_kind, count = int(_read(f, "I")), int(_read(f, "Q"))
                if item_kind != _STRING:
                    break
                return tuple(_string(f) for _ in range(count))
            _skip_value(f, kind)
    raise GGUFError(f"{path} holds no {_TOKENS_KEY}")


@functools.lru_cache(maxsize=4)
def _ids(path: str) -> dict[str, int]:
    return {token: index for index, token in enumerate(tokens(path))}


def name_start_tokens(path: str, names: tuple[str, ...]) -> list[int]:
    """Ids of the tokens that can begin one of `names` (as written, lower-case or capitalised,
    after a space or not) and hold most of its first word: with them banned the model cannot
    start the name the way it would. Names not written in ASCII letters are left alone (a
    byte-level vocabulary spells them in pieces no prefix test can find)."""
    ids = _ids(path)
    banned: set[int] = set()
    for name in names:
        word = name.strip().split()[0] if name.strip() else ""
        if len(word) < MIN_PREFIX_LETTERS or not word.isascii() or not word[0].isalnum():
            continue
        shortest = max(MIN_PREFIX_LETTERS, math.ceil(MIN_PREFIX_SHARE * len(word)))
        for form in {word, word.lower(), word[:1].upper() + word[1:]}:
            for spelled in (form, _SPACE + form):
                lead = len(spelled) - len(form)
                for end in range(lead + shortest, len(spelled) + 1):
                    token = ids.get(spelled[:end])
                    if token is not None:
                        banned.add(token)
    return sorted(banned)


def banned_tokens(path: str, names: tuple[str, ...]) -> list[int]:
    """name_start_tokens, or none when the file's vocabulary cannot be read: the reply is then
    only unsteered, and the guard still reads it."""
    if not names:
        return []
    try:
        return name_start_tokens(path, names)
    except (OSError, GGUFError) as exc:
        log.warning("no token bias for rejected names: %s", exc)
        return []

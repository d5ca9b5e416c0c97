"""Reading a GGUF's vocabulary, and the tokens that start a rejected name (the local
provider's logit bias)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from rcm_tui.providers import gguf_vocab
from rcm_tui.providers.local import bundled_model_path


def _string(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def write_gguf(path: Path, vocabulary: list[str]) -> Path:
    """A GGUF head as llama.cpp writes one: other keys (a scalar, a string, an array of
    numbers) before the tokens, then no tensors."""
    kvs = [
        _string("general.architecture") + struct.pack("<I", 8) + _string("llama"),
        _string("llama.context_length") + struct.pack("<I", 4) + struct.pack("<I", 2048),
        _string("tokenizer.ggml.token_type")
        + struct.pack("<IIQ", 9, 5, len(vocabulary))
        + struct.pack(f"<{len(vocabulary)}i", *([1] * len(vocabulary))),
        _string("tokenizer.ggml.tokens")
        + struct.pack("<IIQ", 9, 8, len(vocabulary))
        + b"".join(_string(t) for t in vocabulary),
    ]
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs))
    gguf_vocab.tokens.cache_clear()
    gguf_vocab._ids.cache_clear()
    return path


VOCAB = ["Ġpost", "Post", "ĠMong", "ĠMongo", "Mongo", "Mo", "DB", "ĠRedis", "redis", "ĠRed"]


def test_the_vocabulary_is_read_in_id_order(tmp_path: Path) -> None:
    path = write_gguf(tmp_path / "m.gguf", VOCAB)
    assert gguf_vocab.tokens(str(path)) == tuple(VOCAB)


def test_only_specific_starts_of_a_name_are_banned(tmp_path: Path) -> None:
    path = str(write_gguf(tmp_path / "m.gguf", VOCAB))
    banned = {VOCAB[i] for i in gguf_vocab.name_start_tokens(path, ("MongoDB", "Redis"))}
    # Most of the word, after a space or not, in the case people write it.
    assert banned == {"ĠMongo", "Mongo", "ĠRedis", "redis"}
    # "Post" is a word of its own: PostgreSQL bans nothing this vocabulary holds.
    assert gguf_vocab.name_start_tokens(path, ("PostgreSQL",)) == []


def test_names_not_in_ascii_letters_are_left_alone(tmp_path: Path) -> None:
    path = str(write_gguf(tmp_path / "m.gguf", [*VOCAB, "钉钉"]))
    assert gguf_vocab.name_start_tokens(path, ("钉钉", "DB")) == []


def test_a_file_that_is_no_gguf_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "not.gguf"
    path.write_bytes(b"PK\x03\x04 a zip")
    with pytest.raises(gguf_vocab.GGUFError, match="not a GGUF"):
        gguf_vocab.tokens(str(path))
    truncated = tmp_path / "short.gguf"
    truncated.write_bytes(b"GGUF" + struct.pack("<I", 3))
    with pytest.raises(gguf_vocab.GGUFError):
        gguf_vocab.tokens(str(truncated))


def test_the_bundled_model_has_the_names_a_user_rejects() -> None:
    path = bundled_model_path()
    if path is None:
        pytest.skip("the bundled model is not installed")
    vocabulary = gguf_vocab.tokens(str(path))
    assert len(vocabulary) == 49152  # SmolLM2's
    banned = [vocabulary[i] for i in gguf_vocab.name_start_tokens(str(path), ("MongoDB",))]
    assert "ĠMongo" in banned
    assert not {"ĠM", "M", "ĠMo", "Ġpost"} & set(banned)


def test_an_unreadable_vocabulary_only_leaves_the_reply_unsteered(tmp_path: Path) -> None:
    path = tmp_path / "broken.gguf"
    path.write_bytes(b"GGUF")
    assert gguf_vocab.banned_tokens(str(path), ("MongoDB",)) == []
    assert gguf_vocab.banned_tokens(str(tmp_path / "missing.gguf"), ("MongoDB",)) == []

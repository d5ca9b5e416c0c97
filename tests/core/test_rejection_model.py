"""The learned rejection model (issue 12): it ships as package data, the training script
reproduces it, and it reads rejections worded the way people talk — on sentences that are in
no corpus file and no training label."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from rcm_tui.core.heuristics import rejection_encoder
from rcm_tui.core.heuristics import rejection_model as rm
from rcm_tui.core.heuristics.message import analyse_message
from rcm_tui.core.heuristics.options import option_matches
from rcm_tui.core.ledger_snapshot import LedgerSnapshot

from .scripts import load_script


def _rejected(text: str, reply: str = "") -> list[str]:
    view = LedgerSnapshot(last_assistant_message=reply)
    return [r.option for r in analyse_message(text, 1, view).rejections]


def _names(option: str, found: list[str]) -> bool:
    return any(option_matches(option, f) or option_matches(f, option) for f in found)


def test_the_model_loads_from_package_data() -> None:
    model = rm.packaged_model()
    assert model.weights, "the packaged model has no weights"
    assert rm.MODEL_PATH.stat().st_size < 1_000_000
    assert rm.current_model() is model


def _trainer():
    return load_script("train_rejection_model")


def test_the_training_script_reproduces_the_shipped_model(tmp_path: Path) -> None:
    trainer = _trainer()
    out = tmp_path / "model.json.gz"
    assert trainer.main(["--out", str(out)]) == 0
    trained = rm.RejectionModel.from_json(json.loads(gzip.decompress(out.read_bytes())))
    shipped = rm.packaged_model()
    # The optimum is one point; another build of the optimiser may stop a hair away from it, so
    # weights agree to well under what moves a probability, not necessarily byte for byte.
    assert abs(trained.bias - shipped.bias) < 1e-4
    keys = trained.weights.keys() | shipped.weights.keys()
    drift = max(abs(trained.weights.get(k, 0.0) - shipped.weights.get(k, 0.0)) for k in keys)
    assert drift < 2e-3, drift
    assert len(trained.weights.keys() ^ shipped.weights.keys()) < 0.01 * len(keys)


def test_training_finds_the_same_weights_whatever_the_order_of_the_examples() -> None:
    # The old trainer (stochastic gradient descent, one shuffled order, stopped after twelve
    # passes) gave different weights for the same examples in another order, so a rule edit
    # that changed a few candidates reshuffled the whole model.
    trainer = _trainer()
    examples = trainer.label_examples(trainer.LABELS)[:300]
    assert len({y for _, y in examples}) == 2, "the labels hold rejections and non-rejections"
    forward, backward = trainer.train(examples), trainer.train(examples[::-1])
    assert abs(forward.bias - backward.bias) < 1e-4
    for key in forward.weights.keys() | backward.weights.keys():
        assert abs(forward.weights.get(key, 0.0) - backward.weights.get(key, 0.0)) < 2e-3


# Everyday rejections from the issue: the rules, the model, or both must read each one.
@pytest.mark.parametrize(
    ("text", "option", "reply"),
    [
        ("I hate using taxis or buses when I travel.", "taxis", ""),
        ("I don't need a dishwasher, particularly not a built-in one.", "dishwasher", ""),
        ("Karaoke isn't really my thing.", "Karaoke", ""),
        ("Anything but sushi tonight.", "sushi", ""),
        ("No more board games, please.", "board games", ""),
        ("Scrap the Lisbon plan.", "Lisbon", ""),
        ("We tried Trello and it was a nightmare.", "Trello", ""),
        (
            "RabbitMQ is out too, because we had bad experiences with its clustering.",
            "RabbitMQ",
            "",
        ),
    ],
)
def test_the_issue_examples_are_rejections(text: str, option: str, reply: str) -> None:
    assert _names(option, _rejected(text, reply))


# Verdicts on an option the assistant just proposed, in words no construction lists; the model
# reads them (none of these sentences is in the corpus or the training labels).
@pytest.mark.parametrize(
    ("text", "option", "reply"),
    [
        (
            "Camper vans make my dad seasick just looking at them.",
            "Camper vans",
            "For the trip: a camper van, a rented cottage, or a hotel in town.",
        ),
        (
            "汉服写真她去年拍过一次，说再也不拍了。",
            "汉服写真",
            "可以考虑送她汉服写真、香薰课或者一顿法餐。",
        ),
    ],
)
def test_verdicts_on_proposed_options_are_read(text: str, option: str, reply: str) -> None:
    assert _names(option, _rejected(text, reply))


# Traps: hedges, negated dislikes, questions and facts keep the option, in both languages.
@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("I'm not against a camper van if it has a proper bed.", "A camper van or a cottage."),
        ("Not sure the cottage is big enough, can you check?", "A camper van or a cottage."),
        ("Is Prometheus hard to run ourselves?", "Nagios, Prometheus or Datadog."),
        ("Datadog would be ideal if the budget allows.", "Nagios, Prometheus or Datadog."),
        ("We run everything on Prometheus today.", ""),
        ("香薰课也不是不可以，我再问问她。", "可以考虑送她汉服写真、香薰课或者一顿法餐。"),
        ("法餐她应该会喜欢吧？", "可以考虑送她汉服写真、香薰课或者一顿法餐。"),
    ],
)
def test_traps_reject_nothing(text: str, reply: str) -> None:
    assert _rejected(text, reply) == []


@pytest.mark.parametrize(
    ("option", "text"),
    [
        ("zulip", "lets go with zulip, I'll ask IT for a test server on friday"),
        ("grit", "scrap the carpet idea, paint + grit it is"),
        ("Linear", "OK, we'll settle on Linear; Jira can wait."),
    ],
)
def test_the_option_a_clause_chooses_is_never_added_as_rejected(option: str, text: str) -> None:
    # The converged model scored "zulip" 0.63 here, over the bar: a choice reads like a verdict.
    assert not rm.plausibly_rejected(option, text)


@pytest.mark.parametrize(
    ("option", "text"),
    [
        # What a need asks for, with its modal before the option.
        ("gluten-free", "It also has to be gluten-free, my niece is coeliac."),
        ("Slack alerts", "The tool has to send Slack alerts, that's non-negotiable."),
        ("微信支付", "收银系统必须支持微信支付，老人都用这个。"),
        # Not knowing the option yet, or keeping it in reserve.
        ("Coolify", "Never heard of Coolify before this week."),
        ("零跑", "零跑我不太了解，口碑怎么样？"),
        ("Vultr", "Vultr as the backup, then."),
        ("MongoDB", "MongoDB 不是说它不好，先留着当备选吧。"),
        # The option named in what a clause picks.
        ("Fastmail", "Fastmail business plan it is."),
    ],
)
def test_a_need_unfamiliarity_a_reserve_or_a_pick_keeps_the_option(option: str, text: str) -> None:
    assert not rm.plausibly_rejected(option, text)


@pytest.mark.parametrize(
    ("option", "text"),
    [
        ("dairy", "The menu has to avoid dairy entirely."),
        ("旧窗户", "这次必须换掉旧窗户，冬天漏风。"),
        ("Hilton", "Hilton's off then, way too far from the station."),
        ("Basecamp", "Basecamp lacks time tracking then? That rules it out."),
        ("Kafka", "I have to say Kafka is a nightmare to run."),
    ],
)
def test_a_need_to_remove_or_a_dropped_pick_still_may_reject(option: str, text: str) -> None:
    assert rm.plausibly_rejected(option, text)


def test_a_model_swapped_in_for_evaluation_is_used_and_restored() -> None:
    text = "Camper vans make my dad seasick just looking at them."
    reply = "For the trip: a camper van, a rented cottage, or a hotel in town."
    assert _names("Camper vans", _rejected(text, reply))
    rm.use_model(rm.RejectionModel({}, -10.0))  # never sure of anything
    rejection_encoder.use_adapter("")  # the model alone: the encoder reads this one too
    try:
        assert not _names("Camper vans", _rejected(text, reply))
    finally:
        rm.use_model(None)
        rejection_encoder.use_adapter(None)
    assert rm.current_model() is rm.packaged_model()


_DISHWASHERS = "可以看看松下、海尔、美的或者格力的洗碗机。"


@pytest.mark.parametrize(
    ("text", "option", "cut"),
    [
        ("松下那台我同事买了半年就坏了，不想再踩坑。", "松下", "再踩坑"),
        ("美的那款我朋友用过，噪音大得受不了。", "美的", "我朋"),
    ],
)
def test_a_chinese_rule_cut_gives_way_to_the_option_on_the_table(
    text: str, option: str, cut: str
) -> None:
    found = _rejected(text, _DISHWASHERS)
    assert _names(option, found)
    assert not any(cut in f for f in found)


def test_an_adverb_is_no_option_and_a_pronoun_no_subject() -> None:
    # "我肯定不行": the adverb before the refusal was read as the option turned down.
    assert not any("肯定" in f for f in _rejected("夜班的工作，我肯定不行。"))
    # The model's option, not the pronoun after it. Read with the CRF: the encoder since
    # session 10 reads this complaint as keeping Marrakech (KEEP 0.94), as writers I-K
    # labelled such complaints, and withdraws the model's hit.
    rejection_encoder.use_adapter("")
    try:
        marrakech = _rejected(
            "Marrakech in July, I've read it's unbearably hot.",
            "Options: Lisbon, Marrakech, Seville or Porto.",
        )
    finally:
        rejection_encoder.use_adapter(None)
    assert marrakech == ["Marrakech"]


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("Seville is lovely, my sister loved it.", "Options: Lisbon, Marrakech, Seville or Porto."),
        ("格力挺好的，我家一直用。", _DISHWASHERS),
    ],
)
def test_praise_of_a_proposed_option_rejects_nothing(text: str, reply: str) -> None:
    assert _rejected(text, reply) == []

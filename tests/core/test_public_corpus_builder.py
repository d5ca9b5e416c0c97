"""scripts/build_public_corpus.py turns public dialogue-state annotations into ledger
expectations (issue 12). The datasets stay out of the repository, so these dialogues are our
own, written in the datasets' shapes."""

from __future__ import annotations

import json
from pathlib import Path

from rcm_tui.eval.ab import score

from .scripts import load_script

builder = load_script("build_public_corpus")


def _turn(speaker: str, utterance: str, *actions: tuple[str, str, list[str]]) -> dict:
    acts = [{"act": a, "slot": s, "values": v} for a, s, v in actions]
    return {"speaker": speaker, "utterance": utterance, "frames": [{"actions": acts}]}


SGD_DIALOGUE = {
    "dialogue_id": "9_00001",
    "turns": [
        _turn(
            "USER",
            "I need a table for 2 in Oakland, somewhere with a 4 star rating.",
            ("INFORM_INTENT", "intent", ["ReserveRestaurant"]),
            ("INFORM", "party_size", ["2"]),
            ("INFORM", "city", ["Oakland"]),
            ("INFORM", "rating", ["4"]),
        ),
        _turn("SYSTEM", "How about Luna Bistro?", ("OFFER", "restaurant_name", ["Luna Bistro"])),
        _turn("USER", "Anything else? No live music though.", ("REQUEST_ALTS", "", [])),
        _turn("SYSTEM", "Try Cedar House.", ("OFFER", "restaurant_name", ["Cedar House"])),
        _turn(
            "USER",
            "Book Cedar House, with no outdoor seating.",
            ("INFORM", "restaurant_name", ["Cedar House"]),
            ("INFORM", "outdoor_seating", ["None"]),
        ),
    ],
}


def test_sgd_values_the_user_typed_are_requirements_named_by_their_words() -> None:
    lines, expect = builder.sgd_dialogue(SGD_DIALOGUE)
    assert lines[0]["user"].startswith("I need a table")
    # "2" alone would match any number: the words around it are kept.
    assert expect.requirements == [["for 2"], ["Oakland"], ["4 star"]]
    # The goal and a named choice are neutral, never expected.
    assert expect.neutral == [
        "I need a table for 2 in Oakland, somewhere with a 4 star rating.",
        "Book Cedar House, with no outdoor seating.",
    ]


def test_what_was_offered_before_a_request_for_alternatives_may_be_rejected() -> None:
    _, expect = builder.sgd_dialogue(SGD_DIALOGUE)
    as_json = expect.as_json("test")
    assert "Luna Bistro" in as_json["rejected_allowed"]
    assert as_json["rejected"] == []
    # A slot set to None declines it in the user's words.
    assert any("no outdoor seating" in a for a in as_json["rejected_allowed"])


def test_a_short_value_keeps_the_word_naming_its_slot() -> None:
    text = "A 3 star place is fine, and I need 3 rooms."
    assert builder.typed_as("3", text, "number_of_rooms") == "3 rooms"
    assert builder.typed_as("3", text, "star_rating") == "3 star"
    assert builder.typed_as("0", "I have zero bags", "number_of_bags") is None


def test_crosswoz_informs_are_requirements_and_a_named_place_is_neutral() -> None:
    dialogue = {
        "messages": [
            {
                "role": "usr",
                "content": "你好，帮我找一个评分4.5分以上、有接机服务的酒店。",
                "dialog_act": [
                    ["Inform", "酒店", "评分", "4.5分以上"],
                    ["Inform", "酒店", "酒店设施-接机服务", "是"],
                    ["Request", "酒店", "名称", ""],
                ],
            },
            {"role": "sys", "content": "推荐湖畔酒店。", "dialog_act": []},
            {
                "role": "usr",
                "content": "湖畔酒店的电话是多少？",
                "dialog_act": [["Request", "酒店", "电话", ""]],
            },
        ]
    }
    lines, expect = builder.crosswoz_dialogue(dialogue)
    assert len(lines) == 2 and lines[1]["assistant"] == "好的。"
    assert [g[0] for g in expect.requirements] == ["4.5分以上", "接机服务"]
    assert expect.neutral == ["你好，帮我找一个评分4.5分以上、有接机服务的酒店。"]


def test_the_builder_writes_conversations_the_scorers_read(tmp_path: Path) -> None:
    lines, expect = builder.sgd_dialogue(SGD_DIALOGUE)
    builder.write(tmp_path, "sgd-9-00001", lines, expect.as_json("test"))
    written = (tmp_path / "sgd-9-00001.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["assistant"] for x in written][-1] == "Okay."
    assert json.loads((tmp_path / "sgd-9-00001.expect.json").read_text())["lang"] == "en"


def test_an_allowed_rejection_is_true_when_recorded_and_not_expected() -> None:
    expect = {"rejected": [], "rejected_allowed": ["Luna Bistro"], "requirements_any": []}
    found = score({"rejected": [{"option": "Luna Bistro"}]}, expect, readvocacy=False)
    assert (found["rejected_true"], found["false_rejections"], found["rejected_expected"]) == (
        1,
        [],
        0,
    )
    other = score({"rejected": [{"option": "Cedar House"}]}, expect, readvocacy=False)
    assert other["false_rejections"] == ["Cedar House"]

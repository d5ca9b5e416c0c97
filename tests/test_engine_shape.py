"""The engine's shape (issue 11): a turn package of small modules and functions, requests that
carry messages and a response format only, and the offline demo's own typed hook."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import rcm_tui.core.turn as turn_package
from rcm_tui.core.call_context import CallContext, calling, current_call
from rcm_tui.core.ledger_snapshot import LedgerSnapshot, RejectedItem
from rcm_tui.core.llm import LLMRequest, complete
from rcm_tui.providers.offline import OFFLINE_TAG, OfflineProvider, scripted_reply

from .ui.conftest import make_controller

TURN = Path(turn_package.__file__).parent


def test_the_turn_package_keeps_modules_and_functions_small() -> None:
    too_long = []
    for path in sorted(TURN.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if len(source.splitlines()) > 500:
            too_long.append(path.name)
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None
                if node.end_lineno - node.lineno + 1 > 60:
                    too_long.append(f"{path.name}:{node.name}")
    assert too_long == []


def test_a_request_is_messages_and_a_response_format() -> None:
    names = {f.name for f in dataclasses.fields(LLMRequest)}
    # `avoid` constrains sampling like `stop` does (names the reply may not write): part of the
    # response's format, not state of the engine handed to a provider.
    assert names == {
        "messages", "purpose", "max_tokens", "temperature", "json_schema", "stop", "avoid"
    }


async def test_the_demo_reads_what_the_engine_states_for_a_call() -> None:
    provider = OfflineProvider()
    request = LLMRequest([], "analysis")
    context = CallContext(
        turn=2,
        ledger=LedgerSnapshot(rejected=(RejectedItem("Redis", "too heavy", 1),)),
        user_message="Let's not use MongoDB, our compliance team wants SQL.",
    )
    with calling(context):
        stated = json.loads((await complete(provider, request)).text)
        solidified = (await complete(provider, LLMRequest([], "solidify"))).text
    assert [r["option"] for r in stated["rejections"]] == ["MongoDB"]
    assert "- Redis — too heavy (rejected by the user at turn 1)" in solidified
    # Outside the call the context is gone: the demo has nothing to read.
    assert current_call() is None
    unstated = json.loads((await complete(provider, request)).text)
    assert unstated["rejections"] == []


async def test_a_scripted_reply_plays_for_its_turn_only() -> None:
    controller = make_controller()
    with scripted_reply("PostgreSQL, with one replica."):
        scripted = await controller.send("Which database should we use?")
    composed = await controller.send("And how do we back it up?")
    assert scripted.reply == "PostgreSQL, with one replica."
    assert composed.reply.startswith(OFFLINE_TAG)
    await controller.aclose()

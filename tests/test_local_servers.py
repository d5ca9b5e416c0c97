"""Local servers as people start them (issue 16): default flags, no settings, every turn answered.

Over real HTTP against `fake_local_server.LocalServer`, which serves one request at a time the
ways llama-cpp-python's server, llama-server and Ollama do, with the real openai and anthropic
providers and the real pipeline.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rcm_tui.cli import main
from rcm_tui.config import AnthropicSettings, OpenAISettings, load_settings
from rcm_tui.controller import Controller
from rcm_tui.core.events import Notice, PipelineEvent, ReplyDelta, ReplyShown, ReplyStarted
from rcm_tui.core.llm import LLMProvider
from rcm_tui.core.models import Message, Session
from rcm_tui.core.turn import Pipeline, PipelineSettings, TurnOutcome
from rcm_tui.providers.anthropic import AnthropicProvider
from rcm_tui.providers.model_size import parameter_size, parameters_in_show
from rcm_tui.providers.openai import OpenAIProvider
from rcm_tui.store import SessionStore

from .fake_local_server import LocalServer, Mode

TURNS = [
    "I need help creating a Python function that handles file uploads.",
    "Flask. Store them on local disk under /srv/uploads.",
]


def openai_at(server: LocalServer, **options: object) -> OpenAIProvider:
    cfg = OpenAISettings(timeout=10.0, max_retries=0, **options)  # type: ignore[arg-type]
    return OpenAIProvider(cfg, model="smollm2", base_url=f"{server.url}/v1")


def anthropic_at(server: LocalServer) -> AnthropicProvider:
    cfg = AnthropicSettings(timeout=10.0, max_retries=0)
    return AnthropicProvider(cfg, model="smollm2", base_url=server.url)


class Run:
    """A pipeline over one provider, and everything it emitted."""

    def __init__(self, provider: LLMProvider, session: Session | None = None) -> None:
        self.events: list[PipelineEvent] = []
        self.pipeline = Pipeline(provider, provider, PipelineSettings(), emit=self.events.append)
        self.session = session or Session()

    async def turn(self, text: str) -> TurnOutcome:
        self.session.messages.append(Message(role="user", content=text,
                                             turn=self.session.turn + 1))
        outcome = await self.pipeline.run_turn(self.session, text)
        await self.pipeline.drain()
        return outcome

    def notices(self, words: str) -> list[str]:
        return [e.text for e in self.events if isinstance(e, Notice) and words in e.text]

    def on_screen(self, turn: int) -> str:
        """The reply text as the chat shows it: what streamed since the last ReplyStarted."""
        shown = ""
        for event in self.events:
            if isinstance(event, ReplyStarted) and event.turn == turn:
                shown = ""
            elif isinstance(event, ReplyDelta) and event.turn == turn:
                shown += event.text
        return shown


@pytest.fixture
def interrupting() -> Iterator[LocalServer]:
    with LocalServer("interrupt") as server:
        yield server


async def test_a_server_that_cuts_a_stream_for_a_second_call_gets_one_call_at_a_time(
    interrupting: LocalServer,
) -> None:
    run = Run(openai_at(interrupting))
    for text in TURNS:
        outcome = await run.turn(text)
        assert outcome.ok, outcome.error
    # It happened: the server cut a call off for another one...
    assert "interrupted" in interrupting.outcomes()
    # ...the user was told once, the session remembers it, and no cut text stayed on screen.
    said = run.notices("one request at a time")
    assert len(said) == 1 and "parallel_calls = false" in said[0]
    assert run.session.one_call_at_a_time is not None
    assert run.session.one_call_at_a_time.turn == 1
    replies = [m.content for m in run.session.messages if m.role == "assistant"]
    assert len(replies) == 2
    for turn, reply in enumerate(replies, start=1):
        assert reply.startswith("For Flask uploads")
        assert run.on_screen(turn).strip() == reply
    shown = [e for e in run.events if isinstance(e, ReplyShown)]
    assert [e.text for e in shown] == replies
    # Turn 2 ran one call at a time from the start: nothing cut, nothing resent.
    turn_two = [c for c in run.session.calls if c.turn == 2]
    assert len(turn_two) >= 2 and not any("resent" in c.note for c in turn_two)
    assert interrupting.outcomes()[-len(turn_two):].count("interrupted") == 0


@pytest.mark.parametrize("mode", ["kv_cache", "busy"])
async def test_a_server_that_refuses_a_second_call_gets_one_call_at_a_time(mode: Mode) -> None:
    with LocalServer(mode) as server:
        run = Run(openai_at(server))
        outcome = await run.turn(TURNS[0])
    assert outcome.ok, outcome.error
    assert "refused" in server.outcomes()
    assert len(run.notices("one request at a time")) == 1
    resent = [c for c in run.session.calls if "resent alone" in c.note]
    assert len(resent) == 1 and not resent[0].error
    assert run.session.quality[0].judge == "llm"


async def test_llama_servers_anthropic_endpoint_with_a_full_kv_cache() -> None:
    with LocalServer("kv_cache") as server:
        run = Run(anthropic_at(server))
        outcomes = [await run.turn(text) for text in TURNS]
    assert all(o.ok for o in outcomes), [o.error for o in outcomes]
    assert run.session.one_call_at_a_time is not None
    assert "KV cache" in run.session.one_call_at_a_time.reason


async def test_a_resumed_session_starts_one_call_at_a_time(interrupting: LocalServer) -> None:
    first = Run(openai_at(interrupting))
    assert (await first.turn(TURNS[0])).ok
    stored = Session.model_validate(first.session.dump())  # as saved and loaded
    assert stored.one_call_at_a_time is not None
    served_before = len(interrupting.served)
    resumed = Run(openai_at(interrupting), stored)
    assert (await resumed.turn(TURNS[1])).ok
    assert "interrupted" not in interrupting.outcomes()[served_before:]
    assert resumed.notices("one request at a time") == []


async def test_parallel_calls_false_still_serialises_from_the_first_call(
    interrupting: LocalServer,
) -> None:
    run = Run(openai_at(interrupting, parallel_calls=False))
    assert (await run.turn(TURNS[0])).ok
    assert "interrupted" not in interrupting.outcomes()
    assert run.notices("one request at a time") == []


async def test_a_call_that_fails_alone_is_not_resent() -> None:
    with LocalServer("kv_cache") as server:
        provider = openai_at(server, parallel_calls=False)
        run = Run(provider)
        # Hold the model as another client would: every call of ours is refused.
        with server._model:
            outcome = await run.turn(TURNS[0])
    assert not outcome.ok and "KV cache" in (outcome.error or "")
    assert len(server.served) == 1  # refused once, never resent in a loop
    assert run.session.one_call_at_a_time is None


# -- structured calls stop at the closing brace ---------------------------------------------------
async def test_structured_calls_stop_reading_at_the_closing_brace(
    interrupting: LocalServer,
) -> None:
    run = Run(openai_at(interrupting, parallel_calls=False))
    assert (await run.turn(TURNS[0])).ok
    structured = [c for c in run.session.calls if c.purpose in ("analysis", "judge")]
    assert structured and all(c.response.endswith("}") for c in structured)
    assert not any("I hope this helps" in c.response for c in structured)
    # The server noticed the client leave instead of streaming its tail to the end.
    deadline = time.monotonic() + 3
    while "running" in interrupting.outcomes(structured=True) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert set(interrupting.outcomes(structured=True)) == {"client left"}
    asked = [s.body["max_tokens"] for s in interrupting.served if s.structured]
    # Capped to what the JSON needs (the judge answers per rejected option too), never the
    # 1,024 tokens of a reply.
    assert asked and max(asked) <= 512


# -- the model's size, as the server reports it ----------------------------------------------------
LLAMA_SERVER_MODELS = {"object": "list", "data": [{
    "id": "/models/SmolLM2-135M-Instruct.Q4_1.gguf", "object": "model", "owned_by": "llamacpp",
    "meta": {"vocab_type": 2, "n_vocab": 49152, "n_ctx_train": 8192, "n_embd": 576,
             "n_params": 134515008, "size": 96000000},
}]}
OLLAMA_MODELS = {"object": "list", "data": [
    {"id": "smollm2:135m", "object": "model", "created": 1700000000, "owned_by": "library"}]}
OLLAMA_SHOW = {
    "details": {"format": "gguf", "family": "llama", "parameter_size": "134.52M",
                "quantization_level": "Q4_1"},
    "model_info": {"general.architecture": "llama", "general.parameter_count": 134515008},
}


@pytest.mark.parametrize(
    ("models", "show", "source"),
    [(LLAMA_SERVER_MODELS, None, "/v1/models"), (OLLAMA_MODELS, OLLAMA_SHOW, "/api/show")],
    ids=["llama-server", "ollama"],
)
async def test_auto_profile_uses_the_size_the_server_reports(
    models: dict, show: dict | None, source: str
) -> None:
    with LocalServer("interrupt", models=models, show=show) as server:
        run = Run(openai_at(server))
        assert (await run.turn(TURNS[0])).ok
    assert run.pipeline.lean
    assert [c.purpose for c in run.session.calls] == ["generation"]
    said = run.notices("lean profile")
    assert said and said[0].startswith("lean profile: smollm2 has 135M parameters")
    assert source in said[0]
    assert source in run.pipeline.profile.reason


async def test_without_a_reported_size_unusable_json_on_turn_one_decides() -> None:
    from .core.fakes import ScriptedProvider

    provider = ScriptedProvider({"analysis": ["not json", "still not"], "judge": ["{oops"]})
    run = Run(provider)
    assert run.pipeline.profile.name == "full"
    assert run.pipeline.profile.reason == "the model's size is not reported"
    await run.turn(TURNS[0])
    assert run.pipeline.lean
    said = run.notices("lean profile")
    assert said == [
        "lean profile: scripted-model — 3 of 3 analysis and judge answers on turn 1 were "
        'unusable; analysis, scores and summaries use the heuristics (profile = "full" to use '
        "the model for them too)"
    ]
    calls_before = len(provider.log)
    await run.turn(TURNS[1])
    assert {r.purpose for r in provider.log[calls_before:]} <= {"generation", "refinement"}


def test_ollama_parameter_sizes_read_as_numbers() -> None:
    assert parameter_size("8.0B") == 8_000_000_000
    assert parameter_size("134.52M") == 134_520_000
    assert parameter_size("large") is None
    assert parameters_in_show({"details": {"parameter_size": "70B"}}) == 70_000_000_000
    assert parameters_in_show({"model_info": {}}) is None


async def test_the_header_says_which_profile_runs_and_why() -> None:
    flags = {"provider": "openai", "model": "smollm2"}
    with LocalServer("interrupt", models=LLAMA_SERVER_MODELS) as server:
        flags["base_url"] = f"{server.url}/v1"
        controller = Controller(load_settings(None, flags), SessionStore())
        assert controller.header_reason == "chosen by flag --provider"  # no turn, nothing known
        assert (await controller.send(TURNS[0])).ok
        await controller.aclose()
    assert controller.header_reason == (
        "chosen by flag --provider; lean profile: 135M parameters, reported by the server's "
        "/v1/models"
    )
    assert controller.profile_label == "lean profile"


def test_bench_runs_against_a_local_server_plain_and_with_the_layer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # No silent retry of a call cut before its first token: the cut is then always seen.
    monkeypatch.setenv("RCM_TUI_PROVIDERS__OPENAI__MAX_RETRIES", "0")
    script = tmp_path / "two.jsonl"
    script.write_text("".join(json.dumps({"user": t}) + "\n" for t in TURNS), encoding="utf-8")
    with LocalServer("interrupt") as server:
        code = main(["bench", "--provider", "openai", "--base-url", f"{server.url}/v1",
                     "--model", "smollm2", "--scenario", str(script), "--turns", "2", "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["provider"] == "openai" and result["turns"] == 2
    plain, layer = result["modes"]["plain"], result["modes"]["rcm_tui"]
    assert plain["calls_per_turn"]["max"] == 1 and plain["one_call_at_a_time"] == ""
    assert layer["calls_per_turn"]["mean"] > 1
    assert layer["one_call_at_a_time"].startswith("learnt on turn 1: openai: ")
    assert layer["profile"] == "full profile: the model's size is not reported"
    assert result["turn_ratio"] is not None and result["ttft_ratio"] is not None

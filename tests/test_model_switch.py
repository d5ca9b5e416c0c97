"""Switching the provider or model inside a session (issue 14): `/model` parses, validates
(an unknown provider, a missing key, a model file that does not load keep the current model),
records the model per reply and in the session, and a resumed session runs on its last model
unless the command line names one. Nothing here reaches the network."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rcm_tui.commands import dispatch
from rcm_tui.config import load_settings, log_dir, sessions_dir
from rcm_tui.controller import Controller
from rcm_tui.core.models import Message, Session
from rcm_tui.model_command import models_by_turn
from rcm_tui.providers.registry import ModelSpec, local_available
from rcm_tui.providers.switching import parse_model_spec, switched_settings
from rcm_tui.store import SessionStore

SECRET = "sk-test-never-on-disk-1234567890"


def offline_controller(environ: dict[str, str] | None = None) -> Controller:
    return Controller(load_settings(None, {"provider": "offline"}, environ or {}), SessionStore())


def run(coro):  # type: ignore[no-untyped-def]
    return asyncio.run(coro)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("openai:gpt-4o", ModelSpec("openai", "gpt-4o")),
        ("offline", ModelSpec("offline")),
        ("Anthropic", ModelSpec("anthropic")),
        ("gpt-4o", ModelSpec("openai", "gpt-4o")),  # a model of the provider in use
        ("openai:llama3:8b", ModelSpec("openai", "llama3:8b")),  # an Ollama tag keeps its colon
        ("local:/models/q.gguf", ModelSpec("local", "/models/q.gguf")),
    ],
)
def test_model_specs_parse_provider_first(text: str, expected: ModelSpec) -> None:
    assert parse_model_spec(text, "openai") == expected


def test_an_unknown_provider_is_named_and_the_ollama_spelling_suggested() -> None:
    with pytest.raises(ValueError, match=r"unknown provider “llama3”.*openai:llama3:8b"):
        parse_model_spec("llama3:8b", "offline")


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        ("/model gemini:pro", "unknown provider “gemini”"),
        ("/model anthropic:claude-x", "anthropic has no API key: set ANTHROPIC_API_KEY"),
        ("/model local:/nowhere/model.gguf", "local model file not found: /nowhere/model.gguf"),
        ("/model gpt-4o", "the offline demo has one model"),
    ],
)
def test_a_model_that_cannot_run_gives_one_reason_and_the_current_one_stays(
    command: str, reason: str
) -> None:
    controller = offline_controller()
    result = run(dispatch(controller, command))
    assert not result.ok
    assert reason in result.text
    assert "still using offline" in result.text or "unknown provider" in result.text
    assert "\n" not in result.text
    assert controller.choice.name == "offline"
    assert controller.session.provider.name == "offline"


@pytest.mark.skipif(not local_available(), reason="the local provider is not installed")
def test_a_local_model_file_that_does_not_load_keeps_the_current_model(tmp_path: Path) -> None:
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"not a gguf file at all")
    controller = offline_controller()
    result = run(dispatch(controller, f"/model local:{bad}"))
    assert not result.ok
    assert "cannot load the local model" in result.text and "still using offline" in result.text
    assert controller.provider_label.startswith("offline")


def test_the_model_is_recorded_per_reply_and_the_key_never_reaches_disk() -> None:
    controller = offline_controller({"OPENAI_API_KEY": SECRET})

    async def story() -> None:
        await controller.send("We need a queue that handles 500 messages per second.")
        switched = await dispatch(controller, "/model openai:gpt-4o")
        assert switched.ok, switched.text
        listing = await dispatch(controller, "/model")
        assert "Now: **openai · gpt-4o**" in listing.text
        assert "- turn 1: offline · offline-demo" in listing.text
        assert SECRET not in listing.text
        back = await dispatch(controller, "/model offline")
        assert back.ok, back.text
        await controller.send("It must run on our own servers.")
        await controller.aclose()

    run(story())
    session = SessionStore().load(controller.session.id)
    replies = [m for m in session.messages if m.role == "assistant"]
    assert [(m.turn, m.provider, m.model) for m in replies] == [
        (1, "offline", "offline-demo"),
        (2, "offline", "offline-demo"),
    ]
    assert session.provider.name == "offline"
    written = "".join(p.read_text(errors="replace") for p in sessions_dir().iterdir())
    logged = "".join(
        p.read_text(errors="replace") for p in log_dir().rglob("*") if p.is_file()
    ) if log_dir().exists() else ""
    assert SECRET not in written and SECRET not in logged


def _session_last_on_openai() -> str:
    controller = offline_controller({"OPENAI_API_KEY": SECRET})

    async def story() -> None:
        await controller.send("We need a queue that handles 500 messages per second.")
        assert (await dispatch(controller, "/model openai:gpt-4o")).ok
        await controller.aclose()

    run(story())
    return controller.session.id


def test_a_resumed_session_runs_on_its_last_model() -> None:
    session_id = _session_last_on_openai()
    resumed = Controller(
        load_settings(None, {}, {"OPENAI_API_KEY": SECRET}), SessionStore()
    )
    resumed.open_session(session_id)
    assert (resumed.choice.name, resumed.provider_label) == ("openai", "openai · gpt-4o")
    assert resumed.model_note is None
    resumed.release()


def test_on_resume_a_provider_flag_wins_over_the_sessions_last_model() -> None:
    session_id = _session_last_on_openai()
    resumed = offline_controller({"OPENAI_API_KEY": SECRET})
    resumed.open_session(session_id)
    assert resumed.choice.name == "offline"
    assert resumed.model_note is not None and "command line" in resumed.model_note
    resumed.release()


def test_a_resumed_sessions_model_that_cannot_run_here_is_said_and_not_used() -> None:
    session_id = _session_last_on_openai()
    resumed = Controller(
        load_settings(None, {}, {"RCM_TUI_PROVIDER": "offline"}), SessionStore()
    )
    resumed.open_session(session_id)
    assert resumed.choice.name == "offline"
    assert resumed.model_note is not None
    assert "openai · gpt-4o, which cannot run here: openai has no API key" in resumed.model_note
    resumed.release()


def test_documents_written_before_models_were_recorded_still_load() -> None:
    data = Session(id="20250101-000000-old000").dump()
    data["messages"] = [
        {"role": "user", "content": "hi", "turn": 1, "created_at": "2025-01-01T00:00:00Z"},
        {"role": "assistant", "content": "hello", "turn": 1,
         "created_at": "2025-01-01T00:00:01Z"},
    ]
    session = Session.model_validate(data)
    assert session.messages[1].model is None
    assert models_by_turn(session) == []
    session.messages.append(
        Message(role="assistant", content="x", turn=2, provider="local", model="SmolLM2")
    )
    assert models_by_turn(session) == [(2, 2, "local · SmolLM2")]


def test_a_base_url_flag_stays_with_the_provider_it_was_given_for() -> None:
    loaded = load_settings(None, {"provider": "openai", "base_url": "http://127.0.0.1:8000/v1"},
                           {"OPENAI_API_KEY": SECRET, "ANTHROPIC_API_KEY": SECRET})
    started = loaded.settings
    to_anthropic = switched_settings(started, ModelSpec("anthropic"), started)
    assert (to_anthropic.provider, to_anthropic.base_url) == ("anthropic", "")
    back = switched_settings(to_anthropic, ModelSpec("openai", "qwen"), started)
    assert (back.provider, back.model, back.base_url) == (
        "openai", "qwen", "http://127.0.0.1:8000/v1")

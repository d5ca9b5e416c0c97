"""Switching the provider or model of a running session (`/model`).

What `/model PROVIDER:NAME` means, whether that provider can run here (its SDK, its key or
server, its model file), and the list `/model` shows. Everything here is cheap: nothing is
imported from an SDK, nothing is loaded, nothing goes on the network. Loading an in-process
model is the controller's last check before it switches.

Reasons name the setting to fix, never a key's value.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from ..config import Settings
from .registry import (
    BUNDLED_LOCAL_MODEL,
    LOCAL_INSTALL_HINT,
    OFFLINE_MODEL,
    PROVIDERS,
    ModelSpec,
    local_available,
    model_name,
)

KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
USAGE = "/model PROVIDER:NAME, /model PROVIDER or /model NAME"


def parse_model_spec(text: str, current_provider: str) -> ModelSpec:
    """`openai:gpt-4o` → (openai, gpt-4o); `offline` → (offline, ""); `gpt-4o` → the current
    provider's model gpt-4o. The provider comes first, up to the first colon, so a model name
    with a colon (an Ollama tag) keeps it: `openai:llama3:8b`. ValueError says what is wrong."""
    text = text.strip()
    if not text:
        raise ValueError(f"usage: {USAGE}")
    if text.lower() in PROVIDERS:
        return ModelSpec(text.lower())
    head, colon, tail = text.partition(":")
    if not colon:
        return ModelSpec(current_provider, text)
    provider = head.strip().lower()
    if provider not in PROVIDERS:
        raise ValueError(
            f"unknown provider “{head.strip()}”; the providers are {', '.join(PROVIDERS)}. "
            f"A model name with a colon (an Ollama tag) is written after its provider: "
            f"openai:{text}"
        )
    return ModelSpec(provider, tail.strip())


def local_model_argument(model: str) -> str:
    """The bundled model is named, not a path: it is asked for as "" (the bundled file)."""
    return "" if model == BUNDLED_LOCAL_MODEL else model


def unavailable_reason(settings: Settings, spec: ModelSpec) -> str | None:
    """Why `spec` cannot run here, in one line naming what to install or set; None if it can."""
    if spec.provider not in PROVIDERS:
        return f"unknown provider “{spec.provider}”; the providers are {', '.join(PROVIDERS)}"
    if spec.provider == "offline":
        if spec.model and spec.model != OFFLINE_MODEL:
            return (
                f"the offline demo has one model, {OFFLINE_MODEL}; to use “{spec.model}” "
                f"name its provider, e.g. /model openai:{spec.model}"
            )
        return None
    if spec.provider == "local":
        return _local_problem(settings, local_model_argument(spec.model))
    return _sdk_problem(settings, spec.provider)


def _sdk_problem(settings: Settings, provider: str) -> str | None:
    if importlib.util.find_spec(provider) is None:
        return f"the {provider} SDK is not installed (pip install {provider})"
    cfg = settings.providers.openai if provider == "openai" else settings.providers.anthropic
    if not cfg.api_key and not cfg.base_url:
        return (
            f"{provider} has no API key: set {KEY_VARIABLES[provider]} or "
            f"providers.{provider}.api_key (or providers.{provider}.base_url for a local server)"
        )
    return None


def _local_problem(settings: Settings, model: str) -> str | None:
    if not local_available():
        return f"the local provider is not installed: {LOCAL_INSTALL_HINT}"
    path = model or settings.providers.local.model_path
    if path and not Path(path).expanduser().is_file():
        return f"local model file not found: {path}"
    return None


def switched_settings(settings: Settings, spec: ModelSpec, started: Settings) -> Settings:
    """The settings that run `spec`, from the current ones. A `--base-url` is for the provider
    it was given with (`started`: the settings the app started with, "auto" resolved to
    `settings.provider` then): another provider uses its own `providers.X.base_url`."""
    if spec.provider == settings.provider:
        base_url = settings.base_url
    else:
        base_url = started.base_url if spec.provider == started.provider else ""
    model = local_model_argument(spec.model) if spec.provider == "local" else spec.model
    return settings.model_copy(
        update={"provider": spec.provider, "model": model, "base_url": base_url}
    )


@dataclass(frozen=True)
class ProviderState:
    """One row of the `/model` listing."""

    provider: str
    models: str
    problem: str | None


def provider_states(settings: Settings) -> list[ProviderState]:
    """Every provider with the models configured for it and whether it can run here."""
    cfg = settings.providers
    rows: list[ProviderState] = []
    for provider in PROVIDERS:
        spec = ModelSpec(provider)
        models = model_name(settings, spec)
        if provider == "openai" and cfg.openai.analysis_model:
            models += f" (analysis: {cfg.openai.analysis_model})"
        if provider == "anthropic" and cfg.anthropic.analysis_model:
            models += f" (analysis: {cfg.anthropic.analysis_model})"
        if provider == "local" and not cfg.local.model_path:
            models += " (bundled) or a GGUF path"
        rows.append(ProviderState(provider, models, unavailable_reason(settings, spec)))
    return rows

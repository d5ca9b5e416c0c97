"""Structured logs in a private, rotated file.

One JSON object per line: ts, level, logger, msg, plus whatever `extra=` fields a caller gave.
Nothing is ever written to stderr, because the TUI owns the terminal. Every record passes a
filter that blanks anything that looks like an API key, and no conversation text is logged,
so a log can be attached to a bug report.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import config, safe_files

LOG_NAME = "rcm-tui.log"
MAX_BYTES = 1024 * 1024
BACKUP_COUNT = 3
REDACTED = "[REDACTED]"
SECRET_ENV = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")

_KEY_PATTERNS = (
    # OpenAI (sk-..., sk-proj-...) and Anthropic (sk-ant-...) keys.
    re.compile(r"sk-[A-Za-z0-9_\-]{8,}"),
    # Authorization headers from SDK debug logs.
    re.compile(r"(?i)(?<=bearer )[A-Za-z0-9._\-~+/]{8,}=*"),
    re.compile(r"(?i)(?<=x-api-key': ')[^']+|(?<=x-api-key\": \")[^\"]+"),
)
# Attributes every LogRecord has; anything else on a record came from `extra=`.
_STANDARD_ATTRS = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime"}

# Keys from the config file, registered by whoever loads the settings.
_extra_secrets: set[str] = set()


def register_secret(value: str) -> None:
    """Redact this exact value too (e.g. an api_key read from the config file)."""
    if len(value) >= 4:
        _extra_secrets.add(value)


def redact(text: str) -> str:
    secrets = {os.environ.get(name, "") for name in SECRET_ENV} | _extra_secrets
    # Longest first, so a key that contains another registered value is blanked whole.
    for secret in sorted((s for s in secrets if len(s) >= 4), key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    for pattern in _KEY_PATTERNS:
        text = pattern.sub(REDACTED, text)
    return text


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_value(v) for v in value]
    return value


class SecretRedactor(logging.Filter):
    """Blanks API keys in the message, its arguments, extra fields and exception text."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # mismatched %-args: keep the record, not lose it
            message = f"{record.msg} {record.args}"
        record.msg = redact(message)
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        record.exc_info = None
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        for key in set(vars(record)) - _STANDARD_ATTRS:
            setattr(record, key, _redact_value(getattr(record, key)))
        return True


class JsonLinesFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key in sorted(set(vars(record)) - _STANDARD_ATTRS):
            entry[key] = getattr(record, key)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exc"] = record.exc_text
        # ASCII only: JSON escapes C0 controls but not C1 (U+009B is CSI to some terminals), and
        # a log is read with `cat` or `tail -f`.
        return json.dumps(entry, ensure_ascii=True, default=str)


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """Creates every log file (the first and each one after a rollover) with mode 0600, and
    never appends through a symlink planted at the log path."""

    def _open(self):  # type: ignore[no-untyped-def]
        # The handler owns the stream and closes it.
        return open(
            self.baseFilename,
            self.mode,
            encoding=self.encoding,
            errors=self.errors,
            opener=lambda path, _flags: safe_files.open_for_append(Path(path)),
        )


def _level_number(level: str) -> int:
    number = logging.getLevelName(level.upper())
    if not isinstance(number, int):
        raise ValueError(f"unknown log level '{level}' (use debug, info, warning or error)")
    return number


def _our_handler(root: logging.Logger) -> PrivateRotatingFileHandler | None:
    return next((h for h in root.handlers if isinstance(h, PrivateRotatingFileHandler)), None)


def setup_logging(level: str = "info") -> Path:
    """Log to `log_dir()/rcm-tui.log`; calling it again only changes the level."""
    number = _level_number(level)
    folder = config.log_dir()
    safe_files.private_folder(folder)
    path = folder / LOG_NAME
    root = logging.getLogger()
    handler = _our_handler(root)
    if handler is not None and Path(handler.baseFilename) != path:
        root.removeHandler(handler)
        handler.close()
        handler = None
    if handler is None:
        handler = PrivateRotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8", delay=False
        )
        handler.addFilter(SecretRedactor())
        handler.setFormatter(JsonLinesFormatter())
        root.addHandler(handler)
    handler.setLevel(number)
    root.setLevel(number)
    # A failing handler (disk full) would otherwise print a traceback over the TUI.
    logging.raiseExceptions = False
    return path

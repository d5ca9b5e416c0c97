"""What the network providers share: retries with backoff, and errors a user can read.

The SDKs' own retry loops are switched off (`max_retries=0`) so that every provider retries the
same way, honours `Retry-After` the same way, and can be tested without a clock: the sleep and
the jitter source are injectable through `RetryPolicy`.

This module imports no SDK (and no HTTP library): the providers translate their SDK's
exceptions into a `Failure` using the small builders below, and `stream_with_retries` decides
what to do with it.
"""

from __future__ import annotations

import asyncio
import random
import re
import socket
import ssl
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping
from contextlib import aclosing
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Generic, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

from ..core.llm import (
    ErrorKind,
    LLMRequest,
    ProviderError,
    StreamEvent,
    TextDelta,
    context_overflow_in,
)
from ..core.text_safety import visible_line
from .bounds import StreamBounds, bounded

# Stands in for a missing key when talking to local OpenAI/Anthropic-compatible servers, which
# ignore it; the SDKs refuse to build a client without one. Obviously not a real key.
PLACEHOLDER_API_KEY = "sk-no-key"

MESSAGE_LIMIT = 240
MIN_SECRET_LENGTH = 8


@dataclass(frozen=True)
class Failure:
    """One failed attempt, classified."""

    error: ProviderError
    # May the same request be sent again automatically (if no text was streamed yet)?
    transient: bool = False
    # Seconds the server asked us to wait (Retry-After), if it said.
    retry_after: float | None = None


class StreamEndedEarly(Exception):
    """The server closed a stream cleanly but without its end-of-message marker."""


@dataclass
class RetryPolicy:
    max_retries: int = 3
    base_delay: float = 0.5
    # Waits are capped so a server asking for minutes does not freeze a turn for minutes.
    max_delay: float = 20.0
    sleep: Callable[[float], Awaitable[None]] = field(default=asyncio.sleep)
    # Returns a float in [0, 1); tests pin it to make the jitter deterministic.
    random: Callable[[], float] = field(default=random.random)

    def delay(self, retry_number: int, retry_after: float | None) -> float:
        """Seconds to wait before retry `retry_number` (0-based)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.max_delay)
        backoff = self.base_delay * 2**retry_number
        # Up to 25% shorter, so many clients hit by the same outage do not retry in lockstep.
        return min(backoff * (1.0 - 0.25 * self.random()), self.max_delay)


async def stream_with_retries(
    name: str,
    attempt: Callable[[], AsyncGenerator[StreamEvent, None]],
    classify: Callable[[Exception], Failure],
    policy: RetryPolicy,
    secret: str = "",
) -> AsyncGenerator[StreamEvent, None]:
    """Run `attempt()` until it streams to the end, retrying transient failures.

    A failure is retried only while nothing has been yielded: once the user has seen text,
    sending the request again would duplicate or contradict it, so the caller gets a
    "stream was cut" error instead. Every error raised has the API key scrubbed from it.
    """
    retries = 0
    while True:
        streamed = 0
        try:
            async with aclosing(attempt()) as events:
                async for event in events:
                    if isinstance(event, TextDelta):
                        streamed += len(event.text)
                    yield event
            return
        except Exception as exc:
            failure = _failure_of(name, exc, classify)
            if streamed:
                raise _scrubbed(stream_cut_error(name, streamed, failure), secret) from exc
            if not failure.transient or retries >= policy.max_retries:
                raise _scrubbed(_gave_up(failure.error, retries), secret) from exc
        await policy.sleep(policy.delay(retries, failure.retry_after))
        retries += 1


def _failure_of(name: str, exc: Exception, classify: Callable[[Exception], Failure]) -> Failure:
    if isinstance(exc, ProviderError):
        return Failure(exc)
    if isinstance(exc, StreamEndedEarly):
        return Failure(
            ProviderError(f"{name}: the server ended the stream early", "connection", True),
            transient=True,
        )
    return classify(exc)


def _gave_up(error: ProviderError, retries: int) -> ProviderError:
    if not retries:
        return error
    noun = "retry" if retries == 1 else "retries"
    return ProviderError(
        f"{error.message}; gave up after {retries} {noun}", error.kind, error.retryable
    )


_CUT_REASONS: dict[ErrorKind, str] = {
    "timeout": "no data before the timeout",
    "connection": "connection lost",
    "server": "server error",
    "rate_limit": "rate limited",
}


def stream_cut_error(name: str, streamed: int, failure: Failure) -> ProviderError:
    reason = _CUT_REASONS.get(failure.error.kind, "error")
    noun = "character" if streamed == 1 else "characters"
    return ProviderError(
        f"{name}: the stream was cut after {streamed} {noun} ({reason})",
        "connection",
        retryable=True,
    )


def _scrubbed(error: ProviderError, secret: str) -> ProviderError:
    message = one_line(error.message, secret=secret)
    if message == error.message:
        return error
    return ProviderError(message, error.kind, error.retryable)


# --- building failures -----------------------------------------------------------------------


_MARKUP = re.compile(r"<(html|head|body|title|h1)\b", re.IGNORECASE)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]*>")


def one_line(text: str, *, secret: str = "", limit: int = MESSAGE_LIMIT) -> str:
    """Collapse whitespace, hide the secret and keep it short enough for a status line."""
    # A very short "key" (some local servers accept anything) would mangle ordinary words.
    if len(secret) >= MIN_SECRET_LENGTH:
        text = text.replace(secret, "***")
    if _MARKUP.search(text):
        # A proxy's error page: its title says it ("502 Bad Gateway"), the markup does not.
        title = _TITLE.search(text)
        text = title.group(1) if title else _TAG.sub(" ", text)
    # A server's words end up on screen and in the session's error field: no controls.
    text = visible_line(re.sub(r"\s+", " ", text).strip())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return text


def display_url(url: str) -> str:
    """The URL without credentials, query or trailing slash, fit to show in a message."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def retry_after_seconds(headers: Mapping[str, str], now: datetime | None = None) -> float | None:
    """Seconds from `retry-after-ms` or `Retry-After` (seconds or an HTTP date), if present."""
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            return max(float(millis) / 1000.0, 0.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - (now or datetime.now(UTC))).total_seconds(), 0.0)


def status_failure(
    name: str,
    status: int,
    headers: Mapping[str, str],
    detail: str = "",
    *,
    key_configured: bool = True,
    key_hint: str = "",
) -> Failure:
    """Classify an HTTP error status; `detail` is the server's own message, if any."""
    suffix = f": {detail}" if detail else ""
    if status in (401, 403):
        # The server's text is left out on purpose: some echo a masked form of the key.
        if not key_configured:
            message = f"{name}: the server wants an API key and none is set ({status})"
            if key_hint:
                message += f"; {key_hint}"
            return Failure(ProviderError(message, "auth"))
        return Failure(ProviderError(f"{name}: the API key was rejected ({status})", "auth"))
    if status == 429:
        error = ProviderError(
            f"{name}: rate limited by the server (429){suffix}", "rate_limit", retryable=True
        )
        return Failure(error, transient=True, retry_after=retry_after_seconds(headers))
    if status == 408:
        error = ProviderError(
            f"{name}: the server timed out the request (408)", "timeout", retryable=True
        )
        return Failure(error, transient=True, retry_after=retry_after_seconds(headers))
    if status >= 500:
        what = "the server is overloaded" if status == 529 else "server error"
        error = ProviderError(f"{name}: {what} ({status}){suffix}", "server", retryable=True)
        return Failure(error, transient=True, retry_after=retry_after_seconds(headers))
    if status == 404:
        return Failure(
            ProviderError(f"{name}: model or endpoint not found (404){suffix}", "bad_request")
        )
    overflow = context_overflow_in(detail)
    if overflow is not None and status in (400, 413):
        message = f"{name}: the prompt does not fit the model's context window{suffix}"
        return Failure(ProviderError(message, "context_overflow", overflow=overflow))
    if status == 413:
        return Failure(
            ProviderError(f"{name}: the request is too large (413){suffix}", "bad_request")
        )
    return Failure(
        ProviderError(f"{name}: the server refused the request ({status}){suffix}", "bad_request")
    )


def timeout_failure(name: str, url: str, seconds: float) -> Failure:
    # Not repeated automatically: the user has already waited the whole timeout once.
    message = f"{name}: no answer from {url} within {seconds:g} s (timeout)"
    return Failure(ProviderError(message, "timeout", retryable=True))


def connection_failure(name: str, url: str, exc: BaseException) -> Failure:
    message = f"{name}: cannot connect to {url} ({connection_reason(exc)})"
    return Failure(ProviderError(message, "connection", retryable=True), transient=True)


def connection_reason(exc: BaseException) -> str:
    """A few words on why a connection failed, from the exception and what caused it."""
    for cause in _causes(exc):
        if isinstance(cause, ConnectionRefusedError):
            return "connection refused"
        if isinstance(cause, socket.gaierror):
            return "host not found"
        if isinstance(cause, ssl.SSLError):
            return "TLS error"
        if isinstance(cause, ConnectionResetError):
            return "connection reset"
    for cause in _causes(exc):
        text = str(cause).lower()
        if "peer closed" in text or "incomplete" in text:
            return "connection closed by the server"
    return "connection failed"


def _causes(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 12:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


# --- the shape of an SDK-backed provider ---------------------------------------------------


class SDKSettings(Protocol):
    """The settings every SDK-backed provider section has (`[providers.openai]`, …)."""

    model: str
    api_key: str
    timeout: float
    max_retries: int
    max_tokens: int
    call_deadline: float
    max_reply_chars: int


SettingsT = TypeVar("SettingsT", bound=SDKSettings)
DETAIL_LIMIT = 160


class SDKProvider(Generic[SettingsT]):
    """What the openai and anthropic providers share: the client built with the SDK's own
    retries off, streaming through `stream_with_retries`, the key kept out of every message.

    A subclass names itself, builds its client (`_make_client`), streams one attempt
    (`_attempt`) and classifies its SDK's exceptions (`_classify`).
    """

    name: str

    def __init__(
        self,
        cfg: SettingsT,
        *,
        model: str | None = None,
        base_url: str | None = None,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.model = model or cfg.model
        self.label = f"{self.name} · {self.model}"
        self._cfg = cfg
        self._secret = cfg.api_key
        self._retry = retry or RetryPolicy(max_retries=cfg.max_retries)
        self._client = self._make_client(
            api_key=cfg.api_key or PLACEHOLDER_API_KEY,
            base_url=base_url or None,
            timeout=cfg.timeout,
            max_retries=0,
        )
        self._url = display_url(str(self._client.base_url))

    def _make_client(self, **options: Any) -> Any:
        raise NotImplementedError

    def _attempt(self, request: LLMRequest) -> AsyncGenerator[StreamEvent, None]:
        raise NotImplementedError

    def _classify(self, exc: Exception) -> Failure:
        raise NotImplementedError

    def stream(self, request: LLMRequest) -> AsyncGenerator[StreamEvent, None]:
        cfg = self._cfg
        limits = StreamBounds.of(
            request.max_tokens or cfg.max_tokens, cfg.max_reply_chars, cfg.call_deadline
        )
        return bounded(
            self.name,
            stream_with_retries(
                self.name, lambda: self._attempt(request), self._classify, self._retry, self._secret
            ),
            limits,
        )

    async def aclose(self) -> None:
        await self._client.close()

    def _detail(self, text: str) -> str:
        """A server's words, short and without the key, for a one-line error."""
        return one_line(text, secret=self._secret, limit=DETAIL_LIMIT)

    def _status_failure(
        self, status: int, headers: Mapping[str, str], detail: str, hint: str
    ) -> Failure:
        return status_failure(
            self.name,
            status,
            headers,
            self._detail(detail),
            key_configured=bool(self._cfg.api_key),
            key_hint=hint,
        )

    def _transport_failure(self, exc: Exception, *, timed_out: bool) -> Failure:
        if timed_out:
            return timeout_failure(self.name, self._url, self._cfg.timeout)
        return connection_failure(self.name, self._url, exc)

    def _unexpected(self, exc: Exception) -> Failure:
        detail = self._detail(f"{type(exc).__name__}: {exc}")
        return Failure(ProviderError(f"{self.name}: unexpected error ({detail})", "unknown"))

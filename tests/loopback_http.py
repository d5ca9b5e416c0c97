"""The start-up both fake HTTP servers share: a threaded server on a free loopback port.

tests/providers/fake_server.py (scripted replies, for the providers' wire level) and
tests/fake_local_server.py (a single-slot local server's refusals) differ in what they answer;
each hands every request to its own `serve(handler)`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Serve = Callable[[BaseHTTPRequestHandler], None]


class LoopbackHTTP:
    """Serves on 127.0.0.1:<a free port> from a daemon thread between start() and stop()."""

    def __init__(self, serve: Serve) -> None:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.serve = serve  # type: ignore[attr-defined]
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        self.server.serve(self)  # type: ignore[attr-defined]

    do_GET = do_POST

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the test output clean; each server records what it served."""

"""A served app: waitress on a free loopback port, in a thread, on the test's database."""

from __future__ import annotations

import http.client
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest


@dataclass
class Served:
    host: str
    port: int

    def post(self, path: str, form: dict[str, str], timeout: float = 30) -> tuple[int, str, str]:
        """POST a form; return the status, the Location header and the body."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            body = urllib.parse.urlencode(form)
            conn.request(
                "POST",
                path,
                body=body,
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
            response = conn.getresponse()
            return response.status, response.getheader("Location") or "", response.read().decode()
        finally:
            conn.close()

    def get(self, path: str, timeout: float = 30) -> tuple[int, str]:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            conn.request("GET", path)
            response = conn.getresponse()
            return response.status, response.read().decode()
        finally:
            conn.close()


@pytest.fixture
def served(app: Any) -> Iterator[Served]:
    from waitress.server import create_server
    from waitress.wasyncore import close_all

    server = create_server(app, host="127.0.0.1", port=0, threads=8)
    port = server.effective_port  # type: ignore[union-attr]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield Served("127.0.0.1", int(port))
    finally:
        # Closed from the server's own loop: closing its sockets from here raced its
        # select() ("Bad file descriptor" in the server thread, now and then).
        server.trigger.pull_trigger(lambda: close_all(server._map))  # type: ignore[union-attr]
        thread.join(timeout=5)
        server.task_dispatcher.shutdown()  # type: ignore[union-attr]

"""A served app: waitress on a free loopback port, in a thread, on the test's database."""

from __future__ import annotations

import http.client
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest


def at_once(*calls: Any, timeout: float = 120) -> list[Any]:
    """Run the calls in threads released together; return their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int) -> None:
        barrier.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    return results


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
    from scorekeeper.serving import server as serving

    server = serving.create_server(app, host="127.0.0.1", port=0, threads=8)
    port = server.effective_port
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield Served("127.0.0.1", int(port))
    finally:
        serving.stop(server)
        thread.join(timeout=5)

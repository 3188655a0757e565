"""Read a Server-Sent Events stream over a socket, as a browser's EventSource reads it
(tests/web/test_events.py, tests/reliability/test_live_across_processes.py)."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass
from typing import Any

#: How long a test waits for an event that must come (s): far more than one takes.
PATIENCE = 10.0


@dataclass
class Event:
    name: str
    id: str | None
    data: dict[str, Any] | None


class Stream:
    """An open event stream, read as EventSource reads it."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        self.connection.request("GET", path, headers=headers or {})
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next(self) -> Event:
        """The next event (a named one: the retry line and comments are skipped)."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.fp.readline()
            if not line:
                raise EOFError("the stream ended")
            text = line.decode().rstrip("\n")
            if text == "":
                if "event" in fields:
                    data = fields.get("data")
                    return Event(
                        fields["event"], fields.get("id"), json.loads(data) if data else None
                    )
                fields = {}
                continue
            name, _, value = text.partition(":")
            fields[name] = value.lstrip(" ")

    def next_named(self, *names: str) -> Event:
        """The next event called one of ``names`` (skipping "alive")."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            event = self.next()
            if event.name in names:
                return event
            assert event.name == "alive", event
        raise AssertionError(f"no {' or '.join(names)} event in {PATIENCE:.0f} s")

    def ended(self) -> bool:
        """Whether the server ends the stream (rather than sending more)."""
        try:
            while True:
                self.next()
        except EOFError:
            return True

    def close(self) -> None:
        self.response.close()
        self.connection.close()

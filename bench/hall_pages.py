"""The hall's open pages (bench/hall.py): phones' game pages, table boards and room boards,
each a loopback client doing what its page's script does (static/js/board.js).

- A game page or table board opens its game's stream (``/games/<id>/events``) and, a
  moment after each ``change`` (30-150 ms: board-plan.js's ``fetchAfter``), fetches itself
  again with the live header; refused (503), it polls ``version.json`` every 1.5 s.
- A room board opens its event's stream (``/events/<id>/events``) and fetches itself again
  after each ``change`` whose stamp it does not show; refused, it polls the event's
  ``version.json`` every 0.5 s. It notes when each table's count of hands first showed.

Every client is bounded: its sockets time out (``TIMEOUT``), it stops when told, and the
process of pages is ended by the bench if it does not stop in time.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

#: How long any client waits on a socket (s): a stream hears "alive" every 2 s.
TIMEOUT = 30.0
#: The app's defaults: how often a room board and a refused game stream poll (s).
EVENT_POLL_SECONDS = 0.5
POLL_SECONDS = 1.5
LIVE = {"X-Scorekeeper-Live": "1"}
#: A table's line on the room's board (templates/events/_room_tables.html): its number and
#: its count of hands played, or that it has finished.
TABLE_HANDS = re.compile(
    rb'id="table-(\d+)"><span class="room-table-number">\d+</span>\s*'
    rb'<span class="room-table-state">(?:(\d+) hands? played|(finished|time called))'
)
STAMP = re.compile(rb'id="live" hidden\s+data-version="([^"]*)"')


class Client:
    """One keep-alive connection, as a page's fetches share one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """GET ``path``; once more on a fresh connection if the server closed the kept one."""
        for attempt in (1, 2):
            try:
                self.connection.request(
                    "GET", path, headers={"Accept": "text/html", **(headers or {})}
                )
                response = self.connection.getresponse()
                return response.status, response.read()
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                self.connection.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def events(
    response: http.client.HTTPResponse, stopped: threading.Event
) -> Iterator[tuple[str, str]]:
    """A stream's events, as (name, data), until it ends or ``stopped`` is set."""
    name, data = "", ""
    while not stopped.is_set():
        line = response.fp.readline()
        if not line:
            return
        if line.startswith(b"event:"):
            name = line[6:].strip().decode()
        elif line.startswith(b"data:"):
            data = line[5:].strip().decode()
        elif line == b"\n":
            if name:
                yield name, data
            name, data = "", ""


class Stream:
    """An open stream, which ``close`` ends from another thread."""

    def __init__(self, port: int, path: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()

    def close(self) -> None:
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(2)


def fetch_after() -> None:
    time.sleep((30 + random.random() * 120) / 1000)


class Page(threading.Thread):
    """One open live page (a phone's game page, or a table's board)."""

    def __init__(self, port: int, game_id: int, path: str, counts: dict[str, int]) -> None:
        super().__init__(daemon=True)
        self.port, self.game_id, self.path, self.counts = port, game_id, path, counts
        self.stopped = threading.Event()
        self.stream: Stream | None = None

    def run(self) -> None:
        client = Client(self.port)
        try:
            client.get(self.path)
            self.stream = Stream(self.port, f"/games/{self.game_id}/events")
            if self.stream.response.status == 503:
                self.stream.response.read()
                self.counts["polled"] += 1
                self.poll(client)
                return
            self.counts["streamed"] += 1
            for name, _data in events(self.stream.response, self.stopped):
                if name == "change":
                    fetch_after()
                    client.get(self.path, LIVE)
                    self.counts["fetched"] += 1
        except Exception:
            if not self.stopped.is_set():
                self.counts["errors"] += 1

    def poll(self, client: Client) -> None:
        version = None
        next_tick = time.perf_counter() + random.uniform(0, POLL_SECONDS)
        while not self.stopped.is_set():
            time.sleep(max(0.0, next_tick - time.perf_counter()))
            next_tick += POLL_SECONDS
            _, body = client.get(f"/games/{self.game_id}/version.json")
            found = json.loads(body)["version"]
            if version is not None and found != version:
                client.get(self.path, LIVE)
                self.counts["fetched"] += 1
            version = found

    def stop(self) -> None:
        self.stopped.set()
        if self.stream is not None:
            self.stream.close()


def pages_process(connection: Any, port: int, games: list[int], seconds: float) -> None:
    """A process of its own holding four phones and a table board a game; it says its
    counts once they are open and again when told to stop (or after ``seconds``)."""
    counts = {"streamed": 0, "polled": 0, "fetched": 0, "errors": 0}
    pages = []
    for game_id in games:
        pages += [Page(port, game_id, f"/games/{game_id}", counts) for _ in range(4)]
        pages.append(Page(port, game_id, f"/games/{game_id}/board", counts))
    for page in pages:
        page.start()
        time.sleep(0.004)
    deadline = time.monotonic() + 60  # every page open (streaming, polling or failed)
    while time.monotonic() < deadline:
        if counts["streamed"] + counts["polled"] + counts["errors"] >= len(pages):
            break
        time.sleep(0.1)
    connection.send(dict(counts))
    connection.poll(seconds)  # told to stop, or past its time
    for page in pages:
        page.stop()
    connection.send(dict(counts))


class RoomBoard(threading.Thread):
    """The room's TV: its event's stream (polling where refused); on a change, it fetches
    the board and notes when each table's count of hands first showed."""

    def __init__(self, port: int, event_id: int) -> None:
        super().__init__(daemon=True)
        self.port, self.event_id = port, event_id
        self.stopped = threading.Event()
        self.lock = threading.Lock()
        self.shown: dict[tuple[int, int], float] = {}
        self.stamp = ""
        self.how = "opening"
        self.fetches = 0
        self.errors = 0
        self.stream: Stream | None = None

    def refresh(self, client: Client) -> None:
        _, page = client.get(f"/events/{self.event_id}/board", LIVE)
        now = time.perf_counter()
        self.fetches += 1
        found = STAMP.search(page)
        if found:
            self.stamp = found.group(1).decode()
        with self.lock:
            for table, hands, _done in TABLE_HANDS.findall(page):
                self.shown.setdefault((int(table), int(hands) if hands else -1), now)

    def run(self) -> None:
        client = Client(self.port)
        while not self.stopped.is_set():
            try:
                self.refresh(client)
                self.stream = Stream(
                    self.port, f"/events/{self.event_id}/events?since={self.stamp}"
                )
                if self.stream.response.status == 503:
                    self.stream.response.read()
                    self.how = "polled"
                    self.poll(client)
                    return
                self.how = "streamed"
                for name, data in events(self.stream.response, self.stopped):
                    if name in ("change", "alive") and json.loads(data)["version"] != self.stamp:
                        fetch_after()
                        self.refresh(client)
            except Exception:
                if not self.stopped.is_set():
                    self.errors += 1
                    client = Client(self.port)
                    time.sleep(1.0)  # the stream's retry

    def poll(self, client: Client) -> None:
        while not self.stopped.is_set():
            _, body = client.get(f"/events/{self.event_id}/version.json")
            if json.loads(body)["version"] != self.stamp:
                fetch_after()
                self.refresh(client)
            time.sleep(EVENT_POLL_SECONDS)

    def stop(self) -> None:
        self.stopped.set()
        if self.stream is not None:
            self.stream.close()

    def when(self, table: int, hands: int) -> float | None:
        """When the board first showed ``hands`` played at ``table`` (or, for the hand that
        ended its game, the table finished)."""
        with self.lock:
            return self.shown.get((table, hands)) or self.shown.get((table, -1))

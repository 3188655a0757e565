"""A crowd on raw sockets: many open event streams, or many clients that send slowly.

Each client is a real TCP connection from a loopback address of its own choosing
(127.0.0.2 and on: other phones on the LAN, as the server sees them), driven by one
selector so that a thousand of them cost the test one thread.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import time
from dataclasses import dataclass, field


def addresses(count: int) -> list[str]:
    """``count`` loopback addresses other than 127.0.0.1 (Linux answers the whole /8)."""
    return [f"127.0.{1 + n // 250}.{2 + n % 250}" for n in range(count)]


@dataclass(eq=False)
class Client:
    sock: socket.socket
    address: str
    opened: float
    received: bytearray = field(default_factory=bytearray)
    closed_at: float | None = None

    def events(self, name: str) -> int:
        return bytes(self.received).count(f"event: {name}\n".encode())


class Crowd:
    """Clients connected to one server; ``pump`` reads what each is sent."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.clients: list[Client] = []
        self._selector = selectors.DefaultSelector()

    def connect(self, address: str, first: bytes) -> Client:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((address, 0))
        sock.settimeout(10)
        sock.connect(("127.0.0.1", self.port))
        sock.sendall(first)
        sock.setblocking(False)
        client = Client(sock, address, time.monotonic())
        self.clients.append(client)
        self._selector.register(sock, selectors.EVENT_READ, client)
        return client

    def open_streams(self, games: list[int], count: int, spread: int = 10) -> list[Client]:
        """``count`` event streams, on the games in turn, from ``spread`` addresses."""
        sources = addresses(spread)
        return [
            self.connect(
                sources[n % spread],
                f"GET /games/{games[n % len(games)]}/events HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n\r\n".encode(),
            )
            for n in range(count)
        ]

    def open_slow(self, count: int, spread: int) -> list[Client]:
        """``count`` requests sent in part (a line of headers at a time, by ``trickle``)."""
        sources = addresses(spread)
        opened = []
        for n in range(count):
            with contextlib.suppress(OSError):  # refused at once: as good as dropped
                opened.append(
                    self.connect(
                        sources[n % spread],
                        f"POST /games/1 HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n".encode(),
                    )
                )
        return opened

    def trickle(self) -> None:
        """Every open slow client sends one more header line."""
        for client in self.clients:
            if client.closed_at is None:
                try:
                    client.sock.send(b"X-Slow: 1\r\n")
                except OSError:
                    self._closed(client)

    def pump(self, seconds: float) -> None:
        """Read what the server sends for ``seconds``; note each connection it closes."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            for key, _ in self._selector.select(min(left, 0.5)):
                client: Client = key.data
                try:
                    data = client.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if data:
                    client.received += data
                else:
                    self._closed(client)

    def until(self, condition: object, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if condition():  # type: ignore[operator]
                return True
            self.pump(0.2)
        return bool(condition())  # type: ignore[operator]

    def open(self) -> list[Client]:
        return [c for c in self.clients if c.closed_at is None]

    def _closed(self, client: Client) -> None:
        if client.closed_at is None:
            client.closed_at = time.monotonic()
            with contextlib.suppress(KeyError, ValueError):
                self._selector.unregister(client.sock)

    def close(self) -> None:
        for client in self.clients:
            with contextlib.suppress(OSError):
                client.sock.close()
        self._selector.close()

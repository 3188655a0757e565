"""A connection to ``scorekeeper serve``: waitress's channel and task, with each address's
share of connections, a deadline for a request to arrive, a hand-over of a stream's
connection to the streams' loop, and a flooding client's 429 answered without the app."""

from __future__ import annotations

import contextlib
import threading
import time
from collections import Counter
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import WSGITask

from .streams import Held

#: Connections one address may hold open at once (its streams, held by their own loop,
#: aside): a browser opens six at most to a server, a laptop with a few tabs a few dozen.
#: One more is answered 503 and closed at once, so one device holding connections open
#: cannot take the server's from the others.
CONNECTIONS_PER_ADDRESS = 64
#: A request (its line, headers and a small body) must have arrived this many seconds after
#: its first byte, or its connection is dropped: a client trickling a header line every few
#: seconds held a connection for ever, since each line counted as activity.
REQUEST_SECONDS = 20
#: ...and a body gets this many bytes a second more (an import's file on a slow network).
BODY_BYTES_PER_SECOND = 16 * 1024

#: The environ key of the callable that hands a stream's connection to the streams' loop
#: once its response has begun (``live/views.py``); absent under another server.
ADOPT = "scorekeeper.adopt_stream"


class Shared:
    """What every listening socket of one server shares: each address's connections, the
    waits told to clients that flood the printer, and the streams' loop."""

    def __init__(self, held: Held) -> None:
        self.held = held
        self.per_address: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._waits: dict[str, tuple[float, bytes]] = {}

    def told_to_wait(self, address: str, seconds: float, answer: bytes) -> None:
        """The app answered ``address`` 429 (``answer``, whole) for a PDF: until ``seconds``
        from now its PDF requests get that answer from the server, held back until then."""
        with self._lock:
            if len(self._waits) > 10_000:
                now = time.monotonic()
                self._waits = {k: v for k, v in self._waits.items() if v[0] > now}
            self._waits[address] = (time.monotonic() + seconds, answer)

    def wait_left(self, address: str) -> tuple[float, bytes] | None:
        with self._lock:
            found = self._waits.get(address)
            if found is None:
                return None
            left = found[0] - time.monotonic()
            if left <= 0:
                del self._waits[address]
                return None
            return left, found[1]


#: The longest the server holds a flooding client's 429 back.
HOLD_SECONDS = 10.0


class Task(WSGITask):
    """A request's task that can hand its connection to the streams' loop: the app calls
    ``environ[ADOPT](source)`` and answers with the stream's first events; once they are
    written, the connection is the loop's, and the thread is free. A request for a PDF
    from a client told to wait is answered 429 by the loop, when the wait is over, without
    the app."""

    adopted: Any = None
    _kept_answer: list[bytes] | None = None

    def service(self) -> None:
        shared: Shared = self.channel.server.shared
        pdf = self.request.command == "GET" and self.request.path.endswith(".pdf")
        address = self.channel.counted or ""
        if pdf and (waiting := shared.wait_left(address)) is not None:
            left, answer = waiting
            self.close_on_finish = True
            self.channel.adopted = lambda sock: shared.held.answer_later(
                sock, answer, min(left, HOLD_SECONDS)
            )
            return
        if pdf:
            self._kept_answer = []
        super().service()
        if pdf and self.status.startswith("429") and self._kept_answer is not None:
            retry = dict((k.lower(), v) for k, v in self.response_headers).get("retry-after", "")
            if retry.isdigit():
                shared.told_to_wait(address, float(retry), b"".join(self._kept_answer))

    def write(self, data: bytes) -> None:
        if self._kept_answer is not None and self.status.startswith("429"):
            if not bool(getattr(self, "wrote_header", False)):
                self.set_close_on_finish()  # the answer kept says Connection: close
                head = self.build_response_header()
                self._kept_answer.append(head)
                self.channel.write_soon(head)
                self.wrote_header = True
            self._kept_answer.append(data)
        super().write(data)

    def get_environment(self) -> Any:
        environ = super().get_environment()
        if environ.get("REQUEST_METHOD") == "GET" and self.channel.server.held is not None:
            environ[ADOPT] = self._adopt
        return environ

    def _adopt(self, source: Any) -> None:
        self.adopted = source

    def finish(self) -> None:
        if self.adopted is None:
            super().finish()
            return
        if not self.wrote_header:
            self.write(b"")
        # No last chunk: the stream goes on, from the loop. The connection is the loop's once
        # this answer is flushed (Channel.handle_close), never read for another request.
        self.close_on_finish = True
        source, chunked, held = self.adopted, self.chunked_response, self.channel.server.held
        self.channel.adopted = lambda sock: held.adopt(sock, source, chunked=chunked)
        self.channel.abandoned = source.gone


class Channel(HTTPChannel):
    """A connection: its request's first byte timed (REQUEST_SECONDS), its address
    counted (CONNECTIONS_PER_ADDRESS), and handed to the streams' loop when its answer
    is a stream."""

    task_class = Task
    #: What takes the connection once its answer is flushed (the streams' loop), and what to
    #: tell if it is closed first.
    adopted: Any = None
    abandoned: Any = None
    request_started = 0.0
    counted: str | None = None

    def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
        super().__init__(server, sock, addr, adj, map=map)
        self.counted = str(addr[0]) if isinstance(addr, tuple) and addr else ""
        server.shared.per_address[self.counted] += 1

    def received(self, data: bytes) -> bool:
        if self.request is None:
            self.request_started = time.monotonic()
        return bool(super().received(data))

    def late(self, now: float) -> bool:
        """A request begun and not arrived in time (its line, headers and body)."""
        request = self.request
        if request is None or self.requests:
            return False
        allowed = REQUEST_SECONDS + (getattr(request, "content_length", 0) or 0) / (
            BODY_BYTES_PER_SECOND
        )
        return now - self.request_started > allowed

    def handle_close(self) -> None:
        adopted, self.adopted = self.adopted, None
        abandoned, self.abandoned = self.abandoned, None
        kept = None
        if adopted is not None and self.connected and self.socket:
            with contextlib.suppress(OSError):
                kept = self.socket.dup()
        super().handle_close()
        if kept is not None:
            adopted(kept)
        elif abandoned is not None:
            abandoned()

    def del_channel(self, map: Any = None) -> None:
        super().del_channel(map)
        address, self.counted = self.counted, None
        if address is not None:
            counts = self.server.shared.per_address
            left = counts[address] - 1
            if left > 0:
                counts[address] = left
            else:
                counts.pop(address, None)


#: What an address over its share is told before its connection is closed.
_TOO_MANY_BODY = b"Too many connections from this address; try again in a moment.\n"
_TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s"
    % (len(_TOO_MANY_BODY), _TOO_MANY_BODY)
)


class Server(TcpWSGIServer):
    """waitress's server with the per-address cap, the request deadline and a streams' loop."""

    channel_class = Channel

    def __init__(self, application: Any, *, shared: Shared, **kw: Any) -> None:
        self.shared = shared
        self.held = shared.held
        super().__init__(application, **kw)

    def handle_accept(self) -> None:
        try:
            accepted = self.accept()
            if accepted is None:
                return
            conn, addr = accepted
            self.set_socket_options(conn)
        except OSError:
            return
        addr = self.fix_addr(addr)
        host = str(addr[0]) if isinstance(addr, tuple) and addr else ""
        if self.shared.per_address[host] >= CONNECTIONS_PER_ADDRESS:
            with contextlib.suppress(OSError):
                conn.setblocking(False)
                conn.send(_TOO_MANY)
            with contextlib.suppress(OSError):
                conn.close()
            return
        self.channel_class(self, conn, addr, self.adj, map=self._map)

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        monotonic = time.monotonic()
        for channel in list(self.active_channels.values()):
            if isinstance(channel, Channel) and channel.late(monotonic):
                channel.will_close = True

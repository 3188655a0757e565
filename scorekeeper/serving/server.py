"""The production server: waitress, with limits that fit a card table and a club, and the
live boards' streams held by one loop of their own (``serving/streams.py``), not a thread each."""

from __future__ import annotations

import contextlib
import resource
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher, WSGITask

from .streams import Held

#: waitress settings for ``scorekeeper serve`` (and the tests that serve the app for real).
#: waitress takes a request in whole before a thread sees it, so a half-sent request holds
#: a connection, not a thread. Its defaults (100 connections, dropped after 120 s idle) let
#: one phone or laptop holding ~110 half-sent requests stop it accepting anyone for two
#: minutes. A connection costs a file and a few kilobytes: 4,000 leave room for a hall of
#: tables and a crowd of slow clients (each address holds at most CONNECTIONS_PER_ADDRESS,
#: and a request must arrive within REQUEST_SECONDS); an idle connection is dropped after
#: 30 s, checked every 2 s. ``poll`` rather than ``select``: select cannot watch a socket
#: numbered past 1023.
LIMITS: dict[str, Any] = {
    "connection_limit": 4000,
    "channel_timeout": 30,
    "cleanup_interval": 2,
    "asyncore_use_poll": True,
}

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

#: Threads kept for ordinary requests (pages, hands); streams hold none.
REQUEST_THREADS = 8

#: The environ key of the callable that hands a stream's connection to the streams' loop
#: once its response has begun (``live/views.py``); absent under another server.
ADOPT = "scorekeeper.adopt_stream"


def thread_count(app: Any, requests: int = REQUEST_THREADS) -> int:
    """Threads to serve ``app`` with: ``requests``; a live stream holds none (its
    connection is handed to the streams' loop)."""
    return requests


def flusher(environ: dict[str, Any]) -> Any:
    """A function that has the server send what the request wrote so far, now.

    waitress leaves a write under 18,000 bytes (its ``send_bytes``, deprecated) for its main
    loop, which looks again up to a second later (its poll's timeout); a live board's event
    is a few dozen bytes. Waking the loop sends it at once. Another server (gunicorn) sends
    each write as it is made: nothing to do.
    """
    check = environ.get("waitress.client_disconnected")
    channel = getattr(check, "__self__", None)
    server = getattr(channel, "server", None)
    wake = getattr(server, "pull_trigger", None)
    if not callable(wake):
        return lambda: None

    def flush() -> None:
        # A stream may outlive its server's loop (a server stopped while a board is open):
        # its trigger is closed then, and its number may be another file's by now.
        if not getattr(getattr(server, "trigger", None), "_closed", False):
            wake()

    return flush


def options(*, host: str, port: int, threads: int = 8) -> dict[str, Any]:
    """waitress's settings to serve on ``host``:``port`` with the limits above."""
    return {"host": host, "port": port, "threads": threads, "ident": "scorekeeper", **LIMITS}


def raise_file_limit() -> int:
    """Let this process open as many files as it is allowed (the soft limit up to the hard
    one): every connection and every open stream is a file, and a soft limit of 1,024 (a
    common default) is fewer than a hall's open pages. Return the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
    return int(soft)


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


#: The signals that stop ``serve`` as Ctrl-C does: a service manager's (systemd stops a
#: service with SIGTERM) and a closed terminal's. Left to their default, they end the
#: process at once, and its PDF workers are left to notice it by themselves.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
#: How long the request threads are given to finish once the server stops: a live stream
#: ends at its next heartbeat (LIVE_HEARTBEAT_SECONDS) after its connection is closed.
SHUTDOWN_SECONDS = 3.0


class CannotListen(OSError):
    """The address cannot be listened on (taken by another server, or not this machine's)."""


class Stop(Exception):
    """A stop signal arrived (raised on the main thread, in the server's loop)."""


def _stop(signum: int, _frame: object) -> None:
    raise Stop(signal.Signals(signum).name)


def serve(
    app: Any, *, host: str, port: int, threads: int = 8, stopping: Callable[[], None] = lambda: None
) -> None:
    """Serve ``app`` until Ctrl-C, SIGTERM or SIGHUP (``scorekeeper serve``); then call
    ``stopping`` (the PDF workers end), close every connection, and give the request
    threads a moment to finish. waitress's own ``serve`` waits up to 5 s for its threads
    before anything else, and a live board's stream holds one for as long as it is open."""
    import logging

    logging.basicConfig()  # as waitress.serve does: its messages reach the terminal
    try:
        server = create_server(app, host=host, port=port, threads=threads)
    except OSError as error:
        raise CannotListen(error.errno, error.strerror or str(error)) from None
    server.print_listen("Serving on http://{}:{}")
    previous = {number: signal.signal(number, _stop) for number in STOP_SIGNALS}
    try:
        server.asyncore.loop(
            timeout=server.adj.asyncore_loop_timeout,
            map=_channels(server),
            use_poll=server.adj.asyncore_use_poll,
        )
    except (KeyboardInterrupt, Stop):
        pass
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
        stopping()
        _close_connections(server)
        held = held_streams(server)
        if held is not None:
            held.stop()
        server.task_dispatcher.shutdown(timeout=SHUTDOWN_SECONDS)


def _channels(server: Any) -> dict[int, Any]:
    """The server's map of sockets (one server's ``_map``, several addresses' ``map``)."""
    found: dict[int, Any] = getattr(server, "_map", None) or server.map
    return found


def _close_connections(server: Any) -> None:
    """Close every client connection, as a client leaving does (its channel's own
    ``handle_close``): a request thread writing to one stops there (ClientDisconnected)."""
    from waitress.channel import HTTPChannel

    for channel in list(_channels(server).values()):
        if isinstance(channel, HTTPChannel):
            channel.handle_close()


def create_server(app: Any, *, host: str, port: int, threads: int = 8) -> Any:
    """Make (not run) a waitress server for ``app``, as ``serve`` does: one listening
    socket per address ``host`` names, sharing the request threads, the per-address
    counts and the streams' loop."""
    raise_file_limit()
    adj = Adjustments(**options(host=host, port=port, threads=threads))
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    config = getattr(app, "config", {})
    held = Held(float(config.get("LIVE_HEARTBEAT_SECONDS", 2.0)))
    shared = Shared(held)
    socket_map: dict[int, Any] = {}
    servers = [
        Server(
            app,
            shared=shared,
            map=socket_map,
            dispatcher=dispatcher,
            adj=adj,
            sockinfo=sockinfo,
        )
        for sockinfo in adj.listen
    ]
    if len(servers) == 1:
        return servers[0]
    effective = [(server.effective_host, server.effective_port) for server in servers]
    multi = MultiSocketServer(socket_map, adj, effective, dispatcher)
    multi.held = held
    return multi


def held_streams(server: Any) -> Held | None:
    """The streams' loop of a server ``create_server`` made."""
    found: Held | None = getattr(server, "held", None)
    return found


def stop(server: Any) -> None:
    """Stop a server that ``run`` serves on another thread: every connection and the
    listening socket are closed on the server's own thread (closing them from here
    races its loop), which then returns."""

    def close_everything() -> None:
        for channel in list(server._map.values()):
            if channel is not server and channel is not server.trigger:
                channel.close()
        server.close()

    try:
        server.trigger.pull_trigger(close_everything)
    except OSError:
        # The trigger is closed already: the server's loop has ended (it closes it on the
        # way out), so nothing races this thread for what is left to close.
        close_everything()
    server.task_dispatcher.shutdown()
    held = held_streams(server)
    if held is not None:
        held.stop()

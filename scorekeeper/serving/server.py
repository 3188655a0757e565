"""The production server: waitress, with limits that fit a card table and a club, and the
live boards' streams held by one loop of their own (``serving/streams.py``), not a thread each."""

from __future__ import annotations

import contextlib
import resource
import signal
from collections.abc import Callable
from typing import Any

from waitress.adjustments import Adjustments
from waitress.server import MultiSocketServer
from waitress.task import ThreadedTaskDispatcher
from waitress.wasyncore import ExitNow

from .connections import (
    ADOPT,
    BODY_BYTES_PER_SECOND,
    CONNECTIONS_PER_ADDRESS,
    REQUEST_SECONDS,
    Server,
    Shared,
)
from .streams import Held

__all__ = ["ADOPT", "BODY_BYTES_PER_SECOND", "CONNECTIONS_PER_ADDRESS", "REQUEST_SECONDS"]

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

#: Threads kept for ordinary requests (pages, hands); streams hold none.
REQUEST_THREADS = 8


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


#: The signals that stop ``serve`` as Ctrl-C does: a service manager's (systemd stops a
#: service with SIGTERM) and a closed terminal's. Left to their default, they end the
#: process at once, and its PDF workers are left to notice it by themselves.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
#: How long the request threads are given to finish once the server stops: a live stream
#: ends at its next heartbeat (LIVE_HEARTBEAT_SECONDS) after its connection is closed.
SHUTDOWN_SECONDS = 3.0


class CannotListen(OSError):
    """The address cannot be listened on (taken by another server, or not this machine's)."""


class Stop(ExitNow):
    """A stop signal arrived (raised on the main thread, in the server's loop). An
    ``ExitNow``: the loop lets it through wherever it lands. Any other exception raised
    while a channel handles its event (the listening socket accepting, the threads' wake-up
    pipe) is taken for that channel's error: the channel is closed and serving goes on, so
    a signal that arrived just then was lost and the server kept running."""


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

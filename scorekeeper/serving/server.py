"""The production server: waitress, with limits that fit a card table and a club."""

from __future__ import annotations

import signal
from collections.abc import Callable
from typing import Any

#: waitress settings for ``scorekeeper serve`` (and the tests that serve the app for real).
#: waitress takes a request in whole before a thread sees it, so a half-sent request holds
#: a connection, not a thread. Its defaults (100 connections, dropped after 120 s idle) let
#: one phone or laptop holding ~110 half-sent requests stop it accepting anyone for two
#: minutes. A table has a handful of phones, a club a few dozen, each with a browser's
#: six connections at most: 500 connections leave room for all of them and a misbehaving
#: device, and an idle connection (a half-sent request included) is dropped after 30 s,
#: checked every 5 s. ``poll`` rather than ``select``: select cannot watch a socket
#: numbered past 1023.
LIMITS: dict[str, Any] = {
    "connection_limit": 500,
    "channel_timeout": 30,
    "cleanup_interval": 5,
    "asyncore_use_poll": True,
}

#: Threads kept for ordinary requests (pages, hands) however many live streams are open.
REQUEST_THREADS = 8


def thread_count(app: Any, requests: int = REQUEST_THREADS) -> int:
    """Threads to serve ``app`` with: one per live stream it may hold open (LIVE_STREAMS;
    each holds its thread while open) and ``requests`` more, which streams never take."""
    return int(app.config["LIVE_STREAMS"]) + requests


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
    """Make (not run) a waitress server for ``app``, as ``serve`` does."""
    from waitress.server import create_server as waitress_server

    return waitress_server(app, **options(host=host, port=port, threads=threads))


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

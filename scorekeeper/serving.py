"""The production server: waitress, with limits that fit a card table and a club."""

from __future__ import annotations

from typing import Any

#: waitress settings for ``scorekeeper serve`` (and the tests that serve the app for real).
LIMITS: dict[str, Any] = {}


def create_server(app: Any, *, host: str, port: int, threads: int = 8) -> Any:
    """Make (not run) a waitress server for ``app`` with the limits above."""
    from waitress.server import create_server as waitress_server

    return waitress_server(
        app, host=host, port=port, threads=threads, ident="scorekeeper", **LIMITS
    )


def stop(server: Any) -> None:
    """Stop a server that ``run`` serves on another thread: every connection and the
    listening socket are closed on the server's own thread (closing them from here
    races its loop), which then returns."""

    def close_everything() -> None:
        for channel in list(server._map.values()):
            if channel is not server and channel is not server.trigger:
                channel.close()
        server.close()

    server.trigger.pull_trigger(close_everything)
    server.task_dispatcher.shutdown()

"""A game's changes as they happen: Server-Sent Events for its boards and game pages.

``GET /games/<id>/events`` (text/event-stream) sends, as the stream opens, the game's
version (``change`` if it differs from the one the page had, given as ``Last-Event-ID`` or
``?since=``; else ``alive``), then a ``change`` (its ``id`` and data the new version)
whenever a write commits (scorekeeper/live/broker.py), ``alive`` every LIVE_HEARTBEAT_SECONDS so
a page that hears nothing knows the server is gone, and ``deleted`` (ending the stream)
when the game is deleted. The page fetches what changed itself (static/js/board.js).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request
from flask.globals import request_ctx

from ..games import queries
from ..i18n import gettext
from ..operations.errors import NotFound
from ..serving import server as serving
from . import broker as live

bp = Blueprint("live", __name__)

#: How soon (ms) a browser's EventSource connects again after losing the stream.
RETRY_MS = 1000


@bp.before_app_request
def _keep_flashes_for_the_next_page() -> None:
    """A page fetched again to update in place shows no messages: they stay for the page
    the phone opens next (its own save's "Ana made 3." would be taken otherwise)."""
    if live.REFRESH_HEADER in request.headers:
        request_ctx.flashes = []


def _since() -> int | None:
    """The version the page last heard of: Last-Event-ID (a reconnecting EventSource sends
    it), else ``?since=``; None if neither is a number."""
    given = request.headers.get("Last-Event-ID") or request.args.get("since")
    try:
        return int(given) if given is not None else None
    except ValueError:
        return None


def _busy(message: str) -> Response:
    response = Response(message + "\n", 503, mimetype="text/plain")
    response.headers["Retry-After"] = "30"
    return response


@bp.get("/games/<id:game_id>/events")
def events(game_id: int) -> Response:
    """Stream the game's changes to a board or game page."""
    if not request.environ.get("wsgi.multithread"):
        # A server with one thread per process (gunicorn's sync workers) would give its only
        # thread to the stream: the page polls instead.
        return _busy(gettext("This server cannot keep live boards open; the page checks instead."))
    broker = live.broker()
    try:
        subscriber = broker.subscribe(game_id)
    except live.Full:
        return _busy(gettext("Too many live boards are open; the page checks instead."))
    try:
        version = queries.game_version(game_id)
    except BaseException:
        broker.unsubscribe(subscriber)
        raise
    if version is None:
        broker.unsubscribe(subscriber)
        raise NotFound(id=game_id)
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]  # werkzeug's proxy
    flush = serving.flusher(request.environ)
    response = Response(
        _sent_at_once(_stream(app, broker, subscriber, version, _since()), flush),
        mimetype="text/event-stream",
    )
    response.headers["Cache-Control"] = "no-store"
    # Proxies that buffer (nginx) would hold the events back.
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _sent_at_once(events: Iterator[bytes], flush: Any) -> Iterator[bytes]:
    """Each event, then (once the server has it: it asks for the next) sent at once."""
    try:
        for event in events:
            yield event
            flush()
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()


def _event(name: str, version: int | None) -> bytes:
    lines = f"event: {name}\n"
    if version is not None:
        lines += f"id: {version}\n"
    return (lines + f"data: {json.dumps({'version': version})}\n\n").encode()


def _stream(
    app: Flask, broker: live.Broker, subscriber: live.Subscriber, version: int, since: int | None
) -> Iterator[bytes]:
    """The stream's body: runs after the request's context is gone, so it reads the
    database (a resync only) in an app context of its own. Closed (the client left: the
    server's next write fails) or ended, it unsubscribes."""
    heartbeat = float(app.config["LIVE_HEARTBEAT_SECONDS"])
    try:
        yield f"retry: {RETRY_MS}\n\n".encode()
        yield _event("change" if since is not None and since != version else "alive", version)
        while True:
            change = subscriber.next(timeout=heartbeat)
            if change is None:
                yield _event("alive", version)
                continue
            if change.resync:
                with app.app_context():
                    found = queries.game_version(subscriber.game_id)
                if found is None:
                    change = live.Change(subscriber.game_id, deleted=True)
                elif found != version:
                    change = live.Change(subscriber.game_id, found)
                else:
                    continue
            if change.deleted:
                yield _event("deleted", None)
                return
            if change.version is not None and change.version > version:
                version = change.version
                yield _event("change", version)
    finally:
        broker.unsubscribe(subscriber)

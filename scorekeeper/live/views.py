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
import queue
import sys
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request
from flask.globals import request_ctx

from ..events import queries as event_queries
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


def _greenlets() -> bool:
    """Served by gevent (gunicorn's gevent workers): a thread here is a greenlet, and a
    stream waiting on its queue costs a few kilobytes, not a thread."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey is not None and monkey.is_module_patched("threading"))


def _stream_opening() -> Response | tuple[Any, bool, live.Broker, Flask]:
    """What a stream's view answers before it opens one: a HEAD's headers, or the polling
    answer of a server that cannot hold a stream; else how this one holds it (the serve
    loop's ``adopt``, and whether on a thread of its own), the broker it hears, and the app
    it reads with once this request is over."""
    if request.method == "HEAD":
        # Its headers only: a body would be a stream that never ends, and sends nothing.
        return Response(b"", mimetype="text/event-stream", headers={"Cache-Control": "no-store"})
    adopt: Any = request.environ.get(serving.ADOPT)
    on_a_thread = adopt is None and not _greenlets()
    if on_a_thread and not request.environ.get("wsgi.multithread"):
        # A server with one thread per process (gunicorn's sync workers) would give its only
        # thread to the stream: the page polls instead.
        return _busy(gettext("This server cannot keep live boards open; the page checks instead."))
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]  # werkzeug's proxy
    return adopt, on_a_thread, live.broker(), app


def _streamed(body: Iterator[bytes]) -> Response:
    """A stream's answer: its events as they come, kept by no cache, held back by no proxy
    that buffers (nginx)."""
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/games/<id:game_id>/events")
def events(game_id: int) -> Response:
    """Stream the game's changes to a board or game page."""
    opening = _stream_opening()
    if isinstance(opening, Response):
        return opening
    adopt, on_a_thread, broker, app = opening
    held = HeldStream(app, broker, game_id) if adopt is not None else None
    try:
        subscriber = broker.subscribe(game_id, held, on_a_thread=on_a_thread)
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
    since = _since()
    if held is not None:
        # Under `serve`: the first events now, then the connection is the streams' loop's.
        held.version = version
        body: Iterator[bytes] = iter([_opening(version, since)])
        adopt(held)
    else:
        flush = serving.flusher(request.environ)
        body = _sent_at_once(_stream(app, broker, subscriber, version, since), flush)
    return _streamed(body)


def _opening(version: int | str, since: int | str | None) -> bytes:
    """What a stream says as it opens: how soon to reconnect, and the game's version (a
    ``change`` if the page showed another)."""
    return f"retry: {RETRY_MS}\n\n".encode() + _event(
        "change" if since is not None and since != version else "alive", version
    )


class _Woken(live.Subscriber):
    """A subscriber the server's streams' loop may hold (``serving/streams.py``): each change
    the broker puts, from any thread, wakes the loop once it has adopted the stream."""

    _wake: Any = None

    def put(self, change: live.Change) -> None:
        super().put(change)
        wake = self._wake
        if wake is not None:
            wake()

    # What the streams' loop asks of it (serving/streams.py's Source).
    def adopted(self, wake: Any) -> None:
        self._wake = wake


class HeldStream(_Woken):
    """A stream held by the server's streams' loop (``serving/streams.py``): the broker
    puts its game's changes here from any thread, the loop takes the events they make."""

    def __init__(self, app: Flask, broker: live.Broker, game_id: int) -> None:
        super().__init__(game_id)
        self.app = app
        self.broker = broker
        self.version = 0

    def heartbeat(self) -> bytes:
        return _event("alive", self.version)

    def take(self) -> tuple[bytes, bool]:
        said = b""
        while True:
            try:
                change = self.changes.get_nowait()
            except queue.Empty:
                return said, False
            if change.resync:
                with self.app.app_context():
                    found = queries.game_version(self.game_id)
                if found is None:
                    change = live.Change(self.game_id, deleted=True)
                elif found != self.version:
                    change = live.Change(self.game_id, found)
                else:
                    continue
            if change.deleted:
                return said + _event("deleted", None), True
            if change.version is not None and change.version > self.version:
                self.version = change.version
                said += _event("change", self.version)

    def gone(self) -> None:
        self.broker.unsubscribe(self)


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


def _event(name: str, version: int | str | None) -> bytes:
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
        yield _opening(version, since)
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


# --- An event's stream: the room's board ------------------------------------------------------


@bp.get("/events/<id:event_id>/events")
def event_events(event_id: int) -> Response:
    """Stream an event's changes to its room's board: a ``change`` whenever the event or a
    game at one of its tables changed, its data the event's new stamp (what
    ``/events/<id>/version.json`` answers, which the board polls where there is no stream);
    ``?since=`` (or ``Last-Event-ID``) is the stamp the page shows."""
    opening = _stream_opening()
    if isinstance(opening, Response):
        return opening
    adopt, on_a_thread, broker, app = opening
    stream = EventStream(app, broker, event_id)
    try:
        broker.subscribe(0, stream, on_a_thread=on_a_thread)
    except live.Full:
        return _busy(gettext("Too many live boards are open; the page checks instead."))
    try:
        # Its games heard before the stamp is read: a hand saved meanwhile is in one or both.
        broker.watch(stream, event_queries.game_ids(event_id))
        found = event_queries.stamp(event_id)
    except BaseException:
        broker.unsubscribe(stream)
        raise
    if found is None:
        broker.unsubscribe(stream)
        raise NotFound("no-event", id=event_id)
    stream.stamp = found
    since = request.headers.get("Last-Event-ID") or request.args.get("since")
    if adopt is not None:
        body: Iterator[bytes] = iter([_opening(found, since)])
        adopt(stream)
    else:
        body = _sent_at_once(_event_stream(app, stream, since), serving.flusher(request.environ))
    return _streamed(body)


class EventStream(_Woken):
    """A room board's stream: it hears its event and every game played at it (the games of
    a round just started from the event's change that started it). However many changes
    wait, the stamp is read once and said if it moved. Held by the server's streams' loop
    under ``serve`` (``take``), else by its own thread or greenlet (``_event_stream``)."""

    def __init__(self, app: Flask, broker: live.Broker, event_id: int) -> None:
        super().__init__(0)
        self.keys = {live.event_key(event_id)}
        self.app = app
        self.broker = broker
        self.event_id = event_id
        self.stamp = ""

    def news(self, first: live.Change | None) -> tuple[bytes, bool]:
        """What to say of ``first`` and every change waiting behind it: a ``change`` with the
        new stamp, nothing if it did not move, or ``deleted`` (ending) if the event is gone."""
        changes = [] if first is None else [first]
        while True:
            try:
                changes.append(self.changes.get_nowait())
            except queue.Empty:
                break
        if not changes:
            return b"", False
        with self.app.app_context():
            if any(c.resync or c.event_id is not None for c in changes):
                self.broker.watch(self, event_queries.game_ids(self.event_id))
            found = event_queries.stamp(self.event_id)
        if found is None:
            return _event("deleted", None), True
        if found == self.stamp:
            return b"", False
        self.stamp = found
        return _event("change", found), False

    # What the streams' loop asks of it (serving/streams.py's Source), beside adopted.
    def heartbeat(self) -> bytes:
        return _event("alive", self.stamp)

    def take(self) -> tuple[bytes, bool]:
        return self.news(None)

    def gone(self) -> None:
        self.broker.unsubscribe(self)


def _event_stream(app: Flask, stream: EventStream, since: str | None) -> Iterator[bytes]:
    """A room board's stream's body, on its own thread or greenlet; it unsubscribes when
    it ends or the client leaves."""
    heartbeat = float(app.config["LIVE_HEARTBEAT_SECONDS"])
    try:
        yield _opening(stream.stamp, since)
        while True:
            change = stream.next(timeout=heartbeat)
            if change is None:
                yield _event("alive", stream.stamp)
                continue
            said, ending = stream.news(change)
            if said:
                yield said
            if ending:
                return
    finally:
        stream.broker.unsubscribe(stream)

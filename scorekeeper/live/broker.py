"""Live changes: tell the open boards and game pages that a game changed, the moment it did.

A write (operations/: a hand recorded, corrected or undone, through writing.rewritten; a
game deleted; a player renamed; an event's rounds, clock or players) calls ``changed``,
``deleted`` or ``event_changed`` inside its transaction. What was said is delivered only if
that transaction commits:

- on PostgreSQL, by the database itself: a trigger on ``game`` (migration d5e9f3a7b2c8)
  sends a notification on ``CHANNEL`` for every change of a game's version and every
  game deleted, whoever wrote it, in the writer's transaction (PostgreSQL delivers it on
  commit and drops it on rollback), so ``changed`` and ``deleted`` have nothing to send
  there and a hand costs no round trip for it. Every process serving the app keeps
  one connection that ``LISTEN``s (``Listener``, a background thread, started with the
  first stream) and hands each notification to that process's streams, so a hand saved
  through one gunicorn worker or machine reaches boards held open by another, with no
  broker besides the database;
- on SQLite (one process), in memory, from the session's ``after_commit`` (in a request,
  once its answer is sent).

Each open stream (``scorekeeper/live/views.py``) is a ``Subscriber`` with a small
bounded queue; there are at most ``LIVE_STREAMS`` per process (held by one loop, under
``scorekeeper serve``, or a greenlet each, under gunicorn's gevent workers) and at most
``LIVE_STREAMS_ON_THREADS`` of them holding a server thread each (another server, such as
gunicorn's ``gthread``); one more is refused, never queued.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import threading
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, g, has_request_context, request
from flask_babel import get_locale
from sqlalchemy import event, func, select

from ..data.extensions import db
from ..lru import LRU, per_app

log = logging.getLogger(__name__)

#: The PostgreSQL channel every process listens on.
CHANNEL = "scorekeeper_games"
#: What a write said and has not yet committed, kept in its session's ``info``.
_PENDING = "scorekeeper.live.broker.pending"
#: How many events a stream keeps for its client; an event past them drops the oldest
#: (each event names the game's newest version, so the last one says all).
QUEUE_SIZE = 16


def event_key(event_id: int) -> tuple[str, int]:
    """What an event's own changes are delivered under (a game's: under its id)."""
    return ("event", event_id)


@dataclass(frozen=True)
class Change:
    """A game changed (``version`` is its new version) or was deleted; ``resync`` asks
    every stream to read its game's version again (changes may have been missed). With
    ``event_id``, the event itself changed (``game_id`` is then 0)."""

    game_id: int
    version: int | None = None
    deleted: bool = False
    resync: bool = False
    event_id: int | None = None

    @property
    def key(self) -> Hashable:
        return self.game_id if self.event_id is None else event_key(self.event_id)

    def payload(self) -> str:
        if self.event_id is not None:
            return json.dumps({"event": self.event_id})
        return json.dumps({"game": self.game_id, "version": self.version, "deleted": self.deleted})

    @classmethod
    def from_payload(cls, payload: str) -> Change | None:
        try:
            found = json.loads(payload)
            if "event" in found:
                return cls(0, event_id=int(found["event"]))
            return cls(int(found["game"]), found.get("version"), bool(found.get("deleted")))
        except (ValueError, KeyError, TypeError):
            log.warning("live: ignored a notification that is not a change: %r", payload[:80])
            return None


class Full(Exception):
    """This process holds as many streams as it may (``LIVE_STREAMS``)."""


class Subscriber:
    """One open stream: the changes to its game (its ``keys``: an event's stream, its event
    and every game played at it, ``Broker.watch``), waiting to be sent."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        self.keys: set[Hashable] = {game_id}
        self.changes: queue.Queue[Change] = queue.Queue(maxsize=QUEUE_SIZE)

    def put(self, change: Change) -> None:
        """Keep ``change``; with the queue full, the oldest waiting makes way."""
        while True:
            try:
                self.changes.put_nowait(change)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self.changes.get_nowait()

    def next(self, timeout: float) -> Change | None:
        """The next change, or None after ``timeout`` seconds without one."""
        try:
            return self.changes.get(timeout=timeout)
        except queue.Empty:
            return None


class Broker:
    """This process's open streams, by game, and (on PostgreSQL) its listener."""

    def __init__(self, limit: int, database_url: str | None, on_threads: int | None = None) -> None:
        self.limit = limit
        self.on_threads = limit if on_threads is None else on_threads
        self.database_url = database_url
        self._lock = threading.Lock()
        self._subscribers: dict[Hashable, set[Subscriber]] = {}
        self._open: set[Subscriber] = set()
        self._threaded: set[Subscriber] = set()
        self._listener: Listener | None = None

    @property
    def open_streams(self) -> int:
        return len(self._open)

    def subscribe(
        self, game_id: int, subscriber: Subscriber | None = None, *, on_a_thread: bool = False
    ) -> Subscriber:
        """A new stream for ``game_id`` (``subscriber``, or a plain one); raise ``Full`` past
        the limit (``on_a_thread``: one holding a server thread, past the smaller limit of
        those). On PostgreSQL, wait until this process listens: no later change is missed."""
        subscriber = Subscriber(game_id) if subscriber is None else subscriber
        with self._lock:
            if len(self._open) >= self.limit:
                raise Full
            if on_a_thread:
                if len(self._threaded) >= min(self.on_threads, self.limit):
                    raise Full
                self._threaded.add(subscriber)
            self._open.add(subscriber)
            for key in subscriber.keys:
                self._subscribers.setdefault(key, set()).add(subscriber)
        if self.database_url is not None:
            self._listening().wait_until_listening()
        return subscriber

    def watch(self, subscriber: Subscriber, keys: Iterable[Hashable]) -> None:
        """An open stream hears ``keys`` too from now on (not one that has ended)."""
        with self._lock:
            if subscriber not in self._open:
                return
            for key in set(keys) - subscriber.keys:
                self._subscribers.setdefault(key, set()).add(subscriber)
                subscriber.keys.add(key)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            if subscriber not in self._open:
                return
            self._open.discard(subscriber)
            self._threaded.discard(subscriber)
            for key in subscriber.keys:
                found = self._subscribers.get(key)
                if found is not None:
                    found.discard(subscriber)
                    if not found:
                        del self._subscribers[key]

    def deliver(self, change: Change) -> None:
        """Hand ``change`` to every stream of its game or event (a resync to every stream)."""
        with self._lock:
            if change.resync:
                targets = list(self._open)
            else:
                targets = list(self._subscribers.get(change.key, ()))
        for subscriber in targets:
            subscriber.put(change)

    def _listening(self) -> Listener:
        """This process's listener, started the first time (and again in a forked worker)."""
        with self._lock:
            listener = self._listener
            if listener is None or not listener.alive_here():
                assert self.database_url is not None
                listener = self._listener = Listener(self.database_url, self.deliver)
                listener.start()
            return listener

    def close(self) -> None:
        """Stop the listener (the app is going away)."""
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop()


class Listener:
    """One PostgreSQL connection that LISTENs on ``CHANNEL``, on a daemon thread, handing
    each notification to ``deliver``. A lost connection is made again (every second until
    it is); once listening again, every stream is asked to resync, since changes made
    meanwhile were not heard."""

    def __init__(self, conninfo: str, deliver: Any) -> None:
        self.conninfo = conninfo
        self.deliver = deliver
        self.pid = os.getpid()
        self._listening = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="scorekeeper-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()

    def alive_here(self) -> bool:
        return self.pid == os.getpid() and self._thread.is_alive()

    def wait_until_listening(self, timeout: float = 5.0) -> bool:
        return self._listening.wait(timeout)

    def _run(self) -> None:
        import psycopg

        first = True
        while not self._stopped.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if not first:
                        self.deliver(Change(0, resync=True))
                    first = False
                    while not self._stopped.is_set():
                        for notice in connection.notifies(timeout=1.0):
                            change = Change.from_payload(notice.payload)
                            if change is not None:
                                self.deliver(change)
            except psycopg.Error as error:
                self._listening.clear()
                log.warning("live: lost the PostgreSQL listener (%s); trying again", error)
                self._stopped.wait(1.0)


#: The header a page's script sends when it fetches itself again to update in place.
REFRESH_HEADER = "X-Scorekeeper-Live"


class Drawn(LRU[str]):
    """Boards drawn for the boards' refetch after a change, by path, host, language and the
    game's id, creation time and version (everything a board shows follows from those: it
    has no form, no login and, fetched by the script, no messages). Twenty boards fetch
    at once after each hand; drawn once, the rest wait for it and take it (bench/live.py).
    Drawing holds one lock: two boards' drawings at once would share the same cores."""

    def __init__(self, size: int = 32) -> None:
        super().__init__(size)
        self.drawing = threading.Lock()


def drawn_once(game: Hashable, draw: Callable[[], str]) -> str:
    """A board page for a refetch (``REFRESH_HEADER``): drawn once per ``game`` state
    (id, creation time, version) and language; any other request is drawn afresh."""
    if REFRESH_HEADER not in request.headers:
        return draw()
    key = (request.path, request.host, str(get_locale()), game)
    kept = per_app("scorekeeper.live.broker.drawn", Drawn)
    found = kept.get(key)
    if found is None:
        with kept.drawing:
            found = kept.get(key)
            if found is None:
                found = draw()
                kept.put(key, found)
    return found


def init_app(app: Flask) -> None:
    """Give the app its broker, and deliver SQLite's changes when their session commits."""
    url = None
    with app.app_context():
        engine_url = db.engine.url
    if engine_url.get_backend_name() == "postgresql":
        url = engine_url.set(drivername="postgresql").render_as_string(hide_password=False)
    app.extensions["scorekeeper.live.broker"] = Broker(
        int(app.config["LIVE_STREAMS"]), url, int(app.config["LIVE_STREAMS_ON_THREADS"])
    )
    app.after_request(_deliver_after_answer)
    app.teardown_request(_deliver_at_teardown)
    _listen_to_sessions()


def broker() -> Broker:
    """The current app's broker."""
    found: Broker = current_app.extensions["scorekeeper.live.broker"]
    return found


def changed(game_id: int, version: int) -> None:
    """Say, inside the write's transaction, that ``game_id`` is now at ``version``."""
    _say(Change(game_id, version))


def deleted(game_id: int) -> None:
    """Say, inside the write's transaction, that ``game_id`` is deleted."""
    _say(Change(game_id, deleted=True))


def event_changed(event_id: int) -> None:
    """Say, inside the write's transaction, that the event itself changed. On PostgreSQL no
    trigger says it (a few a night): it is notified here, so delivered on commit only."""
    change = Change(0, event_id=event_id)
    if broker().database_url is not None:
        db.session.execute(select(func.pg_notify(CHANNEL, change.payload())))
    _say(change)


def _say(change: Change) -> None:
    if broker().database_url is None:
        db.session().info.setdefault(_PENDING, []).append(change)
    # On PostgreSQL the game table's trigger has said it, in the same transaction.


_listening_to_sessions = False


def _listen_to_sessions() -> None:
    """Once per process: the session's commit delivers what its transaction said (SQLite),
    its rollback forgets it."""
    global _listening_to_sessions
    if _listening_to_sessions:
        return
    _listening_to_sessions = True
    event.listen(db.session, "after_commit", _after_commit)
    event.listen(db.session, "after_rollback", _after_rollback)


#: Where a request keeps what its commits said until its response is ready.
_AT_TEARDOWN = "scorekeeper_live_pending"


def _after_commit(session: Any) -> None:
    pending = session.info.pop(_PENDING, None)
    if not pending:
        return
    if has_request_context():
        # Told once the answer is sent: twenty streams woken at the commit (or as the request
        # ended) took the interpreter from the thread still writing the phone's answer
        # (bench/live.py: a hand's POST took 1.8x as long with 20 boards open).
        kept = g.get(_AT_TEARDOWN)
        if kept is None:
            kept = []
            setattr(g, _AT_TEARDOWN, kept)
        kept.extend(pending)
    else:
        _deliver(broker(), pending)


def _deliver(found: Broker, changes: list[Change]) -> None:
    for change in changes:
        found.deliver(change)


def _deliver_after_answer(response: Any) -> Any:
    """Deliver what the request's commits said when the server has sent its answer (it
    closes the response: WSGI requires it)."""
    pending = g.pop(_AT_TEARDOWN, None)
    if pending:
        found = broker()
        response.call_on_close(lambda: _deliver(found, pending))
    return response


def _deliver_at_teardown(_error: BaseException | None) -> None:
    """A request that ended without an answer to wait for (an error): deliver now."""
    pending = g.pop(_AT_TEARDOWN, None)
    if pending:
        _deliver(broker(), pending)


def _after_rollback(session: Any) -> None:
    session.info.pop(_PENDING, None)

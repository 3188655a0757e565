"""Open streams held without a thread each: one selector loop writes to all of them.

A live board's or game page's stream (``GET /games/<id>/events``) is open for as long as
the page is, and says a few dozen bytes every couple of seconds. Held by a server thread
each (as waitress and gunicorn's ``gthread`` hold a response), 500 open pages were 500
threads, and the table's own requests queued behind them. Under ``scorekeeper serve`` a
stream's request is answered by the app as any other (its checks, its headers, its first
events, on a request thread), then its connection is handed to this loop (``Held``), and
the thread goes back to the table: one thread, one ``epoll``, for every open stream.

What the loop knows of a stream is the ``Source`` protocol: the bytes to send when it is
woken (a change, told by the broker from any thread), the bytes of a heartbeat, and that
it is gone. It frames them (chunked, as the response began), sends what the socket takes,
keeps a little for a slow reader and drops one that reads nothing.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import logging
import selectors
import socket
import threading
import time
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

#: Bytes kept for a stream whose reader does not keep up; past them it is dropped (a page
#: that reads again opens a new stream and catches up from its version).
MOST_UNSENT = 64 * 1024


class Source(Protocol):
    """What a held stream sends (``scorekeeper/live/views.py``)."""

    def take(self) -> tuple[bytes, bool]:
        """The events to send now, and whether the stream ends after them."""

    def heartbeat(self) -> bytes:
        """The event that says the server is still there."""

    def gone(self) -> None:
        """The stream is closed (its reader left, it ended, or the server stops)."""

    def adopted(self, wake: Callable[[], None]) -> None:
        """Held from now on: call ``wake`` when there is something to ``take``."""


class _Stream:
    __slots__ = ("chunked", "ended", "ending", "sock", "source", "unsent")

    def __init__(self, sock: socket.socket, source: Source, chunked: bool) -> None:
        self.sock = sock
        self.source = source
        self.chunked = chunked
        self.unsent = bytearray()
        self.ending = False
        self.ended = False

    def frame(self, data: bytes) -> bytes:
        if not self.chunked or not data:
            return data
        return b"%X\r\n%s\r\n" % (len(data), data)


class _Answer:
    """The source of a held answer: it says nothing more, and nothing is told when it ends."""

    def take(self) -> tuple[bytes, bool]:
        return b"", False

    def heartbeat(self) -> bytes:
        return b""

    def gone(self) -> None:
        pass

    def adopted(self, wake: Callable[[], None]) -> None:
        pass


class Held:
    """The streams of one server, on one thread of their own (started with the first)."""

    def __init__(self, heartbeat_seconds: float) -> None:
        self.heartbeat_seconds = heartbeat_seconds
        self._selector = selectors.DefaultSelector()
        self._waker, self._wakee = socket.socketpair()
        self._waker.setblocking(False)
        self._wakee.setblocking(False)
        self._selector.register(self._wakee, selectors.EVENT_READ, None)
        self._lock = threading.Lock()
        self._incoming: list[_Stream] = []
        self._woken: set[_Stream] = set()
        self._woke = False
        self._streams: set[_Stream] = set()
        #: Answers held back until their time (a flooding client's 429), by when.
        self._later: list[tuple[float, int, _Stream, bytes]] = []
        self._incoming_later: list[tuple[float, _Stream, bytes]] = []
        self._order = itertools.count()
        self._stopped = False
        self._thread: threading.Thread | None = None

    @property
    def count(self) -> int:
        return len(self._streams) + len(self._incoming)

    def adopt(self, sock: socket.socket, source: Source, *, chunked: bool) -> None:
        """Hold ``sock`` (its response begun: status, headers, first events sent) for
        ``source``; from any thread."""
        sock.setblocking(False)
        stream = _Stream(sock, source, chunked)
        with self._lock:
            if self._stopped:
                stream_closed = True
            else:
                stream_closed = False
                self._incoming.append(stream)
                self._start()
        if stream_closed:
            self._drop(stream)
            return
        self._wake(None)

    def answer_later(self, sock: socket.socket, answer: bytes, seconds: float) -> None:
        """Send ``answer`` (a whole response) on ``sock`` ``seconds`` from now, then close
        it; from any thread. Nothing is read meanwhile; a client that leaves is dropped."""
        sock.setblocking(False)
        stream = _Stream(sock, _Answer(), chunked=False)
        with self._lock:
            stopped = self._stopped
            if not stopped:
                self._incoming_later.append((time.monotonic() + seconds, stream, answer))
                self._start()
        if stopped:
            self._drop(stream)
            return
        self._wake(None)

    def _start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name="scorekeeper-streams", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """Close every stream and end the loop."""
        with self._lock:
            self._stopped = True
            thread = self._thread
        self._wake(None)
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        if thread is None:
            self._close_all()

    def _wake(self, stream: _Stream | None) -> None:
        with self._lock:
            if stream is not None:
                self._woken.add(stream)
            if self._woke:
                return
            self._woke = True
        with contextlib.suppress(OSError):  # full (it is awake already) or closed (stopped)
            self._waker.send(b"\0")

    def _run(self) -> None:
        beat = time.monotonic() + self.heartbeat_seconds
        try:
            while True:
                due = min(beat, self._later[0][0]) if self._later else beat
                timeout = max(0.0, due - time.monotonic())
                for key, mask in self._selector.select(timeout):
                    stream = key.data
                    if stream is None:
                        with contextlib.suppress(OSError):
                            while self._wakee.recv(4096):
                                pass
                        continue
                    if mask & selectors.EVENT_READ:
                        self._read(stream)
                    if mask & selectors.EVENT_WRITE and stream in self._streams:
                        self._flush(stream)
                with self._lock:
                    self._woke = False
                    incoming, self._incoming = self._incoming, []
                    woken, self._woken = self._woken, set()
                    later, self._incoming_later = self._incoming_later, []
                    stopped = self._stopped
                if stopped:
                    for stream in incoming + [stream for _, stream, _ in later]:
                        self._drop(stream)
                    return
                for stream in incoming:
                    self._hold(stream)
                for when, stream, answer in later:
                    if self._watch(stream):
                        heapq.heappush(self._later, (when, next(self._order), stream, answer))
                now = time.monotonic()
                while self._later and self._later[0][0] <= now:
                    _, _, stream, answer = heapq.heappop(self._later)
                    if stream in self._streams:
                        stream.ending = True
                        self._send(stream, answer)
                for stream in woken:
                    if stream in self._streams:
                        self._take(stream)
                if time.monotonic() >= beat:
                    for stream in list(self._streams):
                        self._send(stream, stream.source.heartbeat())
                    beat = time.monotonic() + self.heartbeat_seconds
        except Exception:  # pragma: no cover - a bug here must not leave pages hanging
            log.exception("live streams: the loop failed; closing every stream")
        finally:
            self._close_all()

    def _watch(self, stream: _Stream) -> bool:
        try:
            self._selector.register(stream.sock, selectors.EVENT_READ, stream)
        except (OSError, ValueError):
            self._drop(stream)
            return False
        self._streams.add(stream)
        return True

    def _hold(self, stream: _Stream) -> None:
        if not self._watch(stream):
            return
        stream.source.adopted(lambda: self._wake(stream))
        self._take(stream)  # what changed before it was held

    def _take(self, stream: _Stream) -> None:
        try:
            data, ending = stream.source.take()
        except Exception:
            log.exception("live streams: a stream failed to say what changed")
            data, ending = b"", True
        if ending:
            stream.ending = True
        self._send(stream, data)

    def _send(self, stream: _Stream, data: bytes) -> None:
        if stream.ended:
            return
        stream.unsent += stream.frame(data)
        if stream.ending:
            stream.ended = True
            if stream.chunked:
                stream.unsent += b"0\r\n\r\n"
        if len(stream.unsent) > MOST_UNSENT:
            self._drop(stream)
            return
        self._flush(stream)

    def _flush(self, stream: _Stream) -> None:
        try:
            while stream.unsent:
                sent = stream.sock.send(stream.unsent)
                del stream.unsent[:sent]
        except BlockingIOError:
            pass
        except OSError:
            self._drop(stream)
            return
        if not stream.unsent and stream.ending:
            self._drop(stream)
            return
        events = selectors.EVENT_READ | (selectors.EVENT_WRITE if stream.unsent else 0)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.modify(stream.sock, events, stream)

    def _read(self, stream: _Stream) -> None:
        """A stream's reader sends nothing more; what it does send is dropped, and its end
        (or an error) closes the stream."""
        try:
            data = stream.sock.recv(4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop(stream)

    def _drop(self, stream: _Stream) -> None:
        self._streams.discard(stream)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self._selector.unregister(stream.sock)
        with contextlib.suppress(OSError):
            stream.sock.close()
        try:
            stream.source.gone()
        except Exception:
            log.exception("live streams: a stream failed to end")

    def _close_all(self) -> None:
        for stream in list(self._streams):
            self._drop(stream)
        self._later = []
        with self._lock:
            incoming, self._incoming = self._incoming, []
            later, self._incoming_later = self._incoming_later, []
        for stream in incoming + [stream for _, stream, _ in later]:
            self._drop(stream)
        with contextlib.suppress(OSError):
            self._selector.close()
        with contextlib.suppress(OSError):
            self._waker.close()
            self._wakee.close()

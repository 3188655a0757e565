"""The worker processes that lay out every PDF: one kept for short documents, a pool per history.

Laying out is the slow part (WeasyPrint does 4-5 pages a second a core here), so it
runs in worker processes, which come from a fork server that has WeasyPrint loaded
already. A sheet or a night is laid out by the one worker kept for them
(``lay_out_one``); a history by a pool of its own, one process per core (``Layout``),
for as long as it prints. The kept worker ends after a minute without a document
(PDF_WORKER_IDLE_SECONDS) and the next one starts it again in a fraction of a second,
so an idle server holds no WeasyPrint but its fork server's. The workers only lay out
finished HTML: everything with words in it is rendered in the web process, in the
current language.

No worker outlives the process it works for. ``stop`` ends every worker and the fork
server (``scorekeeper serve`` calls it when it is told to stop, and so does the exit of
any process that printed, a gunicorn worker's included); and each worker watches that
process and ends itself when it is gone, however it went (``kill -9`` included), so a
stopped server never leaves a hundred megabytes of WeasyPrint behind.
"""

from __future__ import annotations

import atexit
import functools
import logging
import multiprocessing
import os
import select
import signal
import threading
import time
import weakref
from collections import deque
from collections.abc import Hashable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from .render import Printed, prepare_worker, write_pdf

log = logging.getLogger(__name__)


@functools.cache
def _pool_context() -> multiprocessing.context.BaseContext:
    """Worker processes come from a fork server that has WeasyPrint loaded already.

    Not a plain fork: the web process runs threads and holds database connections,
    and a forked copy of those is unsafe. The fork server is a fresh process.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["scorekeeper.pdf.render", "weasyprint"])
    return context


#: Every pool of workers this process has started and not shut down yet.
_pools: weakref.WeakSet[ProcessPoolExecutor] = weakref.WeakSet()
_pools_lock = threading.Lock()
#: How long ``stop`` lets a worker end when asked, before it is killed.
STOP_SECONDS = 2.0


def _new_pool(workers: int, static_folder: str) -> ProcessPoolExecutor:
    """A pool of ``workers`` layout workers for this process, which ``stop`` will end."""
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=_pool_context(),
        initializer=_start_worker,
        initargs=(static_folder, os.getpid()),
    )
    with _pools_lock:
        _pools.add(pool)
    return pool


def _start_worker(static_folder: str, owner: int) -> None:
    """Ready a layout worker (``prepare_worker``), which ends itself when ``owner``, the
    process it works for, is gone, and leaves Ctrl-C to that process: a terminal's Ctrl-C
    reaches every process of the group, and the server ends its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(owner,), name="pdf-worker-watch", daemon=True).start()
    prepare_worker(static_folder)


def _end_with(owner: int) -> None:
    """Wait for the process ``owner`` to end, then end this one (a worker's parent is the
    fork server, which outlives it, so its own parent is no sign)."""
    try:
        handle = os.pidfd_open(owner)
    except (AttributeError, OSError):  # not Linux 5.3 or later: look every second
        while _alive(owner):
            time.sleep(1)
    else:
        # A process's pidfd is readable once it has ended, a zombie not yet waited for too.
        select.select([handle], [], [])
    os._exit(0)


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` is there (a zombie still is: the pidfd above knows better)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def stop(timeout: float = STOP_SECONDS) -> None:
    """End every layout worker of this process and the fork server they came from, within
    about ``timeout`` seconds: what they were laying out is dropped (a history job fails,
    a waiting sheet is laid out again on the next request). Printing later starts anew."""
    global _kept
    with _kept_lock:
        _kept = None
    with _pools_lock:
        pools = list(_pools)
        _pools.clear()
    processes = []
    for pool in pools:
        # The executor's own processes: it has no way to end them at once (Python 3.14's
        # terminate_workers), and shutdown(wait=True) would wait out a history's parts.
        processes += list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + timeout
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1)
    _stop_fork_server()


def _stop_fork_server() -> None:
    """Stop this process's fork server, now that no worker holds it (it ends once nobody
    holds its pipe). multiprocessing keeps it as module state, with a ``_stop`` its own
    tests use; without one, it ends at exit. (Its resource tracker is left to end with
    this process: stopped earlier, it would unlink the semaphores of queues still here.)"""
    from multiprocessing import forkserver

    stop_server = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop_server is not None:
        try:
            stop_server()
        except (OSError, ChildProcessError):  # already gone
            log.debug("the fork server was gone already", exc_info=True)


def _stop_at_exit() -> None:
    if _pools:
        stop()


# At exit, before concurrent.futures joins the pools' threads (threading's exit callbacks
# run first, the last registered first), or it would wait for a history to finish.
_register_at_exit = getattr(threading, "_register_atexit", atexit.register)
_register_at_exit(_stop_at_exit)


def warm_up() -> None:
    """Start the fork server now: it loads WeasyPrint at once, in its own process, so that
    the first document printed does not wait a second or two for it (``scorekeeper serve``
    calls this). The worker for sheets and nights is started by the first of them."""
    from multiprocessing import forkserver

    _pool_context()
    try:
        forkserver.ensure_running()
    except (OSError, RuntimeError):  # pragma: no cover - started when needed
        log.warning("the PDF layout fork server did not start", exc_info=True)


@dataclass
class _Kept:
    """The worker kept for sheets and nights, and what it has done."""

    pool: ProcessPoolExecutor
    #: Documents it is laying out now (the printing queue gives it one at a time).
    busy: int = 0
    #: Documents it has laid out: an idle end only goes ahead if none came since it was set.
    done: int = 0


_kept: _Kept | None = None
_kept_lock = threading.Lock()


def _take_the_kept_worker(static_folder: str) -> _Kept:
    """The worker kept for short documents, started on first use, marked busy."""
    global _kept
    with _kept_lock:
        if _kept is None:
            _kept = _Kept(_new_pool(1, static_folder))
        _kept.busy += 1
        return _kept


def _put_back(kept: _Kept, idle_seconds: float | None) -> None:
    """A document is done on the kept worker: end the worker once it has been given none
    for ``idle_seconds`` (None: keep it for as long as this process runs)."""
    with _kept_lock:
        kept.busy -= 1
        kept.done += 1
        done = kept.done
    if idle_seconds is not None:
        timer = threading.Timer(idle_seconds, _end_if_idle, args=(kept, done))
        timer.daemon = True
        timer.start()


def _end_if_idle(kept: _Kept, done: int) -> None:
    """End the kept worker if it has laid out nothing since its document number ``done``."""
    global _kept
    with _kept_lock:
        if _kept is not kept or kept.busy or kept.done != done:
            return
        _kept = None
    with _pools_lock:
        _pools.discard(kept.pool)
    kept.pool.shutdown(wait=True)  # idle: its worker ends at once


def lay_out_one(
    html: str, static_folder: str, workers: int, *, idle_seconds: float | None = None
) -> Printed:
    """Lay out one short document (a sheet, a night) in a worker process kept for them,
    for ``idle_seconds`` after its last document (PDF_WORKER_IDLE_SECONDS).

    The printing queue runs one job at a time, so one process is enough; laying out
    there rather than on the web process's thread leaves that process's time (its
    interpreter lock) to the requests of the table, and the worker gives way to it
    (``prepare_worker``). With ``workers`` 0 it is laid out here; if the worker cannot
    start or dies, here too.
    """
    global _kept
    if workers <= 0:
        return write_pdf(html, static_folder)
    kept = _take_the_kept_worker(static_folder)
    try:
        return kept.pool.submit(write_pdf, html, static_folder).result()
    except (BrokenProcessPool, RuntimeError, OSError):
        log.warning("the layout worker failed; laying out in this process", exc_info=True)
        with _kept_lock:
            if _kept is kept:
                _kept = None
        kept.pool.shutdown(wait=False, cancel_futures=True)
        return write_pdf(html, static_folder)
    finally:
        _put_back(kept, idle_seconds)


def worker_count(setting: int | None) -> int:
    """How many processes lay out parts: the PDF_WORKERS setting, else one per core this
    process may run on (a server pinned to one core, ``taskset -c 0``, gets one)."""
    if setting is None:
        cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
        return len(cores) if cores else os.cpu_count() or 1
    return max(0, int(setting))


class Layout:
    """Lays out HTML documents on a pool of worker processes, or here if there is none.

    Used as a context manager, for the length of one history. The workers are started
    on a thread at once (the first time, the fork server takes a second or so to load
    WeasyPrint), and documents are handed to them as they are added, a few at a time:
    so a document added ``first`` is laid out next, ahead of those waiting. (Laying
    out here while the workers start was tried: with the fork server loading, a third
    layout on two cores slowed the whole by a second.)
    """

    def __init__(self, static_folder: str, workers: int) -> None:
        self.static_folder = static_folder
        self.parallel = workers > 0
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        # Enough in the pool to keep every worker busy, few enough that a late document
        # wanted first does not wait behind all the others.
        self._most = workers + 1
        self._waiting: deque[tuple[Hashable, str]] = deque()
        self._running: dict[Future[Printed], tuple[Hashable, str]] = {}
        self._finished: dict[Hashable, Printed] = {}
        self._starting: threading.Thread | None = None
        if workers > 0:
            self._starting = threading.Thread(
                target=self._start, args=(workers,), name="pdf-layout-start", daemon=True
            )
            self._starting.start()

    def __enter__(self) -> Layout:
        return self

    def __exit__(self, *exc: object) -> None:
        self._started()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def _start(self, workers: int) -> None:
        try:
            pool = _new_pool(workers, self.static_folder)
            # A worker starts with a task to do: start them all now, and wait for them.
            wait([pool.submit(int) for _ in range(workers)])
        except (BrokenProcessPool, RuntimeError, OSError):
            log.warning(
                "the layout workers did not start; laying out in this process", exc_info=True
            )
            return
        with self._lock:
            self._pool = pool
            self._hand_out()

    def _started(self) -> None:
        if self._starting is not None:
            self._starting.join()
            self._starting = None

    def _hand_out(self) -> None:
        """Give the workers waiting documents, in order, up to a few (with the lock held)."""
        while self._waiting and self._pool is not None and len(self._running) < self._most:
            key, html = self._waiting[0]
            try:
                future = self._pool.submit(write_pdf, html, self.static_folder)
            except (BrokenProcessPool, RuntimeError):
                self._failed()
                return
            self._waiting.popleft()
            self._running[future] = (key, html)

    def _failed(self) -> None:
        """The workers are gone: what they had goes back to the front of the queue (with the
        lock held), to be laid out here."""
        # A worker died or could not start (multiprocessing re-imports the main module in
        # its workers; a main script without an ``if __name__ == "__main__"`` guard breaks
        # that). Slower is better than nothing: lay out what is missing right here.
        log.warning("the layout workers failed; laying out in this process", exc_info=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._waiting.extendleft(reversed(list(self._running.values())))
        self._running.clear()

    def add(self, key: Hashable, html: str, *, first: bool = False) -> None:
        """Queue a document to lay out (``first``: ahead of every one waiting)."""
        with self._lock:
            if first:
                self._waiting.appendleft((key, html))
            else:
                self._waiting.append((key, html))
            self._hand_out()

    def next_done(self) -> tuple[Hashable, Printed]:
        """Wait for the next document to be laid out; return its key and the PDF."""
        if self._finished:
            key = next(iter(self._finished))
            return key, self._finished.pop(key)
        return self._next()

    def _next(self) -> tuple[Hashable, Printed]:
        self._started()
        with self._lock:
            self._hand_out()
            running = list(self._running)
            if not running:
                if not self._waiting:
                    raise LookupError("no document is waiting to be laid out")
                key, html = self._waiting.popleft()
        if not running:
            return key, write_pdf(html, self.static_folder)
        over, _ = wait(running, return_when=FIRST_COMPLETED)
        future = next(iter(over))
        with self._lock:
            key, html = self._running.pop(future)
            try:
                printed = future.result()
            except (BrokenProcessPool, RuntimeError, OSError):
                self._waiting.appendleft((key, html))
                self._failed()
                printed = None
            self._hand_out()
        return (key, printed) if printed is not None else self._next()

    def collect(self, documents: Mapping[Hashable, str]) -> dict[Hashable, Printed]:
        """Lay out these documents ahead of any waiting, and wait for them all.

        Other documents finished meanwhile are kept for ``next_done``.
        """
        for key, html in reversed(list(documents.items())):
            self.add(key, html, first=True)
        found: dict[Hashable, Printed] = {}
        while len(found) < len(documents):
            key, printed = self._next()
            if key in documents:
                found[key] = printed
            else:
                self._finished[key] = printed
        return found

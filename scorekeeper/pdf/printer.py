"""The app's printer: every PDF a request asks for, through one bounded queue, kept once printed.

A game's sheet or a night's settlement used to be laid out on the request's own
thread, so twenty people asking for PDFs at once held every server thread and most
of the processor, and the table could not save a hand. Now:

- A document is named by everything it shows (the game's id, creation time and
  version; the night's row and its games' versions), the paper and the language. What
  was printed under that name is kept (``PDF_KEPT`` documents, least recently used
  first out), so asking again for an unchanged sheet lays nothing out.
- Otherwise it is printed as a job of the history's queue (``pdf/jobs.py``): one
  document laid out at a time, in a worker process, at most ``PDF_MAX_JOBS`` jobs
  waiting; people asking for the same document at once wait for the same job.
- At most ``PDF_WAITING_REQUESTS`` requests wait for a PDF at once (each holds a
  server thread), for at most ``PDF_WAIT_SECONDS``. Any more, a full queue or a PDF
  not ready in time is answered at once with 503 and Retry-After (``busy_page``):
  the threads stay free for the table.
- Each client (its address) has a fair share of that: ``PDF_PER_CLIENT`` requests for a
  PDF at once, and none while the Retry-After it was given runs. A client that asks
  anyway is answered 429, with the wait that is left, before anything is loaded
  (``FairShare``); under ``scorekeeper serve`` the server itself then answers that client's
  PDF requests 429 until the wait is over, and holds each answer back until then, on no
  thread (``serving/server.py``): a flood that ignores Retry-After waits, the table does not.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

from flask import Flask, current_app, g, make_response, request
from flask_babel import lazy_gettext as _l
from werkzeug.wrappers.response import Response

from .. import i18n
from ..lru import LRU
from ..web.errors import render_error
from . import pool
from .jobs import DONE, Busy, JobRegistry, Progress


class PrintFailed(Exception):
    """Laying out the document failed (the cause is logged by the job)."""


class Printer:
    """One app's printing: the job queue, the documents kept, the requests waiting."""

    def __init__(self, app: Flask) -> None:
        config = app.config
        self.jobs = JobRegistry(
            Path(app.instance_path) / "pdf-jobs",
            ttl=float(config["PDF_JOB_SECONDS"]),
            max_waiting=int(config["PDF_MAX_JOBS"]),
        )
        self.kept: LRU[bytes] = LRU(int(config["PDF_KEPT"]))
        self._lock = threading.Lock()
        #: Requests waiting for a PDF now, and documents laid out since the app started.
        self.waiting = 0
        self.laid_out = 0
        self.fair = FairShare()

    def print_pdf(
        self, key: Hashable, filename: str, html: Callable[[], str], *, paper: str
    ) -> bytes:
        """Return the PDF named ``key`` on ``paper`` in the current language: kept, or laid
        out from ``html()`` by the queue. Raise Busy if it cannot be had now, PrintFailed
        if laying it out failed."""
        app = current_app._get_current_object()  # type: ignore[attr-defined]  # the proxy's own method
        name = (key, paper, i18n.current_locale())
        if (kept := self.kept.get(name)) is not None:
            return kept
        with self._lock:
            if self.waiting >= int(app.config["PDF_WAITING_REQUESTS"]):
                raise Busy("enough requests are waiting for a PDF already")
            self.waiting += 1
        try:
            return self._print(app, name, filename, html)
        finally:
            with self._lock:
                self.waiting -= 1

    def _print(self, app: Flask, name: Hashable, filename: str, html: Callable[[], str]) -> bytes:
        static_folder = app.static_folder or "static"
        workers = pool.worker_count(app.config["PDF_WORKERS"])
        idle = app.config["PDF_WORKER_IDLE_SECONDS"]
        idle_seconds = None if idle is None else float(idle)
        # Rendered here, on the request's thread (it reads the request's database session);
        # only laying it out, the slow part, is the queue's.
        document = html()

        def work(progress: Progress) -> bytes:
            printed = pool.lay_out_one(
                document, static_folder, min(workers, 1), idle_seconds=idle_seconds
            )
            with self._lock:
                self.laid_out += 1
            return printed.pdf

        job = self.jobs.start(("document", name), filename, filename, work, keep_in_memory=True)
        finished = self.jobs.wait(job.id, float(app.config["PDF_WAIT_SECONDS"]))
        if finished is None or not finished.over:
            raise Busy("the PDF was not ready in time")
        if finished.state != DONE or finished.pdf is None:
            raise PrintFailed(finished.error or "failed")
        self.kept.put(name, finished.pdf)
        return finished.pdf


class FairShare:
    """Each client's share of the printer: requests for a PDF at once, and when it may ask
    again after being told to wait."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.asking: dict[str, int] = {}
        self.told: dict[str, float] = {}

    def admit(self, client: str, at_once: int) -> float | None:
        """Count a request of ``client``'s; or, if it is over its share, the seconds it
        should wait (and it is not counted)."""
        now = time.monotonic()
        with self._lock:
            until = self.told.get(client)
            if until is not None:
                if until > now:
                    return until - now
                del self.told[client]
            if self.asking.get(client, 0) >= at_once:
                return float(current_app.config["PDF_RETRY_SECONDS"])
            self.asking[client] = self.asking.get(client, 0) + 1
            return None

    def done(self, client: str) -> None:
        with self._lock:
            left = self.asking.get(client, 0) - 1
            if left > 0:
                self.asking[client] = left
            else:
                self.asking.pop(client, None)

    def wait(self, client: str, seconds: float) -> None:
        """``client`` was told to wait ``seconds`` (a 503's Retry-After)."""
        with self._lock:
            if len(self.told) > 10_000:  # many clients told once: forget those done waiting
                now = time.monotonic()
                self.told = {k: v for k, v in self.told.items() if v > now}
            self.told[client] = max(self.told.get(client, 0.0), time.monotonic() + seconds)


#: Where a request for a PDF keeps its client's name, once counted in its share.
_COUNTED = "scorekeeper_pdf_client"


def is_a_pdf_request() -> bool:
    return request.method == "GET" and request.path.endswith(".pdf")


def fair_share() -> Response | None:
    """Before a request for a PDF: count it in its client's share, or answer 429."""
    if not is_a_pdf_request():
        return None
    client = request.remote_addr or ""
    wait = printer().fair.admit(client, int(current_app.config["PDF_PER_CLIENT"]))
    if wait is None:
        setattr(g, _COUNTED, client)
        return None
    return too_many_page(wait)


def after_pdf(response: Response) -> Response:
    """After a request for a PDF: a 503 (busy) tells its client to wait its Retry-After."""
    if response.status_code == 503 and is_a_pdf_request():
        seconds = response.headers.get("Retry-After", "")
        if seconds.isdigit():
            printer().fair.wait(request.remote_addr or "", float(seconds))
    return response


def end_pdf(_error: BaseException | None) -> None:
    client = g.pop(_COUNTED, None)
    if client is not None:
        printer().fair.done(client)


def too_many_page(seconds: float) -> Response:
    """429 with Retry-After: asked for a PDF again before the wait it was given is over."""
    wait = max(1, math.ceil(seconds))
    message = _l(
        "You asked for documents faster than they can be printed. Wait %(seconds)s "
        "seconds, then try again.",
        seconds=wait,
    )
    return _retry_page(429, message, wait)


def _retry_page(code: int, message: Any, seconds: int) -> Response:
    """The error page ``code`` saying ``message``, telling the client to retry in ``seconds``."""
    body, status = render_error(code, message)
    response = make_response(body, status)
    response.headers["Retry-After"] = str(seconds)
    return response


def init_app(app: Flask) -> None:
    """Every request for a PDF is counted in its client's fair share."""
    app.before_request(fair_share)
    app.after_request(after_pdf)
    app.teardown_request(end_pdf)


_made = threading.Lock()


def printer() -> Printer:
    """The current app's printer (made on first use; two first requests at once make one)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]  # the proxy's own method
    with _made:
        found: Printer | None = app.extensions.get("scorekeeper_printer")
        if found is None:
            found = app.extensions["scorekeeper_printer"] = Printer(app)
    return found


def busy_page() -> Response:
    """503 with Retry-After: the page a person sees when the printer is busy."""
    seconds = int(current_app.config["PDF_RETRY_SECONDS"])
    message = _l(
        "The printer is busy with other documents. Nothing was lost: try again in "
        "%(seconds)s seconds.",
        seconds=seconds,
    )
    return _retry_page(503, message, seconds)


def failed_page() -> Response:
    """The page a person sees when laying out a document failed."""
    from .jobs import FAILURE

    body, status = render_error(500, _l(FAILURE))
    return make_response(body, status)

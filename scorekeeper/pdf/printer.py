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
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from pathlib import Path

from flask import Flask, current_app, make_response
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
    body, status = render_error(
        503,
        _l(
            "The printer is busy with other documents. Nothing was lost: try again in "
            "%(seconds)s seconds.",
            seconds=seconds,
        ),
    )
    response = make_response(body, status)
    response.headers["Retry-After"] = str(seconds)
    return response


def failed_page() -> Response:
    """The page a person sees when laying out a document failed."""
    from .jobs import FAILURE

    body, status = render_error(500, _l(FAILURE))
    return make_response(body, status)

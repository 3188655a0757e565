"""Long printing runs in the background, one at a time, with progress a page can poll.

A history of a hundred games takes half a minute to lay out, longer than a web
request should be held. So the view starts a job and answers at once; the job runs
on a thread of this process (its layout goes to worker processes), writes the
PDF into the instance folder, and pages poll its state. The registry lives in the
web process's memory: one waitress process serves the app, so every request sees
it. Finished files are kept ``ttl`` seconds, then dropped with their jobs.

Every PDF a request asks for goes through this one queue: a game's sheet and a
night's settlement too (``pdf/printer.py``), as short jobs whose PDF is kept in
memory (``keep_in_memory``) for the requests waiting on them (``wait``), rather than
written to a file. So however many people ask for PDFs, one document is laid out at
a time, and at most ``max_waiting`` jobs wait: beyond that, ``start`` refuses.

A job prints in the language of the request that started it: the language is part of
what the job is (an English and a Romanian history are two jobs, two files), and the
work runs inside ``i18n.use_locale`` on the job's thread. The HTML is rendered there;
the worker processes only lay it out, so the language need not travel to them. What
a job is doing (its stage) is kept in English, as the JSON status says it, with the
catalogue's message and its parameters, so a page shows it in its reader's language.
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from .. import i18n
from ..i18n import N_, gettext

log = logging.getLogger(__name__)

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"

#: How long a finished job kept in memory is remembered (its waiting requests are served).
IN_MEMORY_SECONDS = 60


class Progress(Protocol):
    """Called as work goes on: steps done, steps in all, and what is being done now (an
    English message marked for the catalogue, with its %(name)s parameters)."""

    def __call__(self, done: int, total: int, stage: str, /, **params: object) -> None: ...


#: The work of a job: given a progress callback, return the finished PDF.
Work = Callable[[Progress], bytes]

WAITING = N_("Waiting to start")
#: What a failed job says (the cause is logged; the reader can only try again).
FAILURE = N_("Something went wrong while printing; nothing was lost. Try again.")


class Busy(Exception):
    """Too many printing jobs are waiting already (or a PDF took too long to wait for)."""


@dataclass(frozen=True)
class Job:
    """What a page shows about a job: plain values, a copy taken under the registry's lock."""

    id: str
    key: Hashable
    title: str
    filename: str
    locale: str = i18n.DEFAULT_LOCALE
    state: str = QUEUED
    done: int = 0
    total: int = 0
    #: What the job is doing, in English (as the JSON status says it); ``stage_words``
    #: says it in the reader's language, from the message and its parameters.
    stage: str = WAITING
    stage_message: str = WAITING
    stage_params: tuple[tuple[str, object], ...] = ()
    created: float = 0.0
    finished: float | None = None
    pages: int | None = None
    size: int | None = None
    error: str | None = None
    ahead: int = 0
    #: The finished PDF of a job kept in memory (a sheet, a night), not in a file.
    pdf: bytes | None = field(default=None, repr=False)
    in_memory: bool = False

    @property
    def stage_words(self) -> str:
        """What the job is doing, in the current language."""
        return gettext(self.stage_message, **dict(self.stage_params))

    @property
    def error_words(self) -> str | None:
        """Why the job failed, in the current language."""
        return gettext(self.error) if self.error else None

    @property
    def percent(self) -> int:
        if self.state == DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0

    @property
    def ready(self) -> bool:
        return self.state == DONE

    @property
    def over(self) -> bool:
        return self.state in (DONE, FAILED)


class JobRegistry:
    """The printing jobs of one app: start, look up, run one at a time, expire."""

    def __init__(self, folder: Path, *, ttl: float = 3600, max_waiting: int = 4) -> None:
        self.folder = folder
        self.ttl = ttl
        self.max_waiting = max_waiting
        self._lock = threading.Lock()
        #: Notified whenever a job is over, for the requests that ``wait`` for one.
        self._over = threading.Condition(self._lock)
        self._jobs: dict[str, Job] = {}
        self._queue: queue.SimpleQueue[tuple[str, Work]] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._sweep_old_files()

    def path(self, job_id: str) -> Path:
        return self.folder / f"{job_id}.pdf"

    def start(
        self, key: Hashable, title: str, filename: str, work: Work, *, keep_in_memory: bool = False
    ) -> Job:
        """Start a job, or return the one already printing (or printed) the same thing.

        The job prints in the current language (the request's), and only a job in the
        same language is the same thing. Raise Busy when ``max_waiting`` jobs are waiting
        or printing already.
        """
        locale = i18n.current_locale()
        with self._lock:
            self._expire()
            for job in self._jobs.values():
                if job.key == key and job.locale == locale and job.state != FAILED:
                    return self._view(job)
            waiting = sum(1 for j in self._jobs.values() if not j.over)
            if waiting >= self.max_waiting:
                raise Busy(f"{waiting} documents are being printed already")
            job = Job(
                id=secrets.token_urlsafe(16),
                key=key,
                title=title,
                filename=filename,
                locale=locale,
                created=time.time(),
                in_memory=keep_in_memory,
            )
            self._jobs[job.id] = job
            self._queue.put((job.id, work))
            if self._thread is None or not self._thread.is_alive():
                # A daemon thread: stopping the server does not wait for a history to finish
                # (its half-written file is swept away later).
                self._thread = threading.Thread(target=self._serve, name="pdf-jobs", daemon=True)
                self._thread.start()
            return self._view(job)

    def wait(self, job_id: str, timeout: float) -> Job | None:
        """Wait up to ``timeout`` seconds for a job to be over; return it as it is then."""
        deadline = time.monotonic() + timeout
        with self._over:
            while (job := self._jobs.get(job_id)) is not None and not job.over:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._over.wait(left)
            return None if job is None else self._view(job)

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            self._expire()
            job = self._jobs.get(job_id)
            return None if job is None else self._view(job)

    # --- inside -------------------------------------------------------------------------

    def _view(self, job: Job) -> Job:
        if job.state != QUEUED:
            return job
        ahead = sum(1 for j in self._jobs.values() if not j.over and j.created < job.created)
        return replace(job, ahead=ahead)

    def _update(self, job_id: str, **changes: object) -> None:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None:
                job = self._jobs[job_id] = replace(job, **changes)  # type: ignore[arg-type]  # changes are Job's own fields
                if job.over:
                    self._over.notify_all()

    def _serve(self) -> None:
        """Run the jobs one after another: each one already uses every core."""
        while True:
            job_id, work = self._queue.get()
            self._run(job_id, work)

    def _stage(
        self,
        job_id: str,
        message: str,
        params: Mapping[str, object] | None = None,
        **changes: object,
    ) -> None:
        """Say what the job is doing: ``message`` (marked for the catalogue) filled in with
        ``params``; make the other ``changes`` too."""
        params = params or {}
        self._update(
            job_id,
            stage=message % params if params else message,
            stage_message=message,
            stage_params=tuple(params.items()),
            **changes,
        )

    def _run(self, job_id: str, work: Work) -> None:
        with self._lock:
            job = self._jobs.get(job_id)
        locale = job.locale if job is not None else i18n.DEFAULT_LOCALE
        self._stage(job_id, N_("Starting"), state=RUNNING)

        def progress(done: int, total: int, stage: str, /, **params: object) -> None:
            self._stage(job_id, stage, done=done, total=total, params=params)

        try:
            # The HTML is rendered on this thread, in the job's language.
            with i18n.use_locale(locale):
                pdf = work(progress)
            if job is not None and job.in_memory:
                self._stage(job_id, N_("Ready"), state=DONE, finished=time.time(), pdf=pdf)
                return
            self.folder.mkdir(parents=True, exist_ok=True)
            target = self.path(job_id)
            partial = target.with_suffix(".part")
            partial.write_bytes(pdf)
            partial.replace(target)
            from pypdf import PdfReader

            pages = len(PdfReader(target).pages)
        except Exception:
            log.exception("printing job %s failed", job_id)
            self._stage(job_id, N_("Failed"), state=FAILED, finished=time.time(), error=FAILURE)
            return
        self._stage(
            job_id, N_("Ready"), state=DONE, finished=time.time(), pages=pages, size=len(pdf)
        )

    def _expire(self) -> None:
        """Forget finished jobs older than the time they are kept, and delete their files.

        A job kept in memory is forgotten sooner: the requests that waited for it have
        its PDF (and the printer keeps it while the document is unchanged).
        """
        now = time.time()
        for job_id, job in list(self._jobs.items()):
            kept = min(self.ttl, IN_MEMORY_SECONDS) if job.in_memory else self.ttl
            if job.finished is not None and now - job.finished > kept:
                del self._jobs[job_id]
                self.path(job_id).unlink(missing_ok=True)

    def _sweep_old_files(self) -> None:
        """Delete PDFs an earlier run of the app left behind once they are past keeping."""
        if not self.folder.is_dir():
            return
        now = time.time()
        for path in [*self.folder.glob("*.pdf"), *self.folder.glob("*.part")]:
            try:
                if now - path.stat().st_mtime > self.ttl:
                    path.unlink()
            except OSError:
                continue  # another process got there first

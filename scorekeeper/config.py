"""Configuration: defaults here, then ``instance/config.py``, then the environment, then tests."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .serving.network import served_hosts

#: Requests larger than this are refused before they are read (imports are small JSON files).
MAX_CONTENT_LENGTH = 2 * 1024 * 1024


#: Printing (every PDF: sheets, nights, histories; see pdf/printer.py and pdf/jobs.py).
PDF_DEFAULTS: dict[str, Any] = {
    # Paper for every PDF: "letter" or "a4"; None follows the language (A4 in Romanian,
    # US Letter in English). ?paper= overrides it for one PDF.
    "PDF_PAPER": None,
    # Most games one history PDF may print (about a page each; 3-4 pages a second).
    "PDF_HISTORY_MAX_GAMES": 500,
    # Worker processes that lay out a history (a sheet or a night: one of them); None means
    # one per core the server may run on, 0 lays out on the printing thread. Each costs
    # 50-60 MiB while it prints (a history's end with it); on a box with little memory,
    # 1 keeps a history to one, and 0 starts none (no fork server either), but then
    # laying out shares the server's own time with the table.
    "PDF_WORKERS": None,
    # How long the worker kept for sheets and nights waits for the next one before it
    # ends, in seconds (the next starts one again, in about a fifth of a second); None
    # keeps it for as long as the server runs.
    "PDF_WORKER_IDLE_SECONDS": 60,
    # How long a printed history is kept for download, in seconds.
    "PDF_JOB_SECONDS": 3600,
    # How many documents may be printing or waiting at once (more are answered 503).
    "PDF_MAX_JOBS": 4,
    # How many requests may wait for a PDF at once (each holds one of the server's threads),
    # and how long one waits before it is answered 503.
    "PDF_WAITING_REQUESTS": 3,
    "PDF_WAIT_SECONDS": 20.0,
    # The Retry-After of a 503 from a busy printer, in seconds.
    "PDF_RETRY_SECONDS": 5,
    # Requests for a PDF one client (an address) may have at once; one more, or one sent
    # before a Retry-After it was given is over, is answered 429 (pdf/printer.py).
    "PDF_PER_CLIENT": 2,
    # Sheets and nights kept once printed (while unchanged), for whoever asks next.
    "PDF_KEPT": 64,
}


class SettingError(ValueError):
    """A setting or a folder the app cannot run with; the message says which, and why."""


def make_instance_folder(path: str) -> None:
    """Make the data folder if it is not there, or say why it cannot be used."""
    from .i18n import gettext

    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        problem = error.strerror or str(error)
    else:
        if os.access(folder, os.W_OK | os.X_OK):
            return
        problem = gettext("this user may not write in it")
    raise SettingError(
        gettext(
            "the data folder %(folder)s cannot be used: %(problem)s. Set SCOREKEEPER_INSTANCE "
            "to a folder this user may write in.",
            folder=folder,
            problem=problem,
        )
    )


def check(settings: Mapping[str, Any]) -> None:
    """Refuse a printing setting the app cannot run with, naming it and what it takes."""
    from .i18n import gettext

    idle = settings.get("PDF_WORKER_IDLE_SECONDS")
    if idle is not None and (type(idle) not in (int, float) or not 0 <= idle < 10**9):
        raise SettingError(
            gettext(
                "PDF_WORKER_IDLE_SECONDS is %(value)s: give the seconds the worker kept for "
                "sheets waits for the next one, or None to keep it.",
                value=repr(idle)[:40],
            )
        )
    workers = settings.get("PDF_WORKERS")
    if workers is not None and (type(workers) is not int or workers < 0):
        raise SettingError(
            gettext(
                "PDF_WORKERS is %(value)s: give a whole number of worker processes (0 lays "
                "out in the server process), or None for one a core.",
                value=repr(workers)[:40],
            )
        )


def defaults(instance_path: str) -> dict[str, Any]:
    """Return the default configuration for an app whose instance folder is ``instance_path``."""
    return {
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + str(Path(instance_path) / "scorekeeper.sqlite3"),
        "SQLALCHEMY_ENGINE_OPTIONS": {},
        "MAX_CONTENT_LENGTH": MAX_CONTENT_LENGTH,
        "WTF_CSRF_TIME_LIMIT": None,  # a game night is longer than an hour
        "SESSION_COOKIE_NAME": "scorekeeper_session",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # Over plain http on a home network a Secure cookie would never be sent back;
        # behind https set SCOREKEEPER_SECURE_COOKIES=1.
        "SESSION_COOKIE_SECURE": os.environ.get("SCOREKEEPER_SECURE_COOKIES") == "1",
        "PERMANENT_SESSION_LIFETIME": 12 * 3600,
        "BOARD_POLL_SECONDS": 1.5,
        # How often an event's room board and director's screen ask whether a table changed.
        "EVENT_POLL_SECONDS": 0.5,
        # The director's screen asks less often: it draws every table in full.
        "DIRECTOR_POLL_SECONDS": 2.0,
        # How many lines of the standings the room's board shows (a TV across the hall).
        "BOARD_STANDINGS": 20,
        # Live boards and game pages (scorekeeper/live/broker.py): the most event streams one
        # process holds open (under `serve` one loop holds them all, under gunicorn's gevent
        # workers a greenlet each; one more is answered 503 and that page polls instead), the
        # most of them holding a server thread each (a threaded server: gunicorn's gthread),
        # and how often an open stream says it is alive, in seconds (a page that hears
        # nothing for twice that says "connection lost").
        "LIVE_STREAMS": 2000,
        "LIVE_STREAMS_ON_THREADS": 40,
        "LIVE_HEARTBEAT_SECONDS": 2.0,
        **PDF_DEFAULTS,
        # The Host names the app answers to (anything else is a 400, against DNS
        # rebinding): loopback, this machine's names and LAN addresses, and the names in
        # SCOREKEEPER_HOSTS. None answers to every name (only behind a proxy that checks).
        "SERVED_HOSTS": served_hosts(),
        # The address the server listens on (``serve`` sets it): on "0.0.0.0" a board's QR
        # code opened on this machine names its LAN address (docs/DECISIONS.md).
        "LISTEN_HOST": None,
    }


def engine_options(url: str, given: dict[str, Any]) -> dict[str, Any]:
    """The engine options for ``url``.

    A database server's connections are checked before use (one that restarted is then
    replaced, not an error); a SQLite file's need not be (a check was a query more on
    every request). A server's connections read without a transaction, in autocommit:
    a write opens its own (``database.write_transaction`` says BEGIN), and a page's
    reads save the BEGIN and ROLLBACK round trips (docs/DECISIONS.md, "The house").
    """
    options = dict(given)
    if not url.startswith("sqlite"):
        options.setdefault("pool_pre_ping", True)
        options.setdefault("isolation_level", "AUTOCOMMIT")
    return options


def database_url_from_env() -> str | None:
    """Read DATABASE_URL, naming the psycopg 3 driver for PostgreSQL URLs."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return None
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def secret_key(instance_path: str) -> str:
    """Return the app's secret key, generating it into the instance folder on first run.

    The key is never committed: ``instance/`` is git-ignored. SECRET_KEY in the
    environment wins, for deployments that manage secrets themselves.
    """
    from_env = os.environ.get("SECRET_KEY")
    if from_env:
        return from_env
    path = Path(instance_path) / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    # O_EXCL: two workers starting at once must agree on one key.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key

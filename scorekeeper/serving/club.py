"""The club server, gunicorn: what the app can know of it as it is loaded.

SQLite is served by one process: its live boards hear a hand only from the process that
recorded it (PostgreSQL's LISTEN/NOTIFY is what carries a change between processes), so
gunicorn with several workers on SQLite left some boards deaf. The app refuses to be
loaded so (``refuse_several_workers_on_sqlite``), and gunicorn stops with the reason. A
worker also raises its open-files limit, as ``serve`` does: each open page is a connection.
"""

from __future__ import annotations

import sys
from typing import Any

from ..config import SettingError


def gunicorn_workers() -> int | None:
    """How many workers the gunicorn loading this app runs (its ``-w``), or None when no
    gunicorn is loading it. Read from the gunicorn object whose method is loading the app
    (a worker's ``load_wsgi``, or the arbiter's with ``--preload``): gunicorn hands the app
    no configuration of its own."""
    if "gunicorn" not in sys.modules:
        return None
    frame: Any = sys._getframe(1)
    while frame is not None:
        owner = frame.f_locals.get("self")
        settings: Any = getattr(owner, "cfg", None)
        if type(owner).__module__.startswith("gunicorn.") and hasattr(settings, "workers"):
            return int(settings.workers)
        frame = frame.f_back
    return None


def loaded_by_gunicorn(database_url: str) -> None:
    """What the app does as gunicorn loads it: refuse several workers on SQLite, and let
    the worker open as many files as it is allowed (each open page is a connection)."""
    workers = gunicorn_workers()
    if workers is None:
        return
    refuse_several_workers_on_sqlite(database_url, workers)
    from .server import raise_file_limit

    raise_file_limit()


def refuse_several_workers_on_sqlite(database_url: str, workers: int) -> None:
    """Raise SettingError if several gunicorn workers would serve this SQLite database."""
    from ..i18n import gettext

    if workers <= 1 or not database_url.startswith("sqlite"):
        return
    raise SettingError(
        gettext(
            "%(workers)s gunicorn workers cannot serve one SQLite database: a live board "
            "would hear only the hands saved through its own worker. Run one worker (-w 1), "
            "or use PostgreSQL (DATABASE_URL) for several.",
            workers=workers,
        )
    )

"""The app's SQLite file copied whole while it runs (``scorekeeper backup``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..data.extensions import db


def sqlite_file() -> str | None:
    """The path of the app's SQLite database file; None for PostgreSQL or a memory one."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return url.database


def copy_sqlite(source_path: str, target: Path) -> int:
    """Copy a live SQLite database with SQLite's online backup API (consistent even while
    the app writes) to ``target``, whole or not at all; return the pages copied."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    copied = 0

    def progress(_status: int, remaining: int, total: int) -> None:
        nonlocal copied
        copied = total - remaining

    source = sqlite3.connect(source_path, timeout=30)
    try:
        dest = sqlite3.connect(partial)
        try:
            source.backup(dest, pages=256, progress=progress)
            dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            dest.close()
    finally:
        source.close()
    partial.replace(target)  # a finished backup appears whole, or not at all
    return copied

"""Backups and moving games between databases.

``backup_sqlite`` copies a live SQLite database with SQLite's online backup API
(consistent even while the app writes). ``export_collection`` and
``import_collection`` move every game as game records (GAME-RECORD.md) with
their dates, between any two databases (SQLite to PostgreSQL included).

They run from the command line, so what they say to a person (a refused backup, the
place of a bad game in an import) is in the command line's language.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from . import i18n, models, operations, rules
from .database import write_transaction
from .extensions import db
from .i18n import N_, gettext
from .rules.errors import RuleError
from .rules.record import nested_too_deeply, read_json

COLLECTION_FORMAT = "pitch-scorekeeper/collection-1"
_GAME_KEYS = ("record", "created_at", "updated_at", "finished_at")


def backup_sqlite(target: Path) -> int:
    """Copy the app's SQLite database to ``target``; return the number of pages copied."""
    engine = db.engine
    if engine.dialect.name != "sqlite":
        raise ValueError(
            gettext("backup copies a SQLite database; for PostgreSQL use pg_dump, or export-all")
        )
    source_path = engine.url.database
    if not source_path or source_path == ":memory:":
        raise ValueError(gettext("the database is not a file"))
    if target.resolve() == Path(source_path).resolve():
        raise ValueError(gettext("the backup file cannot be the database itself"))
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


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_collection() -> dict[str, Any]:
    """Return every game, oldest first, as game records with their dates."""
    games = []
    ids = db.session.execute(select(models.Game.id).order_by(models.Game.id)).scalars().all()
    for game_id in ids:
        loaded = operations.load(game_id)
        games.append(
            {
                "record": operations.export_record(loaded),
                "created_at": _iso(loaded.row.created_at),
                "updated_at": _iso(loaded.row.updated_at),
                "finished_at": _iso(loaded.row.finished_at),
            }
        )
        db.session.expunge_all()
    return {"format": COLLECTION_FORMAT, "games": games}


def _parse_time(value: Any, place: str) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RuleError(
            "wrong-type",
            field=place,
            expected=N_("a date and time (ISO 8601)"),
            actual=rules.errors.quote(value),
        ) from None


def _place(error: RuleError) -> str:
    """Where in its game record ``error`` is (``hand 3``, ``players``), in the current language."""
    return i18n.error_message(error).removesuffix(i18n.error_detail(error)).removesuffix(": ")


def import_collection(text: str | bytes) -> int:
    """Add every game of an export; check all of it first, so a bad file adds nothing."""
    data = read_json(text, "collection")
    if not isinstance(data, dict) or data.get("format") != COLLECTION_FORMAT:
        with nested_too_deeply("collection"):  # quoting a deeply nested value recurses
            actual = rules.errors.quote(data.get("format") if isinstance(data, dict) else data)
        raise RuleError("bad-format", field="collection", expected=COLLECTION_FORMAT, actual=actual)
    games = data.get("games")
    if not isinstance(games, list):
        raise RuleError(
            "wrong-type", field="collection.games", expected="a list", actual=type(games).__name__
        )
    parsed = []
    for index, entry in enumerate(games, start=1):
        place = gettext("game %(number)s", number=index)
        if not isinstance(entry, dict):
            raise RuleError(
                "wrong-type", field=place, expected="an object", actual=type(entry).__name__
            )
        for key in entry:
            if key not in _GAME_KEYS:
                raise RuleError("unknown-key", field=place, key=key)
        try:
            with nested_too_deeply("record"):
                record = rules.parse_record(entry.get("record"))
        except RuleError as error:
            raise RuleError(error.code, field=f"{place}: {_place(error)}", **error.params) from None
        times = {key: _parse_time(entry.get(key), f"{place}.{key}") for key in _GAME_KEYS[1:]}
        parsed.append((record, times))
    with write_transaction():
        for record, times in parsed:
            row = operations.store_record(record)
            for key, value in times.items():
                if value is not None:
                    setattr(row, key, value)
    return len(parsed)

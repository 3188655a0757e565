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
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path
from time import monotonic, sleep
from typing import Any

from sqlalchemy import delete, select, update

from . import i18n, models, operations, rules
from .database import write_transaction
from .extensions import db
from .i18n import N_, gettext
from .models import NIGHT_NAME_MAX
from .rules.errors import RuleError
from .rules.record import duplicated_key, nested_too_deeply, read_json, refuse_duplicate_keys

#: Version 2 adds the game nights (``nights``); a version 1 file (games only) still imports.
COLLECTION_FORMAT = "pitch-scorekeeper/collection-2"
COLLECTION_FORMATS = ("pitch-scorekeeper/collection-1", COLLECTION_FORMAT)
_GAME_KEYS = ("record", "created_at", "updated_at", "finished_at")
_NIGHT_KEYS = ("name", "place", "date", "created_at", "ended_at", "games")


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


def _iso(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_collection() -> dict[str, Any]:
    """Return every game, oldest first, as game records with their dates, and every game
    night with the games played at it (by their place in ``games``, from 1)."""
    games = []
    position: dict[int, int] = {}
    ids = db.session.execute(select(models.Game.id).order_by(models.Game.id)).scalars().all()
    for number, game_id in enumerate(ids, start=1):
        loaded = operations.load(game_id)
        position[game_id] = number
        games.append(
            {
                "record": operations.export_record(loaded),
                "created_at": _iso(loaded.row.created_at),
                "updated_at": _iso(loaded.row.updated_at),
                "finished_at": _iso(loaded.row.finished_at),
            }
        )
        db.session.expunge_all()
    played_at: dict[int, list[int]] = {}
    for game_id, night_id in db.session.execute(
        select(models.Game.id, models.Game.night_id)
        .where(models.Game.night_id.is_not(None))
        .order_by(models.Game.id)
    ):
        # A game added since the list above was read waits a turn.
        if game_id in position and night_id is not None:
            played_at.setdefault(night_id, []).append(position[game_id])
    nights = [
        {
            "name": night.name,
            "place": night.place,
            "date": _iso(night.date),
            "created_at": _iso(night.created_at),
            "ended_at": _iso(night.ended_at),
            "games": played_at.get(night.id, []),
        }
        for night in db.session.execute(select(models.Night).order_by(models.Night.id)).scalars()
    ]
    return {"format": COLLECTION_FORMAT, "games": games, "nights": nights}


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


def _refuse_duplicate_key(obj: Any, place: str) -> None:
    if (key := duplicated_key(obj)) is not None:
        raise RuleError("duplicate-key", field=place, key=key)


@dataclass(frozen=True)
class _NightEntry:
    """A game night of an export, checked: its columns, and its games by place in the file."""

    name: str
    place: str | None
    date: date
    created_at: datetime | None
    ended_at: datetime | None
    games: tuple[int, ...]


def _night_name(value: Any, place: str, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if (
        not isinstance(value, str)
        or not value.strip()
        or value != value.strip()
        or len(value) > NIGHT_NAME_MAX
        or not value.isprintable()
    ):
        raise RuleError(
            "wrong-type",
            field=place,
            expected=N_("a name of 1 to 80 printable characters"),
            actual=rules.errors.quote(value),
        )
    return value


def _check_entry(entry: Any, place: str, keys: tuple[str, ...]) -> None:
    """Refuse an entry that is not an object, or names a key twice or a key not in ``keys``."""
    if not isinstance(entry, dict):
        raise RuleError(
            "wrong-type", field=place, expected="an object", actual=type(entry).__name__
        )
    _refuse_duplicate_key(entry, place)
    for key in entry:
        if key not in keys:
            raise RuleError("unknown-key", field=place, key=key)


def _parse_night(entry: Any, place: str, game_count: int, taken: dict[int, str]) -> _NightEntry:
    _check_entry(entry, place, _NIGHT_KEYS)
    for key in ("name", "date"):
        if key not in entry:
            raise RuleError("missing-key", field=place, key=key)
    name = _night_name(entry["name"], f"{place}.name", required=True)
    where = _night_name(entry.get("place"), f"{place}.place", required=False)
    try:
        day = date.fromisoformat(entry["date"])
    except (TypeError, ValueError):
        raise RuleError(
            "wrong-type",
            field=f"{place}.date",
            expected=N_("a date (ISO 8601)"),
            actual=rules.errors.quote(entry["date"]),
        ) from None
    games = entry.get("games", [])
    numbers: list[Any] = games if isinstance(games, list) else [None]
    for number in numbers:
        if type(number) is not int or not 1 <= number <= game_count or number in taken:
            raise RuleError(
                "wrong-type",
                field=f"{place}.games",
                expected=N_("a list of games of this file, each by its number, in one night only"),
                actual=rules.errors.quote(number),
            )
        taken[number] = place
    assert name is not None
    return _NightEntry(
        name=name,
        place=where,
        date=day,
        created_at=_parse_time(entry.get("created_at"), f"{place}.created_at"),
        ended_at=_parse_time(entry.get("ended_at"), f"{place}.ended_at"),
        games=tuple(numbers),
    )


def import_collection(text: str | bytes) -> int:
    """Add every game and game night of an export; check all of it first, so a bad file adds
    nothing. Written a few games at a time (``IMPORT_BATCH_SECONDS``), so that a table saving
    hands into the same database meanwhile waits a moment, never the whole import."""
    data = read_json(text, "collection")
    if not isinstance(data, dict) or data.get("format") not in COLLECTION_FORMATS:
        with nested_too_deeply("collection"):  # quoting a deeply nested value recurses
            actual = rules.errors.quote(data.get("format") if isinstance(data, dict) else data)
        raise RuleError("bad-format", field="collection", expected=COLLECTION_FORMAT, actual=actual)
    _refuse_duplicate_key(data, "collection")
    games = data.get("games")
    if not isinstance(games, list):
        raise RuleError(
            "wrong-type", field="collection.games", expected="a list", actual=type(games).__name__
        )
    parsed = []
    for index, entry in enumerate(games, start=1):
        place = gettext("game %(number)s", number=index)
        _check_entry(entry, place, _GAME_KEYS)
        try:
            with nested_too_deeply("record"):
                refuse_duplicate_keys(entry.get("record"))
                record = rules.parse_record(entry.get("record"))
        except RuleError as error:
            raise RuleError(error.code, field=f"{place}: {_place(error)}", **error.params) from None
        times = {key: _parse_time(entry.get(key), f"{place}.{key}") for key in _GAME_KEYS[1:]}
        parsed.append((record, times))
    nights_data = data.get("nights", [])  # an export from before nights were carried has none
    if not isinstance(nights_data, list):
        raise RuleError(
            "wrong-type",
            field="collection.nights",
            expected="a list",
            actual=type(nights_data).__name__,
        )
    taken: dict[int, str] = {}
    nights = [
        _parse_night(entry, gettext("night %(number)s", number=index), len(parsed), taken)
        for index, entry in enumerate(nights_data, start=1)
    ]
    _write_collection(parsed, nights)
    return len(parsed)


#: How long one write transaction of an import may hold the database, at most about. On
#: SQLite the whole file is locked meanwhile: a hand saved then waits this long, not for
#: the whole import (1,503 games took 25 s in one transaction: saves failed as "locked").
IMPORT_BATCH_SECONDS = 0.2
#: The pause between two of an import's transactions on SQLite: longer than the longest
#: sleep of SQLite's busy handler (100 ms), so a waiting save always finds the lock free.
IMPORT_PAUSE_SECONDS = 0.12


def _write_collection(
    parsed: list[tuple[rules.GameRecord, dict[str, datetime | None]]], nights: list[_NightEntry]
) -> None:
    """Write checked games and nights in short transactions; if one fails, take back what
    the earlier ones added, so the import adds all or nothing."""
    added_games: list[int] = []
    added_nights: list[int] = []
    names = {name for record, _times in parsed for name in record.game.players}
    new_players = names - set(
        db.session.execute(select(models.Player.name).where(models.Player.name.in_(names)))
        .scalars()
        .all()
    )
    pause = IMPORT_PAUSE_SECONDS if db.engine.dialect.name == "sqlite" else 0.0
    try:
        # Only what was committed is taken back: an id of a rolled-back row may be given to
        # a game the table starts meanwhile.
        night_of: dict[int, int] = {}
        with write_transaction():
            rows = []
            for night in nights:
                row = models.Night(
                    name=night.name,
                    place=night.place,
                    date=night.date,
                    created_at=night.created_at or datetime.combine(night.date, time()),
                    ended_at=night.ended_at,
                )
                db.session.add(row)
                db.session.flush()
                rows.append(row.id)
                night_of.update(dict.fromkeys(night.games, row.id))
        added_nights += rows
        games = iter(enumerate(parsed, start=1))
        upcoming = next(games, None)
        while upcoming is not None:
            sleep(pause)
            started = monotonic()
            batch = []
            with write_transaction():
                while upcoming is not None:  # at least one game a transaction
                    number, (record, times) = upcoming
                    game = operations.store_record(
                        record, night_id=night_of.get(number), times=times
                    )
                    batch.append(game.id)
                    upcoming = next(games, None)
                    if monotonic() - started >= IMPORT_BATCH_SECONDS:
                        break
            added_games += batch
    except BaseException:
        _take_back(added_games, added_nights, new_players)
        raise


def _take_back(game_ids: list[int], night_ids: list[int], new_players: set[str]) -> None:
    """Delete what a failed import added: its games, its nights, and the players it made
    (those still in no game: someone at a table may have seated one meanwhile)."""
    from .stats import cache as stats_cache

    for start in range(0, len(game_ids), 50):
        with write_transaction():
            for game_id in game_ids[start : start + 50]:
                stats_cache.forget_game(game_id)
                game = db.session.get(models.Game, game_id)
                if game is not None:
                    db.session.delete(game)
    with write_transaction():
        for night_id in night_ids:
            db.session.execute(
                update(models.Game).where(models.Game.night_id == night_id).values(night_id=None)
            )
            db.session.execute(delete(models.Night).where(models.Night.id == night_id))
        unseated = (
            select(models.Player.id)
            .where(models.Player.name.in_(new_players))
            .where(
                ~select(models.Seat.id).where(models.Seat.player_id == models.Player.id).exists()
            )
        )
        ids = db.session.execute(unseated).scalars().all()
        if ids:
            db.session.execute(
                delete(models.PlayerStats).where(models.PlayerStats.player_id.in_(ids))
            )
            db.session.execute(delete(models.Player).where(models.Player.id.in_(ids)))

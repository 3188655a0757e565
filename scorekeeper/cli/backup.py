"""Backups and moving games between databases.

``backup_sqlite`` copies a live SQLite database with SQLite's online backup API
(consistent even while the app writes). ``export_collection`` and
``import_collection`` move every game as game records (GAME-RECORD.md) with
their dates, between any two databases (SQLite to PostgreSQL included).

They run from the command line, so what they say to a person (a refused backup, the
place of a bad game in an import) is in the command line's language.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

from .. import i18n, operations, rules
from ..data.database import dialect
from ..i18n import N_, gettext
from ..operations import collection
from ..operations.collection import NightEntry
from ..operations.nights import NIGHT_NAME_MAX
from ..rules.errors import RuleError
from ..rules.record import duplicated_key, nested_too_deeply, read_json, refuse_duplicate_keys

#: Version 2 adds the game nights (``nights``); a version 1 file (games only) still imports.
COLLECTION_FORMAT = "pitch-scorekeeper/collection-2"
COLLECTION_FORMATS = ("pitch-scorekeeper/collection-1", COLLECTION_FORMAT)
_GAME_KEYS = ("record", "created_at", "updated_at", "finished_at")
_NIGHT_KEYS = ("name", "place", "date", "created_at", "ended_at", "games")


def backup_sqlite(target: Path) -> int:
    """Copy the app's SQLite database to ``target``; return the number of pages copied."""
    if dialect() != "sqlite":
        raise ValueError(
            gettext("backup copies a SQLite database; for PostgreSQL use pg_dump, or export-all")
        )
    source_path = collection.sqlite_file()
    if source_path is None:
        raise ValueError(gettext("the database is not a file"))
    if target.resolve() == Path(source_path).resolve():
        raise ValueError(gettext("the backup file cannot be the database itself"))
    return collection.copy_sqlite(source_path, target)


def _iso(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_collection() -> dict[str, Any]:
    """Return every game, oldest first, as game records with their dates, and every game
    night with the games played at it (by their place in ``games``, from 1)."""
    games = []
    position: dict[int, int] = {}
    for number, loaded in enumerate(collection.every_game(), start=1):
        position[loaded.row.id] = number
        games.append(
            {
                "record": operations.loading.export_record(loaded),
                "created_at": _iso(loaded.row.created_at),
                "updated_at": _iso(loaded.row.updated_at),
                "finished_at": _iso(loaded.row.finished_at),
            }
        )
    nights = [
        {
            "name": night.name,
            "place": night.place,
            "date": _iso(night.date),
            "created_at": _iso(night.created_at),
            "ended_at": _iso(night.ended_at),
            # A game added since the games above were read waits a turn.
            "games": [position[g] for g in night.game_ids if g in position],
        }
        for night in collection.every_night()
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


def _parse_night(entry: Any, place: str, game_count: int, taken: dict[int, str]) -> NightEntry:
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
    return NightEntry(
        name=name,
        place=where,
        date=day,
        created_at=_parse_time(entry.get("created_at"), f"{place}.created_at"),
        ended_at=_parse_time(entry.get("ended_at"), f"{place}.ended_at"),
        games=tuple(numbers),
    )


def import_collection(text: str | bytes) -> int:
    """Add every game and game night of an export; check all of it first, so a bad file adds
    nothing. Written a few games at a time (``operations.collection.write_collection``), so
    that a table saving hands into the same database meanwhile waits a moment."""
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
    collection.write_collection(parsed, nights)
    return len(parsed)

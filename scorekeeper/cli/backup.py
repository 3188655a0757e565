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
from datetime import date, datetime
from pathlib import Path
from typing import Any

from .. import i18n, operations, rules
from ..data.database import dialect
from ..i18n import N_, gettext, ngettext
from ..operations import collection, sqlite_copy
from ..operations.collection import GameEntry, NightEntry, RuleSetEntry, Written
from ..operations.nights import NIGHT_NAME_MAX
from ..rules.errors import RuleError
from ..rules.record import duplicated_key, nested_too_deeply, read_json, refuse_duplicate_keys

#: Version 2 adds the game nights (``nights``); version 3 the saved rule sets (``rule_sets``)
#: and the game each game's "Play again" led to (a game's ``next_game``). Files of versions 1
#: and 2 still import.
COLLECTION_FORMAT = "pitch-scorekeeper/collection-3"
COLLECTION_FORMATS = (
    "pitch-scorekeeper/collection-1",
    "pitch-scorekeeper/collection-2",
    COLLECTION_FORMAT,
)
_GAME_KEYS = ("record", "created_at", "updated_at", "finished_at", "next_game")
_TIME_KEYS = ("created_at", "updated_at", "finished_at")
_NIGHT_KEYS = ("name", "place", "date", "created_at", "ended_at", "games")
_RULE_SET_KEYS = ("name", "variant", "house_rules", "created_at", "updated_at")


def backup_sqlite(target: Path) -> int:
    """Copy the app's SQLite database to ``target``; return the number of pages copied."""
    if dialect() != "sqlite":
        raise ValueError(
            gettext("backup copies a SQLite database; for PostgreSQL use pg_dump, or export-all")
        )
    source_path = sqlite_copy.sqlite_file()
    if source_path is None:
        raise ValueError(gettext("the database is not a file"))
    if target.resolve() == Path(source_path).resolve():
        raise ValueError(gettext("the backup file cannot be the database itself"))
    try:
        return sqlite_copy.copy_sqlite(source_path, target)
    except (OSError, sqlite3.Error) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ValueError(
            gettext("%(file)s: cannot be written (%(reason)s)", file=target, reason=reason)
        ) from None


def _iso(value: datetime | date | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_collection() -> dict[str, Any]:
    """Return every game, oldest first, as game records with their dates (and the game its
    "Play again" led to, by its place in ``games``, from 1), every game night with the games
    played at it (by place), and every saved rule set."""
    games: list[dict[str, Any]] = []
    position: dict[int, int] = {}
    next_game: dict[int, int] = {}
    for number, loaded in enumerate(collection.every_game(), start=1):
        position[loaded.row.id] = number
        if loaded.row.next_game_id is not None:
            next_game[number] = loaded.row.next_game_id
        games.append(
            {
                "record": operations.loading.export_record(loaded),
                "created_at": _iso(loaded.row.created_at),
                "updated_at": _iso(loaded.row.updated_at),
                "finished_at": _iso(loaded.row.finished_at),
            }
        )
    for number, game_id in next_game.items():
        if game_id in position:  # a game added since the games above were read waits a turn
            games[number - 1]["next_game"] = position[game_id]
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
    rule_sets = [
        {
            "name": saved.name,
            "variant": saved.variant,
            "house_rules": dict(saved.house_rules),
            "created_at": _iso(saved.created_at),
            "updated_at": _iso(saved.updated_at),
        }
        for saved in collection.every_rule_set()
    ]
    return {"format": COLLECTION_FORMAT, "games": games, "nights": nights, "rule_sets": rule_sets}


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


def _next_game(value: Any, place: str, game_count: int) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 1 <= value <= game_count:
        raise RuleError(
            "wrong-type",
            field=f"{place}.next_game",
            expected=N_("the number of a game of this file"),
            actual=rules.errors.quote(value),
        )
    return value


def _parse_rule_set(entry: Any, place: str) -> RuleSetEntry:
    _check_entry(entry, place, _RULE_SET_KEYS)
    for key in ("name", "variant"):
        if key not in entry:
            raise RuleError("missing-key", field=place, key=key)
    name = entry["name"]
    if not isinstance(name, str):
        raise RuleError(
            "wrong-type", field=f"{place}.name", expected=N_("a string"), actual=type(name).__name__
        )
    rules.game.check_name(name, f"{place}.name")
    variant = entry["variant"]
    if not isinstance(variant, str) or variant not in rules.VARIANTS:
        raise RuleError(
            "unknown-variant",
            field=f"{place}.variant",
            actual=rules.errors.quote(variant),
            allowed=", ".join(rules.VARIANTS),
        )
    house_rules = entry.get("house_rules", {})
    if not isinstance(house_rules, dict):
        raise RuleError(
            "wrong-type",
            field=f"{place}.house_rules",
            expected=N_("an object of switches"),
            actual=type(house_rules).__name__,
        )
    try:
        rules.find_variant(variant).house_rules(dict(house_rules))
    except RuleError as error:
        raise RuleError(error.code, field=f"{place}.{error.field}", **error.params) from None
    return RuleSetEntry(
        name=name,
        variant=variant,
        house_rules=dict(house_rules),
        created_at=_parse_time(entry.get("created_at"), f"{place}.created_at"),
        updated_at=_parse_time(entry.get("updated_at"), f"{place}.updated_at"),
    )


def _list_of(data: dict[str, Any], key: str) -> list[Any]:
    """The list under ``key`` (empty where an older file has none)."""
    found = data.get(key, [])
    if not isinstance(found, list):
        raise RuleError(
            "wrong-type", field=f"collection.{key}", expected="a list", actual=type(found).__name__
        )
    return found


def import_collection(text: str | bytes) -> Written:
    """Add every game, game night and saved rule set of an export that is not here already;
    check all of it first, so a bad file adds nothing. Written a few games at a time
    (``operations.collection.write_collection``), so that a table saving hands into the same
    database meanwhile waits a moment."""
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
        times = {key: _parse_time(entry.get(key), f"{place}.{key}") for key in _TIME_KEYS}
        after = _next_game(entry.get("next_game"), place, len(games))
        parsed.append(GameEntry(record, times, after))
    taken: dict[int, str] = {}
    nights = [
        _parse_night(entry, gettext("night %(number)s", number=index), len(parsed), taken)
        for index, entry in enumerate(_list_of(data, "nights"), start=1)
    ]
    saved = [
        _parse_rule_set(entry, gettext("rule set %(number)s", number=index))
        for index, entry in enumerate(_list_of(data, "rule_sets"), start=1)
    ]
    names: set[str] = set()
    for index, entry in enumerate(saved, start=1):
        if rules.game.name_key(entry.name) in names:
            raise RuleError(
                "wrong-type",
                field=gettext("rule set %(number)s", number=index) + ".name",
                expected=N_("a name no other rule set of this file has"),
                actual=rules.errors.quote(entry.name),
            )
        names.add(rules.game.name_key(entry.name))
    return collection.write_collection(parsed, nights, saved)


def say_written(written: Written) -> list[str]:
    """What an import-all says it did: what it added, and what it left out as here already."""
    lines = [ngettext("Imported %(num)s game.", "Imported %(num)s games.", written.games)]
    if written.nights:
        lines.append(
            ngettext(
                "Imported %(num)s game night.", "Imported %(num)s game nights.", written.nights
            )
        )
    if written.rule_sets:
        lines.append(
            ngettext(
                "Imported %(num)s set of saved house rules.",
                "Imported %(num)s sets of saved house rules.",
                written.rule_sets,
            )
        )
    if written.games_here or written.nights_here or written.rule_sets_here:
        lines.append(
            gettext(
                "Already in this database, so left out: %(games)s, %(nights)s, %(rule_sets)s.",
                games=ngettext("%(num)s game", "%(num)s games", written.games_here),
                nights=ngettext("%(num)s game night", "%(num)s game nights", written.nights_here),
                rule_sets=ngettext(
                    "%(num)s set of saved house rules",
                    "%(num)s sets of saved house rules",
                    written.rule_sets_here,
                ),
            )
        )
    lines += [
        gettext(
            "The saved house rules “%(name)s” kept this database's rules: a set of that name "
            "is saved here with other rules.",
            name=name,
        )
        for name in written.rule_sets_named_otherwise
    ]
    return lines

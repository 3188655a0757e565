"""The whole collection at once: every game and night read for an export, an export's
games and nights written (all or nothing), a SQLite file copied, generated games seeded.

``backup`` checks a file and says what is wrong with it; ``seed`` makes up games; this
module is where either meets the database.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from time import monotonic, sleep
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update

from .. import rules
from ..data import models
from ..data.database import write_transaction
from ..data.extensions import db
from ..rules.game import name_key
from ..stats import cache as stats_cache
from .games import store_record
from .loading import load
from .rows import Loaded, hand_columns

#: How long one write transaction of an import may hold the database, at most about. On
#: SQLite the whole file is locked meanwhile: a hand saved then waits this long, not for
#: the whole import (1,503 games took 25 s in one transaction: saves failed as "locked").
IMPORT_BATCH_SECONDS = 0.2
#: The pause between two of an import's transactions on SQLite: longer than the longest
#: sleep of SQLite's busy handler (100 ms), so a waiting save always finds the lock free.
IMPORT_PAUSE_SECONDS = 0.12


@dataclass(frozen=True)
class NightEntry:
    """A game night to write: its columns, and its games by place in the import (from 1)."""

    name: str
    place: str | None
    date: date
    created_at: datetime | None
    ended_at: datetime | None
    games: tuple[int, ...]


@dataclass(frozen=True)
class StoredNight:
    """A game night as an export carries it, with its games by id."""

    name: str
    place: str | None
    date: date
    created_at: datetime
    ended_at: datetime | None
    game_ids: tuple[int, ...]


def every_game() -> Iterator[Loaded]:
    """Every game, oldest first, replayed one at a time (memory stays flat however many)."""
    ids = db.session.execute(select(models.Game.id).order_by(models.Game.id)).scalars().all()
    for game_id in ids:
        yield load(game_id)
        db.session.expunge_all()


def every_night() -> list[StoredNight]:
    """Every game night, oldest first, with the ids of its games in the order played."""
    played: dict[int, list[int]] = {}
    for game_id, night_id in db.session.execute(
        select(models.Game.id, models.Game.night_id)
        .where(models.Game.night_id.is_not(None))
        .order_by(models.Game.id)
    ):
        if night_id is not None:
            played.setdefault(night_id, []).append(game_id)
    return [
        StoredNight(
            name=night.name,
            place=night.place,
            date=night.date,
            created_at=night.created_at,
            ended_at=night.ended_at,
            game_ids=tuple(played.get(night.id, ())),
        )
        for night in db.session.execute(select(models.Night).order_by(models.Night.id)).scalars()
    ]


def write_collection(
    parsed: Sequence[tuple[rules.GameRecord, dict[str, datetime | None]]],
    nights: Sequence[NightEntry],
) -> None:
    """Write checked games and nights in short transactions (``IMPORT_BATCH_SECONDS``);
    if one fails, take back what the earlier ones added, so the import adds all or
    nothing, while a table saving hands into the same database meanwhile waits a moment,
    never the whole import."""
    added_games: list[int] = []
    added_nights: list[int] = []
    keys = {name_key(name) for record, _times in parsed for name in record.game.players}
    new_players = keys - set(
        db.session.execute(
            select(models.Player.name_key).where(models.Player.name_key.in_(keys))
        ).scalars()
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
                    game = store_record(record, night_id=night_of.get(number), times=times)
                    batch.append(game.id)
                    upcoming = next(games, None)
                    if monotonic() - started >= IMPORT_BATCH_SECONDS:
                        break
            added_games += batch
    except BaseException:
        _take_back(added_games, added_nights, new_players)
        raise


def _take_back(game_ids: list[int], night_ids: list[int], new_players: set[str]) -> None:
    """Delete what a failed import added: its games, its nights, and the players it made (by
    their names' keys; those still in no game: someone at a table may have seated one
    meanwhile)."""
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
            .where(models.Player.name_key.in_(new_players))
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


@dataclass(frozen=True)
class SeededGame:
    """A game made up by the seed, with when it was played and its result."""

    night: int
    started_at: datetime
    game: rules.Game
    hands: list[rules.Hand]
    result: rules.GameResult


@dataclass(frozen=True)
class SeededNight:
    """A night made up by the seed (its games name it by ``number``)."""

    number: int
    name: str
    place: str | None
    day: date


def write_seeded(items: Iterable[SeededNight | SeededGame], *, chunk: int = 500) -> dict[str, int]:
    """Write generated games (``seed.generate``) with their nights and statistics in one
    transaction, many rows a statement: seeding 10,000 games one ``store_record`` at a
    time would take minutes."""
    from ..stats.summary import summarise

    counts = {"nights": 0, "games": 0, "hands": 0}
    with write_transaction():
        session = db.session
        # By the names' keys: a made-up "Ana" is the roster's "ana", if there is one.
        player_ids = dict(session.execute(select(models.Player.name_key, models.Player.id)).all())
        next_game = (session.execute(select(func.max(models.Game.id))).scalar() or 0) + 1
        next_night = (session.execute(select(func.max(models.Night.id))).scalar() or 0) + 1
        night_ids: dict[int, int] = {}
        rows: dict[str, list[dict[str, Any]]] = {"game": [], "seat": [], "hand": [], "pg": []}

        def flush() -> None:
            for table, key in (
                (models.Game, "game"),
                (models.Seat, "seat"),
                (models.Hand, "hand"),
                (models.PlayerGame, "pg"),
            ):
                if rows[key]:
                    session.execute(insert(table.__table__), rows[key])
                    rows[key] = []

        for item in items:
            if isinstance(item, SeededNight):
                night_ids[item.number] = next_night
                end = datetime(item.day.year, item.day.month, item.day.day, 23, 30)
                session.execute(
                    insert(models.Night.__table__),
                    [
                        {
                            "id": next_night,
                            "name": item.name,
                            "place": item.place,
                            "date": item.day,
                            "created_at": end - timedelta(hours=5),
                            "ended_at": end,
                        }
                    ],
                )
                next_night += 1
                counts["nights"] += 1
                continue
            game, result = item.game, item.result
            new = [name for name in game.players if name_key(name) not in player_ids]
            if new:
                for name in new:
                    player_ids[name_key(name)] = session.execute(
                        insert(models.Player.__table__)
                        .values(name=name, name_key=name_key(name), created_at=item.started_at)
                        .returning(models.Player.__table__.c.id)
                    ).scalar_one()
            seat_of = {name: i for i, name in enumerate(game.players)}
            game_id = next_game
            next_game += 1
            done = item.started_at + timedelta(minutes=2 * len(item.hands) + 1)
            rows["game"].append(
                {
                    "id": game_id,
                    "variant": game.variant.key,
                    "house_rules": dict(game.house_rules_given),
                    "teams": [[t, [seat_of[p] for p in m]] for t, m in game.teams]
                    if game.teams
                    else None,
                    "first_dealer_seat": seat_of[game.first_dealer] if game.first_dealer else None,
                    "stake": game.stake,
                    "called": game.called,
                    "version": len(item.hands) + 1,
                    "finished": result.finished,
                    "winner": result.winner,
                    "created_at": item.started_at,
                    "updated_at": done,
                    "finished_at": done if result.finished else None,
                    "night_id": night_ids[item.night],
                }
            )
            rows["seat"] += [
                {"game_id": game_id, "position": i, "player_id": player_ids[name_key(name)]}
                for i, name in enumerate(game.players)
            ]
            rows["hand"] += [
                {
                    "game_id": game_id,
                    "number": n,
                    "created_at": item.started_at + timedelta(minutes=2 * n),
                    **hand_columns(hand, seat_of),
                }
                for n, hand in enumerate(item.hands, start=1)
            ]
            rows["pg"] += [
                {
                    "game_id": game_id,
                    "player_id": player_ids[name_key(name)],
                    "played_at": item.started_at,
                    "variant": game.variant.key,
                    **stats_cache.line_columns(line),
                }
                for name, line in summarise(result).items()
            ]
            counts["games"] += 1
            counts["hands"] += len(item.hands)
            if counts["games"] % chunk == 0:
                flush()
        flush()
        stats_cache.rebuild_all_players()
        if db.engine.dialect.name == "postgresql":
            # The ids were given explicitly: move the sequences past them.
            for table in ("game", "night"):
                session.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"
                    )
                )
    return counts

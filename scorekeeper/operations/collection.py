"""The whole collection at once: every game, night and saved rule set read for an export,
an export's written (all or nothing, leaving out what is here already), a SQLite file
copied, generated games seeded.

``backup`` checks a file and says what is wrong with it; ``seed`` makes up games; this
module is where either meets the database.

Long because: the export's reads and the import's writes must agree column by column, and
the take-back must undo exactly what the write added: one file keeps the three in step.
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
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..rules.game import name_key
from ..stats import cache as stats_cache
from .games import store_record
from .kept import kept_like, same_record
from .loading import load
from .rows import Loaded, hand_columns
from .rule_sets import RuleSetRow, rule_sets
from .statements import UPDATE_GAME

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
class GameEntry:
    """A game to write: its record, its times, and the game "Play again" led to from it (by
    place in the import, from 1)."""

    record: rules.GameRecord
    times: dict[str, datetime | None]
    next_game: int | None = None


@dataclass(frozen=True)
class RuleSetEntry:
    """A saved rule set to write."""

    name: str
    variant: str
    house_rules: dict[str, Any]
    created_at: datetime | None
    updated_at: datetime | None


@dataclass(frozen=True)
class Written:
    """What an import wrote, and what it left out as already here."""

    games: int
    games_here: int
    nights: int
    nights_here: int
    rule_sets: int
    rule_sets_here: int
    #: Saved sets left out because a set of that name is here with other rules (kept).
    rule_sets_named_otherwise: tuple[str, ...] = ()


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


def every_rule_set() -> list[RuleSetRow]:
    """Every saved rule set, in the order they were saved (their ids)."""
    return sorted(rule_sets(), key=lambda r: r.id)


def _night_key(name: str, place: str | None, day: date, created: datetime | None) -> Any:
    return (name, place, day, created or datetime.combine(day, time()))


def write_collection(
    parsed: Sequence[GameEntry],
    nights: Sequence[NightEntry],
    saved_rules: Sequence[RuleSetEntry] = (),
) -> Written:
    """Write checked games, nights and rule sets, leaving out what is here already, in short
    transactions (``IMPORT_BATCH_SECONDS``); if one fails, take back what the earlier ones
    added, so the import adds all or nothing, while a table saving hands into the same
    database meanwhile waits a moment, never the whole import.

    Here already: a game identical to a stored one (``kept.kept_like``; as many as are
    stored: two identical games in the file and one here adds one), a night of the same
    name, place, date and start, a rule set of the same name (its rules here win). So an
    import run twice adds nothing the second time. The games "Play again" led to are linked
    again where the game before has no next game yet."""
    kept = kept_like([entry.record for entry in parsed])
    here: dict[str, list[int]] = {}
    for entry, ids in zip(parsed, kept, strict=True):
        here.setdefault(same_record(entry.record), list(ids))
    game_id_of: dict[int, int] = {}  # place in the file → game id here
    to_write: list[tuple[int, GameEntry]] = []
    for number, entry in enumerate(parsed, start=1):
        pool = here[same_record(entry.record)]
        if pool:
            game_id_of[number] = pool.pop(0)
        else:
            to_write.append((number, entry))
    nights_here: dict[Any, list[int]] = {}
    for row in db.session.execute(select(models.Night).order_by(models.Night.id)).scalars():
        key = _night_key(row.name, row.place, row.date, row.created_at)
        nights_here.setdefault(key, []).append(row.id)
    night_of: dict[int, int] = {}  # place of a game in the file → its night's id here
    new_nights: list[NightEntry] = []
    for night in nights:
        same = nights_here.get(_night_key(night.name, night.place, night.date, night.created_at))
        if same:
            night_of.update(dict.fromkeys(night.games, same.pop(0)))
        else:
            new_nights.append(night)
    sets_here = {name_key(r.name): r for r in rule_sets()}
    new_sets = [r for r in saved_rules if name_key(r.name) not in sets_here]
    named_otherwise = tuple(
        r.name
        for r in saved_rules
        if (found := sets_here.get(name_key(r.name))) is not None
        and (found.variant, found.house_rules) != (r.variant, r.house_rules)
    )
    added_games: list[int] = []
    added_nights: list[int] = []
    added_sets: list[int] = []
    keys = {name_key(name) for _, entry in to_write for name in entry.record.game.players}
    new_players = keys - set(
        db.session.execute(
            select(models.Player.name_key).where(models.Player.name_key.in_(keys))
        ).scalars()
    )
    pause = IMPORT_PAUSE_SECONDS if db.engine.dialect.name == "sqlite" else 0.0
    try:
        # Only what was committed is taken back: an id of a rolled-back row may be given to
        # a game the table starts meanwhile.
        with write_transaction():
            rows = []
            for night in new_nights:
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
            sets = []
            for saved in new_sets:
                rule_set = models.RuleSet(
                    name=saved.name,
                    variant=saved.variant,
                    house_rules=dict(saved.house_rules),
                    created_at=saved.created_at or models.utcnow(),
                    updated_at=saved.updated_at or saved.created_at or models.utcnow(),
                )
                db.session.add(rule_set)
                db.session.flush()
                sets.append(rule_set.id)
        added_nights += rows
        added_sets += sets
        games = iter(to_write)
        upcoming = next(games, None)
        while upcoming is not None:
            sleep(pause)
            started = monotonic()
            batch = []
            with write_transaction():
                while upcoming is not None:  # at least one game a transaction
                    number, entry = upcoming
                    game = store_record(
                        entry.record, night_id=night_of.get(number), times=entry.times
                    )
                    batch.append(game.id)
                    game_id_of[number] = game.id
                    upcoming = next(games, None)
                    if monotonic() - started >= IMPORT_BATCH_SECONDS:
                        break
            added_games += batch
        _link_next_games(parsed, game_id_of)
    except BaseException:
        _take_back(added_games, added_nights, new_players, added_sets)
        raise
    return Written(
        games=len(to_write),
        games_here=len(parsed) - len(to_write),
        nights=len(new_nights),
        nights_here=len(nights) - len(new_nights),
        rule_sets=len(new_sets),
        rule_sets_here=len(saved_rules) - len(new_sets),
        rule_sets_named_otherwise=named_otherwise,
    )


def _link_next_games(parsed: Sequence[GameEntry], game_id_of: dict[int, int]) -> None:
    """Link each game to the game "Play again" led to from it, as the file says, where the
    game here has no next game yet (a link here is never replaced). The game's version stays:
    nothing on its sheet changed (as ``play_again`` sets it)."""
    links = [
        (game_id_of[number], game_id_of[entry.next_game])
        for number, entry in enumerate(parsed, start=1)
        if entry.next_game is not None and number in game_id_of and entry.next_game in game_id_of
    ]
    if not links:
        return
    game = models.Game.__table__
    with write_transaction():
        unlinked = set(
            db.session.execute(
                select(game.c.id).where(
                    game.c.id.in_([before for before, _ in links]), game.c.next_game_id.is_(None)
                )
            ).scalars()
        )
        for before, after in links:
            if before in unlinked:
                run(UPDATE_GAME, {"game_id": before, "next_game_id": after})


def _take_back(
    game_ids: list[int], night_ids: list[int], new_players: set[str], rule_set_ids: list[int]
) -> None:
    """Delete what a failed import added: its games, its nights, its rule sets, and the
    players it made (by their names' keys; those still in no game: someone at a table may
    have seated one meanwhile). The trail of a game taken back goes with it: the one place
    an entry is ever deleted, for a game that was never there as far as anyone saw."""
    for start in range(0, len(game_ids), 50):
        with write_transaction():
            for game_id in game_ids[start : start + 50]:
                stats_cache.forget_game(game_id)
                game = db.session.get(models.Game, game_id)
                if game is not None:
                    db.session.execute(
                        delete(models.Change)
                        .where(models.Change.game_id == game_id)
                        .where(models.Change.game_created_at == game.created_at)
                    )
                    db.session.delete(game)
    with write_transaction():
        if rule_set_ids:
            db.session.execute(delete(models.RuleSet).where(models.RuleSet.id.in_(rule_set_ids)))
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
                    "score_version": len(item.hands) + 1,
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

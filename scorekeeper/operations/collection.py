"""The whole collection at once: every game, night and saved rule set read for an export,
and an export's written (all or nothing, leaving out what is here already).

``cli.backup`` checks a file and says what is wrong with it; this module is where it meets
the database. The export's reads and the import's writes agree column by column, and the
take-back undoes exactly what the write added: one file keeps the three in step. The
seed's bulk write is ``seeded``; the SQLite file's copy is ``sqlite_copy``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from time import monotonic, sleep
from typing import Any

from sqlalchemy import delete, select, update

from .. import rules
from ..data import models
from ..data.database import run, write_transaction
from ..data.extensions import db
from ..rules.game import name_key
from ..stats import cache as stats_cache
from .games import store_record
from .kept import kept_like, same_record
from .loading import load
from .rows import Loaded
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

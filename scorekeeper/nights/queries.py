"""Reading game nights: the current night, the list of nights, and one night as plain values.

A night page adds up the statistics cache (``PlayerGame`` rows): it never
replays the night's games.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from sqlalchemy import func, select

from .. import rules
from ..data import models
from ..data.extensions import db
from ..games.queries import GameLine, game_lines
from ..operations.nights import open_night_ids
from ..rules.night import NightSettlement, Share, Transfer, settle_night


@dataclass(frozen=True)
class NightLine:
    """A night in the list of nights."""

    id: int
    name: str
    place: str | None
    date: date
    games: int
    current: bool


def night_count() -> int:
    return db.session.execute(select(func.count()).select_from(models.Night)).scalar_one()


def night_lines(offset: int, limit: int) -> list[NightLine]:
    """List nights newest first, with how many games each has."""
    nights = (
        db.session.execute(
            select(models.Night)
            .order_by(models.Night.date.desc(), models.Night.id.desc())
            .offset(offset)
            .limit(limit)
        )
        .scalars()
        .all()
    )
    ids = [n.id for n in nights]
    counts = (
        dict(
            db.session.execute(
                select(models.Game.night_id, func.count())
                .where(models.Game.night_id.in_(ids))
                .group_by(models.Game.night_id)
            ).all()
        )
        if ids
        else {}
    )
    on = set(open_night_ids())
    return [
        NightLine(n.id, n.name, n.place, n.date, counts.get(n.id, 0), n.id in on) for n in nights
    ]


@dataclass(frozen=True)
class SideResult:
    name: str
    members: tuple[str, ...]
    score: int
    won: bool


@dataclass(frozen=True)
class NightGame:
    """One game of the night and how it ended."""

    id: int
    variant_name: str
    started_at: datetime
    finished: bool
    winner: str | None
    stake: str | None  # as the table set it: "0.333" stays 0.333
    sides: tuple[SideResult, ...]


@dataclass(frozen=True)
class Balance:
    player_id: int | None
    name: str
    units: int
    money: Decimal
    #: Units won or lost in the night's games without a stake.
    unstaked_units: int = 0


@dataclass(frozen=True)
class NightView:
    """A night as plain values for its page and its PDF."""

    id: int
    name: str
    place: str | None
    date: date
    ended: bool
    current: bool
    games: tuple[NightGame, ...]
    unfinished: int
    balances: tuple[Balance, ...]
    in_money: bool
    payments: tuple[Transfer, ...]
    #: In a night that settles in money, the payments in units that clear what the games
    #: without a stake left (their units are worth no money, so the money payments leave
    #: them untouched); empty when every game had a stake, or none had one.
    unit_payments: tuple[Transfer, ...] = ()
    #: Whether every finished game had the same stake (or none had one): only then do the
    #: players' units add up to something, a unit being worth the same in every game.
    same_stake: bool = True
    #: Whether some finished game had no stake (its units count for no money).
    unstaked: bool = False


def night_key(night: NightRow) -> tuple[object, ...]:
    """What a night's printed settlement depends on: the night as it stands and each of its
    games' version (a hand saved, a game changed or a player renamed bumps it)."""
    game = models.Game
    games = db.session.execute(
        select(game.id, game.created_at, game.version).where(game.night_id == night.id)
    ).all()
    return (
        "night",
        night.id,
        str(night.created_at),
        night.name,
        night.place,
        str(night.date),
        str(night.ended_at),
        tuple(sorted((row.id, str(row.created_at), row.version) for row in games)),
    )


@dataclass(frozen=True)
class NightRow:
    """A night's own columns."""

    id: int
    name: str
    place: str | None
    date: date
    created_at: datetime
    ended_at: datetime | None


def night(night_id: int) -> NightRow | None:
    """A night by its id; None if there is no such night."""
    found = db.session.execute(
        select(
            models.Night.id,
            models.Night.name,
            models.Night.place,
            models.Night.date,
            models.Night.created_at,
            models.Night.ended_at,
        ).where(models.Night.id == night_id)
    ).first()
    return None if found is None else NightRow(*found)


def loose_games(limit: int) -> list[GameLine]:
    """The latest games in no night, newest first (to add to one with a tap)."""
    game = models.Game.__table__
    return game_lines(
        game.c.night_id.is_(None), [game.c.created_at.desc(), game.c.id.desc()], limit
    )


def night_view(night: NightRow) -> NightView:
    """Take a night's games, results and settlement from the statistics cache."""
    games = (
        db.session.execute(
            select(models.Game)
            .where(models.Game.night_id == night.id)
            .order_by(models.Game.created_at, models.Game.id)
        )
        .scalars()
        .all()
    )
    rows = (
        db.session.execute(
            select(models.PlayerGame, models.Player.name)
            .join(models.Player, models.Player.id == models.PlayerGame.player_id)
            .where(models.PlayerGame.game_id.in_([g.id for g in games]))
            .order_by(models.PlayerGame.game_id, models.PlayerGame.position)
        ).all()
        if games
        else []
    )
    by_game: dict[int, list[tuple[models.PlayerGame, str]]] = defaultdict(list)
    ids: dict[str, int] = {}
    for pg, name in rows:
        by_game[pg.game_id].append((pg, name))
        ids[name] = pg.player_id
    lines = tuple(_night_game(g, by_game[g.id]) for g in games)
    shares = [
        {
            name: Share(pg.units, Decimal(pg.money) if pg.money is not None else None)
            for pg, name in by_game[g.id]
        }
        for g in games
        if g.finished
    ]
    settlement = settle_night(shares)
    finished = [g for g in games if g.finished]
    stakes = {_stake_value(g.stake) for g in finished}
    unstaked: dict[str, int] = defaultdict(int)
    unstaked_shares = []
    for g in finished:
        if _stake_value(g.stake) is None:
            unstaked_shares.append({name: Share(pg.units, None) for pg, name in by_game[g.id]})
            for pg, name in by_game[g.id]:
                unstaked[name] += pg.units
    # Settled apart, in units: the same netting, over the games that had no stake.
    unit_settlement = settle_night(unstaked_shares) if settlement.in_money else None
    return NightView(
        id=night.id,
        name=night.name,
        place=night.place,
        date=night.date,
        ended=night.ended_at is not None,
        current=night.id in open_night_ids(),
        games=lines,
        unfinished=sum(not g.finished for g in games),
        balances=_balances(settlement, ids, unstaked),
        in_money=settlement.in_money,
        payments=settlement.payments,
        unit_payments=unit_settlement.payments if unit_settlement is not None else (),
        same_stake=len(stakes) <= 1,
        unstaked=None in stakes,
    )


def _stake_value(stake: str | None) -> Decimal | None:
    """A game's stake as a number (0.5 and 0.50 are one stake); no stake, or 0: None."""
    value = Decimal(stake) if stake else None
    return value.normalize() if value else None


def _balances(
    settlement: NightSettlement, ids: dict[str, int], unstaked: dict[str, int]
) -> tuple[Balance, ...]:
    rows = [
        Balance(ids.get(name), name, units, settlement.money[name], unstaked.get(name, 0))
        for name, units in settlement.units.items()
    ]
    key = (lambda b: (-b.money, b.name)) if settlement.in_money else (lambda b: (-b.units, b.name))
    return tuple(sorted(rows, key=key))


def _night_game(game: models.Game, rows: list[tuple[models.PlayerGame, str]]) -> NightGame:
    sides: dict[str, list[str]] = {}
    scores: dict[str, int] = {}
    won: dict[str, bool] = {}
    for pg, name in rows:
        side = pg.team if pg.team is not None else name
        sides.setdefault(side, []).append(name)
        scores[side] = pg.score
        won[side] = pg.won
    stake = game.stake if game.stake and Decimal(game.stake) > 0 else None
    return NightGame(
        id=game.id,
        variant_name=_variant_name(game.variant),
        started_at=game.created_at,
        finished=game.finished,
        winner=game.winner,
        stake=stake,
        sides=tuple(
            SideResult(side, tuple(members), scores[side], won[side])
            for side, members in sides.items()
        ),
    )


def _variant_name(key: str) -> str:
    try:
        return rules.find_variant(key).name
    except ValueError:  # a variant this version no longer knows: its key, as stored
        return key

"""Reading the statistics cache for the roster and player pages (never replaying games).

The roster and a player's totals read ``PlayerStats`` (one row a player); the
breakdown by variant and the game list add up or list the player's own
``PlayerGame`` rows, found by index.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import Float, cast, func, or_, select

from .. import rules
from ..data import models
from ..data.extensions import db
from ..i18n import N_, day
from ..rules.game import name_key
from .cache import COUNTS, exact_money, totals_columns
from .summary import Counts

PG = models.PlayerGame

#: The roster's sort orders: a key in ``?sort=`` and what it says on the page (translated there).
ROSTER_SORTS = {
    "name": N_("name"),
    "games": N_("games played"),
    "rate": N_("win rate"),
    "units": N_("net units"),
    "money": N_("net money"),
}


def roster_names() -> list[str]:
    """Every name on the roster, in order (the setup form and the history's filter offer them)."""
    return list(
        db.session.execute(select(models.Player.name).order_by(models.Player.name)).scalars()
    )


@dataclass(frozen=True)
class Totals(Counts):
    """A player's statistics added up over some games."""

    entered: int
    games: int
    won: int

    @property
    def in_progress(self) -> int:
        return self.entered - self.games

    @property
    def win_rate(self) -> float | None:
        return self.won / self.games if self.games else None

    @property
    def made_rate(self) -> float | None:
        return self.bids_made / self.bids if self.bids else None

    @property
    def average_bid(self) -> float | None:
        return self.bid_total / self.bids if self.bids else None


def _totals(row: Any, money: Decimal | None) -> Totals:
    return Totals(**{name: getattr(row, name) or 0 for name in COUNTS}, money=money)


def _stored_totals(stats: models.PlayerStats | None) -> Totals:
    if stats is None:
        return Totals(**dict.fromkeys(COUNTS, 0), money=None)
    return _totals(stats, Decimal(stats.money) if stats.money is not None else None)


# --- The roster ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RosterLine:
    id: int
    name: str
    totals: Totals


def player_count() -> int:
    return db.session.execute(select(func.count()).select_from(models.Player)).scalar_one()


def roster(sort: str, offset: int, limit: int) -> list[RosterLine]:
    """List players with their totals (from ``PlayerStats``), sorted by a key of ROSTER_SORTS."""
    stats = models.PlayerStats
    games = func.coalesce(stats.games, 0)
    orders: dict[str, list[Any]] = {
        "name": [],
        "games": [games.desc()],
        "rate": [
            func.coalesce(cast(stats.won, Float) / func.nullif(stats.games, 0), -1.0).desc(),
            games.desc(),
        ],
        "units": [func.coalesce(stats.units, 0).desc()],
        "money": [func.coalesce(stats.cents, 0).desc()],
    }
    order = orders[sort]
    rows = db.session.execute(
        select(models.Player.id, models.Player.name, stats)
        .outerjoin(stats, stats.player_id == models.Player.id)
        .order_by(*order, models.Player.name, models.Player.id)
        .offset(offset)
        .limit(limit)
    ).all()
    return [RosterLine(pid, name, _stored_totals(row)) for pid, name, row in rows]


# --- One player ------------------------------------------------------------------------------


@dataclass(frozen=True)
class VariantLine:
    variant_name: str
    partnership: bool
    totals: Totals


@dataclass(frozen=True)
class PlayerGameLine:
    """One of a player's games, as the player's page lists it."""

    game_id: int
    played_at: datetime
    variant_name: str
    team: str | None
    others: tuple[str, ...]
    finished: bool
    won: bool
    score: int
    units: int
    money: Decimal | None


@dataclass(frozen=True)
class Results:
    """A player's finished games, oldest first: what each won or lost; the first and last dates."""

    labels: tuple[str, ...]
    changes: tuple[int | Decimal, ...]
    in_money: bool


def player_totals(player_id: int) -> Totals:
    """Return a player's totals, as the statistics cache has them added up."""
    return _stored_totals(db.session.get(models.PlayerStats, player_id))


def _variant_name(key: str) -> str:
    try:
        return rules.find_variant(key).name
    except ValueError:  # a variant this version no longer knows: its key, as stored
        return key


def player_variants(player_id: int) -> list[VariantLine]:
    """Break a player's totals down by variant, individual play and partnerships apart."""
    partnership = PG.team.is_not(None)
    rows = db.session.execute(
        select(
            PG.player_id.label("player_id"),
            PG.variant,
            partnership.label("partnership"),
            *totals_columns(),
        )
        .where(PG.player_id == player_id)
        .group_by(PG.player_id, PG.variant, partnership)
        .order_by(func.count(PG.id).desc(), PG.variant)
    ).all()
    return [
        VariantLine(
            _variant_name(row.variant),
            bool(row.partnership),
            _totals(
                row,
                exact_money(
                    row,
                    (PG.variant == row.variant)
                    & (PG.team.is_not(None) if row.partnership else PG.team.is_(None)),
                ),
            ),
        )
        for row in rows
    ]


def player_games(player_id: int, offset: int, limit: int) -> list[PlayerGameLine]:
    """List a player's games newest first, with who else sat at each."""
    rows = (
        db.session.execute(
            select(PG)
            .where(PG.player_id == player_id)
            .order_by(PG.played_at.desc(), PG.game_id.desc())
            .offset(offset)
            .limit(limit)
        )
        .scalars()
        .all()
    )
    others: dict[int, list[str]] = {pg.game_id: [] for pg in rows}
    if rows:
        for game_id, name in db.session.execute(
            select(models.Seat.game_id, models.Player.name)
            .join(models.Player, models.Player.id == models.Seat.player_id)
            .where(models.Seat.game_id.in_(list(others)), models.Seat.player_id != player_id)
            .order_by(models.Seat.game_id, models.Seat.position)
        ):
            others[game_id].append(name)
    return [
        PlayerGameLine(
            game_id=pg.game_id,
            played_at=pg.played_at,
            variant_name=_variant_name(pg.variant),
            team=pg.team,
            others=tuple(others[pg.game_id]),
            finished=pg.finished,
            won=pg.won,
            score=pg.score,
            units=pg.units,
            money=Decimal(pg.money) if pg.money is not None else None,
        )
        for pg in rows
    ]


def player_results(player_id: int) -> Results:
    """Return what each of the player's finished games won or lost, oldest first.

    Only the first and last dates are read as dates (the chart labels its ends):
    turning a thousand stored dates into datetimes is most of the cost otherwise.
    """
    mine = (PG.player_id == player_id) & PG.finished.is_(True)
    rows = db.session.execute(
        select(PG.units, PG.money).where(mine).order_by(PG.played_at, PG.game_id)
    ).all()
    first, last = db.session.execute(
        select(func.min(PG.played_at), func.max(PG.played_at)).where(mine)
    ).one()
    in_money = any(money is not None for _, money in rows)
    changes: tuple[int | Decimal, ...] = tuple(
        (Decimal(money) if money is not None else Decimal(0)) if in_money else units
        for units, money in rows
    )
    labels = (_day(first), _day(last)) if rows else ()
    return Results(labels, changes, in_money)


def _day(moment: datetime | date) -> str:
    return day(moment)


@dataclass(frozen=True)
class PlayerRow:
    """A player on the roster: id, name and since when."""

    id: int
    name: str
    created_at: datetime


def player(player_id: int) -> PlayerRow | None:
    """A player by id; None if there is none (any more: merged into another, say)."""
    found = db.session.execute(
        select(models.Player.id, models.Player.name, models.Player.created_at).where(
            models.Player.id == player_id
        )
    ).first()
    return None if found is None else PlayerRow(*found)


def look_alikes(player_id: int) -> list[tuple[int, str]]:
    """The other players whose names are another spelling of this player's ("ana" for "Ana"):
    only players from before names were compared so (the name keys' migration left them
    without a key) can be such, so the merge page offers to merge them."""
    found = db.session.execute(
        select(models.Player.name).where(models.Player.id == player_id)
    ).scalar_one_or_none()
    if found is None:
        return []
    key = name_key(found)
    return [
        (other_id, name)
        for other_id, name in db.session.execute(
            select(models.Player.id, models.Player.name)
            .where(models.Player.id != player_id)
            .where(or_(models.Player.name_key.is_(None), models.Player.name_key == key))
            .order_by(models.Player.created_at, models.Player.id)
        )
        if name_key(name) == key
    ]


def unmerged_look_alikes() -> list[tuple[int, str]]:
    """Players left without a name key by the name keys' migration (each another spelling
    of an older player's name), oldest first: the roster names them until they are merged."""
    return [
        (found_id, name)
        for found_id, name in db.session.execute(
            select(models.Player.id, models.Player.name)
            .where(models.Player.name_key.is_(None))
            .order_by(models.Player.created_at, models.Player.id)
        )
    ]


def other_players(player_id: int) -> list[tuple[int, str]]:
    """Every other player's id and name, by name (to merge one into this one)."""
    return [
        (found_id, name)
        for found_id, name in db.session.execute(
            select(models.Player.id, models.Player.name)
            .where(models.Player.id != player_id)
            .order_by(models.Player.name)
        )
    ]

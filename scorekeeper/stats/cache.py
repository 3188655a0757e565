"""Write each game's per-player summary as ``PlayerGame`` rows (the statistics cache).

Every write in ``operations`` calls ``refresh_game`` with the game's fresh
result, inside the same transaction, so the cache can never disagree with the
hands for longer than a rolled-back transaction. Deleting a game deletes its
rows (``forget_game``, and the foreign key's cascade). Each time, the players'
totals (``PlayerStats``, what the roster shows) are added up again from their rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal, localcontext
from typing import Any

from sqlalchemy import case, delete, func, insert, select

from .. import models, rules
from ..extensions import db
from ..rules.night import EXACT
from .summary import PlayerLine, summarise

#: Larger cached amounts keep only their exact text: their cents could overflow a SQL sum.
CENTS_LIMIT = 10**12


def cents(money: Decimal | None) -> int | None:
    """Return an amount in whole cents; None when there is none or it is too large for a SQL sum."""
    if money is None:
        return None
    with localcontext(EXACT):
        value = int(money.scaleb(2))
    return value if abs(value) < CENTS_LIMIT else None


def line_columns(line: PlayerLine) -> dict[str, Any]:
    """Turn a player's game summary into ``PlayerGame`` column values (all but the keys)."""
    return {
        "position": line.position,
        "team": line.team,
        "finished": line.finished,
        "won": line.won,
        "score": line.score,
        "hands": line.hands,
        "bids": line.bids,
        "bids_made": line.bids_made,
        "bid_total": line.bid_total,
        "set_backs": line.set_backs,
        "smudges_attempted": line.smudges_attempted,
        "smudges_made": line.smudges_made,
        "holes": line.holes,
        "units": line.units,
        "money": None if line.money is None else format(line.money, "f"),
        "cents": cents(line.money),
    }


def refresh_game(row: models.Game, result: rules.GameResult) -> None:
    """Rewrite a game's cached per-player rows from its fresh result (in the open transaction)."""
    lines = summarise(result)
    if row.created_at is None:  # a new game: set now what the insert would, to copy it below
        row.created_at = models.utcnow()
    existing: dict[int, models.PlayerGame] = {}
    if row.id is not None:
        existing = {
            pg.player_id: pg
            for pg in db.session.execute(
                select(models.PlayerGame).where(models.PlayerGame.game_id == row.id)
            ).scalars()
        }
    seated = set()
    for seat in row.seats:
        line = lines[seat.player.name]
        cached = existing.get(seat.player_id) if seat.player_id is not None else None
        if cached is None:
            cached = models.PlayerGame(game=row, player=seat.player)
            db.session.add(cached)
        cached.played_at = row.created_at
        cached.variant = row.variant
        for column, value in line_columns(line).items():
            setattr(cached, column, value)
        seated.add(seat.player_id)
    for player_id, cached in existing.items():
        if player_id not in seated:
            db.session.delete(cached)
    db.session.flush()  # new players get their ids
    refresh_players([*(seat.player.id for seat in row.seats), *existing])


def forget_game(game_id: int) -> None:
    """Delete a game's cached rows (the foreign key cascades too; this does not rely on it)."""
    players = (
        db.session.execute(
            select(models.PlayerGame.player_id).where(models.PlayerGame.game_id == game_id)
        )
        .scalars()
        .all()
    )
    db.session.execute(delete(models.PlayerGame).where(models.PlayerGame.game_id == game_id))
    refresh_players(players)


# --- Per-player totals -----------------------------------------------------------------------

PG = models.PlayerGame


def totals_columns() -> list[Any]:
    """The sums that make a player's totals out of their ``PlayerGame`` rows (SQL)."""
    return [
        func.count(PG.id).label("entered"),
        func.sum(case((PG.finished, 1), else_=0)).label("games"),
        func.sum(case((PG.won, 1), else_=0)).label("won"),
        *(func.sum(getattr(PG, name)).label(name) for name in SUMMED),
        func.sum(PG.cents).label("cents"),
        func.count(PG.money).label("money_rows"),
        func.count(PG.cents).label("cents_rows"),
    ]


SUMMED = (
    "bids",
    "bids_made",
    "bid_total",
    "set_backs",
    "smudges_attempted",
    "smudges_made",
    "holes",
    "units",
)


def exact_money(row: Any, extra: Any = None) -> Decimal | None:
    """Total a row of ``totals_columns`` in money, exactly (None when no game had a stake).

    SQL adds whole cents; if some amount was too large for that, the exact texts
    of the player's rows (narrowed by ``extra``) are added here instead.
    """
    if not row.money_rows:
        return None
    with localcontext(EXACT):
        if row.cents_rows == row.money_rows:
            return (Decimal(row.cents or 0) / 100).quantize(Decimal("0.01"))
        query = select(PG.money).where(PG.player_id == row.player_id, PG.money.is_not(None))
        if extra is not None:
            query = query.where(extra)
        amounts = db.session.execute(query).scalars()
        return sum((Decimal(m) for m in amounts if m is not None), Decimal(0))


def refresh_players(player_ids: Iterable[int | None]) -> None:
    """Work out these players' totals again from their ``PlayerGame`` rows (open transaction).

    The players' rows are locked first, in id order: on PostgreSQL two games
    saved at once that share a player then add up one after the other, and the
    second sees the first's rows.
    """
    ids = sorted({i for i in player_ids if i is not None})
    if not ids:
        return
    db.session.flush()
    db.session.execute(
        select(models.Player.id)
        .where(models.Player.id.in_(ids))
        .order_by(models.Player.id)
        .with_for_update()
    ).all()
    _write_totals(ids)


def rebuild_all_players() -> None:
    """Work out every player's totals again (after a bulk load: the seed, a migration)."""
    _write_totals(list(db.session.execute(select(models.Player.id)).scalars()))


def _write_totals(ids: list[int]) -> None:
    stats = models.PlayerStats.__table__
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        rows = db.session.execute(
            select(PG.player_id.label("player_id"), *totals_columns())
            .where(PG.player_id.in_(chunk))
            .group_by(PG.player_id)
        ).all()
        db.session.execute(delete(stats).where(stats.c.player_id.in_(chunk)))
        empty = {"entered": 0, "games": 0, "won": 0, **dict.fromkeys(SUMMED, 0), "money": None}
        values = {pid: {"player_id": pid, **empty, "cents": None} for pid in chunk}
        for row in rows:
            money = exact_money(row)
            values[row.player_id].update(
                entered=row.entered,
                games=row.games or 0,
                won=row.won or 0,
                **{name: getattr(row, name) or 0 for name in SUMMED},
                money=None if money is None else format(money, "f"),
                cents=cents(money),
            )
        db.session.execute(insert(stats), list(values.values()))
